/**
 * The training worker's whole-distribution job (src/engine/features/distribution-job.ts): its report is the core's on
 * the same features (orders over the dataset's class indices); it reports progress; the distribution stays in the
 * worker, so placing another order computes nothing again; Cancel stops it and keeps nothing.
 */
import { describe, expect, it } from 'vitest';
import { accuracyDistribution } from '../../../../src/core/ptm/accuracy-distribution';
import { distributionReport } from '../../../../src/core/ptm/distribution-report';
import { preparePtm } from '../../../../src/core/ptm/ground-truth';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';
import { RunControl } from '../../../../src/engine/control';
import { distributionJob, type DistributionJobEvent, type DistributionJobInput } from '../../../../src/engine/features/distribution-job';
import { jobContext } from '../../../../src/engine/jobs/job';

const set = syntheticFeatures({ classes: 10, dims: 8, trainPerClass: 12, testPerClass: 8, separation: 0.5, seed: 2 });
const classes = [0, 2, 3, 4, 5, 7, 8, 9]; // dataset class indices; positions 0..7
const sizes = [2, 2, 2, 2];
const noImages = async () => {
  throw new Error('the cached features need no images');
};

function input(extra: Partial<DistributionJobInput> = {}): DistributionJobInput {
  return {
    datasetId: 'synthetic',
    features: { source: 'cached', key: 'synthetic-10', set },
    classes,
    trainPerClass: null,
    testPerClass: null,
    strategy: { id: 'simplecil', options: { metric: 'cosine' } },
    seed: 0,
    taskSizes: sizes,
    orderings: { kind: 'all' },
    rs: [
      {
        label: 'RS seed 0',
        tasks: [
          [9, 0],
          [5, 3],
          [8, 2],
          [7, 4],
        ],
        order: [9, 0, 5, 3, 8, 2, 7, 4],
      },
    ],
    edge: [],
    place: [
      {
        label: 'given order',
        tasks: [
          [0, 2],
          [3, 4],
          [5, 7],
          [8, 9],
        ],
      },
    ],
    ...extra,
  };
}

describe('the whole-distribution job', () => {
  it('reports what the core computes on the same features, over dataset class indices, with progress', async () => {
    const events: DistributionJobEvent[] = [];
    const out = await distributionJob(input(), jobContext(noImages, new RunControl()), (e) => events.push(e));
    const evaluator = preparePtm({ features: set, classes, strategy: { id: 'simplecil', options: { metric: 'cosine' } }, seed: 0 });
    const dist = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'all' } });
    const want = distributionReport({
      dist,
      classes,
      rs: [
        {
          label: 'RS seed 0',
          tasks: [
            [7, 0],
            [4, 2],
            [6, 1],
            [5, 3],
          ],
          order: [7, 0, 4, 2, 6, 1, 5, 3],
        },
      ],
      place: [
        {
          label: 'given order',
          tasks: [
            [0, 1],
            [2, 3],
            [4, 5],
            [6, 7],
          ],
        },
      ],
    });
    expect(out.report).toEqual(want);
    expect(out.reused).toBe(false);
    expect(out.report.summary.orderings).toBe(2520);
    expect(out.report.rs!.orderings[0].order).toEqual([9, 0, 5, 3, 8, 2, 7, 4]);
    expect(out.report.places[0].tasks).toEqual([
      [0, 2],
      [3, 4],
      [5, 7],
      [8, 9],
    ]);
    expect(events.filter((e) => e.kind === 'stage').map((e) => (e as { stage: string }).stage)).toEqual(['features', 'setup', 'orderings']);
    const last = events.filter((e) => e.kind === 'progress').pop();
    expect(last).toEqual({ kind: 'progress', done: 2520, total: 2520, states: 1 + 28 + 70 + 28 });
  });

  it('keeps the distribution: placing another order computes nothing again', async () => {
    const ctx = jobContext(noImages, new RunControl());
    await distributionJob(input(), ctx, () => {});
    const events: DistributionJobEvent[] = [];
    const again = await distributionJob(
      input({
        place: [
          {
            label: 'other',
            tasks: [
              [8, 9],
              [5, 7],
              [3, 4],
              [0, 2],
            ],
          },
        ],
      }),
      ctx,
      (e) => events.push(e),
    );
    expect(again.reused).toBe(true);
    expect(events).toEqual([]);
    expect(again.report.places.map((p) => p.label)).toEqual(['other']);
    // another method is another distribution
    const fecam = await distributionJob(input({ strategy: { id: 'fecam', options: { shrinkage: 1 } } }), ctx, () => {});
    expect(fecam.reused).toBe(false);
    expect(fecam.report.summary.method).toBe('FeCAM (shrinkage 1)');
  });

  it('refuses first-session adaptation, and an ordering of another class', async () => {
    const ctx = jobContext(noImages, new RunControl());
    await expect(distributionJob(input({ strategy: { id: 'simplecil', options: { metric: 'cosine', firstSession: 8 } } }), ctx, () => {})).rejects.toThrow(
      /also depends on the first task/,
    );
    await expect(
      distributionJob(
        input({
          place: [
            {
              label: 'x',
              tasks: [
                [1, 2],
                [3, 4],
                [5, 7],
                [8, 9],
              ],
            },
          ],
        }),
        ctx,
        () => {},
      ),
    ).rejects.toThrow(/Class 1 of x is not one of the experiment's classes/);
  });

  it('stops at its pause point when cancelled, and keeps nothing', async () => {
    const control = new RunControl();
    const ctx = jobContext(noImages, control);
    const run = distributionJob(input(), ctx, (e) => {
      if (e.kind === 'stage' && e.stage === 'orderings') control.cancel();
    });
    await expect(run).rejects.toMatchObject({ name: 'RunCancelledError' });
    // the same worker's next start computes it afresh (the cancelled one was not kept)
    const out = await distributionJob(input(), { ...ctx, control: new RunControl() }, () => {});
    expect(out.reused).toBe(false);
  });
});
