/**
 * |Ω| = N! / (m_1! · … · m_K!) exactly, as a BigInt (docs/science.md §1, "Counting").
 * Computed as a product of binomials C(remaining, m_k) so intermediate numbers stay small.
 */
import type { TaskSizes } from './types';

/** Binomial coefficient C(n, k) as a BigInt. */
export function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  const kk = Math.min(k, n - k);
  let r = 1n;
  for (let i = 1; i <= kk; i++) r = (r * BigInt(n - kk + i)) / BigInt(i);
  return r;
}

/** Multinomial coefficient (Σ counts)! / Π counts! — the number of orderings for these task sizes. */
export function countOrderings(sizes: TaskSizes): bigint {
  let remaining = sizes.reduce((a, b) => a + b, 0);
  let total = 1n;
  for (const m of sizes) {
    total *= binomial(remaining, m);
    remaining -= m;
  }
  return total;
}

/** Human form of |Ω|: exact below 1e9, else scientific notation with 4 significant digits (docs/design.md). */
export function formatOmega(omega: bigint): string {
  const s = omega.toString();
  if (s.length <= 9) return s.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return `${s[0]}.${s.slice(1, 4)}e${s.length - 1}`;
}
