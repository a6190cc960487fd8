/**
 * The feature source service (src/services/feature-source.ts) and its cache (feature-cache.ts), with the real feature
 * job run in-process as a fake training worker: the config's request (rows, source, label), extraction on a miss and
 * the cache on a hit (no second extraction), a set stored whole or not at all when the store refuses (quota), cancel.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/schema';
import { RunControl } from '../../../src/engine/control';
import { featureJob, featureKeyJob, type FeatureJobInput } from '../../../src/engine/features/job';
import { jobContext } from '../../../src/engine/jobs/job';
import { FEATURE_DB, featureCacheOver } from '../../../src/services/feature-cache';
import { featureRequestOf, startFeatureJob } from '../../../src/services/feature-source';
import { memoryStore, type Store } from '../../../src/services/store';
import { syntheticDataset } from '../engine/synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 20, testPerClass: 5, side: 8 });

/** A training worker running the jobs in this process; counts the extractions. */
function fakeLease() {
  let control = new RunControl();
  const calls: string[] = [];
  const main = {
    async loadDataset() {
      return {};
    },
    async job(kind: string, input: FeatureJobInput, onEvent?: (e: unknown) => void) {
      calls.push(kind);
      control = new RunControl();
      const ctx = jobContext(async () => ds, control);
      return kind === 'features-key' ? featureKeyJob(input, ctx, () => {}) : featureJob(input, ctx, (e) => onEvent?.(e));
    },
    async pause() {
      control.pause();
    },
    async resume() {
      control.resume();
    },
    async cancel() {
      control.cancel();
    },
  };
  return { calls, lease: async () => ({ main, helpers: [], backend: {} as never, release() {} }) as never };
}

const config = () => {
  const c = defaultConfig();
  return {
    ...c,
    features: { source: 'backbone' as const, seed: 0 },
    model: { kind: 'head' as const, hidden: [] },
    data: { trainPerClass: 10, testPerClass: 5 },
  };
};

describe('feature requests of a config', () => {
  it('takes the experiment’s classes and subset, and says the source in words', () => {
    const req = featureRequestOf(config() as never)!;
    expect(req.dataset).toEqual({ kind: 'builtin', id: 'fashion-mnist' });
    expect(req.rows).toEqual({ classes: [0, 1, 2, 3, 4, 5], trainPerClass: 10, testPerClass: 5 });
    expect(req.source).toEqual({ source: 'backbone', seed: 0 });
    expect(req.label).toBe('stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)');
    expect(featureRequestOf(defaultConfig())).toBeNull(); // pixels: nothing to extract
  });
});

describe('startFeatureJob', () => {
  const request = () => ({ ...featureRequestOf(config() as never)!, rows: { classes: [0, 1, 2], trainPerClass: null, testPerClass: null } });

  it('extracts on a miss and reads the cache on a hit', async () => {
    const store = memoryStore(FEATURE_DB);
    const cache = async () => featureCacheOver(store);
    const w = fakeLease();
    const first = await startFeatureJob(request(), { lease: w.lease, cache }).done;
    expect(first.cached).toBe(false);
    expect(first.set.n).toBe(75);
    expect(w.calls).toEqual(['features-key', 'features']);
    const meta = await (await cache()).meta(first.key);
    expect(meta).toMatchObject({ n: 75, d: 128, bytes: 75 * 128 * 4 + 75 * 4 + 75, label: request().label });
    const second = await startFeatureJob(request(), { lease: w.lease, cache }).done;
    expect(second.cached).toBe(true);
    expect(second.set.features).toEqual(first.set.features);
    expect(w.calls).toEqual(['features-key', 'features', 'features-key']);
  });

  it('stores a set whole or not at all: a quota error leaves nothing and says so', async () => {
    const inner = memoryStore(FEATURE_DB);
    // the numbers are written, then the meta write fails as a full disk would
    const store: Store = {
      ...inner,
      async put(table, value, key) {
        if (table === 'meta') throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
        return inner.put(table, value, key);
      },
    };
    const w = fakeLease();
    const out = await startFeatureJob(request(), { lease: w.lease, cache: async () => featureCacheOver(store) }).done;
    expect(out.set.n).toBe(75); // the caller still gets the features
    expect(out.notice).toMatch(/storage quota is full \(0\.04 MB asked\)/);
    expect(await inner.count('sets')).toBe(0);
    expect(await inner.count('meta')).toBe(0);
  });

  it('is cancelled mid-way', async () => {
    const w = fakeLease();
    const job = startFeatureJob(request(), {
      lease: w.lease,
      cache: async () => featureCacheOver(memoryStore(FEATURE_DB)),
      onEvent: (e) => e.kind === 'progress' && job.cancel(),
    });
    await expect(job.done).rejects.toMatchObject({ name: 'RunCancelledError' });
  });
});
