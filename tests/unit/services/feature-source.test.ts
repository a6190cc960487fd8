/**
 * The feature source service (src/services/feature-source.ts) and its cache (feature-cache.ts), with the real feature
 * job run in-process as a fake training worker: the config's request (rows, source, label), extraction on a miss and
 * the cache on a hit (no second extraction), a set stored whole or not at all when the store refuses (quota), cancel;
 * a set past the largest value a browser stores kept in pieces, and an upload read by the data worker's reader.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/schema';
import { RunControl } from '../../../src/engine/control';
import { featureJob, featureKeyJob, type FeatureJobInput } from '../../../src/engine/features/job';
import { jobContext } from '../../../src/engine/jobs/job';
import { FEATURE_DB, FEATURE_PIECE_VALUES, featureCacheOver } from '../../../src/services/feature-cache';
import { featureRequestOf, startFeatureJob, storeUploadedFeatures } from '../../../src/services/feature-source';
import type { FeatureSet } from '../../../src/core/features/feature-set';
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

describe('large sets and uploads', () => {
  /** A store that refuses a value past 4 000 bytes, as Chromium refuses one past about 127 MB. */
  function chromiumLike(): { store: Store; inner: Store } {
    const inner = memoryStore(FEATURE_DB);
    const store: Store = {
      ...inner,
      async put(table, value, key) {
        const f = (value as { features?: Float32Array }).features;
        if (f && f.byteLength > 4_000) throw Object.assign(new Error('The serialized keys and/or value are too large.'), { name: 'DataCloneError' });
        return inner.put(table, value, key);
      },
    };
    return { store, inner };
  }
  const big = (n: number, d: number): FeatureSet => ({
    features: Float32Array.from({ length: n * d }, (_, i) => (i % 9973) / 7),
    n,
    d,
    labels: Int32Array.from({ length: n }, (_, i) => i % 3),
    split: Uint8Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 1 : 0)),
    classNames: ['a', 'b', 'c'],
  });

  it('stores a set larger than one value may be in pieces, reads it back whole, and deletes every piece', async () => {
    const { store, inner } = chromiumLike();
    // pieces of 1 000 values (4 000 bytes) here; of FEATURE_PIECE_VALUES (8 MB) in the app
    expect(FEATURE_PIECE_VALUES * 4).toBeLessThan(127_000_000);
    const whole = featureCacheOver(store);
    const set = big(110, 20); // 2 200 values: 8 800 bytes, three pieces
    expect((await whole.put('upload:x', set, { label: 'x', device: 'upload' })).notice).toMatch(/refused to store them \(The serialized keys/);
    expect(await inner.count('sets')).toBe(0);
    const cache = featureCacheOver(store, 1_000);
    expect(await cache.put('upload:x', set, { label: 'uploaded features x.npz', device: 'upload', file: 'x.npz' })).toEqual({ stored: true, notice: null });
    expect(await inner.count('sets')).toBe(4); // the record and three pieces
    const back = await cache.get('upload:x');
    expect(back?.n).toBe(110);
    expect(Array.from(back!.features)).toEqual(Array.from(set.features));
    expect((await cache.list()).map((m) => [m.key, m.n, m.d])).toEqual([['upload:x', 110, 20]]);
    await cache.delete('upload:x');
    expect(await inner.count('sets')).toBe(0);
    expect(await cache.get('upload:x')).toBeNull();
  });

  it('an upload is read by the given reader (the data worker in the app), never on the caller’s thread, and cached under its hash', async () => {
    const set = big(10, 2);
    let read = 0;
    const cache = featureCacheOver(memoryStore(FEATURE_DB));
    const file = Object.assign(new Blob([new Uint8Array([1, 2, 3])]), { name: 'mine.npz' });
    const r = await storeUploadedFeatures(
      file,
      async () => cache,
      async (f, name) => {
        read++;
        expect([f.size, name]).toEqual([3, 'mine.npz']);
        return { set, contentHash: 'fnv1a64:0000000000000abc', heldOut: true };
      },
    );
    expect(read).toBe(1);
    expect(r).toMatchObject({
      ref: { name: 'mine.npz', contentHash: 'fnv1a64:0000000000000abc' },
      key: 'upload:fnv1a64:0000000000000abc',
      heldOut: true,
      notice: null,
    });
    expect((await cache.get(r.key))?.n).toBe(10);
  });
});
