/**
 * Jensen–Shannon divergence, in bits, between a protocol's Gaussian estimate and the ground-truth distribution of
 * A(O), exactly as docs/science.md §2 "Distances between estimate and truth" pins it (64 equal bins over
 * [min − 3σ, max + 3σ] with the truth's population σ, ε = 1e-12 per bin, renormalised; a truth without spread has no
 * grid and gives NaN, JSON null). scripts/make-stats-fixtures.py mirrors every choice. Bins follow numpy's
 * `np.histogram(truth, bins=64, range=(lo, hi))` exactly: edges `np.linspace(lo, hi, 65)`, half-open but the last,
 * the bin found as numpy's fast path does (scaled index, then corrected against the edges). An estimate with σ̂ = 0
 * is a point mass (gaussian.ts): all its mass in μ̂'s bin, or off the grid (then Q is ε-uniform).
 */
import { normalCdf, type Gaussian } from './gaussian';
import { max, min, populationStd } from './moments';

export const JSD_BINS = 64;
export const JSD_EPSILON = 1e-12;
/** The grid reaches this many σ_truth beyond the smallest and largest truth value. */
export const JSD_SPAN_SIGMAS = 3;
/** A truth whose population std is at most this has no spread (see the header). */
export const NO_SPREAD_STD = 1e-9;

export interface JsdGrid {
  /** True when the truth has no spread: no grid, every JSD against it is NaN. */
  degenerate: boolean;
  lo: number;
  hi: number;
  /** σ_truth (population). */
  truthStd: number;
  /** JSD_BINS + 1 edges (empty when degenerate). */
  edges: Float64Array;
  /** Histogram mass per bin of the truth (sums to 1; before ε). */
  truthMass: Float64Array;
}

function checkFinite(values: ArrayLike<number>, what: string): void {
  if (!values || values.length === 0) throw new RangeError(`${what} needs at least one value.`);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${what}: value ${i} is ${values[i]}, not a finite number.`);
  }
}

/** `np.linspace(lo, hi, bins + 1)`: e_i = i·step + lo, last edge exactly hi. */
export function binEdges(lo: number, hi: number, bins = JSD_BINS): Float64Array {
  const edges = new Float64Array(bins + 1);
  const step = (hi - lo) / bins;
  for (let i = 0; i < bins; i++) edges[i] = i * step + lo;
  edges[bins] = hi;
  return edges;
}

/**
 * Count per bin of `values` on equal-width `edges`, with numpy `histogram`'s rules: values outside
 * [edges[0], edges[last]] are not counted, bins are half-open except the last, and the bin is found as numpy's fast
 * path does (scaled index, then corrected against the edges).
 */
export function histogramCounts(values: ArrayLike<number>, edges: Float64Array): Float64Array {
  const bins = edges.length - 1;
  const first = edges[0];
  const last = edges[bins];
  const counts = new Float64Array(bins);
  const denom = last - first;
  for (let k = 0; k < values.length; k++) {
    const x = values[k];
    if (!(x >= first && x <= last)) continue;
    let i = Math.trunc(((x - first) / denom) * bins);
    if (i === bins) i -= 1;
    if (x < edges[i]) i -= 1;
    if (x >= edges[i + 1] && i !== bins - 1) i += 1;
    counts[i] += 1;
  }
  return counts;
}

/** Mass per bin of `values` on equal-width `edges` (count / number of values counted; `histogramCounts`' rules). */
export function histogramMass(values: ArrayLike<number>, edges: Float64Array): Float64Array {
  const counts = histogramCounts(values, edges);
  let kept = 0;
  for (let i = 0; i < counts.length; i++) kept += counts[i];
  if (kept > 0) for (let i = 0; i < counts.length; i++) counts[i] /= kept;
  return counts;
}

/** Gaussian mass per bin: Φ at each edge, differenced (scipy: `np.diff(norm.cdf(edges, μ, σ))`). */
export function gaussianBinMass(g: Gaussian, edges: Float64Array): Float64Array {
  const bins = edges.length - 1;
  const out = new Float64Array(bins);
  let prev = normalCdf(edges[0], g);
  for (let i = 0; i < bins; i++) {
    const next = normalCdf(edges[i + 1], g);
    out[i] = next - prev;
    prev = next;
  }
  return out;
}

/** The truth's grid and histogram (computed once, reused against many estimates). */
export function jsdGrid(truth: ArrayLike<number>): JsdGrid {
  checkFinite(truth, 'The JSD truth');
  const sigma = populationStd(truth);
  if (!(sigma > NO_SPREAD_STD)) {
    return { degenerate: true, lo: NaN, hi: NaN, truthStd: sigma, edges: new Float64Array(0), truthMass: new Float64Array(0) };
  }
  const lo = min(truth) - JSD_SPAN_SIGMAS * sigma;
  const hi = max(truth) + JSD_SPAN_SIGMAS * sigma;
  const edges = binEdges(lo, hi, JSD_BINS);
  return { degenerate: false, lo, hi, truthStd: sigma, edges, truthMass: histogramMass(truth, edges) };
}

/**
 * JSD in bits of two mass vectors after adding ε to every entry and normalising each to 1.
 * (Inputs need not sum to 1; negative entries are a caller error.)
 */
export function jensenShannonBits(p: ArrayLike<number>, q: ArrayLike<number>, epsilon = JSD_EPSILON): number {
  if (p.length !== q.length) throw new RangeError(`jensenShannonBits: ${p.length} and ${q.length} bins.`);
  const n = p.length;
  const pp = new Float64Array(n);
  const qq = new Float64Array(n);
  let sp = 0;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    pp[i] = p[i] + epsilon;
    qq[i] = q[i] + epsilon;
    sp += pp[i];
    sq += qq[i];
  }
  let kp = 0;
  let kq = 0;
  for (let i = 0; i < n; i++) {
    const a = pp[i] / sp;
    const b = qq[i] / sq;
    const m = 0.5 * (a + b);
    if (a > 0) kp += a * Math.log2(a / m);
    if (b > 0) kq += b * Math.log2(b / m);
  }
  return Math.max(0, 0.5 * kp + 0.5 * kq);
}

/** JSD (bits) of a Gaussian estimate against a prepared truth grid; NaN when the grid is degenerate. */
export function jsdAgainstGrid(grid: JsdGrid, g: Gaussian): number {
  if (grid.degenerate) return NaN;
  return jensenShannonBits(grid.truthMass, gaussianBinMass(g, grid.edges));
}

/** JSD (bits) between the Gaussian estimate `g` and the empirical truth values (docs/science.md §2). */
export function jsdToTruth(truth: ArrayLike<number>, g: Gaussian): number {
  return jsdAgainstGrid(jsdGrid(truth), g);
}
