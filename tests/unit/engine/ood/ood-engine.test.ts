import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../../src/engine/backend';
import { ensureGradients } from '../../../../src/engine/gradients';
import { createNetwork, initWeights, type NetworkSpec } from '../../../../src/engine/models';
import { outputsOn } from '../../../../src/engine/ood/extract';
import { berLoss, betaSample, classifierHead, logitNormLoss, regMixupLoss } from '../../../../src/engine/ood/heads';
import { memoryExamples } from '../../../../src/engine/ood/memory-state';
import { odinPerturb } from '../../../../src/engine/ood/odin';
import { runOpenWorld, type OpenWorldConfig } from '../../../../src/engine/ood/run';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import { syntheticDataset } from '../synthetic';

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
  await ensureGradients();
});

const SPEC: NetworkSpec = { kind: 'mlp', inputShape: [2, 2, 1], outputs: 3, hidden: [4] };

/** The tiny MLP's logits in float64 from its weights: relu(x·W1 + b1)·W2 + b2. */
function forward64(w: Float32Array[], x: number[]): number[] {
  const [W1, b1, W2, b2] = w;
  const h = Array.from({ length: 4 }, (_, j) => Math.max(0, b1[j] + x.reduce((s, v, i) => s + v * W1[i * 4 + j], 0)));
  return Array.from({ length: 3 }, (_, c) => b2[c] + h.reduce((s, v, j) => s + v * W2[j * 3 + c], 0));
}
const logSumExp = (z: number[]) => {
  const m = Math.max(...z);
  return m + Math.log(z.reduce((s, v) => s + Math.exp(v - m), 0));
};

describe('outputsOn', () => {
  it('equals the network logits (head prefix) and features, and leaves no tensor behind', async () => {
    const ds = syntheticDataset({ classes: 3, side: 2, trainPerClass: 5, testPerClass: 7 });
    const weights = initWeights(SPEC, 5);
    const net = createNetwork(SPEC, weights, { trainable: false });
    const before = tf.memory().numTensors;
    const idx = Int32Array.from([0, 3, 4, 20, 11]);
    const o = await outputsOn(net, ds, ds.test, idx, 2, { features: true, batchSize: 2 });
    expect(tf.memory().numTensors).toBe(before);
    expect([o.n, o.width, o.featureSize]).toEqual([5, 2, 4]);
    idx.forEach((e, i) => {
      const x = Array.from(ds.test.images.subarray(e * 4, e * 4 + 4), (v) => v / 255);
      const z = forward64(weights, x);
      expect(o.logits[i * 2]).toBeCloseTo(z[0], 5);
      expect(o.logits[i * 2 + 1]).toBeCloseTo(z[1], 5);
    });
    net.dispose();
  });
});

describe('ODIN input perturbation', () => {
  it('moves each pixel by ε against the sign of ∇ₓ CE(z/T, argmax z) (finite differences in float64)', () => {
    const weights = initWeights(SPEC, 11);
    const net = createNetwork(SPEC, weights, { trainable: false });
    const T = 2;
    const eps = 0.01;
    const xs = [
      [0.2, 0.7, 0.4, 0.9],
      [0.8, 0.1, 0.5, 0.3],
    ];
    const x = tf.tensor4d(xs.flat(), [2, 2, 2, 1]);
    const before = tf.memory().numTensors;
    const xp = odinPerturb(net, x, 3, T, eps);
    expect(tf.memory().numTensors).toBe(before + 1);
    const moved = Array.from(xp.dataSync());
    xp.dispose();
    x.dispose();
    let checked = 0;
    xs.forEach((row, i) => {
      const label = (() => {
        const z = forward64(weights, row);
        return z.indexOf(Math.max(...z));
      })();
      const loss = (v: number[]) => {
        const z = forward64(weights, v).map((s) => s / T);
        return logSumExp(z) - z[label];
      };
      row.forEach((_, p) => {
        const h = 1e-6;
        const up = row.slice();
        const down = row.slice();
        up[p] += h;
        down[p] -= h;
        const g = (loss(up) - loss(down)) / (2 * h);
        if (Math.abs(g) < 1e-6) return; // a flat direction: the sign is a convention there
        checked++;
        expect(moved[i * 4 + p]).toBeCloseTo(row[p] - eps * Math.sign(g), 6);
      });
    });
    expect(checked).toBeGreaterThan(4);
    net.dispose();
  });
});

describe('fine-tuning losses on a tiny head, against hand computation', () => {
  const W = [
    [0.5, -1],
    [2, 0.25],
  ];
  const b = [0.1, -0.3];
  const fNew = [
    [1, 2],
    [0.5, -1],
  ];
  const fMix = [
    [0.2, 0.1],
    [3, 1],
  ];
  const fOld = [
    [2, 2],
    [-1, 0.5],
  ];
  const yNew = [1, 0];
  const yOld = [0, 1];
  const logits = (f: number[][]) => f.map((r) => [0, 1].map((c) => b[c] + r[0] * W[0][c] + r[1] * W[1][c]));
  const ce = (f: number[][], y: number[]) => logits(f).reduce((s, z, i) => s + logSumExp(z) - z[y[i]], 0) / f.length;
  const E = (f: number[][]) => logits(f).map((z) => -logSumExp(z));
  const relu2 = (v: number) => Math.max(0, v) ** 2;
  const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
  const s = { alpha: 0.1, marginIn: -3, marginOut: -1 };
  const hInNew = mean(E(fNew).map((e) => relu2(e - s.marginIn)));
  const hOutMix = mean(E(fMix).map((e) => relu2(s.marginOut - e)));
  const hInOld = mean(E(fOld).map((e) => relu2(e - s.marginIn)));

  const run = (terms: { nter: boolean; oter: boolean }, withOld = true) =>
    tf.tidy(() => {
      const parts = berLoss(
        tf.tensor2d(W),
        tf.tensor1d(b),
        {
          fNew: tf.tensor2d(fNew),
          yNew: tf.tensor1d(yNew, 'int32'),
          fMix: tf.tensor2d(fMix),
          fOld: withOld ? tf.tensor2d(fOld) : null,
          yOld: withOld ? tf.tensor1d(yOld, 'int32') : null,
        },
        s,
        terms,
      );
      return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v ? v.dataSync()[0] : null]));
    });

  it('BER: CE(new) + CE(old′) + α·(h_in(new) + h_out(mix) + h_in(old′)), term by term', () => {
    expect(hInNew).toBeGreaterThan(0);
    expect(hOutMix).toBeGreaterThan(0);
    expect(hInOld).toBeGreaterThan(0);
    const p = run({ nter: true, oter: true });
    expect(p.ceNew).toBeCloseTo(ce(fNew, yNew), 5);
    expect(p.ceOld).toBeCloseTo(ce(fOld, yOld), 5);
    expect(p.hInNew).toBeCloseTo(hInNew, 5);
    expect(p.hOutMix).toBeCloseTo(hOutMix, 5);
    expect(p.hInOld).toBeCloseTo(hInOld, 5);
    expect(p.total).toBeCloseTo(ce(fNew, yNew) + ce(fOld, yOld) + 0.1 * (hInNew + hOutMix + hInOld), 5);
  });
  it('the ablation switches: NTER only, OTER only, neither; step 0 without old samples', () => {
    expect(run({ nter: true, oter: false }).total).toBeCloseTo(ce(fNew, yNew) + ce(fOld, yOld) + 0.1 * (hInNew + hOutMix), 5);
    expect(run({ nter: false, oter: true }).total).toBeCloseTo(ce(fNew, yNew) + ce(fOld, yOld) + 0.1 * hInOld, 5);
    expect(run({ nter: false, oter: false }).total).toBeCloseTo(ce(fNew, yNew) + ce(fOld, yOld), 5);
    const p0 = run({ nter: true, oter: true }, false);
    expect(p0.ceOld).toBeNull();
    expect(p0.total).toBeCloseTo(ce(fNew, yNew) + 0.1 * (hInNew + hOutMix), 5);
  });
  it('LogitNorm: CE of z / (τ(‖z‖ + 1e-7)); RegMixup: ½(CE + λ·CE(mix, y) + (1−λ)·CE(mix, y[π]))', () => {
    const z = [
      [1, 2],
      [-0.5, 0.3],
    ];
    const y = [0, 1];
    const tau = 0.5;
    const ln =
      z.reduce((acc, r, i) => {
        const n = Math.hypot(...r) + 1e-7;
        const s2 = r.map((v) => v / (tau * n));
        return acc + logSumExp(s2) - s2[y[i]];
      }, 0) / 2;
    expect(tf.tidy(() => logitNormLoss(tf.tensor2d(z), tf.tensor1d(y, 'int32'), tau).dataSync()[0])).toBeCloseTo(ln, 5);
    const zm = [
      [0.3, -0.2],
      [1.5, 0.5],
    ];
    const yp = [1, 0];
    const lam = 0.3;
    const ceRows = (m: number[][], t: number[]) => m.map((r, i) => logSumExp(r) - r[t[i]]);
    const clean = mean(ceRows(z, y));
    const mix = mean(ceRows(zm, y).map((v, i) => lam * v + (1 - lam) * ceRows(zm, yp)[i]));
    const got = tf.tidy(() => regMixupLoss(tf.tensor2d(z), tf.tensor2d(zm), tf.tensor1d(y, 'int32'), tf.tensor1d(yp, 'int32'), lam).dataSync()[0]);
    expect(got).toBeCloseTo(0.5 * (clean + mix), 5);
  });
  it('betaSample: Beta(1,1) is the generator’s uniform; Beta(10,10) has mean ½ and variance 1/84', () => {
    expect(betaSample(createDefaultRng(3), 1)).toBe(createDefaultRng(3).random());
    const rng = createDefaultRng(4);
    const xs = Array.from({ length: 20000 }, () => betaSample(rng, 10));
    const m = mean(xs);
    expect(m).toBeCloseTo(0.5, 2);
    expect(mean(xs.map((v) => (v - m) ** 2))).toBeCloseTo(1 / 84, 3);
  });
  it('classifierHead takes the first `width` columns of the output layer', () => {
    const w = initWeights(SPEC, 1);
    const h = classifierHead(w, 4, 3, 2);
    expect(h.b).toEqual(w[3].slice(0, 2));
    expect(Array.from(h.W)).toEqual([0, 1, 2, 3].flatMap((k) => [w[2][k * 3], w[2][k * 3 + 1]]));
  });
});

describe('memoryExamples', () => {
  it('reads each memory strategy’s state; none for the others', () => {
    expect(Array.from(memoryExamples('replay', { reservoir: Int32Array.from([4, 2]), streamSeen: 9, perClass: [] }))).toEqual([4, 2]);
    expect(Array.from(memoryExamples('gdumb', { memory: Int32Array.from([7]) }))).toEqual([7]);
    expect(Array.from(memoryExamples('agem', { perTask: [Int32Array.from([1]), Int32Array.from([5, 6])] }))).toEqual([1, 5, 6]);
    expect(Array.from(memoryExamples('icarl', { exemplars: [Int32Array.from([0, 1]), Int32Array.from([0, 1, 3]), Int32Array.from([8, 9, 10])] }))).toEqual([
      8, 9, 10,
    ]);
    expect(memoryExamples('ewc', {})).toHaveLength(0);
    expect(memoryExamples('replay', undefined)).toHaveLength(0);
  });
});

describe('runOpenWorld (cpu, tiny synthetic data)', () => {
  const ds = syntheticDataset({ classes: 8, trainPerClass: 30, testPerClass: 10 });
  // near OOD: the test images of classes 6 and 7, which the run never trains on
  const keep = Array.from(ds.test.labels.keys()).filter((i) => ds.test.labels[i] >= 6);
  const near = {
    name: 'held-out 6-7',
    kind: 'near' as const,
    split: {
      images: Uint8Array.from(keep.flatMap((i) => Array.from(ds.test.images.subarray(i * 36, (i + 1) * 36)))),
      labels: Uint8Array.from(keep, (i) => ds.test.labels[i]),
    },
  };
  const config: OpenWorldConfig = {
    train: {
      tasks: [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
      seed: 1,
      strategy: 'replay',
      strategyOptions: { memory: 20 },
      model: { kind: 'mlp', hidden: [16] },
      epochs: 2,
      batchSize: 16,
      lr: 0.01,
    },
    oodSets: [near],
    detectors: ['msp', 'maxlogit', 'energy', 'gen', 'odin', 'react', 'klm', 'relation', 'nnguide', 'ber', 'ber-ce', 'logitnorm', 'regmixup'],
    head: { epochs: 2, batchSize: 32 },
  };
  it('reports every step × detector × set, charts data, returns tensors to baseline, and repeats exactly with the seed', async () => {
    const before = tf.memory().numTensors;
    const seen: number[] = [];
    const a = await runOpenWorld(ds, config, { onStep: (s) => seen.push(s.step) });
    expect(tf.memory().numTensors).toBe(before);
    expect(seen).toEqual([0, 1, 2]);
    expect(a.results).toHaveLength(3 * 13);
    expect(a.results.map((r) => r.oodCount).filter((_, i) => i % 13 === 0)).toEqual([6, 13, 20]); // ⌊20·(t+1)/3⌋
    expect(a.results.map((r) => r.idCount).filter((_, i) => i % 13 === 0)).toEqual([20, 40, 60]);
    for (const r of a.results) for (const k of ['auroc', 'fpr95', 'auprIn', 'auprOut'] as const) expect(r[k]).toBeGreaterThanOrEqual(0);
    const last = a.steps[2];
    expect(last.confidence.tasks).toHaveLength(3);
    expect(last.assignment[near.name].reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(last.samples.find((s) => s.detector === 'energy')?.ood[near.name]).toHaveLength(20);
    expect(a.accuracy).toHaveLength(3);
    // set-up data: the task's own training data + the memory from before it (none at step 0; 20 exemplars later)
    expect(a.steps.map((s) => s.setup)).toEqual([
      { newCount: 60, oldCount: 0 },
      { newCount: 60, oldCount: 20 },
      { newCount: 60, oldCount: 20 },
    ]);
    expect(a.summary.map((s) => s.detector)).toEqual(config.detectors);
    const b = await runOpenWorld(ds, config);
    expect(b.results).toEqual(a.results);
    expect(b.steps.map((s) => s.samples)).toEqual(a.steps.map((s) => s.samples));
  }, 60000);
  it('rejects an empty detector list or OOD list, and a set at the wrong shape', async () => {
    await expect(runOpenWorld(ds, { ...config, detectors: [] })).rejects.toThrow(/at least one detector/);
    await expect(runOpenWorld(ds, { ...config, oodSets: [] })).rejects.toThrow(/at least one OOD set/);
    await expect(runOpenWorld(ds, { ...config, oodSets: [{ ...near, split: { images: new Uint8Array(5), labels: new Uint8Array(1) } }] })).rejects.toThrow(
      /input shape/,
    );
  });
});
