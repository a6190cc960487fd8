import * as tf from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { trainRun } from '../../../src/engine/trainer';
import { syntheticDataset } from './synthetic';

it('a run started before any backend was chosen probes one first (wasm in Node)', async () => {
  const fresh = tf.engine().backendName == null; // each test file runs in a fresh process
  const r = await trainRun(syntheticDataset({ classes: 2, trainPerClass: 8, testPerClass: 4 }), {
    tasks: [[0, 1]],
    seed: 0,
    strategy: 'finetune',
    model: { kind: 'mlp', hidden: [4] },
    epochs: 1,
  });
  if (fresh) expect(r.backend).toBe('wasm');
  expect(r.matrix).toHaveLength(1);
});
