/**
 * The whole distribution of a pre-trained method as a job of the training worker (docs/science.md §9 "The whole
 * distribution"): the experiment's feature set (./source-set.ts), the method set up once (`preparePtm`), then every
 * ordering of Ω — or a uniform sample — summarised without one record per ordering
 * (core/ptm/accuracy-distribution.ts), with RS's and EDGE's orderings and the user's placed in it
 * (core/ptm/distribution-report.ts). Progress goes out at most every `PROGRESS_MS`; the run control's pause point is
 * the checkpoint between orderings, so Pause, Resume and Cancel work (not inside RanPAC's set-up, one synchronous call).
 *
 * The distribution stays in the worker's 'ptm-distribution' slot while its settings do, so placing another order
 * (the lab's "Place an order", an imported log) answers at once instead of enumerating Ω again.
 */
import type { Ordering } from '../../core/orderings/types';
import { sampleOrderingsByShuffle } from '../../core/orderings/sample';
import { formatOmega, countOrderings } from '../../core/orderings/count';
import { accuracyDistribution, type AccuracyDistribution } from '../../core/ptm/accuracy-distribution';
import { firstSessionWidth } from '../../core/ptm/defaults';
import { distributionReport, type DistributionReport, type OrderingToPlace } from '../../core/ptm/distribution-report';
import { preparePtm } from '../../core/ptm/ground-truth';
import { PtmInputError } from '../../core/ptm/problem';
import { pausePointOf } from '../control';
import type { Job } from '../jobs/job';
import type { ExtractProgress } from './extract';
import { featureSetKey, jobFeatureSet } from './source-set';
import type { PtmExperimentInput } from './ptm-job';

/** An ordering to place, over dataset class indices (its flat order as drawn or written, when it has one). */
export interface JobOrdering {
  label: string;
  tasks: number[][];
  order?: number[];
}

export interface DistributionJobInput extends PtmExperimentInput {
  /** every ordering, or a uniform sample (`sampleOrderingsByShuffle`) */
  orderings: { kind: 'all' } | { kind: 'sample'; size: number; seed: number };
  rs: JobOrdering[];
  edge: JobOrdering[];
  place: JobOrdering[];
}

export type DistributionJobEvent =
  { kind: 'stage'; stage: 'features' | 'setup' | 'orderings'; extract?: ExtractProgress } | { kind: 'progress'; done: number; total: number; states: number };

export interface DistributionJobOutput {
  report: DistributionReport;
  /** seconds to get the features, to set the method up and for the orderings (0 when the distribution was kept) */
  seconds: { features: number; setup: number; orderings: number };
  /** the distribution was already in the worker (only the orderings to place were computed) */
  reused: boolean;
}

/** Progress goes out at most this often (and at the end). */
const PROGRESS_MS = 100;

/** The key the worker keeps a distribution under: what determines it. */
function distributionKey(input: DistributionJobInput): string {
  const rows = { classes: input.classes, trainPerClass: input.trainPerClass, testPerClass: input.testPerClass };
  return JSON.stringify([featureSetKey(input.datasetId, input.features, rows), input.classes, input.strategy, input.seed, input.taskSizes, input.orderings]);
}

export const distributionJob: Job<DistributionJobInput, DistributionJobOutput, DistributionJobEvent> = async (input, ctx, emit) => {
  if (firstSessionWidth(input.strategy) > 0)
    throw new PtmInputError(
      'The whole distribution covers the methods whose state after a step is the set of classes seen; with first-session adaptation it also depends on the first task.',
    );
  const position = new Map(input.classes.map((c, p) => [c, p]));
  const local = (o: JobOrdering): OrderingToPlace => ({
    label: o.label,
    tasks: o.tasks.map((task) =>
      task.map((c) => {
        const p = position.get(c);
        if (p === undefined) throw new PtmInputError(`Class ${c} of ${o.label} is not one of the experiment's classes.`);
        return p;
      }),
    ),
    order: o.order?.map((c) => position.get(c)!),
  });
  const seconds = { features: 0, setup: 0, orderings: 0 };
  let made = false;
  const dist = await ctx.derived<AccuracyDistribution>('ptm-distribution', distributionKey(input), async () => {
    made = true;
    const t0 = performance.now();
    const set = await jobFeatureSet(ctx, input, emit);
    const t1 = performance.now();
    emit({ kind: 'stage', stage: 'setup' });
    const evaluator = preparePtm({ features: set, classes: input.classes, strategy: input.strategy, seed: input.seed });
    const t2 = performance.now();
    emit({ kind: 'stage', stage: 'orderings' });
    const orderings =
      input.orderings.kind === 'all'
        ? ({ kind: 'all' } as const)
        : {
            kind: 'list' as const,
            orderings: sampleOrderingsByShuffle(input.taskSizes, input.orderings.size, input.orderings.seed) as Ordering[],
            label: `a uniform sample of ${formatOmega(BigInt(input.orderings.size))} of ${formatOmega(countOrderings(input.taskSizes))} orderings (seed ${input.orderings.seed})`,
          };
    const pausePoint = pausePointOf({ control: ctx.control }, 50);
    let last = 0;
    const d = await accuracyDistribution(
      { evaluator, taskSizes: input.taskSizes, orderings },
      {
        checkEvery: 2048,
        progressEvery: 2048,
        onProgress: (p) => {
          const now = performance.now();
          if (now - last >= PROGRESS_MS || p.done === p.total) {
            last = now;
            emit({ kind: 'progress', ...p });
          }
        },
        checkpoint: pausePoint,
      },
    );
    const t3 = performance.now();
    seconds.features = (t1 - t0) / 1000;
    seconds.setup = (t2 - t1) / 1000;
    seconds.orderings = (t3 - t2) / 1000;
    return d;
  });
  const report = distributionReport({
    dist,
    classes: input.classes,
    rs: input.rs.map(local),
    edge: input.edge.map(local),
    place: input.place.map(local),
  });
  return { report, seconds, reused: !made };
};
