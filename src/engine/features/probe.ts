/**
 * How good the embedded backbone's features are (docs/science.md appendix E "How good are its features?"): the same
 * two probes on the backbone's features, on the pixels / 255 the MLP trains on, and on the same network left untrained
 * (the seed's initial weights: what pre-training adds). All the experiment's classes at once, not incremental:
 *
 * - **linear probe**: a linear head (the `head` model, no hidden layer) trained by the engine on the training rows
 *   (`PROBE_TRAINING`: 30 epochs of Adam, lr 1e-3, batch 64, seed 0 — enough to converge on these sizes), accuracy on
 *   the test rows;
 * - **nearest class mean**: each test row to the class whose mean L2-normalised training vector has the highest
 *   cosine, what SimpleCIL-style prototype methods do.
 *
 * Used by `cil-lab features --source backbone --probe` and `npm run probe:backbone`.
 */
import type { FeatureSet } from '../../core/features/feature-set';
import { classMeanPrototypes } from '../../core/similarity/prototypes';
import { initWeights } from '../models';
import { deriveSeed, STREAM } from '../seeds';
import { trainRun } from '../trainer';
import type { ImageDataset } from '../types';
import { backboneFeatures, type Backbone } from './backbone';
import { featureDatasetOf } from './dataset';
import { assembleFeatureSet, extractionRows, type ExtractRows } from './extract';

/** The linear probe's training (the engine's loop on the head, seed 0). */
export const PROBE_TRAINING = Object.freeze({ epochs: 30, lr: 1e-3, batchSize: 64, seed: 0 });

/** One set of features, probed: its length and the two accuracies (fractions). */
export interface ProbeResult {
  d: number;
  linearProbe: number;
  nearestMean: number;
}

/** The three probes side by side: the backbone's features, the pixels, and the same network untrained. */
export interface BackboneProbe {
  backbone: ProbeResult;
  pixels: ProbeResult;
  untrained: ProbeResult;
  /** rows probed, per split */
  n: { train: number; test: number };
  training: typeof PROBE_TRAINING;
}

/** Accuracy on the set's test rows of a linear head trained on its training rows, all `classes` at once. */
export async function linearProbe(set: FeatureSet, classes: readonly number[]): Promise<number> {
  const r = await trainRun(featureDatasetOf(set, classes), {
    tasks: [classes.slice()],
    seed: PROBE_TRAINING.seed,
    strategy: 'finetune',
    model: { kind: 'head', hidden: [] },
    epochs: PROBE_TRAINING.epochs,
    lr: PROBE_TRAINING.lr,
    batchSize: PROBE_TRAINING.batchSize,
  });
  return r.matrix[0][0];
}

/** Accuracy on the set's test rows of the nearest class mean (cosine to each class's mean L2-normalised training row). */
export function nearestMeanAccuracy(set: FeatureSet, classes: readonly number[]): number {
  const d = set.d;
  const rowsOf = (s: 0 | 1) => [...Array(set.n).keys()].filter((i) => set.split[i] === s && classes.includes(set.labels[i]));
  const train = rowsOf(0);
  const test = rowsOf(1);
  const x = new Float32Array(train.length * d);
  train.forEach((r, k) => x.set(set.features.subarray(r * d, (r + 1) * d), k * d));
  const protos = classMeanPrototypes(
    x,
    train.map((r) => classes.indexOf(set.labels[r])),
    d,
    classes.length,
  ).rows;
  const unit = protos.map((p) => {
    const norm = Math.hypot(...p) || 1;
    return Float64Array.from(p, (v) => v / norm);
  });
  let correct = 0;
  for (const r of test) {
    const row = set.features.subarray(r * d, (r + 1) * d);
    let best = -1;
    let bestScore = -Infinity;
    unit.forEach((p, c) => {
      let s = 0;
      for (let k = 0; k < d; k++) s += p[k] * row[k];
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    });
    if (classes[best] === set.labels[r]) correct++;
  }
  return test.length > 0 ? correct / test.length : 0;
}

/**
 * The three probes on the experiment's rows of `ds`: `backbone` (already trained, with its features `set` of those
 * rows), the pixels / 255 of the same images, and the same network with the seed's initial weights.
 */
export async function probeBackbone(ds: ImageDataset, rows: ExtractRows, backbone: Backbone, set: FeatureSet): Promise<BackboneProbe> {
  const picked = extractionRows(ds, rows);
  const size = ds.shape[0] * ds.shape[1] * ds.shape[2];
  const pixelsOf = (images: Uint8Array, idx: Int32Array) => {
    const out = new Float32Array(idx.length * size);
    idx.forEach((e, k) => {
      for (let i = 0; i < size; i++) out[k * size + i] = images[e * size + i] / 255;
    });
    return out;
  };
  const pixels = assembleFeatureSet(ds, picked, pixelsOf(ds.train.images, picked.train), pixelsOf(ds.test.images, picked.test), size);
  const untrainedNet: Backbone = { ...backbone, weights: initWeights(backbone.spec, deriveSeed(backbone.seed, STREAM.init)) };
  const untrained = assembleFeatureSet(
    ds,
    picked,
    await backboneFeatures(untrainedNet, ds.train.images, picked.train),
    await backboneFeatures(untrainedNet, ds.test.images, picked.test),
    backbone.dim,
  );
  const classes = rows.classes;
  const probe = async (s: FeatureSet): Promise<ProbeResult> => ({
    d: s.d,
    linearProbe: await linearProbe(s, classes),
    nearestMean: nearestMeanAccuracy(s, classes),
  });
  return {
    backbone: await probe(set),
    pixels: await probe(pixels),
    untrained: await probe(untrained),
    n: { train: picked.train.length, test: picked.test.length },
    training: PROBE_TRAINING,
  };
}
