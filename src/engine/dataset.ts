/**
 * The engine's view of image data: typed arrays in, float tensors out, one batch at a time.
 *
 * Why batches are built from the uint8 bytes on demand instead of holding a float tensor of the whole split:
 * Fashion-MNIST's 60,000 training images are 47 MB as bytes but 188 MB as float32; a run is capped at
 * 300 MB. Building a 64-image batch costs microseconds next to a training step.
 *
 * A feature dataset (frozen features from a backbone or an encoder, src/engine/features/) has the same shape: its
 * splits hold float32 rows of d values (shape [1, 1, d]) instead of bytes, batched as they are (no scaling). The
 * `head` model trains on it, and only on it (`checkModelFitsData`).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { DecodedDataset } from '../data/format';
import type { FeatureDataset, FeatureSplit, ImageDataset, ImageSplit, ResolvedTrainConfig, TrainDataset } from './types';

/** Whether the dataset holds feature vectors (float32 rows) rather than image bytes. */
export function isFeatureDataset(ds: TrainDataset): ds is FeatureDataset {
  return ds.train.images instanceof Float32Array;
}

/** The dataset as images; a feature dataset is refused with one sentence saying `what` needs pixels (augmentation, …). */
export function imagesOnly(ds: TrainDataset, what: string): ImageDataset {
  if (!isFeatureDataset(ds)) return ds;
  throw new Error(`${what} needs the images' pixels; this dataset holds feature vectors.`);
}

/**
 * A head trains on feature vectors, an MLP or CNN on images: each refuses the other with one sentence (the config's
 * cross-check says the same before a run starts).
 */
export function checkModelFitsData(ds: TrainDataset, cfg: Pick<ResolvedTrainConfig, 'model'>): void {
  const features = isFeatureDataset(ds);
  if (features && cfg.model.kind !== 'head')
    throw new Error(
      `This dataset holds feature vectors (${imageSize(ds)} values each); they train with the head model, not ${cfg.model.kind === 'mlp' ? 'an MLP' : 'a CNN'}.`,
    );
  if (!features && cfg.model.kind === 'head')
    throw new Error(
      'The head model trains on feature vectors, and this dataset holds images: compute features first (a backbone or an encoder) or choose an MLP or CNN.',
    );
}

/** The engine's dataset from a decoded built-in dataset (src/data/registry.ts). */
export function fromDecodedDataset(d: DecodedDataset): ImageDataset {
  return {
    shape: [d.shape[0], d.shape[1], d.shape[2]],
    classNames: d.meta.classes.slice(),
    train: { images: d.train.images, labels: d.train.labels },
    test: { images: d.test.images, labels: d.test.labels },
  };
}

/** Pixels per image (values per feature vector). */
export function imageSize(ds: TrainDataset): number {
  return ds.shape[0] * ds.shape[1] * ds.shape[2];
}

/** Checks sizes and labels; throws a message that says what is wrong. */
export function validateDataset(ds: TrainDataset): void {
  const size = imageSize(ds);
  if (!(size > 0)) throw new Error(`The dataset's image shape ${ds.shape.join('×')} is empty.`);
  const features = isFeatureDataset(ds);
  if (features && (ds.shape[0] !== 1 || ds.shape[1] !== 1)) throw new Error(`A feature dataset has shape [1, 1, d]; got [${ds.shape.join(', ')}].`);
  if (features !== ds.test.images instanceof Float32Array) throw new Error('The train and test splits must both hold images or both feature vectors.');
  for (const name of ['train', 'test'] as const) {
    const s = ds[name];
    if (s.images.length !== s.labels.length * size) {
      throw new Error(`The ${name} split has ${s.labels.length} labels but ${s.images.length} bytes of images (expected ${s.labels.length * size}).`);
    }
    for (let i = 0; i < s.labels.length; i++) {
      const y = s.labels[i];
      if (!(y >= 0 && y < ds.classNames.length)) throw new Error(`The ${name} split has label ${y} at image ${i}; there are ${ds.classNames.length} classes.`);
    }
  }
}

/** Indices of each class's images, ascending (file order). */
export function indicesByClass(labels: ArrayLike<number>, numClasses: number): Int32Array[] {
  const counts = new Int32Array(numClasses);
  for (let i = 0; i < labels.length; i++) counts[labels[i]]++;
  const out = Array.from(counts, (n) => new Int32Array(n));
  const fill = new Int32Array(numClasses);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    out[y][fill[y]++] = i;
  }
  return out;
}

/** The images and labels of `keep` (indices into `s`), in that order; `size` = values per image (pixels or features). */
export function takeSplit<S extends ImageSplit | FeatureSplit>(s: S, keep: Int32Array, size: number): S {
  const images = s.images instanceof Float32Array ? new Float32Array(keep.length * size) : new Uint8Array(keep.length * size);
  const labels = s.labels instanceof Int32Array ? new Int32Array(keep.length) : new Uint8Array(keep.length);
  keep.forEach((idx, k) => {
    images.set(s.images.subarray(idx * size, (idx + 1) * size), k * size);
    labels[k] = s.labels[idx];
  });
  return { images, labels } as S;
}

/**
 * A smaller dataset: the first `trainPerClass` / `testPerClass` images of each class, in file order
 * (deterministic, no seed needed: the prepared files are already shuffled by their split seed).
 */
export function subsetPerClass<D extends TrainDataset>(ds: D, opts: { trainPerClass?: number; testPerClass?: number }): D {
  const size = imageSize(ds);
  const pick = <S extends ImageSplit | FeatureSplit>(s: S, n: number | undefined): S => {
    if (n === undefined) return s;
    const byClass = indicesByClass(s.labels, ds.classNames.length);
    const keep: number[] = [];
    for (const idx of byClass) keep.push(...idx.subarray(0, n));
    keep.sort((a, b) => a - b);
    return takeSplit(s, Int32Array.from(keep), size);
  };
  return { shape: ds.shape, classNames: ds.classNames, train: pick(ds.train, opts.trainPerClass), test: pick(ds.test, opts.testPerClass) } as D;
}

/**
 * One epoch's examples in batch order: `set` under a permutation drawn from `rng` (a task's 'batches' stream,
 * seeds.ts). Batch s is `order.slice(s·B, (s+1)·B)`. The trainer, population training and the PyTorch peer's
 * draw export (scripts/peer/export-draws.ts) all take their batches from here, so they cannot drift apart.
 */
export function epochOrder(rng: { permutation(n: number): number[] }, set: Int32Array): Int32Array {
  const perm = rng.permutation(set.length);
  return Int32Array.from(perm, (k) => set[k]);
}

/**
 * A float32 batch [n, H, W, C] with pixels scaled to [0, 1] (feature vectors as they are). A fresh array each
 * time: tfjs may keep it.
 */
export function batchImages(ds: TrainDataset, split: ImageSplit | FeatureSplit, indices: ArrayLike<number>): tf.Tensor4D {
  const size = imageSize(ds);
  const n = indices.length;
  const out = new Float32Array(n * size);
  const src = split.images;
  if (src instanceof Float32Array) {
    for (let k = 0; k < n; k++) out.set(src.subarray(indices[k] * size, (indices[k] + 1) * size), k * size);
  } else {
    for (let k = 0; k < n; k++) {
      const base = indices[k] * size;
      const o = k * size;
      for (let p = 0; p < size; p++) out[o + p] = src[base + p] / 255;
    }
  }
  return tf.tensor4d(out, [n, ds.shape[0], ds.shape[1], ds.shape[2]]);
}
