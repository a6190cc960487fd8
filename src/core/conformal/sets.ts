/**
 * Prediction sets from a threshold q, their sizes and their empirical coverage (docs/science.md §3; the CPCF paper's
 * §II-C, Eq. 3). Validity: a calibration-like point with score E ≤ q is in its set (for APS/RAPS as long as π_y > 0;
 * with π_y = 0 and E = q exactly it can fall out, harmlessly), so split conformal's coverage ≥ 1 − α holds for
 * exchangeable data (checked on synthetic data in the tests).
 */
import { conformalQuantile } from './quantile';
import { checkAlpha, checkLabels, ConformalInputError, probRows, type LabelledProbs, type ProbMatrix } from './probs';
import { conformalScores, descendingOrder, rapsPenalty, resolveScore, type ScoreOptions } from './scores';

/**
 * The prediction set of one softmax row at threshold q: a prefix of the classes by descending probability (ties by
 * class index, scores.ts), most probable first. APS: up to and including the first class whose cumulative mass is
 * ≥ q, never empty. LAC: {k : 1 − π_k ≤ q}, a prefix too, and **empty** when q < 1 − max π (standard LAC, kept: "none
 * of these"). RAPS: as APS on the penalised mass Σ_{k≤o} π_(k) + λ·(o − k_reg)⁺ (Angelopoulos et al.'s code stops at
 * "> q", which differs only when a mass equals q exactly; "≥" makes RAPS with λ = 0 our APS). q = +∞ (too few
 * calibration points): every class. A finite q that no prefix reaches (float32 rows summing to 1 − 1e-7 against a
 * calibration score of exactly 1): every class.
 */
export function predictionSet(row: ArrayLike<number>, q: number, options: ScoreOptions = {}): number[] {
  if (typeof q !== 'number' || Number.isNaN(q)) throw new ConformalInputError(`the threshold q must be a number (or Infinity); got ${String(q)}.`);
  const { score, raps } = resolveScore(options);
  const order = descendingOrder(row);
  if (q === Infinity) return order;
  if (score === 'lac') {
    let size = 0;
    while (size < order.length && 1 - row[order[size]] <= q) size++;
    return order.slice(0, size);
  }
  let cum = 0;
  for (let r = 0; r < order.length; r++) {
    cum += row[order[r]];
    const mass = score === 'raps' ? cum + rapsPenalty(r + 1, raps) : cum;
    if (mass >= q) return order.slice(0, r + 1);
  }
  return order;
}

/** Prediction sets of many rows and their sizes. */
export interface PredictionSets {
  sets: number[][];
  sizes: number[];
}

/** The prediction set of every row of `probs` at threshold q. */
export function predictionSets(probs: ProbMatrix, q: number, options: ScoreOptions = {}, what = 'test'): PredictionSets {
  const p = probRows(probs, `${what} probs`);
  const resolved = resolveScore(options);
  const sets = p.rows.map((row) => predictionSet(row, q, resolved));
  return { sets, sizes: sets.map((s) => s.length) };
}

/** Mean set size (NaN for no sets). */
export function meanSetSize(sizes: ArrayLike<number>): number {
  if (sizes.length === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < sizes.length; i++) sum += sizes[i];
  return sum / sizes.length;
}

/** Fraction of examples whose true label is in their set (NaN for no examples). */
export function empiricalCoverage(sets: readonly (readonly number[])[], labels: ArrayLike<number>): number {
  if (labels.length !== sets.length) throw new ConformalInputError(`${labels.length} labels for ${sets.length} prediction sets.`);
  if (sets.length === 0) return NaN;
  let covered = 0;
  for (let i = 0; i < sets.length; i++) if (sets[i].includes(labels[i])) covered++;
  return covered / sets.length;
}

/** Split conformal prediction on one calibration set and one test set. */
export interface ConformalSets extends PredictionSets {
  /** the threshold (Infinity: too few calibration points for α — every set is full) */
  q: number;
  /** calibration points */
  n: number;
  meanSize: number;
  /** empirical coverage of the test sets; null without test labels */
  coverage: number | null;
}

/**
 * Scores the calibration data, takes q at level α and builds the test sets. The calibration and test
 * probabilities must have the same number of classes. Test labels are optional (coverage is then null).
 */
export function conformalSets(
  calibration: LabelledProbs,
  test: { probs: ProbMatrix; labels?: ArrayLike<number> },
  options: ScoreOptions & { alpha: number },
): ConformalSets {
  checkAlpha(options.alpha);
  const resolved = resolveScore(options);
  const cal = probRows(calibration.probs, 'calibration probs');
  const tst = probRows(test.probs, 'test probs');
  if (cal.rows.length > 0 && tst.rows.length > 0 && cal.width !== tst.width) {
    throw new ConformalInputError(`calibration probs have ${cal.width} classes but test probs have ${tst.width}; both need the same classes.`);
  }
  const scores = conformalScores(cal.rows, calibration.labels, resolved, 'calibration');
  const q = conformalQuantile(scores, options.alpha);
  const { sets, sizes } = predictionSets(tst.rows, q, resolved, 'test');
  let coverage: number | null = null;
  if (test.labels !== undefined) coverage = empiricalCoverage(sets, checkLabels(test.labels, tst.rows.length, tst.width, 'test labels'));
  return { q, n: scores.length, sets, sizes, meanSize: meanSetSize(sizes), coverage };
}
