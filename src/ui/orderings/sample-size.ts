/**
 * The |Ω| / sample-size calculator beside the S histogram (EDGE paper Theorems 1–2; docs/science.md §1 "Sample-size
 * bounds"): parse and check ε, δ and R as typed, run core/protocols/bounds.ts (the same functions as
 * `cil-lab bounds`), and word the answers. Pure (tests/unit/ui/orderings-sample-size.test.ts).
 */
import { formatOmega } from '../../core/orderings/count';
import { theorem1SampleSize, theorem2SampleSize, type SampleSizeBound } from '../../core/protocols/bounds';

export interface Parsed {
  value: number | null;
  error: string;
}

function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.').replace('−', '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

/** ε: the tolerance on mean accuracy, a fraction in (0, 1]. */
export function parseEpsilon(text: string): Parsed {
  const v = parseNumber(text);
  if (v === null) return { value: null, error: `ε must be a number such as 0.1; “${text.trim()}” is not one.` };
  if (!(v > 0 && v <= 1)) return { value: null, error: `ε must be above 0 and at most 1 (accuracy as a fraction: 0.1 = 10 points); got ${v}.` };
  return { value: v, error: '' };
}

/** δ: the failure probability, in (0, 1). */
export function parseDelta(text: string): Parsed {
  const v = parseNumber(text);
  if (v === null) return { value: null, error: `δ must be a number such as 0.05; “${text.trim()}” is not one.` };
  if (!(v > 0 && v < 1)) return { value: null, error: `δ must be between 0 and 1, both excluded (0.05 = 95 % confidence); got ${v}.` };
  return { value: v, error: '' };
}

/** R = A(ω+) − A(ω−): the accuracy range between the two extreme orderings, a fraction in (0, 1]. */
export function parseRange(text: string): Parsed {
  const v = parseNumber(text);
  if (v === null) return { value: null, error: `R must be a number such as 0.1; “${text.trim()}” is not one.` };
  if (!(v > 0 && v <= 1)) return { value: null, error: `R = A(ω+) − A(ω−) is a difference of accuracies (fractions): above 0 and at most 1; got ${v}.` };
  return { value: v, error: '' };
}

export interface BoundText {
  /** the exact L as a string, or null when no L ≤ |Ω| meets the bound (then every ordering is needed) */
  L: string | null;
  /** L for display: thin-space thousands, scientific notation beyond 10^9 */
  LText: string;
  /** L/|Ω| as a percentage with one decimal (scientific below 0.1 %), or "all" */
  share: string;
  /** why there is no number (|Ω| too small for the theorem), else '' */
  unavailable: string;
  bound: SampleSizeBound | null;
}

/**
 * L/|Ω| as a percentage: one decimal from 0.1 %; two significant digits down to 0.0001 % ("0.079 %"); below that
 * "1.2e-85 %" (from log10, so |Ω| = 10^900 works).
 */
export function formatShare(b: SampleSizeBound): string {
  if (b.L === null) return 'all';
  const lf = b.log10Fraction + 2; // log10 of the percentage
  if (lf >= -1) {
    const pct = 10 ** lf;
    return `${pct >= 99.95 && pct < 100 ? '99.9' : pct.toFixed(1)} %`;
  }
  if (lf >= -4) return `${Number((10 ** lf).toPrecision(2))} %`;
  let e = Math.floor(lf);
  let m = 10 ** (lf - e);
  if (m >= 9.95) {
    m = 1;
    e += 1;
  }
  return `${m.toFixed(1)}e${e} %`;
}

function textOf(b: SampleSizeBound | null, unavailable: string): BoundText {
  if (!b) return { L: null, LText: '–', share: '–', unavailable, bound: null };
  return { L: b.L === null ? null : b.L.toString(), LText: b.L === null ? 'all' : formatOmega(b.L), share: formatShare(b), unavailable: '', bound: b };
}

/** Both theorems for |Ω| (an exact decimal string) and valid ε, δ, R. */
export function sampleSizes(omega: string, epsilon: number, delta: number, range: number): { theorem1: BoundText; theorem2: BoundText } {
  const w = BigInt(omega);
  const t1 = w >= 2n ? textOf(theorem1SampleSize(w, epsilon, delta), '') : textOf(null, 'Ω has a single ordering: there is nothing to sample.');
  const t2 =
    w >= 4n
      ? textOf(theorem2SampleSize(w, epsilon, delta, range), '')
      : textOf(null, `Theorem 2 needs at least 4 orderings (two extremes and two more); Ω has ${omega}.`);
  return { theorem1: t1, theorem2: t2 };
}

/** The same question on the command line. */
export function boundsCommand(omega: string, epsilon: number, delta: number, range: number): string {
  return `npx cil-lab bounds --omega ${omega} --epsilon ${epsilon} --delta ${delta}${range !== 1 ? ` --range ${range}` : ''}`;
}
