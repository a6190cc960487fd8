/**
 * `npm run probe:backbone`: how good the embedded backbone's features are on the classes it never saw — the default
 * experiment's Fashion-MNIST 0–5, the backbone pre-trained on 6–9 (src/engine/features/backbone.ts, seed 0) — next to
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
import { initWeights } from '../src/engine/models';
import { deriveSeed, STREAM } from '../src/engine/seeds';
import { trainRun } from '../src/engine/trainer';

const arg = (name: string, fill: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fill;
};
const trainPerClass = arg('train-per-class', 1000);
const epochs = arg('epochs', 30);
const CLASSES = [0, 1, 2, 3, 4, 5];

const root = join(import.meta.dirname, '..');
const ds = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
await selectBackend('wasm', { strict: true });
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

const trained = await trainBackbone(ds, [6, 7, 8, 9], 0);
const untrained: Backbone = { ...trained, weights: initWeights(trained.spec, deriveSeed(0, STREAM.init)) };
const pixels = assembleFeatureSet(ds, picked, pixelsOf('train', picked.train), pixelsOf('test', picked.test), 784);
const sets: [string, FeatureSet][] = [
  [`backbone pre-trained on ${trained.classNames.join(', ')} (seed 0)`, await featuresOf(trained)],
  ['the same network untrained (seed 0)', await featuresOf(untrained)],
  ['pixels / 255', pixels],
];
const results: Record<string, { d: number; linearProbe: number; nearestMean: number }> = {};
for (const [name, set] of sets) results[name] = { d: set.d, linearProbe: await linearProbe(set), nearestMean: nearestMean(set) };

console.log(
  `probe:backbone — Fashion-MNIST 0–5, ${picked.train.length} training / ${picked.test.length} test images; linear probe ${epochs} epochs (engine, wasm), nearest class mean (cosine):`,
);
for (const [k, v] of Object.entries(results))
  console.log(
    `  ${k.padEnd(66)} d ${String(v.d).padStart(3)}  linear probe ${(100 * v.linearProbe).toFixed(2)} %  nearest mean ${(100 * v.nearestMean).toFixed(2)} %`,
  );
console.log(JSON.stringify({ trainPerClass, epochs, backboneTrainAccuracy: trained.trainAccuracy, results }));
