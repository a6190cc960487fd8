/**
 * Conformal (non-conformity) scores of a labelled example from its softmax row (docs/science.md §3 "Conformal scores
 * and sets"): APS (the CPCF paper's Eq. 1), LAC and RAPS, all non-randomised, so the same input always gives the
 * same numbers. Ties in probability go to the lower class index (a stable sort by descending probability, numpy's
 * `argsort(-p, kind='stable')`), which matters only for exactly equal probabilities (float32 softmax underflowing to
 * 0, hand-made inputs). Cumulative sums are float64 in rank order, one addition at a time (numpy's `cumsum`), and
 * the prediction sets (sets.ts) use the very same sums, so a calibration point's score and its row's set agree.
 */
import { ConformalInputError, checkLabels, probRows, type ProbMatrix } from './probs';

/** The conformal scores on offer. */
export type ScoreName = 'aps' | 'lac' | 'raps';
export const SCORE_NAMES: readonly ScoreName[] = ['aps', 'lac', 'raps'];

/** RAPS regularisation: penalty λ per rank beyond the first k_reg. */
export interface RapsParams {
  lambda: number;
  kReg: number;
}

/**
 * λ = 0.01, k_reg = 5: k_reg = 5 is every fixed-parameter experiment of Angelopoulos et al. 2021 (their code can
 * tune both on a split of the calibration data, which we do not: CPCF uses every calibration point for q), and
 * λ = 0.01 with it is the RAPS example of Angelopoulos & Bates' "gentle introduction" (the CPCF paper's [17]). With
 * at most k_reg classes the penalty never bites and RAPS equals APS.
 */
export const RAPS_DEFAULTS: Readonly<RapsParams> = Object.freeze({ lambda: 0.01, kReg: 5 });

/** Which score, and RAPS' parameters when it is RAPS (missing ones take RAPS_DEFAULTS). */
export interface ScoreOptions {
  score?: ScoreName;
  raps?: Partial<RapsParams>;
}

/** A fully resolved score choice. */
export interface ResolvedScore {
  score: ScoreName;
  raps: RapsParams;
}

/** Fills in the defaults (APS; RAPS_DEFAULTS) and checks the values. */
export function resolveScore(options: ScoreOptions = {}): ResolvedScore {
  const score = options.score ?? 'aps';
  if (!SCORE_NAMES.includes(score)) throw new RangeError(`Unknown conformal score "${String(score)}": use ${SCORE_NAMES.join(', ')}.`);
  const lambda = options.raps?.lambda ?? RAPS_DEFAULTS.lambda;
  const kReg = options.raps?.kReg ?? RAPS_DEFAULTS.kReg;
  if (typeof lambda !== 'number' || !Number.isFinite(lambda) || lambda < 0)
    throw new RangeError(`RAPS lambda must be a finite number ≥ 0; got ${String(lambda)}.`);
  if (typeof kReg !== 'number' || !Number.isInteger(kReg) || kReg < 0) throw new RangeError(`RAPS k_reg must be a whole number ≥ 0; got ${String(kReg)}.`);
  return { score, raps: { lambda, kReg } };
}

/** Column indices of `row` by descending probability; equal probabilities in ascending index order. */
export function descendingOrder(row: ArrayLike<number>): number[] {
  const order = Array.from({ length: row.length }, (_, k) => k);
  order.sort((a, b) => row[b] - row[a] || a - b);
  return order;
}

/** RAPS penalty at 1-based rank o: λ·(o − k_reg)⁺. */
export function rapsPenalty(rank: number, raps: RapsParams): number {
  return rank > raps.kReg ? raps.lambda * (rank - raps.kReg) : 0;
}

/** APS: cumulative probability down to and including the true class (ties by index). */
export function apsScore(row: ArrayLike<number>, label: number): number {
  let cum = 0;
  for (const k of descendingOrder(row)) {
    cum += row[k];
    if (k === label) return cum;
  }
  throw new ConformalInputError(`label ${label} is not a column of a row with ${row.length} classes.`);
}

/** LAC: 1 − π_y. */
export function lacScore(row: ArrayLike<number>, label: number): number {
  if (!(label >= 0 && label < row.length)) throw new ConformalInputError(`label ${label} is not a column of a row with ${row.length} classes.`);
  return 1 - row[label];
}

/** RAPS: APS plus λ·(rank(y) − k_reg)⁺. */
export function rapsScore(row: ArrayLike<number>, label: number, raps: Partial<RapsParams> = {}): number {
  const params = resolveScore({ score: 'raps', raps }).raps;
  let cum = 0;
  const order = descendingOrder(row);
  for (let r = 0; r < order.length; r++) {
    cum += row[order[r]];
    if (order[r] === label) return cum + rapsPenalty(r + 1, params);
  }
  throw new ConformalInputError(`label ${label} is not a column of a row with ${row.length} classes.`);
}

/** The chosen score of one row. */
export function conformalScore(row: ArrayLike<number>, label: number, options: ScoreOptions = {}): number {
  const { score, raps } = resolveScore(options);
  if (score === 'lac') return lacScore(row, label);
  if (score === 'raps') return rapsScore(row, label, raps);
  return apsScore(row, label);
}

/** The chosen score of every row (shapes and labels checked; `what` names the data in errors). */
export function conformalScores(probs: ProbMatrix, labels: ArrayLike<number>, options: ScoreOptions = {}, what = 'calibration'): Float64Array {
  const resolved = resolveScore(options);
  const p = probRows(probs, `${what} probs`);
  const y = checkLabels(labels, p.rows.length, p.width, `${what} labels`);
  const out = new Float64Array(p.rows.length);
  for (let i = 0; i < p.rows.length; i++) out[i] = conformalScore(p.rows[i], y[i], resolved);
  return out;
}
