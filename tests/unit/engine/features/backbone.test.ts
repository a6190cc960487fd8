/**
 * The embedded backbone (src/engine/features/backbone.ts) and the extraction entry point (extract.ts): deterministic
 * from its seed (the same weights and features twice, other ones for another seed), pre-trained on exactly the
 * classes the experiment leaves out, features = the last hidden layer's ReLU outputs, and the refusals. On the real
 * default (Fashion-MNIST 0–5, pre-trained on 6–9) the features' digest is pinned: the fused kernels are IEEE f32x4
 * only, so any machine and any browser must give these bits (the Chromium check of the app compares the same digest).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/core/config/url-codec';
import { featureCounts } from '../../../../src/core/features/feature-set';
import { loadBuiltinDataset } from '../../../../src/data/registry';
import { fromDecodedDataset } from '../../../../src/engine/dataset';
import { BACKBONE_RECIPE, BackboneError, backboneFeatures, trainBackbone } from '../../../../src/engine/features/backbone';
import { backboneFeatureSet, extractionRows } from '../../../../src/engine/features/extract';
import { syntheticDataset } from '../synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 30, testPerClass: 8, side: 8 });
const bytes = (a: Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
/** The content hash of the arrays' bytes, one after the other. */
function digest(arrays: Float32Array[]): string {
  const all = new Uint8Array(arrays.reduce((n, a) => n + a.byteLength, 0));
  let at = 0;
  for (const a of arrays) {
    all.set(bytes(a), at);
    at += a.byteLength;
  }
  return contentHash(all);
}

describe('the embedded backbone', () => {
  it('is deterministic from its seed: the same weights and features twice, others for another seed', async () => {
    const a = await trainBackbone(ds, [3, 4, 5], 0);
    const b = await trainBackbone(ds, [5, 4, 3], 0);
    const c = await trainBackbone(ds, [3, 4, 5], 1);
    expect(digest(b.weights)).toBe(digest(a.weights));
    expect(digest(c.weights)).not.toBe(digest(a.weights));
    const rows = Int32Array.from({ length: 20 }, (_, i) => i);
    const fa = await backboneFeatures(a, ds.test.images, rows);
    expect(digest([await backboneFeatures(b, ds.test.images, rows)])).toBe(digest([fa]));
    expect(fa.length).toBe(20 * BACKBONE_RECIPE.hidden[1]);
    expect(a.dim).toBe(128);
    expect(a.classes).toEqual([3, 4, 5]);
    expect(a.classNames).toEqual(['class 3', 'class 4', 'class 5']);
    expect(a.trainImages).toBe(90);
    expect(a.trainAccuracy).toBeGreaterThan(0.9); // it learned its own classes
    expect(Math.min(...fa)).toBeGreaterThanOrEqual(0); // ReLU outputs
  });

  it('gives features equal to a plain float64 forward pass of its weights', async () => {
    const bb = await trainBackbone(ds, [0, 1], 2);
    const rows = [3, 7, 11];
    const got = await backboneFeatures(bb, ds.train.images, rows);
    const size = 64;
    const [w1, b1, w2, b2] = bb.weights;
    rows.forEach((e, r) => {
      const x = Array.from(ds.train.images.subarray(e * size, (e + 1) * size), (v) => Math.fround(v / 255));
      const h1 = Array.from({ length: 256 }, (_, j) =>
        Math.max(
          0,
          x.reduce((s, v, i) => s + v * w1[i * 256 + j], b1[j]),
        ),
      );
      for (let j = 0; j < 128; j++) {
        const want = Math.max(
          0,
          h1.reduce((s, v, i) => s + v * w2[i * 128 + j], b2[j]),
        );
        expect(Math.abs(got[r * 128 + j] - want)).toBeLessThan(1e-4 * Math.max(1, Math.abs(want)));
      }
    });
  });

  it('extracts the experiment’s rows, pre-trained on the other classes, with the dataset’s labels and names', async () => {
    const stages: string[] = [];
    const { set, backbone } = await backboneFeatureSet(ds, { classes: [0, 2], trainPerClass: 5, testPerClass: null }, 0, (p) => stages.push(p.stage));
    expect(backbone.classes).toEqual([1, 3, 4, 5]);
    expect(set.d).toBe(128);
    expect(set.classNames).toEqual(ds.classNames);
    expect(featureCounts(set)).toEqual([
      [5, 0, 5, 0, 0, 0],
      [8, 0, 8, 0, 0, 0],
    ]);
    const picked = extractionRows(ds, { classes: [0, 2], trainPerClass: 5, testPerClass: null });
    expect(Array.from(picked.train)).toEqual([...picked.train].sort((x, y) => x - y));
    expect(Array.from(set.labels.subarray(0, 10))).toEqual(Array.from(picked.train, (e) => ds.train.labels[e]));
    expect(stages[0]).toBe('pretrain');
    expect(stages[stages.length - 1]).toBe('extract');
  });

  it('refuses an experiment that uses every class, a missing class and a bad seed', async () => {
    await expect(backboneFeatureSet(ds, { classes: [0, 1, 2, 3, 4, 5], trainPerClass: 5, testPerClass: 5 }, 0)).rejects.toThrow(
      /uses all 6.*image encoder or uploaded features/,
    );
    await expect(trainBackbone(ds, [9], 0)).rejects.toThrow(BackboneError);
    await expect(trainBackbone(ds, [1], 0.5)).rejects.toThrow(/seed/);
  });
});

const prepared = existsSync(join('public', 'data', 'fashion-mnist', 'meta.json'));
describe.skipIf(!prepared)('the default backbone (Fashion-MNIST 0–5, pre-trained on 6–9)', () => {
  it('is labelled with its classes and gives pinned features', async () => {
    const fm = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join('public', p)))));
    const { set, backbone } = await backboneFeatureSet(fm, { classes: [0, 1, 2, 3, 4, 5], trainPerClass: 20, testPerClass: 10 }, 0);
    expect(backbone.classNames).toEqual(['Shirt', 'Sneaker', 'Bag', 'Ankle boot']);
    expect(backbone.trainImages).toBe(4000);
    expect(set.n).toBe(180);
    expect(digest([set.features])).toBe(PINNED_DEFAULT_DIGEST);
  }, 60_000);
});

/** fnv1a64 of the default backbone's features of the first 20 + 10 images of classes 0–5 (set once, from this test). */
const PINNED_DEFAULT_DIGEST = 'fnv1a64:fd4307890beb3b7f';
