/**
 * The fused MLP step (src/engine/kernels/fused-mlp.ts, wasm/mlp-step.ts): its numbers against float64 numpy
 * (tests/fixtures/fused-mlp.json, made by scripts/make-fused-fixtures.py) and against tfjs's own step, when the
 * trainer takes it, and that a run with it is reproducible and close to the tfjs step's run.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fixture from '../../fixtures/fused-mlp.json';
import { selectBackend } from '../../../src/engine/backend';
import { ensureGradients } from '../../../src/engine/gradients';
import { FusedMlp, fusedApplies, pad4, setFusedMlp } from '../../../src/engine/kernels/fused-mlp';
import { crossEntropy, headPrefix } from '../../../src/engine/losses';
import { createNetwork, initWeights, type NetworkSpec } from '../../../src/engine/models';
import { createStrategy } from '../../../src/engine/strategies/index';
import { trainRun } from '../../../src/engine/trainer';
import type { TrainRunConfig } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

interface Case {
  name: string;
  widths: number[];
  batch: number;
  head: number;
  optimizer: 'adam' | 'sgd';
  steps: number;
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  weights: number[][];
  images: number[];
  labels: number[];
  loss: number;
  correct: number;
  gradients: number[][];
  weightsAfter: number[][];
}

const specOf = (widths: number[]): NetworkSpec => ({
  kind: 'mlp',
  inputShape: [1, widths[0], 1],
  hidden: widths.slice(1, -1),
  outputs: widths[widths.length - 1],
});

/** Largest |a − b| relative to the largest |b| of the array (float32 against float64: a few ulps of the scale). */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  let s = 1e-12;
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / s;
}

describe('fused step against float64 numpy', () => {
  for (const c of (fixture as { cases: Case[] }).cases) {
    it(c.name, async () => {
      const spec = specOf(c.widths);
      const f = (await FusedMlp.create(spec, c.batch + 3)) as FusedMlp;
      expect(f).not.toBeNull();
      f.setWeights(c.weights.map((w) => Float32Array.from(w)));
      f.resetOptimizer({ kind: c.optimizer, lr: c.lr, beta1: c.beta1, beta2: c.beta2, epsilon: c.epsilon });
      const images = Uint8Array.from(c.images);
      const idx = Array.from({ length: c.batch }, (_, i) => i);
      f.setBatch(images, c.widths[0], idx, c.labels);
      const r = f.gradients(c.batch, c.head);
      expect(r.loss).toBeCloseTo(c.loss, 5);
      expect(r.correct).toBe(c.correct);
      f.gradientsOut().forEach((g, i) => expect(relErr(g, c.gradients[i]), `gradient ${i}`).toBeLessThan(1e-5));
      f.update();
      for (let t = 1; t < c.steps; t++) f.step(c.batch, c.head);
      f.weights().forEach((w, i) => expect(relErr(w, c.weightsAfter[i]), `weights ${i}`).toBeLessThan(1e-5));
    });
  }

  it('a wrong-sized batch, head or weight list is refused with a message', async () => {
    const f = (await FusedMlp.create(specOf([8, 4, 3]), 4)) as FusedMlp;
    expect(() => f.setBatch(new Uint8Array(40), 8, [0, 1, 2, 3, 4], [0, 0, 0, 0, 0])).toThrow(/batch of 5 exceeds/);
    expect(() => f.setBatch(new Uint8Array(40), 9, [0], [0])).toThrow(/Images of 9 values/);
    expect(() => f.gradients(1, 4)).toThrow(/Head width 4/);
    expect(() => f.setWeights([new Float32Array(32)])).toThrow(/Expected 4 weight arrays/);
    expect(() => f.update()).toThrow(/resetOptimizer/);
  });
});

describe('fused step against tfjs', () => {
  beforeAll(async () => {
    await ensureGradients();
    await selectBackend('cpu', { strict: true });
  });

  it("one step's loss and gradients equal tfjs's (784-256-128-6, a 50-row batch, the first 4 units)", async () => {
    const spec: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 6, hidden: [256, 128] };
    const W = initWeights(spec, 7);
    const size = 784;
    const images = new Uint8Array(120 * size);
    let s = 1;
    const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < images.length; i++) images[i] = rnd() < 0.5 ? 0 : Math.floor(rnd() * 256);
    const idx = Array.from({ length: 50 }, (_, i) => (i * 37) % 120);
    const units = idx.map((i) => i % 4);
    const f = (await FusedMlp.create(spec, 64)) as FusedMlp;
    f.setWeights(W);
    f.setBatch(images, size, idx, units);
    const r = f.gradients(50, 4);
    const net = createNetwork(spec, W);
    const x = tf.tensor4d(Float32Array.from(idx.flatMap((i) => Array.from(images.subarray(i * size, (i + 1) * size), (v) => v / 255))), [50, 28, 28, 1]);
    const y = tf.tensor1d(Int32Array.from(units), 'int32');
    const { value, grads } = tf.variableGrads(() => crossEntropy(headPrefix(net.logits(x), 4), y), net.variables);
    expect(r.loss).toBeCloseTo((await value.data())[0], 5);
    const mine = f.gradientsOut();
    for (let i = 0; i < net.variables.length; i++) expect(relErr(mine[i], (await grads[net.variables[i].name].data()) as Float32Array)).toBeLessThan(1e-5);
    // units past the head get no gradient: their output weights and biases stay put
    expect(Array.from(mine[5].subarray(4))).toEqual([0, 0]);
    tf.dispose([x, y, value, ...Object.values(grads)]);
    net.dispose();
  });

  it('pads widths to multiples of 4', () => {
    expect([1, 4, 5, 8, 10, 784].map(pad4)).toEqual([4, 4, 8, 8, 12, 784]);
  });
});

describe('where the trainer takes the fused step', () => {
  const mlp: NetworkSpec = { kind: 'mlp', inputShape: [4, 4, 1], outputs: 4, hidden: [8] };
  afterAll(() => setFusedMlp(true));

  it('wasm, an MLP, no augmentation, a strategy without loss terms or gradient hooks', async () => {
    const finetune = createStrategy('finetune', {} as never);
    const replay = createStrategy('replay', {} as never);
    const ewc = createStrategy('ewc', {} as never);
    const agem = createStrategy('agem', {} as never);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: null, strategy: finetune })).toBe(true);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: null, strategy: replay })).toBe(true);
    expect(await fusedApplies({ backend: 'cpu', spec: mlp, augment: null, strategy: finetune })).toBe(false);
    expect(await fusedApplies({ backend: 'webgpu', spec: mlp, augment: null, strategy: finetune })).toBe(false);
    expect(await fusedApplies({ backend: 'wasm', spec: { ...mlp, kind: 'cnn', filters: [4, 4], dense: 8 }, augment: null, strategy: finetune })).toBe(false);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: { flip: 0.5 }, strategy: finetune })).toBe(false);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: null, strategy: ewc })).toBe(false);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: null, strategy: agem })).toBe(false);
    setFusedMlp(false);
    expect(await fusedApplies({ backend: 'wasm', spec: mlp, augment: null, strategy: finetune })).toBe(false);
    setFusedMlp(true);
    for (const s of [finetune, replay, ewc, agem]) s.dispose();
  });

  it('a wasm run with it repeats bit for bit, and its R is within 0.05 of the tfjs step’s R', async () => {
    await selectBackend('wasm', { strict: true });
    const ds = syntheticDataset();
    const cfg: TrainRunConfig = {
      tasks: [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
      seed: 5,
      strategy: 'finetune',
      model: { kind: 'mlp', hidden: [16] },
      epochs: 2,
      batchSize: 16,
      lr: 0.01,
      head: 'all',
    };
    setFusedMlp(true);
    const a = await trainRun(ds, cfg);
    const b = await trainRun(ds, cfg);
    expect(b.matrix).toEqual(a.matrix);
    setFusedMlp(false);
    const tfjs = await trainRun(ds, cfg);
    setFusedMlp(true);
    const diff = Math.max(...a.matrix.flatMap((row, i) => row.map((v, j) => Math.abs(v - tfjs.matrix[i][j]))));
    expect(diff).toBeLessThanOrEqual(0.05);
    await selectBackend('cpu', { strict: true });
  });
});
