/**
 * Uniform sampling of orderings without enumerating Ω (docs/science.md §1, §2: "a large uniform sample").
 *
 * Each draw is a uniform rank in [0, |Ω|) (rejection sampling on 64-bit words from numpy's PCG64 `default_rng(seed)`,
 * so any |Ω| — 1e92 or 1e900 — works), unranked into its ordering. Draws are without replacement (duplicate ranks are
 * redrawn). When L is more than half of |Ω| (small Ω only), a partial Fisher–Yates over all ranks is used instead,
 * so the cost stays bounded. Same seed → same sample.
 */
import { countOrderings, formatOmega } from './count';
import { unrankOrdering } from './enumerate';
import { OrderingError } from './task-sizes';
import type { Ordering, TaskSizes } from './types';
import { createDefaultRng, type DefaultRng } from '../random/default-rng';

/** A uniform BigInt in [0, bound) from 64-bit raw draws, by rejection (bound > 0). */
export function uniformBigBelow(rng: DefaultRng, bound: bigint): bigint {
  if (bound <= 0n) throw new RangeError('The bound must be positive.');
  const bits = bound.toString(2).length;
  const words = Math.ceil(bits / 64);
  const excess = BigInt(words * 64 - bits);
  for (;;) {
    let x = 0n;
    for (let w = 0; w < words; w++) x = (x << 64n) | rng.randomRaw();
    x >>= excess; // keep exactly `bits` bits: acceptance probability > 1/2
    if (x < bound) return x;
  }
}

export interface SampledOrdering {
  rank: bigint;
  tasks: Ordering;
}

/** L distinct orderings drawn uniformly from Ω, in draw order. */
export function sampleOrderings(sizes: TaskSizes, count: number, seed: number): SampledOrdering[] {
  const omega = countOrderings(sizes);
  if (!Number.isInteger(count) || count < 1) throw new OrderingError(`The sample size must be a positive whole number; got ${count}.`);
  if (BigInt(count) > omega) {
    throw new OrderingError(`Cannot draw ${count} distinct orderings: there are only ${formatOmega(omega)}.`);
  }
  const rng = createDefaultRng(seed);
  const ranks: bigint[] = [];
  if (BigInt(count) * 2n > omega) {
    // small Ω: partial Fisher–Yates over 0..|Ω|−1
    const n = Number(omega);
    const pool = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Number(uniformBigBelow(rng, BigInt(n - i)));
      [pool[i], pool[j]] = [pool[j], pool[i]];
      ranks.push(BigInt(pool[i]));
    }
  } else {
    const seen = new Set<bigint>();
    while (ranks.length < count) {
      const r = uniformBigBelow(rng, omega);
      if (!seen.has(r)) {
        seen.add(r);
        ranks.push(r);
      }
    }
  }
  return ranks.map((rank) => ({ rank, tasks: unrankOrdering(rank, sizes) }));
}

/**
 * L distinct uniform orderings by seeded shuffles (`default_rng(seed).permutation(N)` split into tasks): a uniform
 * permutation maps to each ordering with equal probability Π m_i!/N!, so this is uniform over Ω too, and much faster
 * than unranking when N is large (no BigInt). Duplicates are redrawn. Use `sampleOrderings` when ranks are needed.
 */
export function sampleOrderingsByShuffle(sizes: TaskSizes, count: number, seed: number): Ordering[] {
  const omega = countOrderings(sizes);
  if (!Number.isInteger(count) || count < 1) throw new OrderingError(`The sample size must be a positive whole number; got ${count}.`);
  if (BigInt(count) * 2n > omega) return sampleOrderings(sizes, count, seed).map((s) => s.tasks);
  const n = sizes.reduce((a, b) => a + b, 0);
  const rng = createDefaultRng(seed);
  const seen = new Set<string>();
  const out: Ordering[] = [];
  while (out.length < count) {
    const perm = rng.permutation(n);
    const tasks: Ordering = [];
    let p = 0;
    for (const m of sizes) {
      tasks.push(perm.slice(p, p + m).sort((a, b) => a - b));
      p += m;
    }
    const key = tasks.map((t) => t.join(',')).join('|');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(tasks);
    }
  }
  return out;
}
