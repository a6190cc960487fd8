import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { CURRICULUM_DATASETS } from '../../../../src/core/curriculum/catalogue';
import { tilDominates } from '../../../../src/core/curriculum/til';
import { selectBackend } from '../../../../src/engine/backend';
import { joinCurriculum, toGrey } from '../../../../src/engine/curriculum/data';
import { trainIsolated, trainOrder } from '../../../../src/engine/curriculum/run';
import type { ImageDataset } from '../../../../src/engine/types';

/** A fake 10-class source: class c's images are a bright bar at column c (4×4×3 or 8×8×1). */
function fake(shape: [number, number, number], names: string[], perClass: number): ImageDataset {
  const size = shape[0] * shape[1] * shape[2];
  const make = (n: number) => {
    const images = new Uint8Array(n * names.length * size);
    const labels = new Uint8Array(n * names.length);
    for (let c = 0; c < names.length; c++)
      for (let k = 0; k < n; k++) {
        const i = c * n + k;
        labels[i] = c;
        for (let p = 0; p < size; p++) images[i * size + p] = Math.floor(p / shape[2]) % shape[1] === c % shape[1] ? 200 + k : 10 * ((c * 7 + k) % 5);
      }
    return { images, labels };
  };
  return { shape, classNames: names, train: make(perClass), test: make(Math.max(1, perClass >> 1)) };
}

const digits = CURRICULUM_DATASETS.find((d) => d.id === 'digits')!;
const fashion = CURRICULUM_DATASETS.find((d) => d.id === 'fashion-mnist')!;

describe('curriculum engine', () => {
  it('toGrey: a constant image stays constant; luma of RGB', () => {
    expect([...toGrey(new Uint8Array(16).fill(77), [4, 4, 1], 7, 7)].every((x) => x === 77)).toBe(true);
    const red = new Uint8Array(4 * 3);
    for (let p = 0; p < 4; p++) red[p * 3] = 255;
    expect(toGrey(red, [2, 2, 3], 2, 2)[0]).toBe(Math.round(0.299 * 255));
  });

  it('joins datasets with label offsets at 28×28 grey', () => {
    const ds = joinCurriculum(
      [digits, fashion],
      { digits: fake([8, 8, 1], digits.classes.slice(), 3), 'fashion-mnist': fake([8, 8, 1], fashion.classes.slice(), 3) },
      { trainPerClass: 2 },
    );
    expect(ds.shape).toEqual([28, 28, 1]);
    expect(ds.classNames).toHaveLength(20);
    expect(ds.classNames[10]).toBe('Fashion-MNIST: T-shirt/top');
    expect(ds.train.labels.length).toBe(40);
    expect(Math.max(...ds.train.labels)).toBe(19);
    expect(ds.train.images.length).toBe(40 * 784);
  });

  it('an order run gives CIL and TIL from one model, TIL ≥ CIL everywhere; tensors return to baseline', async () => {
    await selectBackend('cpu', { strict: true });
    const ds = joinCurriculum([digits, fashion], {
      digits: fake([8, 8, 1], digits.classes.slice(), 6),
      'fashion-mnist': fake([8, 8, 1], fashion.classes.slice(), 6),
    });
    const settings = { model: { kind: 'mlp' as const, hidden: [16] }, epochs: 2, batchSize: 16 };
    const before = tf.memory().numTensors;
    const isolated = await trainIsolated(ds, settings, 1);
    expect(isolated).toHaveLength(2);
    for (const strategy of ['finetune', 'replay']) {
      const r = await trainOrder(ds, settings, { order: [1, 0], strategy, seed: 1 });
      expect(r.cil).toHaveLength(2);
      expect(tilDominates(r.til, r.cil)).toBe(true);
      // the TIL upper triangle reads the untrained units of the next task: a real accuracy, not 0 by construction
      expect(r.cil[0][1]).toBe(0);
      expect(r.til[1][1]).toBeGreaterThanOrEqual(r.cil[1][1]);
    }
    expect(tf.memory().numTensors).toBe(before);
  });
});
