import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { conv3x3Same, createNetwork, initWeights, paramInfo, type NetworkSpec } from '../../../src/engine/models';

const mlp: NetworkSpec = { kind: 'mlp', inputShape: [8, 8, 1], outputs: 10, hidden: [32, 16] };
const cnn: NetworkSpec = { kind: 'cnn', inputShape: [7, 7, 3], outputs: 5, filters: [4, 8], dense: 12 };

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('models', () => {
  it('lists the weights in forward order with their initialisers', () => {
    expect(paramInfo(mlp).map((p) => `${p.name}:${p.shape.join('x')}:${p.init}`)).toEqual([
      'hidden1/kernel:64x32:he',
      'hidden1/bias:32:zeros',
      'hidden2/kernel:32x16:he',
      'hidden2/bias:16:zeros',
      'output/kernel:16x10:glorot',
      'output/bias:10:zeros',
    ]);
    // 7 → 4 → 2 after two 'same' max-pools: the dense layer sees 2·2·8 = 32 inputs
    expect(paramInfo(cnn).find((p) => p.name === 'dense/kernel')?.shape).toEqual([32, 12]);
  });

  it('initialises from the seed only, within He/Glorot limits, biases zero', () => {
    const a = initWeights(mlp, 5);
    const b = initWeights(mlp, 5);
    const c = initWeights(mlp, 6);
    expect(a).toEqual(b);
    expect(a[0]).not.toEqual(c[0]);
    const he = Math.sqrt(6 / 64);
    expect(Math.max(...a[0].map(Math.abs))).toBeLessThanOrEqual(he);
    expect(Math.max(...a[0].map(Math.abs))).toBeGreaterThan(0.9 * he);
    const glorot = Math.sqrt(6 / (16 + 10));
    expect(Math.max(...a[4].map(Math.abs))).toBeLessThanOrEqual(glorot);
    expect(a[1].every((v) => v === 0)).toBe(true);
  });

  it('computes logits and penultimate features of the right shapes, and round-trips its weights', async () => {
    for (const spec of [mlp, cnn]) {
      const w = initWeights(spec, 1);
      const net = createNetwork(spec, w);
      const x = tf.randomUniform([3, ...spec.inputShape]) as tf.Tensor4D;
      const logits = net.logits(x);
      const feats = net.features(x);
      expect(logits.shape).toEqual([3, spec.outputs]);
      expect(feats.shape).toEqual([3, net.featureSize]);
      const viaHead = net.head(feats);
      expect(Array.from(await viaHead.data())).toEqual(Array.from(await logits.data()));
      expect(await net.readWeights()).toEqual(w);
      const w2 = initWeights(spec, 2);
      net.setWeights(w2);
      expect(await net.readWeights()).toEqual(w2);
      const frozen = createNetwork(spec, w2, { trainable: false });
      expect(frozen.variables).toHaveLength(0);
      expect(() => frozen.setWeights(w)).toThrow(/frozen/);
      tf.dispose([x, logits, feats, viaHead]);
      net.dispose();
      frozen.dispose();
    }
  });

  it('reads back weights set from JavaScript without the device, and from the device once a tensor is assigned', async () => {
    const net = createNetwork(mlp, initWeights(mlp, 1));
    const w2 = initWeights(mlp, 2);
    net.setWeights(w2);
    const read = vi.spyOn(net.params[0], 'data');
    const got = await net.readWeights();
    expect(got).toEqual(w2);
    expect(read).not.toHaveBeenCalled();
    // copies: changing what was passed in or read out changes neither the network nor the next read
    w2[0][0] = 123;
    got[1][0] = 456;
    expect((await net.readWeights())[0][0]).not.toBe(123);
    expect((await net.readWeights())[1][0]).toBe(0);
    // a write through the tensors (an optimiser step, a strategy) makes the known weights stale: read the device
    net.variables[1].assign(tf.fill([32], 0.5));
    const after = await net.readWeights();
    expect(read).toHaveBeenCalled();
    expect(after[1].every((v) => v === 0.5)).toBe(true);
    expect(after[0][0]).not.toBe(123);
    net.dispose();
  });

  it('writes weights set from JavaScript to the tensors only when the tensors are read, and then the last ones set', async () => {
    const net = createNetwork(mlp, initWeights(mlp, 1));
    const assign = vi.spyOn(net.variables[0], 'assign');
    const [w2, w3] = [initWeights(mlp, 2), initWeights(mlp, 3)];
    net.setWeights(w2);
    expect(await net.readWeights()).toEqual(w2);
    net.setWeights(w3);
    expect(await net.readWeights()).toEqual(w3);
    // handed over and read without copies (the fused step's way: it copies into its own memory)
    const w4 = initWeights(mlp, 4);
    net.setWeights(w4, { copy: false });
    const held = await net.readWeights({ copy: false });
    expect(held[0]).toBe(w4[0]);
    expect((await net.readWeights())[0]).not.toBe(w4[0]);
    net.setWeights(w3);
    // what the fused step does between tasks (set, read back, set): no tensor written yet
    expect(assign).not.toHaveBeenCalled();
    const x = tf.randomUniform([3, 8, 8, 1], 0, 1, 'float32', 7) as tf.Tensor4D;
    const fresh = createNetwork(mlp, w3);
    try {
      // reading the tensors (logits here; params, variables, features, head alike) writes the last weights once
      expect(Array.from(net.logits(x).dataSync())).toEqual(Array.from(fresh.logits(x).dataSync()));
      expect(assign).toHaveBeenCalledTimes(1);
      expect(Array.from(net.params[2].dataSync())).toEqual(Array.from(w3[2]));
      expect(assign).toHaveBeenCalledTimes(1);
    } finally {
      x.dispose();
      fresh.dispose();
      net.dispose();
    }
  });

  it('writes the 3×3 convolution as im2col off the GPU, equal to tf.conv2d', async () => {
    const x = tf.randomUniform([2, 5, 6, 3], -1, 1, 'float32', 1) as tf.Tensor4D;
    const k = tf.randomUniform([3, 3, 3, 4], -1, 1, 'float32', 2) as tf.Tensor4D;
    const ours = conv3x3Same(x, k);
    const ref = tf.conv2d(x, k, 1, 'same');
    expect(ours.shape).toEqual(ref.shape);
    const a = await ours.data();
    const b = await ref.data();
    let maxDiff = 0;
    for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
    expect(maxDiff).toBeLessThan(1e-5);
    tf.dispose([x, k, ours, ref]);
  });
});
