/**
 * CPCF from a training run's recorded softmax outputs (docs/science.md §3): the bridge between the engine's result
 * and the pure functions of this folder, and the bundle the Forgetting lab and `cil-lab cpcf` show. The engine
 * (trainer.ts, option `probs`) records after every step t, for every task j, the softmax outputs on task j's
 * calibration and test data (a split with no examples is not recorded). `RecordedRun` restates that shape because
 * src/core imports nothing from src/engine; a type test (from-run.test.ts) keeps it assignable from `TrainRunResult`.
 */
import { accuracySeries, cpcfSeries, type CpcfInput, type CpcfStep, type TaskOutputs } from './cpcf';
import { pearson } from '../stats/pearson';
import { distanceCorrelation } from './dcor';
import { kemkerOmega, type Omega } from './kemker';
import { ConformalInputError, type LabelledProbs } from './probs';
import { resolveScore, type RapsParams, type ScoreName, type ScoreOptions } from './scores';

/** One recorded (after-task, split, task) cell of softmax outputs — the engine's `ProbsRecord`. */
export interface RecordedProbs {
  afterTask: number;
  split: 'calibration' | 'test';
  taskIndex: number;
  /** n × width, row-major */
  probs: Float32Array | Float64Array | readonly number[];
  width: number;
  /** the true output unit (column) of each row */
  labels: ArrayLike<number>;
}

/** The parts of the engine's `TrainRunResult` that CPCF reads. */
export interface RecordedRun {
  /** R: R[i][j] = accuracy on task j's test data after training tasks 0..i */
  matrix: readonly (readonly number[])[];
  /** test examples per task (α_all of Ω is pooled over them) */
  testCounts?: readonly number[];
  probs?: readonly RecordedProbs[];
}

export interface CpcfFromRunOptions extends ScoreOptions {
  alpha: number;
  /** where a_prev / a_new / Ω come from (default 'matrix') */
  accuracy?: 'matrix' | 'probs';
  /** α_ideal for Ω (default R[0][0]) */
  alphaIdeal?: number;
}

export interface CpcfReport {
  alpha: number;
  score: ScoreName;
  raps: RapsParams;
  accuracySource: 'matrix' | 'probs';
  /** series over steps j = 2..K (paper numbering) = afterTask 1..K−1 */
  cpcf: number[];
  aPrev: number[];
  aNew: number[];
  coverage: number[];
  /** thresholds (Infinity possible) */
  q: number[];
  steps: CpcfStep[];
  omega: Omega;
  /** dCor(CPCF, a_prev), the paper's Tables II–III */
  dcor: number;
  /** Pearson(CPCF, a_prev); NaN when undefined */
  pearson: number;
  /** its two-sided p-value (scipy.stats.pearsonr); NaN when undefined */
  pearsonP: number;
}

/** Groups a run's recorded outputs into `outputs[j][i]` (cpcf.ts' input). */
export function cpcfInputFromRun(run: RecordedRun): CpcfInput {
  const records = run.probs;
  if (!records || records.length === 0) {
    throw new ConformalInputError('this run has no recorded softmax outputs: train it with the `probs` option (a calibration ratio > 0) to compute CPCF.');
  }
  let steps = 0;
  for (const r of records) steps = Math.max(steps, r.afterTask + 1);
  const cells = new Map<string, RecordedProbs>();
  for (const r of records) {
    if (!Number.isInteger(r.afterTask) || r.afterTask < 0 || !Number.isInteger(r.taskIndex) || r.taskIndex < 0) {
      throw new ConformalInputError(`recorded outputs with afterTask ${r.afterTask}, taskIndex ${r.taskIndex}: both must be whole numbers ≥ 0.`);
    }
    if (r.split !== 'calibration' && r.split !== 'test') throw new ConformalInputError(`recorded outputs with unknown split "${String(r.split)}".`);
    const key = `${r.afterTask}/${r.split}/${r.taskIndex}`;
    if (cells.has(key)) throw new ConformalInputError(`the run records the ${r.split} outputs of task ${r.taskIndex} after step ${r.afterTask} twice.`);
    cells.set(key, r);
  }
  const asSplit = (r: RecordedProbs): LabelledProbs => ({ probs: { data: r.probs, width: r.width }, labels: r.labels });
  const outputs: TaskOutputs[][] = [];
  for (let t = 0; t < steps; t++) {
    const step: TaskOutputs[] = [];
    for (let j = 0; j <= t; j++) {
      const test = cells.get(`${t}/test/${j}`);
      if (!test) throw new ConformalInputError(`the run has no test outputs of task ${j} after step ${t}.`);
      const cal = cells.get(`${t}/calibration/${j}`);
      step.push({ test: asSplit(test), calibration: cal ? asSplit(cal) : { probs: { data: new Float32Array(0), width: test.width }, labels: [] } });
    }
    outputs.push(step);
  }
  return outputs;
}

/**
 * CPCF, a_prev, a_new, coverage, Ω, dCor and Pearson of one run. Accuracies come from the run's R by default
 * (`accuracy: 'matrix'`, what every other lab shows: arg-max over the engine's `head`), or with `'probs'` from the
 * recorded softmax (identical when `head` and `probs.softmax` agree, as in the defaults). α_ideal for Ω is R[0][0]
 * unless `alphaIdeal` is given (kemker.ts). dCor and Pearson are over the steps j = 2..K (paper numbering): with
 * K = 2 there is one point, so dCor is 0 (dcor's convention for a constant sample) and Pearson NaN (stats/pearson.ts,
 * as scipy.stats.pearsonr). q can be Infinity (too little calibration data for α): callers that print JSON map it
 * (the `conformal` CLI prints null plus `qInfinite: true`).
 */
export function cpcfFromRun(run: RecordedRun, options: CpcfFromRunOptions): CpcfReport {
  const { score, raps } = resolveScore(options);
  const source = options.accuracy ?? 'matrix';
  if (source !== 'matrix' && source !== 'probs') throw new RangeError(`accuracy must be "matrix" or "probs"; got ${String(source)}.`);
  const series = cpcfSeries(cpcfInputFromRun(run), { alpha: options.alpha, score, raps });
  const K = series.accuracy.length;
  let R: readonly (readonly number[])[] = series.accuracy;
  let steps = series.steps;
  if (source === 'matrix') {
    if (!Array.isArray(run.matrix) || run.matrix.length < K) {
      throw new ConformalInputError(
        `the run's accuracy matrix has ${Array.isArray(run.matrix) ? run.matrix.length : 0} rows but its outputs cover ${K} steps.`,
      );
    }
    R = run.matrix.slice(0, K);
    const { aPrev, aNew } = accuracySeries(R);
    steps = steps.map((s, k) => ({
      ...s,
      aPrev: aPrev[k],
      aNew: aNew[k],
      previous: s.previous.map((p) => ({ ...p, accuracy: R[s.afterTask][p.task] })),
    }));
  }
  const aPrev = steps.map((s) => s.aPrev);
  const cpcf = series.cpcf;
  const r = cpcf.length >= 2 ? pearson(cpcf, aPrev) : { statistic: NaN, pvalue: NaN };
  return {
    alpha: options.alpha,
    score,
    raps,
    accuracySource: source,
    cpcf,
    aPrev,
    aNew: steps.map((s) => s.aNew),
    coverage: series.coverage,
    q: series.q,
    steps,
    omega: kemkerOmega({ matrix: R, testCounts: run.testCounts?.slice(0, K), alphaIdeal: options.alphaIdeal }),
    dcor: distanceCorrelation(cpcf, aPrev),
    pearson: r.statistic,
    pearsonP: r.pvalue,
  };
}
