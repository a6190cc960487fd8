/**
 * Feature extraction as one entry point for every caller (the CLI's `cil-lab features` and `--features`, and the
 * app's feature job in a worker): which images (the experiment's classes, the first n of each class per split, as
 * the data subset of a run takes them), through which source (the embedded backbone, or an image encoder), into one
 * FeatureSet — the `.npz` layout — with progress in images.
 *
 * Rows are in file order within each split, train rows first; labels are the dataset's class indices and the class
 * names are all of the dataset's, so the feature set lines up with the images it came from.
 */
import { checkFeatureSet, type FeatureSet } from '../../core/features/feature-set';
import { backboneClasses } from '../../core/features/source';
import { indicesByClass } from '../dataset';
import type { ImageDataset } from '../types';
import type { ImageEncoder } from '../clip/image-encoder';
import { backboneFeatures, trainBackbone, type Backbone } from './backbone';

/** Which images: the experiment's classes, and at most this many of each per split (null: all). */
export interface ExtractRows {
  classes: readonly number[];
  trainPerClass: number | null;
  testPerClass: number | null;
}

/** Progress of an extraction: images done of the total, and the stage ('pretrain' for the backbone's training). */
export interface ExtractProgress {
  stage: 'pretrain' | 'extract';
  done: number;
  total: number;
}

/** Pause / cancel between chunks of work: awaited often, it waits while paused and throws to cancel (control.ts). */
export type Checkpoint = () => Promise<void>;

/** Images the backbone extracts between two checkpoints. */
const BACKBONE_CHUNK = 2048;

/** The examples (indices) of each split to extract, in file order. */
export function extractionRows(ds: ImageDataset, rows: ExtractRows): { train: Int32Array; test: Int32Array } {
  const pick = (labels: ArrayLike<number>, n: number | null): Int32Array => {
    const byClass = indicesByClass(labels, ds.classNames.length);
    const out: number[] = [];
    for (const c of rows.classes) {
      if (!Number.isInteger(c) || c < 0 || c >= ds.classNames.length)
        throw new RangeError(`Class ${c} does not exist: the dataset has classes 0..${ds.classNames.length - 1}.`);
      const idx = byClass[c];
      out.push(...(n === null ? idx : idx.subarray(0, n)));
    }
    return Int32Array.from(out).sort();
  };
  return { train: pick(ds.train.labels, rows.trainPerClass), test: pick(ds.test.labels, rows.testPerClass) };
}

/** A feature set from per-split features of `rows` (train then test). */
export function assembleFeatureSet(
  ds: ImageDataset,
  picked: { train: Int32Array; test: Int32Array },
  train: Float32Array,
  test: Float32Array,
  d: number,
): FeatureSet {
  const n = picked.train.length + picked.test.length;
  const features = new Float32Array(n * d);
  features.set(train, 0);
  features.set(test, picked.train.length * d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  picked.train.forEach((e, k) => (labels[k] = ds.train.labels[e]));
  picked.test.forEach((e, k) => {
    labels[picked.train.length + k] = ds.test.labels[e];
    split[picked.train.length + k] = 1;
  });
  return checkFeatureSet({ features, n, d, labels, split, classNames: ds.classNames.slice() });
}

/**
 * The embedded backbone's features of `rows`: pre-trained from `seed` on every class of `ds` that `rows.classes`
 * leaves out (backbone.ts), then applied to the experiment's images. `ds` must be the whole dataset (the backbone's
 * pre-training images are the first 1,000 of each other class, whatever subset the experiment trains on).
 */
export async function backboneFeatureSet(
  ds: ImageDataset,
  rows: ExtractRows,
  seed: number,
  onProgress?: (p: ExtractProgress) => void,
  checkpoint?: Checkpoint,
): Promise<{ set: FeatureSet; backbone: Backbone }> {
  const others = backboneClasses(ds.classNames.length, rows.classes);
  if (others.length === 0)
    throw new RangeError(
      `The embedded backbone is pre-trained on the dataset's other classes, and the experiment uses all ${ds.classNames.length}: select fewer classes, or use an image encoder or uploaded features.`,
    );
  const backbone = await trainBackbone(ds, others, seed, {
    onEpoch: (e, n) => onProgress?.({ stage: 'pretrain', done: e, total: n }),
    ...(checkpoint ? { checkpoint } : {}),
  });
  const picked = extractionRows(ds, rows);
  const total = picked.train.length + picked.test.length;
  onProgress?.({ stage: 'extract', done: 0, total });
  // in chunks, so a pause or cancel is heard within a chunk (the features do not depend on the chunking)
  const inChunks = async (images: Uint8Array, idx: Int32Array, before: number): Promise<Float32Array> => {
    const out = new Float32Array(idx.length * backbone.dim);
    for (let at = 0; at < idx.length; at += BACKBONE_CHUNK) {
      await checkpoint?.();
      const part = idx.subarray(at, Math.min(idx.length, at + BACKBONE_CHUNK));
      out.set(await backboneFeatures(backbone, images, part), at * backbone.dim);
      onProgress?.({ stage: 'extract', done: before + at + part.length, total });
    }
    return out;
  };
  const train = await inChunks(ds.train.images, picked.train, 0);
  const test = await inChunks(ds.test.images, picked.test, picked.train.length);
  return { set: assembleFeatureSet(ds, picked, train, test, backbone.dim), backbone };
}

/** What `encoderFeatureSet` needs of an image encoder: its feature length and `encode`. */
export type FeatureEncoder = Pick<ImageEncoder, 'dim' | 'encode'>;

/** The encoders' default batch (image-encoder.ts). */
export const ENCODER_BATCH = 16;

/**
 * An image encoder's features of `rows`, in batches of `batchSize` (progress in images after every batch). With
 * `checkpoint`, the encoder is called one batch at a time and the checkpoint awaited before each: the batches are the
 * same as in one call (q8 vectors depend on their batch mates), so the features are too.
 */
export async function encoderFeatureSet(
  ds: ImageDataset,
  rows: ExtractRows,
  encoder: FeatureEncoder,
  opts: { batchSize?: number; onProgress?: (p: ExtractProgress) => void; checkpoint?: Checkpoint } = {},
): Promise<FeatureSet> {
  const picked = extractionRows(ds, rows);
  const total = picked.train.length + picked.test.length;
  const report = (done: number) => opts.onProgress?.({ stage: 'extract', done, total });
  report(0);
  const batchSize = opts.batchSize ?? ENCODER_BATCH;
  const split = async (images: Uint8Array, idx: Int32Array, before: number): Promise<Float32Array> => {
    const checkpoint = opts.checkpoint;
    if (!checkpoint) return encoder.encode(images, ds.shape, idx, { batchSize, onBatch: (done) => report(before + done) });
    const out = new Float32Array(idx.length * encoder.dim);
    for (let at = 0; at < idx.length; at += batchSize) {
      await checkpoint();
      const part = idx.subarray(at, Math.min(idx.length, at + batchSize));
      out.set(await encoder.encode(images, ds.shape, part, { batchSize }), at * encoder.dim);
      report(before + at + part.length);
    }
    return out;
  };
  const train = await split(ds.train.images, picked.train, 0);
  const test = await split(ds.test.images, picked.test, picked.train.length);
  return assembleFeatureSet(ds, picked, train, test, encoder.dim);
}
