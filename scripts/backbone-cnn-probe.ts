/**
 * `npm run probe:backbone-cnn` (a trial, not a source of the app): would a small CNN pre-trained on the held-out
 * classes (Fashion-MNIST 6–9) give better features than the embedded MLP backbone or the pixels? Same probes as
 * `npm run probe:backbone` (below), on: the CNN's 128-unit dense features after pre-training, the same CNN untrained,
 * and its pooled convolution maps (1 568 values). The CNN: conv 3×3×16 ReLU → max-pool 2 → conv 3×3×32 ReLU →
 * max-pool 2 → dense 128 ReLU (the features) → one unit per pre-training class; tfjs on cpu, Glorot-uniform weights
 * from seeded tfjs generators, the MLP backbone's recipe otherwise (first 1 000 images per class, 5 epochs of Adam lr
 * 1e-3, batches of 64 in a seeded order).
 *
 * The original header of probe:backbone follows.
 * `npm run probe:backbone`: how good the embedded backbone's features are on the classes it never saw — the default
 * experiment's Fashion-MNIST 0–5, the stand-in backbone trained on 6–9 (src/engine/features/backbone.ts, seed 0) — next to
 * the pixels the MLP trains on, and to the same network left untrained (seed 0's initial weights: what pre-training
 * adds). Two measures on each, all six classes at once (not incremental):
 * - linear probe: a linear head (the `head` model, no hidden layer) trained by the engine on the first
 *   `--train-per-class` (default 1000) training images of each class, `--epochs` (default 30) of Adam, lr 1e-3,
 *   batch 64, seed 0, then accuracy on every test image of the six classes (1,000 each);
 * - nearest class mean: each test image to the class whose mean L2-normalised training vector has the highest cosine
 *   (what SimpleCIL-style prototype methods do).
 * Prints a table and one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FeatureSet } from '../src/core/features/feature-set';
import { cosineSimilarity } from '../src/core/similarity/cosine';
import { classMeanPrototypes } from '../src/core/similarity/prototypes';
import { loadBuiltinDataset } from '../src/data/registry';
import { selectBackend } from '../src/engine/backend';
import { fromDecodedDataset } from '../src/engine/dataset';
import { backboneFeatures, trainBackbone, type Backbone } from '../src/engine/features/backbone';
import { featureDatasetOf } from '../src/engine/features/dataset';
import { assembleFeatureSet, extractionRows } from '../src/engine/features/extract';
import { trainRun } from '../src/engine/trainer';
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng } from '../src/core/random/default-rng';
import { epochOrder, indicesByClass } from '../src/engine/dataset';
import { ensureGradients } from '../src/engine/gradients';

const arg = (name: string, fill: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fill;
};
const trainPerClass = arg('train-per-class', 1000);
const epochs = arg('epochs', 30);
const cnnEpochs = arg('cnn-epochs', 5);
const CLASSES = [0, 1, 2, 3, 4, 5];

const root = join(import.meta.dirname, '..');
const ds = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
// tfjs's wasm backend has no convolution gradients: the CNN trains (and the probes run) on the cpu backend
await selectBackend('cpu', { strict: true });
await ensureGradients();
const picked = extractionRows(ds, { classes: CLASSES, trainPerClass, testPerClass: null });

async function featuresOf(b: Backbone): Promise<FeatureSet> {
  return assembleFeatureSet(
    ds,
    picked,
    await backboneFeatures(b, ds.train.images, picked.train),
    await backboneFeatures(b, ds.test.images, picked.test),
    b.dim,
  );
}
const pixelsOf = (split: 'train' | 'test', rows: Int32Array) =>
  Float32Array.from({ length: rows.length * 784 }, (_, i) => ds[split].images[rows[Math.floor(i / 784)] * 784 + (i % 784)] / 255);

/** Accuracy of a linear head trained on the set's train rows, on its test rows. */
async function linearProbe(set: FeatureSet): Promise<number> {
  const r = await trainRun(featureDatasetOf(set, CLASSES), {
    tasks: [CLASSES],
    seed: 0,
    strategy: 'finetune',
    model: { kind: 'head', hidden: [] },
    epochs,
    lr: 1e-3,
  });
  return r.matrix[0][0];
}

/** Accuracy of the nearest class mean (cosine) of the set's train rows, on its test rows. */
function nearestMean(set: FeatureSet): number {
  const rows = (s: 0 | 1) => [...Array(set.n).keys()].filter((i) => set.split[i] === s);
  const take = (idx: number[]) => {
    const x = new Float32Array(idx.length * set.d);
    idx.forEach((r, k) => x.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d));
    return x;
  };
  const train = rows(0);
  const test = rows(1);
  const protos = classMeanPrototypes(
    take(train),
    train.map((r) => set.labels[r]),
    set.d,
    set.classNames.length,
  ).rows.slice(0, CLASSES.length);
  let correct = 0;
  for (const r of test) {
    const sims = cosineSimilarity([...protos, set.features.subarray(r * set.d, (r + 1) * set.d)]);
    let best = 0;
    for (let c = 1; c < protos.length; c++)
      if (sims.data[CLASSES.length * (CLASSES.length + 1) + c] > sims.data[CLASSES.length * (CLASSES.length + 1) + best]) best = c;
    if (best === set.labels[r]) correct++;
  }
  return correct / test.length;
}

// ── the CNN ──
const PRE = [6, 7, 8, 9];
const glorot = (shape: number[], fanIn: number, fanOut: number, seed: number) => {
  const lim = Math.sqrt(6 / (fanIn + fanOut));
  return tf.variable(tf.randomUniform(shape, -lim, lim, 'float32', seed));
};
function makeCnn(seed: number) {
  return {
    c1: glorot([3, 3, 1, 16], 9, 144, seed + 1),
    b1: tf.variable(tf.zeros([16])),
    c2: glorot([3, 3, 16, 32], 144, 288, seed + 2),
    b2: tf.variable(tf.zeros([32])),
    d1: glorot([7 * 7 * 32, 128], 1568, 128, seed + 3),
    e1: tf.variable(tf.zeros([128])),
    d2: glorot([128, PRE.length], 128, PRE.length, seed + 4),
    e2: tf.variable(tf.zeros([PRE.length])),
  };
}
type Cnn = ReturnType<typeof makeCnn>;
const pool = (x: tf.Tensor4D, w: tf.Variable, b: tf.Variable): tf.Tensor4D =>
  tf.maxPool(tf.relu(tf.add(tf.conv2d(x, w as tf.Tensor4D, 1, 'same'), b)) as tf.Tensor4D, 2, 2, 'valid') as tf.Tensor4D;
const convMaps = (m: Cnn, x: tf.Tensor4D) => tf.reshape(pool(pool(x, m.c1, m.b1), m.c2, m.b2), [x.shape[0], 1568]) as tf.Tensor2D;
const dense = (m: Cnn, x: tf.Tensor4D) => tf.relu(tf.add(tf.matMul(convMaps(m, x), m.d1 as tf.Tensor2D), m.e1)) as tf.Tensor2D;
const batchOf = (split: 'train' | 'test', idx: ArrayLike<number>) =>
  tf.tensor4d(
    Float32Array.from({ length: idx.length * 784 }, (_, i) => ds[split].images[idx[Math.floor(i / 784)] * 784 + (i % 784)] / 255),
    [idx.length, 28, 28, 1],
  );

async function pretrain(m: Cnn): Promise<number> {
  const byClass = indicesByClass(ds.train.labels, ds.classNames.length);
  const set = Int32Array.from(PRE.flatMap((c) => [...byClass[c].subarray(0, 1000)])).sort();
  const unit = new Map(PRE.map((c, u) => [c, u]));
  const opt = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
  const rng = createDefaultRng(0);
  let acc = 0;
  for (let e = 0; e < cnnEpochs; e++) {
    const order = epochOrder(rng, set);
    let correct = 0;
    for (let at = 0; at < order.length; at += 64) {
      const idx = order.subarray(at, Math.min(order.length, at + 64));
      const y = tf.oneHot(
        tf.tensor1d(
          Int32Array.from(idx, (i) => unit.get(ds.train.labels[i])!),
          'int32',
        ),
        PRE.length,
      );
      const x = batchOf('train', idx);
      opt.minimize(() => {
        const logits = tf.add(tf.matMul(dense(m, x), m.d2 as tf.Tensor2D), m.e2);
        const hit = tf.tidy(() => tf.sum(tf.cast(tf.equal(tf.argMax(logits, 1), tf.argMax(y, 1)), 'float32')));
        correct += hit.dataSync()[0];
        hit.dispose();
        return tf.losses.softmaxCrossEntropy(y, logits) as tf.Scalar;
      });
      x.dispose();
      y.dispose();
    }
    acc = correct / set.length;
    console.error(`cnn pre-training epoch ${e + 1}/${cnnEpochs}: train accuracy ${(100 * acc).toFixed(1)} %`);
  }
  return acc;
}

async function cnnFeatures(m: Cnn, which: 'dense' | 'maps'): Promise<FeatureSet> {
  const run = (split: 'train' | 'test', rows: Int32Array) => {
    const d = which === 'dense' ? 128 : 1568;
    const out = new Float32Array(rows.length * d);
    for (let at = 0; at < rows.length; at += 256) {
      const part = rows.subarray(at, Math.min(rows.length, at + 256));
      const f = tf.tidy(() => {
        const x = batchOf(split, part);
        return which === 'dense' ? dense(m, x) : convMaps(m, x);
      });
      out.set(f.dataSync() as Float32Array, at * d);
      f.dispose();
    }
    return out;
  };
  return assembleFeatureSet(ds, picked, run('train', picked.train), run('test', picked.test), which === 'dense' ? 128 : 1568);
}

const t0 = performance.now();
const untrainedCnn = makeCnn(0);
const untrainedSets: [string, FeatureSet][] = [['CNN untrained (seed 0), dense 128', await cnnFeatures(untrainedCnn, 'dense')]];
const cnn = makeCnn(0);
const cnnAcc = await pretrain(cnn);
const seconds = (performance.now() - t0) / 1000;
const trained = await trainBackbone(ds, PRE, 0);
const pixels = assembleFeatureSet(ds, picked, pixelsOf('train', picked.train), pixelsOf('test', picked.test), 784);
const sets: [string, FeatureSet][] = [
  ['CNN pre-trained on Shirt, Sneaker, Bag, Ankle boot, dense 128', await cnnFeatures(cnn, 'dense')],
  ['the same CNN, pooled conv maps 1568', await cnnFeatures(cnn, 'maps')],
  ...untrainedSets,
  ['embedded MLP backbone (seed 0)', await featuresOf(trained)],
  ['pixels / 255', pixels],
];
const results: Record<string, { d: number; linearProbe: number; nearestMean: number }> = {};
for (const [name, set] of sets) results[name] = { d: set.d, linearProbe: await linearProbe(set), nearestMean: nearestMean(set) };
console.log(
  `probe:backbone-cnn — Fashion-MNIST 0–5, ${picked.train.length} training / ${picked.test.length} test images; linear probe ${epochs} epochs, nearest class mean (cosine):`,
);
for (const [k, v] of Object.entries(results))
  console.log(
    `  ${k.padEnd(64)} d ${String(v.d).padStart(4)}  linear probe ${(100 * v.linearProbe).toFixed(2)} %  nearest mean ${(100 * v.nearestMean).toFixed(2)} %`,
  );
console.log(JSON.stringify({ trainPerClass, epochs, cnnEpochs, cnnTrainAccuracy: cnnAcc, cnnSeconds: seconds, results }));
