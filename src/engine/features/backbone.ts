/**
 * The embedded backbone (docs/science.md "The embedded backbone"): a small network pre-trained on the dataset's
 * classes the experiment does NOT use, whose last hidden layer gives every image of the experiment's classes a
 * feature vector. No network, no download, so the pre-trained CIL methods and the `head` model run offline, and it
 * never saw a class it is later asked to separate (for Fashion-MNIST 0–5: Shirt, Sneaker, Bag and Ankle boot). Built
 * on first use from the dataset and a seed in a second or two, with the fused WebAssembly kernels (IEEE f32x4 only:
 * the same bits in Node and every browser, whatever tfjs backend the app picked); without WebAssembly SIMD it is
 * refused with a message.
 */
import { createDefaultRng } from '../../core/random/default-rng';
import { yieldToEventLoop } from '../control';
import { epochOrder, indicesByClass } from '../dataset';
import { FusedMlp } from '../kernels/fused-mlp';
import { initWeights, type NetworkSpec } from '../models';
import { deriveSeed, STREAM } from '../seeds';
import type { ImageDataset } from '../types';

/**
 * The frozen pre-training recipe (a change would change what existing links mean: it needs a new source version):
 * an MLP pixels / 255 → 256 → 128 (ReLU) → one unit per pre-training class, initial weights as a run's (models.ts
 * initWeights with the seed's STREAM.init seed); the first 1,000 training images of each pre-training class (file
 * order), 5 epochs of Adam (lr 1e-3, β 0.9/0.999, ε 1e-8), batches of 64 in a seeded order (STREAM.backbone), full
 * cross-entropy; features: the 128 ReLU outputs of the last hidden layer.
 */
export const BACKBONE_RECIPE = Object.freeze({
  hidden: Object.freeze([256, 128]) as readonly number[],
  perClass: 1000,
  epochs: 5,
  batchSize: 64,
  lr: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  epsilon: 1e-8,
});

/** A pre-trained backbone: its weights (paramInfo order) and what it was trained on. */
export interface Backbone {
  spec: NetworkSpec;
  weights: Float32Array[];
  /** the dataset classes (indices) it was pre-trained on, ascending, and their names */
  classes: number[];
  classNames: string[];
  seed: number;
  /** feature length (the last hidden layer's width) */
  dim: number;
  /** training images used, and the final epoch's mean loss and training accuracy */
  trainImages: number;
  loss: number;
  trainAccuracy: number;
  seconds: number;
}

export class BackboneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackboneError';
  }
}

async function kernels(spec: NetworkSpec, batchSize: number): Promise<FusedMlp> {
  const mlp = await FusedMlp.create(spec, batchSize);
  if (!mlp) throw new BackboneError('The embedded backbone runs on WebAssembly SIMD, which this browser or runtime does not have: upload features instead.');
  return mlp;
}

/**
 * Pre-train the backbone on `classes` (dataset class indices) of `ds` from `seed` (BACKBONE_RECIPE). `onEpoch` is told
 * after every epoch (for progress). Deterministic: the same dataset, classes and seed give the same weights.
 */
export async function trainBackbone(
  ds: ImageDataset,
  classes: readonly number[],
  seed: number,
  hooks: {
    onEpoch?: (epoch: number, epochs: number) => void;
    /** awaited between batches: waits while paused, throws to cancel (control.ts RunControl.checkpoint) */
    checkpoint?: () => Promise<void>;
  } = {},
): Promise<Backbone> {
  const started = performance.now();
  const r = BACKBONE_RECIPE;
  const sorted = [...new Set(classes)].sort((a, b) => a - b);
  if (sorted.length < 1) throw new BackboneError('The embedded backbone needs at least one class to pre-train on.');
  const bad = sorted.find((c) => !Number.isInteger(c) || c < 0 || c >= ds.classNames.length);
  if (bad !== undefined) throw new BackboneError(`Class ${bad} does not exist: the dataset has classes 0..${ds.classNames.length - 1}.`);
  if (!Number.isSafeInteger(seed)) throw new BackboneError(`The backbone's seed must be a whole number; got ${seed}.`);
  const byClass = indicesByClass(ds.train.labels, ds.classNames.length);
  const parts = sorted.map((c) => byClass[c].subarray(0, r.perClass));
  const empty = sorted.find((_, i) => parts[i].length === 0);
  if (empty !== undefined) throw new BackboneError(`Class ${empty} ("${ds.classNames[empty]}") has no training images to pre-train on.`);
  const set = Int32Array.from(parts.flatMap((p) => [...p])).sort();
  const unit = new Int32Array(ds.classNames.length).fill(-1);
  sorted.forEach((c, u) => (unit[c] = u));
  const size = ds.shape[0] * ds.shape[1] * ds.shape[2];

  const spec: NetworkSpec = { kind: 'mlp', inputShape: ds.shape, hidden: [...r.hidden], outputs: sorted.length };
  const mlp = await kernels(spec, r.batchSize);
  mlp.setWeights(initWeights(spec, deriveSeed(seed, STREAM.init)));
  mlp.resetOptimizer({ kind: 'adam', lr: r.lr, beta1: r.beta1, beta2: r.beta2, epsilon: r.epsilon });
  const rng = createDefaultRng(deriveSeed(seed, STREAM.backbone));
  let loss = 0;
  let correct = 0;
  for (let epoch = 0; epoch < r.epochs; epoch++) {
    const order = epochOrder(rng, set);
    loss = 0;
    correct = 0;
    for (let at = 0; at < order.length; at += r.batchSize) {
      if (hooks.checkpoint) await hooks.checkpoint();
      const idx = order.subarray(at, Math.min(order.length, at + r.batchSize));
      mlp.setBatch(
        ds.train.images,
        size,
        idx,
        Int32Array.from(idx, (e) => unit[ds.train.labels[e]]),
      );
      const s = mlp.step(idx.length, sorted.length);
      loss += s.loss * idx.length;
      correct += s.correct;
    }
    hooks.onEpoch?.(epoch + 1, r.epochs);
    // yield between epochs, so a worker stays responsive
    await yieldToEventLoop();
  }
  return {
    spec,
    weights: mlp.weights(),
    classes: sorted,
    classNames: sorted.map((c) => ds.classNames[c]),
    seed,
    dim: r.hidden[r.hidden.length - 1],
    trainImages: set.length,
    loss: loss / set.length,
    trainAccuracy: correct / set.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Features of examples `rows` of `images` (a split of the dataset the backbone was built for): rows.length × dim
 * float32, row-major, in the order of `rows`.
 */
export async function backboneFeatures(backbone: Backbone, images: Uint8Array, rows: ArrayLike<number>): Promise<Float32Array> {
  const [h, w, c] = backbone.spec.inputShape;
  const size = h * w * c;
  if (rows.length === 0) return new Float32Array(0);
  const mlp = await kernels(backbone.spec, 256);
  mlp.setWeights(backbone.weights);
  return mlp.hidden(images, size, rows);
}
