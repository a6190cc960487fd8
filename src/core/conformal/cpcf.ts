/**
 * CPCF, the Conformal Prediction Confidence Factor (docs/science.md §3; the CPCF paper's §II-D, Algorithm 1), with
 * the accuracies it is compared to. After training task j (j ≥ 2 in the paper's numbering, `afterTask ≥ 1` here):
 * q_j = the conformal threshold (quantile.ts) of the pooled calibration scores of tasks 1..j−1, from the model's
 * outputs after task j; CPCF_j = the mean prediction-set size over the pooled test data of tasks 1..j−1 (bigger
 * tasks weigh more, Algorithm 1 step 5); a_prev,j = the unweighted mean of tasks 1..j−1's test accuracies, a_new,j
 * = task j's; beyond the paper, the empirical coverage of those sets (pooled and per task). Accuracies here are the
 * arg-max of the recorded probabilities (ties → the lower column, as tf.argMax).
 */
import { conformalQuantile } from './quantile';
import { checkAlpha, checkLabels, ConformalInputError, probRows, type LabelledProbs, type ProbRows } from './probs';
import { conformalScore, resolveScore, type ScoreOptions } from './scores';
import { predictionSet } from './sets';

/** One task's outputs after one step. */
export interface TaskOutputs {
  calibration: LabelledProbs;
  test: LabelledProbs;
}

/**
 * `outputs[j][i]` = task i's softmax outputs after training task j (0-based), for every step j and task i ≤ j (later
 * tasks ignored), each `{ calibration: {probs, labels}, test: {probs, labels} }`. The probabilities are a softmax over the
 * classes seen after step j (the engine's default `probs.softmax: 'seen'`; 'all', the paper's MLP, works the same),
 * with one column count per step; labels are columns (a class's output unit). Step 0 (the base task alone) serves
 * the accuracy matrix only.
 */
export type CpcfInput = readonly (readonly TaskOutputs[])[];

export interface CpcfOptions extends ScoreOptions {
  /** miscoverage level α ∈ (0, 1) */
  alpha: number;
}

/** How one earlier task fares after a step. */
export interface CpcfTaskStats {
  /** 0-based task index */
  task: number;
  /** test examples */
  n: number;
  meanSetSize: number;
  coverage: number;
  accuracy: number;
  /** sizeCounts[s] = test examples whose set has s classes (s = 0..width) */
  sizeCounts: number[];
}

/** Everything about one step j ≥ 1 (0-based). */
export interface CpcfStep {
  /** j, 0-based (the paper's j − 1); always ≥ 1 */
  afterTask: number;
  /** classes (columns) of this step's outputs */
  width: number;
  /** the threshold; Infinity when l_j is too small for α (every set is then the full set) */
  q: number;
  /** l_j: calibration examples of tasks 0..j−1 */
  calibrationCount: number;
  /** test examples of tasks 0..j−1 */
  testCount: number;
  cpcf: number;
  /** empirical coverage over the test data of tasks 0..j−1 pooled */
  coverage: number;
  aPrev: number;
  aNew: number;
  /** tasks 0..j−1 */
  previous: CpcfTaskStats[];
}

export interface CpcfSeries {
  steps: CpcfStep[];
  /** the series over j = 2..K (paper numbering), i.e. steps[*].cpcf etc. */
  cpcf: number[];
  aPrev: number[];
  aNew: number[];
  coverage: number[];
  q: number[];
  /** accuracy[j][i]: arg-max test accuracy on task i after step j, i ≤ j (the lower triangle of R) */
  accuracy: number[][];
}

interface CheckedSplit {
  p: ProbRows;
  labels: number[];
}

function checkSplit(s: LabelledProbs | undefined, what: string): CheckedSplit {
  if (!s || typeof s !== 'object') throw new ConformalInputError(`${what} is missing.`);
  const p = probRows(s.probs, `${what} probs`);
  return { p, labels: checkLabels(s.labels, p.rows.length, p.width, `${what} labels`) };
}

function argmax(row: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < row.length; k++) if (row[k] > row[best]) best = k;
  return best;
}

function accuracyOf(s: CheckedSplit, what: string): number {
  if (s.p.rows.length === 0) throw new ConformalInputError(`${what} has no test examples: its accuracy is undefined.`);
  let correct = 0;
  for (let i = 0; i < s.p.rows.length; i++) if (argmax(s.p.rows[i]) === s.labels[i]) correct++;
  return correct / s.p.rows.length;
}

/** Checks that every non-empty split of a step has the same number of columns; returns it. */
function stepWidth(splits: { s: CheckedSplit; what: string }[]): number {
  let width = 0;
  let first = '';
  for (const { s, what } of splits) {
    if (s.p.rows.length === 0) continue;
    if (width === 0) {
      width = s.p.width;
      first = what;
    } else if (s.p.width !== width) {
      throw new ConformalInputError(`${what} has ${s.p.width} classes but ${first} has ${width}: every output of one step must cover the same classes.`);
    }
  }
  return width;
}

/** CPCF_j, a_prev,j, a_new,j, q_j and coverage for every step j ≥ 1 (0-based) of `outputs`. */
export function cpcfSeries(outputs: CpcfInput, options: CpcfOptions): CpcfSeries {
  checkAlpha(options.alpha);
  const score = resolveScore(options);
  if (!Array.isArray(outputs) || outputs.length < 2) {
    throw new ConformalInputError(
      `CPCF needs the outputs of at least two steps (the base task and one more); got ${Array.isArray(outputs) ? outputs.length : 'none'}.`,
    );
  }
  const accuracy: number[][] = [];
  const steps: CpcfStep[] = [];
  for (let j = 0; j < outputs.length; j++) {
    const step = outputs[j];
    if (!Array.isArray(step) || step.length < j + 1) {
      throw new ConformalInputError(`step ${j} needs the outputs of tasks 0..${j}; got ${Array.isArray(step) ? step.length : 'none'}.`);
    }
    const tests = step
      .slice(0, j + 1)
      .map((t, i) => ({ s: checkSplit(t?.test, `test data of task ${i} after step ${j}`), what: `test data of task ${i} after step ${j}` }));
    const cals =
      j === 0
        ? []
        : step.slice(0, j).map((t, i) => ({
            s: checkSplit(t?.calibration, `calibration data of task ${i} after step ${j}`),
            what: `calibration data of task ${i} after step ${j}`,
          }));
    const width = stepWidth([...tests, ...cals]);
    accuracy.push(tests.map(({ s, what }) => accuracyOf(s, what)));
    if (j === 0) continue;

    const scores: number[] = [];
    for (const { s } of cals) for (let r = 0; r < s.p.rows.length; r++) scores.push(conformalScore(s.p.rows[r], s.labels[r], score));
    if (scores.length === 0) {
      throw new ConformalInputError(
        `after step ${j} there is no calibration data for tasks 0..${j - 1}: CPCF needs a calibration split (calibration ratio > 0).`,
      );
    }
    const q = conformalQuantile(scores, options.alpha);
    const previous: CpcfTaskStats[] = [];
    let sizeSum = 0;
    let covered = 0;
    let testCount = 0;
    for (let i = 0; i < j; i++) {
      const { s } = tests[i];
      const sizeCounts = new Array<number>(width + 1).fill(0);
      let taskSizes = 0;
      let taskCovered = 0;
      for (let r = 0; r < s.p.rows.length; r++) {
        const set = predictionSet(s.p.rows[r], q, score);
        sizeCounts[set.length]++;
        taskSizes += set.length;
        if (set.includes(s.labels[r])) taskCovered++;
      }
      const n = s.p.rows.length;
      previous.push({ task: i, n, meanSetSize: taskSizes / n, coverage: taskCovered / n, accuracy: accuracy[j][i], sizeCounts });
      sizeSum += taskSizes;
      covered += taskCovered;
      testCount += n;
    }
    let prevSum = 0;
    for (let i = 0; i < j; i++) prevSum += accuracy[j][i];
    steps.push({
      afterTask: j,
      width,
      q,
      calibrationCount: scores.length,
      testCount,
      cpcf: sizeSum / testCount,
      coverage: covered / testCount,
      aPrev: prevSum / j,
      aNew: accuracy[j][j],
      previous,
    });
  }
  return {
    steps,
    cpcf: steps.map((s) => s.cpcf),
    aPrev: steps.map((s) => s.aPrev),
    aNew: steps.map((s) => s.aNew),
    coverage: steps.map((s) => s.coverage),
    q: steps.map((s) => s.q),
    accuracy,
  };
}

/**
 * a_prev,j and a_new,j (j ≥ 1, 0-based) from an accuracy matrix R (`R[j][i]` = accuracy on task i after step j;
 * only entries i ≤ j are read, so a lower-triangular ragged matrix works): a_prev,j = mean_{i<j} R[j][i],
 * a_new,j = R[j][j].
 */
export function accuracySeries(R: readonly (readonly number[])[]): { aPrev: number[]; aNew: number[] } {
  if (!Array.isArray(R) || R.length < 2) throw new ConformalInputError('a_prev needs an accuracy matrix with at least two steps.');
  const aPrev: number[] = [];
  const aNew: number[] = [];
  for (let j = 1; j < R.length; j++) {
    const row = R[j];
    if (!Array.isArray(row) || row.length < j + 1) throw new ConformalInputError(`accuracy matrix row ${j} needs entries for tasks 0..${j}.`);
    let sum = 0;
    for (let i = 0; i < j; i++) sum += finite(row[i], `R[${j}][${i}]`);
    aPrev.push(sum / j);
    aNew.push(finite(row[j], `R[${j}][${j}]`));
  }
  return { aPrev, aNew };
}

function finite(v: number, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConformalInputError(`${what} must be a finite number; got ${String(v)}.`);
  return v;
}
