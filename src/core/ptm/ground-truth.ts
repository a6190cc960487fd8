/**
 * The ground truth of a pre-trained method on frozen features, at any scale (docs/science.md §9): the entry point
 * the Ground-truth lab (in a worker) and `cil-lab run --features` both call.
 *
 * For SimpleCIL, NCM, FeCAM and RanPAC without first-session adaptation, the classifier after a step depends only
 * on the set of classes seen (RanPAC: and on the λ its selection rows chose), never on the order they came in. So
 * each state's correct test rows per class are computed once, kept in a bounded cache (./set-cache.ts), and every
 * ordering's accuracy matrix R is assembled from it: row t of R needs the state after step t, and R[t][j] is the
 * correct count of task j's classes in that state over task j's test rows (0 for tasks not seen yet: their classes
 * have no output). Final accuracy and AIA are the sample-weighted ones of every other run (src/core/metrics).
 *
 * Cooperation: `hooks.checkpoint` is awaited between orderings (every `checkEvery`, and after any ordering that
 * computed a new state), so a worker can pause, resume and cancel (throw from it) and read its messages; records go
 * out one by one through `hooks.onRecord` as they are assembled, so nothing but the cache grows with the number of
 * orderings.
 */
import { aiaWeighted, finalAccuracyWeighted } from '../metrics/accuracy-matrix';
import { countOrderings, formatOmega } from '../orderings/count';
import { enumerateOrderings, orderingToLabels } from '../orderings/enumerate';
import { sampleOrderingsByShuffle } from '../orderings/sample';
import type { Ordering } from '../orderings/types';
import { grouped } from '../config/limits';
import type { FeatureSet } from '../features/feature-set';
import { addToMask, maskMembers, maskWords } from './class-set';
import type { PtmStrategy } from './defaults';
import { setEvaluator, type SetEvaluator } from './evaluator';
import { countsOf, ptmProblem, PtmInputError, type ProblemOptions } from './problem';
import { cacheEntriesFor, SetCache, type SetCacheStats } from './set-cache';

/**
 * Bytes the cache may hold by default (an entry is C int32 counts, its key and its slot, ≈ 4C + 400 bytes): the
 * sets of an exhaustive ground truth fit (at most 2^C − 1, and Ω is enumerable only for C up to about 16: 10 classes
 * have 1 023 sets, 14 classes 16 383, ≈ 7 MB); a sample of a large Ω, whose sets rarely repeat, keeps the latest
 * 20 000 of 100 classes.
 */
export const DEFAULT_CACHE_BYTES = 16_000_000;

export interface PtmSetupInput extends ProblemOptions {
  features: FeatureSet;
  /** the feature set's label ids of the experiment's classes, in the experiment's order (position p ↔ classes[p]) */
  classes: readonly number[];
  strategy: PtmStrategy;
  /** draws RanPAC's projection and validation split (the experiment's training seed) */
  seed: number;
}

/** The method set up on its problem: the part that does not depend on the orderings (for RanPAC, most of the work). */
export function preparePtm(input: PtmSetupInput): SetEvaluator {
  const problem = ptmProblem(input.features, input.classes, { trainPerClass: input.trainPerClass, testPerClass: input.testPerClass });
  return setEvaluator(problem, input.strategy, input.seed);
}

/** One ordering's result, in the shape of every other run record (docs/science.md conventions). */
export interface PtmRunRecord {
  /** the ordering over the feature set's label ids, each task ascending */
  tasks: number[][];
  orderingKey: string;
  /** R, K × K: row = step, column = task */
  matrix: number[][];
  /** test rows per task */
  testCounts: number[];
  /** training rows per task */
  trainCounts: number[];
  /** sample-weighted final accuracy */
  finalAccuracy: number;
  /** sample-weighted average incremental accuracy */
  aia: number;
}

export interface PtmGroundTruthInput {
  evaluator: SetEvaluator;
  taskSizes: readonly number[];
  /** orderings over class positions 0 … C−1 (./orderings: every one, a sample, or a list) */
  orderings: Iterable<Ordering>;
  /** how many `orderings` holds, for progress (optional) */
  total?: number;
  /** bound on the cache (default DEFAULT_CACHE_BYTES) */
  cacheBytes?: number;
}

export interface PtmProgress {
  done: number;
  total?: number;
  /** states computed so far */
  states: number;
}

export interface PtmGroundTruthHooks {
  onRecord?(record: PtmRunRecord, index: number): void;
  onProgress?(progress: PtmProgress): void;
  /** awaited between orderings: wait while paused, throw to cancel, yield to the event loop */
  checkpoint?(): Promise<void> | void;
  /** orderings between checkpoints when no new state was computed (default 256) */
  checkEvery?: number;
  /** orderings between progress reports (default 1000; the last one is always reported) */
  progressEvery?: number;
}

export interface PtmGroundTruthSummary {
  method: string;
  orderings: number;
  /** what decides a cached state, in words */
  stateRule: string;
  cache: SetCacheStats;
  /** "exact by class set: 511 states for 113 400 orderings" (and the cache's bound when it evicted) */
  path: string;
  notes: string[];
}

/** Every ordering of Ω (in rank order), refused above `limit` with a message saying how many there are. */
export function allOrderings(taskSizes: readonly number[], limit: number): { orderings: Iterable<Ordering>; total: number } {
  const omega = countOrderings([...taskSizes]);
  if (omega > BigInt(limit)) {
    const count = omega <= BigInt(Number.MAX_SAFE_INTEGER) ? grouped(Number(omega)) : formatOmega(omega);
    throw new PtmInputError(`There are ${count} orderings, more than the limit of ${grouped(limit)}: sample some instead, or raise the limit.`);
  }
  return { orderings: enumerateOrderings([...taskSizes]), total: Number(omega) };
}

/** `count` distinct orderings drawn uniformly with `default_rng(seed)` (src/core/orderings/sample.ts). */
export function sampledOrderings(taskSizes: readonly number[], count: number, seed: number): { orderings: Ordering[]; total: number } {
  const orderings = sampleOrderingsByShuffle([...taskSizes], count, seed);
  return { orderings, total: orderings.length };
}

/** Runs the ground truth: every ordering's record, assembled from the states cached by class set. */
export async function runPtmGroundTruth(input: PtmGroundTruthInput, hooks: PtmGroundTruthHooks = {}): Promise<PtmGroundTruthSummary> {
  const { evaluator, taskSizes } = input;
  const { problem } = evaluator;
  const { C } = problem;
  const K = taskSizes.length;
  if (taskSizes.reduce((s, m) => s + m, 0) !== C) {
    throw new PtmInputError(`The task sizes ${taskSizes.join(',')} do not add up to the ${C} classes.`);
  }
  const testPer = countsOf(problem.test);
  const trainPer = countsOf(problem.train);
  const sizes = [...taskSizes];
  const words = maskWords(C);
  const cache = new SetCache(cacheEntriesFor(input.cacheBytes ?? DEFAULT_CACHE_BYTES, C));
  const checkEvery = hooks.checkEvery ?? 256;
  const progressEvery = hooks.progressEvery ?? 1000;
  const mask = new Uint32Array(words);
  let done = 0;
  let sinceCheck = 0;
  for (const local of input.orderings) {
    // the task of each class position (checks every class once, tasks of the right sizes); tasks ascending from it
    const taskOf = orderingToLabels(local, sizes);
    const tasks: number[][] = Array.from({ length: K }, () => []);
    for (let p = 0; p < C; p++) tasks[taskOf[p]].push(p);
    const testCounts = new Array<number>(K).fill(0);
    const trainCounts = new Array<number>(K).fill(0);
    for (let p = 0; p < C; p++) {
      testCounts[taskOf[p]] += testPer[p];
      trainCounts[taskOf[p]] += trainPer[p];
    }
    const matrix: number[][] = [];
    mask.fill(0);
    const before = cache.stats.computed;
    for (let t = 0; t < K; t++) {
      const task = tasks[t];
      addToMask(mask, task);
      const counts = cache.get(evaluator.stateKey(mask, task), () => evaluator.correctCounts(mask, maskMembers(mask, C), task));
      const row = new Array<number>(K).fill(0);
      for (let j = 0; j <= t; j++) {
        let correct = 0;
        for (const p of tasks[j]) correct += counts[p];
        row[j] = correct / testCounts[j];
      }
      matrix.push(row);
    }
    const labelTasks = tasks.map((task) => task.map((p) => problem.classes[p]).sort((a, b) => a - b));
    const record: PtmRunRecord = {
      tasks: labelTasks,
      // orderingKey's form (src/core/orderings/key.ts) of tasks already ascending
      orderingKey: labelTasks.map((task) => task.join(',')).join('|'),
      matrix,
      testCounts,
      trainCounts,
      finalAccuracy: finalAccuracyWeighted(matrix, testCounts),
      aia: aiaWeighted(matrix, testCounts),
    };
    hooks.onRecord?.(record, done);
    done++;
    sinceCheck++;
    if (hooks.onProgress && done % progressEvery === 0) hooks.onProgress({ done, total: input.total, states: cache.stats.computed });
    if (hooks.checkpoint && (sinceCheck >= checkEvery || cache.stats.computed > before)) {
      sinceCheck = 0;
      await hooks.checkpoint();
    }
  }
  if (hooks.onProgress && done % progressEvery !== 0) hooks.onProgress({ done, total: input.total, states: cache.stats.computed });
  const stats = { ...cache.stats };
  const bound =
    stats.evictions > 0
      ? ` (the cache holds at most ${grouped(stats.maxEntries)}; ${grouped(stats.evictions)} were dropped and any needed again recomputed)`
      : '';
  return {
    method: evaluator.label,
    orderings: done,
    stateRule: evaluator.stateRule,
    cache: stats,
    path: `exact by class set: ${grouped(stats.computed)} state${stats.computed === 1 ? '' : 's'} for ${grouped(done)} ordering${done === 1 ? '' : 's'}${bound}`,
    notes: evaluator.notes,
  };
}
