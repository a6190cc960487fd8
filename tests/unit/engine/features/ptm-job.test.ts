/**
 * The training worker's pre-trained-methods job (src/engine/features/ptm-job.ts) and the feature seam
 * (source-set.ts): the job's records are those of the ground truth by class set on the same features (keys and
 * tasks over the dataset's class indices), batched; the feature set is computed once per settings; a source whose
 * features must be extracted first says so; Cancel stops it.
 */
import { describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { orderingKey } from '../../../../src/core/orderings/key';
import { preparePtm, runPtmGroundTruth, type PtmRunRecord } from '../../../../src/core/ptm/ground-truth';
import { RunControl } from '../../../../src/engine/control';
import { backboneFeatureSet } from '../../../../src/engine/features/extract';
import { headBar } from '../../../../src/engine/features/head-bar';
import { ptmJob, type PtmJobEvent, type PtmJobInput } from '../../../../src/engine/features/ptm-job';
import { featureSetOf, FeaturesNotReadyError } from '../../../../src/engine/features/source-set';
import { jobContext } from '../../../../src/engine/jobs/job';
import { syntheticDataset } from '../synthetic';

const ds = syntheticDataset({ classes: 8, trainPerClass: 30, testPerClass: 10, side: 8 });
const classes = [1, 2, 4, 5, 6, 7];
const sizes = [2, 2, 2];
/** every ordering of the six classes, as tasks of dataset class indices */
const orderings = [...enumerateOrderings(sizes)].map((o) => o.map((t) => t.map((p) => classes[p])));

function input(strategy: PtmJobInput['strategy'], extra: Partial<PtmJobInput> = {}): PtmJobInput {
  return {
    datasetId: 'synthetic',
    features: { source: 'backbone', seed: 0 },
    classes,
    trainPerClass: 20,
    testPerClass: null,
    strategy,
    seed: 3,
    taskSizes: sizes,
    orderings,
    training: { epochs: 2, lr: 1e-3, batchSize: 16, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 },
    ...extra,
  };
}

describe('the ptm job', () => {
  it('gives the ground truth by class set of the backbone’s features, every ordering once, keys over class indices', async () => {
    let loads = 0;
    const ctx = jobContext(async () => (loads++, ds), new RunControl());
    const events: PtmJobEvent[] = [];
    const strategy = { id: 'ranpac', options: { projection: 64, lambdaFrom: 'task' } } as const;
    const out = await ptmJob(input(strategy), ctx, (e) => events.push(e));
    const records = events.flatMap((e) => (e.kind === 'records' ? e.records : []));
    expect(records.map((r) => r.orderingKey).sort()).toEqual(orderings.map(orderingKey).sort());
    expect(events.filter((e) => e.kind === 'stage').map((e) => (e as { stage: string }).stage)).toEqual(
      expect.arrayContaining(['features', 'setup', 'orderings']),
    );
    // RanPAC with λ from the last task: a state is (seen set, λ of the last task), so more than the 31 sets
    expect(out.summary.path).toMatch(/^exact by class set: \d+ states for 90 orderings$/);
    expect(out.d).toBe(128);
    // the same numbers as the core entry point on the same features, ordering by ordering
    const { set } = await backboneFeatureSet(ds, { classes, trainPerClass: 20, testPerClass: null }, 0);
    const direct: PtmRunRecord[] = [];
    const local = orderings.map((o) => o.map((t) => t.map((c) => classes.indexOf(c))));
    await runPtmGroundTruth(
      { evaluator: preparePtm({ features: set, classes, strategy, seed: 3 }), taskSizes: sizes, orderings: local },
      { onRecord: (r) => direct.push(r) },
    );
    const byKey = new Map(records.map((r) => [r.orderingKey, r]));
    for (const d of direct) {
      const r = byKey.get(orderingKey(d.tasks))!;
      expect(r.tasks).toEqual(d.tasks);
      expect(r.matrix).toEqual(d.matrix);
      expect(r.testCounts).toEqual(d.testCounts);
    }
    // another method on the same settings reuses the features (the dataset is not loaded again, nor the backbone trained)
    // … and, asked with the head's settings, measures the head's bar on them: the same numbers as headBar on the set
    const training = { epochs: 3, lr: 1e-2, batchSize: 16, hidden: [], seed: 3 };
    const again = await ptmJob(input({ id: 'simplecil', options: { metric: 'cosine' } }, { headBar: training }), ctx, () => {});
    expect(again.seconds.features).toBeLessThan(out.seconds.features + 1);
    expect(loads).toBe(1);
    expect(again.summary.path).toBe('exact by class set: 31 states for 90 orderings');
    expect(again.headBar).toEqual(await headBar(set, classes, training));
    expect(out.headBar).toBeUndefined();
  }, 60_000);

  it('keeps one feature set per settings in the worker’s slot', async () => {
    let made = 0;
    const ctx = jobContext(async () => (made++, ds), new RunControl());
    const rows = { classes, trainPerClass: 5, testPerClass: 5 };
    const a = await featureSetOf(ctx, 'synthetic', { source: 'backbone', seed: 0 }, rows);
    const b = await featureSetOf(ctx, 'synthetic', { source: 'backbone', seed: 0 }, { ...rows, classes: [...classes].reverse() });
    expect(b).toBe(a);
    const c = await featureSetOf(ctx, 'synthetic', { source: 'backbone', seed: 1 }, rows);
    expect(c).not.toBe(a);
    expect(made).toBe(1);
  }, 60_000);

  it('an encoder’s or an upload’s features: extract them in the Data tab first', async () => {
    const ctx = jobContext(async () => ds, new RunControl());
    const encoder = { source: 'encoder', model: 'Xenova/clip-vit-base-patch32', revision: 'main', precision: 'q8' } as const;
    await expect(ptmJob(input({ id: 'simplecil', options: { metric: 'cosine' } }, { features: encoder }), ctx, () => {})).rejects.toThrow(
      /Xenova\/clip-vit-base-patch32 are not extracted yet: extract the features in the Data tab first/,
    );
    await expect(featureSetOf(ctx, 'synthetic', { source: 'upload', file: 'f.npz' }, { classes, trainPerClass: 5, testPerClass: 5 })).rejects.toBeInstanceOf(
      FeaturesNotReadyError,
    );
  });

  it('stops at its pause point when cancelled', async () => {
    const control = new RunControl();
    const ctx = jobContext(async () => ds, control);
    let records = 0;
    const run = ptmJob(input({ id: 'simplecil', options: { metric: 'cosine' } }), ctx, (e) => {
      if (e.kind === 'stage' && e.stage === 'orderings') control.cancel();
      if (e.kind === 'records') records += e.records.length;
    });
    await expect(run).rejects.toMatchObject({ name: 'RunCancelledError' });
    expect(records).toBeLessThan(90);
  }, 60_000);
});
