/**
 * The feature job (src/engine/features/job.ts): the same features as the extraction entry point, progress with a
 * rate and time left, a cache key that changes with what the vectors depend on (seed, images, model, precision) and
 * not otherwise, pause that holds the job and cancel that ends it; the encoder through the tiny CLIP-vision fixture
 * (self-hosted folder, Node cpu), one batch at a time giving the same vectors as one call.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunCancelledError, RunControl } from '../../../../src/engine/control';
import { backboneFeatureSet, encoderFeatureSet } from '../../../../src/engine/features/extract';
import { createImageEncoder } from '../../../../src/engine/clip/image-encoder';
import { featureCacheKey, featureJob, featureKeyJob, type FeatureJobEvent, type FeatureJobInput } from '../../../../src/engine/features/job';
import { jobContext } from '../../../../src/engine/jobs/job';
import { syntheticDataset } from '../synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 30, testPerClass: 8, side: 8 });
const rows = { classes: [0, 1, 2], trainPerClass: null, testPerClass: null };
const backbone: FeatureJobInput = { dataset: { kind: 'builtin', id: 'synthetic' }, rows, source: { source: 'backbone', seed: 0 } };
const ctxOf = (control = new RunControl()) => jobContext(async () => ds, control);

const encoderSource = (precision: 'q8' | 'fp32') =>
  ({
    source: 'encoder',
    model: 'clip-vision-tiny',
    revision: 'main',
    precision,
    weights: { kind: 'self-hosted', path: resolve('tests/fixtures') },
    device: 'cpu',
    allowRemote: false,
  }) as const;

describe('the feature job', () => {
  it('gives the extraction entry point’s features, with progress and a rate', async () => {
    const events: FeatureJobEvent[] = [];
    const out = await featureJob(backbone, ctxOf(), (e) => events.push(e));
    const direct = await backboneFeatureSet(ds, rows, 0);
    expect(out.set.n).toBe(3 * 38);
    expect(out.set.d).toBe(128);
    expect(out.set.features).toEqual(direct.set.features);
    expect(out.set.labels).toEqual(direct.set.labels);
    expect(out.info.key).toBe(await featureCacheKey(ds, rows, backbone.source));
    const progress = events.filter((e) => e.kind === 'progress');
    expect(progress.some((e) => e.kind === 'progress' && e.stage === 'pretrain')).toBe(true);
    const last = progress[progress.length - 1];
    expect(last).toMatchObject({ stage: 'extract', done: 114, total: 114, secondsLeft: 0 });
    expect(last.kind === 'progress' && last.perSecond).toBeGreaterThan(0);
  });

  it('keys the cache by what the vectors depend on', async () => {
    const key = await featureKeyJob(backbone, ctxOf(), () => {});
    expect(await featureKeyJob(backbone, ctxOf(), () => {})).toBe(key);
    expect(await featureKeyJob({ ...backbone, source: { source: 'backbone', seed: 1 } }, ctxOf(), () => {})).not.toBe(key);
    expect(await featureKeyJob({ ...backbone, rows: { ...rows, trainPerClass: 10 } }, ctxOf(), () => {})).not.toBe(key);
    // one pixel of an image not extracted but pre-trained on (class 5) changes the backbone, so the key
    const changed = structuredClone(ds);
    const at = Array.from(changed.train.labels).indexOf(5);
    changed.train.images[at * 64] ^= 1;
    expect(await featureCacheKey(changed, rows, backbone.source)).not.toBe(key);
    // an encoder's key: the model, revision and precision; q8 also the batch size; not the weight source
    const q8 = encoderSource('q8');
    const k8 = await featureCacheKey(ds, rows, q8);
    expect(await featureCacheKey(ds, rows, { ...q8, weights: { kind: 'hub' } })).toBe(k8);
    expect(await featureCacheKey(ds, rows, { ...q8, revision: 'v2' })).not.toBe(k8);
    expect(await featureCacheKey(ds, rows, q8, 8)).not.toBe(k8);
    expect(await featureCacheKey(ds, rows, encoderSource('fp32'), 8)).toBe(await featureCacheKey(ds, rows, encoderSource('fp32'), 16));
    expect(await featureCacheKey(ds, rows, encoderSource('fp32'))).not.toBe(k8);
  });

  it('waits while paused and stops when cancelled', async () => {
    const control = new RunControl();
    control.pause();
    let settled = false;
    const running = featureJob(backbone, ctxOf(control), () => {}).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    control.cancel();
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);

    // cancelled mid-way (after the first progress of the extraction)
    const c2 = new RunControl();
    const mid = featureJob(backbone, ctxOf(c2), (e) => e.kind === 'progress' && e.stage === 'pretrain' && c2.cancel());
    await expect(mid).rejects.toBeInstanceOf(RunCancelledError);
  });

  it('runs an image encoder one batch at a time with the vectors of one call (q8 fixture)', async () => {
    const events: FeatureJobEvent[] = [];
    const input: FeatureJobInput = {
      dataset: { kind: 'builtin', id: 'synthetic' },
      rows: { classes: [0, 1], trainPerClass: 5, testPerClass: 2 },
      source: encoderSource('q8'),
      batchSize: 4,
    };
    const out = await featureJob(input, ctxOf(), (e) => events.push(e));
    const encoder = await createImageEncoder({
      modelId: 'clip-vision-tiny',
      precision: 'q8',
      device: 'cpu',
      source: { kind: 'self-hosted', path: resolve('tests/fixtures') },
      allowRemote: false,
    });
    const direct = await encoderFeatureSet(ds, input.rows, encoder, { batchSize: 4 });
    await encoder.dispose();
    expect(out.set.n).toBe(14);
    expect(out.set.features).toEqual(direct.features);
    expect(events.find((e) => e.kind === 'device')).toMatchObject({ device: 'cpu', requested: 'cpu' });
    expect(out.info.device).toBe('cpu');
  });
});
