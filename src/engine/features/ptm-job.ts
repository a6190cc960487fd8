/**
 * The pre-trained methods' ground truth as a job of the training worker (docs/science.md §9): the feature set of the
 * experiment's source (./source-set.ts, kept while the settings stay), the method set up on it once (`preparePtm`:
 * for RanPAC the projection and kernel, the slow part), then every ordering asked for assembled from the states
 * cached by class set (`runPtmGroundTruth`). Records go out in batches (at most one message per `BATCH_MS`, so 113,400
 * orderings are not 113,400 messages); the run control's pause point is the checkpoint between orderings, so the
 * lab's Pause, Resume and Cancel work as for training.
 */
import { orderingKey } from '../../core/orderings/key';
import type { PtmStrategy } from '../../core/ptm/defaults';
import type { PtmGroundTruthSummary, PtmRunRecord } from '../../core/ptm/ground-truth';
import { pausePointOf } from '../control';
import type { Job } from '../jobs/job';
import type { ExtractProgress } from './extract';
import { runPtmTruth, type FirstSessionTraining } from './first-session';
import { headBar, type HeadBar, type HeadBarTraining } from './head-bar';
import { jobFeatureSet, type WorkerFeatures } from './source-set';

/** A pre-trained method on the experiment's features: what every job of these methods starts from. */
export interface PtmExperimentInput {
  /** the built-in dataset the features are computed from */
  datasetId: string;
  features: WorkerFeatures;
  /** the experiment's classes (dataset class indices, ascending; position p ↔ classes[p]) */
  classes: number[];
  trainPerClass: number | null;
  testPerClass: number | null;
  strategy: PtmStrategy;
  seed: number;
  taskSizes: number[];
}

export interface PtmJobInput extends PtmExperimentInput {
  /** the orderings to compute, as tasks of dataset class indices */
  orderings: number[][][];
  /** how a first-session layer trains (the experiment's training settings), for a method that adapts */
  training: FirstSessionTraining;
  /** with the experiment's head settings: also measure the trained head's bar on these features (./head-bar.ts) */
  headBar?: HeadBarTraining;
}

/** One record as the lab stores it: the ordering's key and tasks over dataset class indices, R and its counts. */
export interface PtmJobRecord {
  orderingKey: string;
  tasks: number[][];
  matrix: number[][];
  testCounts: number[];
}

export type PtmJobEvent =
  | { kind: 'stage'; stage: 'features' | 'setup' | 'orderings'; extract?: ExtractProgress }
  | { kind: 'records'; records: PtmJobRecord[]; done: number; total: number; states: number };

export interface PtmJobOutput {
  summary: PtmGroundTruthSummary;
  /** seconds to get the features, to set the method up, and for the orderings */
  seconds: { features: number; setup: number; orderings: number };
  d: number;
  /** the head's bar, when asked */
  headBar?: HeadBar;
}

/** Records are sent at most this often (and whenever the job ends). */
const BATCH_MS = 100;

export const ptmJob: Job<PtmJobInput, PtmJobOutput, PtmJobEvent> = async (input, ctx, emit) => {
  const t0 = performance.now();
  const set = await jobFeatureSet(ctx, input, emit);
  const t1 = performance.now();
  emit({ kind: 'stage', stage: 'setup' });
  const position = new Map(input.classes.map((c, p) => [c, p]));
  const orderings = input.orderings.map((tasks) =>
    tasks.map((task) =>
      task.map((c) => {
        const p = position.get(c);
        if (p === undefined) throw new RangeError(`Class ${c} of an ordering is not one of the experiment's classes.`);
        return p;
      }),
    ),
  );
  let batch: PtmJobRecord[] = [];
  let last = performance.now();
  let done = 0;
  let states = 0;
  let started = false;
  const flush = (): void => {
    if (batch.length === 0) return;
    emit({ kind: 'records', records: batch, done, total: orderings.length, states });
    batch = [];
    last = performance.now();
  };
  const pausePoint = pausePointOf({ control: ctx.control }, 50);
  // the method set up (RanPAC's projection and kernel: one synchronous call, seconds at M = 2000; a pause waits for
  // its end), adapted on each first task when it adapts, then every ordering assembled from the class-set cache
  const { summary, setupSeconds } = await runPtmTruth(
    {
      set,
      classes: input.classes,
      strategy: input.strategy,
      seed: input.seed,
      taskSizes: input.taskSizes,
      orderings,
      total: orderings.length,
      training: input.training,
    },
    {
      onRecord: (r: PtmRunRecord) => {
        if (!started) {
          started = true;
          emit({ kind: 'stage', stage: 'orderings' });
        }
        batch.push({ orderingKey: orderingKey(r.tasks), tasks: r.tasks, matrix: r.matrix, testCounts: r.testCounts });
        done++;
      },
      onProgress: (p) => (states = p.states),
      progressEvery: 64,
      checkEvery: 64,
      checkpoint: async () => {
        if (performance.now() - last >= BATCH_MS) flush();
        await pausePoint();
      },
    },
  );
  states = summary.cache.computed;
  flush();
  const t3 = performance.now();
  const bar = input.headBar ? await headBar(set, input.classes, input.headBar) : undefined;
  return {
    summary,
    seconds: { features: (t1 - t0) / 1000, setup: setupSeconds, orderings: (t3 - t1) / 1000 - setupSeconds },
    d: set.d,
    ...(bar ? { headBar: bar } : {}),
  };
};
