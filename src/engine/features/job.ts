/**
 * Feature extraction as a job of the training worker (engine/jobs): the features of an experiment's images from the
 * embedded backbone or an image encoder, batched, with progress (images/s, time left), pause and cancel through the
 * job's control, and the cache key the caller stores the result under.
 *
 * Why the training worker and not a worker of its own: the images are already there (its one dataset cache, or the
 * Data tab's dataset it holds), and one image encoder is small beside them (CLIP ViT-B/16 q8 about 90 MB, the tiny
 * fixtures kilobytes); transformers.js is imported only when an encoder first loads (image-encoder.ts), and the loaded encoder is kept
 * in the worker's `derived` slot for the next job on the same model.
 *
 * Two kinds: `features-key` (the cache key only: a digest of the images, fast) and `features` (extract). The caller
 * (services/feature-source.ts) asks for the key, looks in its cache, and extracts only on a miss.
 */
import type { FeatureSet } from '../../core/features/feature-set';
import { throughput } from '../../core/features/throughput';
import type { ClipWeightSource, FeaturePrecision } from '../../core/config/types';
import type { ModelDevice } from '../clip/download';
import { createImageEncoder, type ImageEncoder } from '../clip/image-encoder';
import type { Job, JobContext } from '../jobs/job';
import type { ImageDataset } from '../types';
import { BACKBONE_RECIPE } from './backbone';
import { backboneFeatureSet, encoderFeatureSet, ENCODER_BATCH, extractionRows, type ExtractRows } from './extract';

/**
 * The version of our image preprocessing (clip/image-preprocess.ts) and of the backbone's recipe in the cache key:
 * raise it when either changes what a feature vector is, so stale cached features are never reused.
 */
export const FEATURE_CACHE_VERSION = 1;

/**
 * Which images: a built-in dataset of the worker's cache, or the dataset the worker holds (the Data tab's), whose
 * class names must then be `classNames` when given (the experiment's list, e.g. CIFAR-100's, loaded from the user's disk).
 */
export type FeatureJobDataset = { kind: 'builtin'; id: string } | { kind: 'held'; classNames?: string[] };

/** The source to extract with (the config's backbone or encoder, plus where and how the encoder runs). */
export type FeatureJobSource =
  | { source: 'backbone'; seed: number }
  | {
      source: 'encoder';
      model: string;
      revision: string;
      precision: FeaturePrecision;
      weights: ClipWeightSource;
      /** asked for; the encoder falls back (webgpu → wasm) and says why */
      device: ModelDevice;
      /** may weights be fetched from another host (the user pressed the download button) */
      allowRemote: boolean;
      /** browser: where the app serves onnxruntime-web's files */
      wasmPaths?: string;
    };

export interface FeatureJobInput {
  dataset: FeatureJobDataset;
  rows: ExtractRows;
  source: FeatureJobSource;
  /** images per encoder batch (default 16) */
  batchSize?: number;
}

export type FeatureJobEvent =
  /** stage 'pretrain' counts the backbone's epochs, 'extract' images */
  | { kind: 'progress'; stage: 'pretrain' | 'extract'; done: number; total: number; perSecond: number | null; secondsLeft: number | null }
  /** a model file being fetched or read */
  | { kind: 'load'; file: string; loaded: number; total: number }
  /** the device the encoder runs on and why it differs from the one asked */
  | { kind: 'device'; device: string; requested: string; notes: string[] };

export interface FeatureJobInfo {
  key: string;
  d: number;
  /** images extracted */
  n: number;
  seconds: number;
  /** 'wasm-simd' for the backbone; the encoder's device */
  device: string;
  notes: string[];
}

export interface FeatureJobOutput {
  set: FeatureSet;
  info: FeatureJobInfo;
}

function datasetOf(d: FeatureJobDataset, ctx: JobContext): Promise<ImageDataset> {
  if (d.kind === 'builtin') return ctx.builtin(d.id);
  const held = ctx.held?.();
  if (!held) return Promise.reject(new Error('The training worker holds no dataset: load the Data tab’s dataset into it first.'));
  const want = d.classNames;
  if (want && (held.classNames.length !== want.length || want.some((n, k) => held.classNames[k] !== n))) {
    const k = want.findIndex((n, i) => held.classNames[i] !== n);
    return Promise.reject(
      new Error(
        `The Data tab holds a dataset of ${held.classNames.length} classes that is not the experiment's (class ${k} is ${JSON.stringify(held.classNames[k] ?? 'missing')} there, ${JSON.stringify(want[k] ?? 'missing')} here): load the experiment's images in the Data tab.`,
      ),
    );
  }
  return Promise.resolve(held);
}

/** Hex SHA-256 of the parts, in order (Web Crypto: the same in every browser, worker and Node ≥ 19). */
async function sha256(parts: readonly ArrayBufferView[]): Promise<string> {
  const size = parts.reduce((n, p) => n + p.byteLength, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at);
    at += p.byteLength;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The bytes of examples `idx` of a split, in that order (their pixels, then their labels). */
function picked(images: Uint8Array, labels: ArrayLike<number>, size: number, idx: Int32Array): Uint8Array[] {
  const px = new Uint8Array(idx.length * size);
  idx.forEach((e, k) => px.set(images.subarray(e * size, (e + 1) * size), k * size));
  return [px, Int32Array.from(idx, (e) => labels[e]) as unknown as Uint8Array];
}

/**
 * The cache key of a source's features of `rows` of `ds`: what the vectors depend on — the source (the backbone's
 * recipe version and seed; the encoder's model, revision, precision and our preprocessing version) and the content of
 * the images (a SHA-256 of the pixels and labels of the rows extracted and, for the backbone, of the whole training
 * split it pre-trains on). Not the weight source or the device: the same model at the same revision is the same model.
 */
export async function featureCacheKey(ds: ImageDataset, rows: ExtractRows, source: FeatureJobSource, batchSize = ENCODER_BATCH): Promise<string> {
  const size = ds.shape[0] * ds.shape[1] * ds.shape[2];
  const idx = extractionRows(ds, rows);
  const parts: ArrayBufferView[] = [
    ...picked(ds.train.images, ds.train.labels, size, idx.train),
    ...picked(ds.test.images, ds.test.labels, size, idx.test),
    Int32Array.from(ds.shape),
  ];
  let head: string;
  if (source.source === 'backbone') {
    parts.push(ds.train.images, Int32Array.from(ds.train.labels), Int32Array.from(rows.classes));
    head = `backbone:v${FEATURE_CACHE_VERSION}:${BACKBONE_RECIPE.hidden.join('-')}:seed=${source.seed}`;
  } else {
    // q8 quantizes each batch's activations with one scale, so its vectors depend on the batch size too
    head = `encoder:v${FEATURE_CACHE_VERSION}:${source.model}@${source.revision}:${source.precision}${source.precision === 'q8' ? `:batch=${batchSize}` : ''}`;
  }
  return `${head}|${idx.train.length}+${idx.test.length}|sha256:${await sha256(parts)}`;
}

export const featureKeyJob: Job<FeatureJobInput, string> = async (input, ctx) =>
  featureCacheKey(await datasetOf(input.dataset, ctx), input.rows, input.source, input.batchSize);

/** The worker's encoder for a source (loaded once; kept while the next job asks for the same model). */
async function encoderFor(s: Extract<FeatureJobSource, { source: 'encoder' }>, ctx: JobContext, emit: (e: FeatureJobEvent) => void): Promise<ImageEncoder> {
  const key = JSON.stringify([s.model, s.revision, s.precision, s.weights, s.device]);
  return ctx.derived('image-encoder', key, async () => {
    return createImageEncoder({
      modelId: s.model,
      revision: s.revision,
      precision: s.precision,
      device: s.device,
      source: s.weights,
      allowRemote: s.allowRemote,
      ...(s.wasmPaths ? { wasmPaths: s.wasmPaths } : {}),
      onProgress: (p) => emit({ kind: 'load', file: p.file, loaded: p.loaded, total: p.total }),
    });
  });
}

export const featureJob: Job<FeatureJobInput, FeatureJobOutput, FeatureJobEvent> = async (input, ctx, emit) => {
  const started = performance.now();
  const ds = await datasetOf(input.dataset, ctx);
  const key = await featureCacheKey(ds, input.rows, input.source, input.batchSize);
  const checkpoint = () => ctx.control.checkpoint();
  let extractStart = performance.now();
  let lastStage = '';
  const onProgress = (p: { stage: 'pretrain' | 'extract'; done: number; total: number }) => {
    if (p.stage !== lastStage) {
      lastStage = p.stage;
      extractStart = performance.now();
    }
    const t = throughput(p.done, p.total, extractStart, performance.now());
    emit({ kind: 'progress', stage: p.stage, done: p.done, total: p.total, perSecond: t.perSecond, secondsLeft: t.secondsLeft });
  };
  await checkpoint();
  if (input.source.source === 'backbone') {
    const { set } = await backboneFeatureSet(ds, input.rows, input.source.seed, onProgress, checkpoint);
    const seconds = (performance.now() - started) / 1000;
    return { set, info: { key, d: set.d, n: set.n, seconds, device: 'wasm-simd', notes: [] } };
  }
  const encoder = await encoderFor(input.source, ctx, emit);
  emit({ kind: 'device', device: encoder.device, requested: encoder.requestedDevice, notes: encoder.notes.slice() });
  const set = await encoderFeatureSet(ds, input.rows, encoder, { batchSize: input.batchSize ?? ENCODER_BATCH, onProgress, checkpoint });
  const seconds = (performance.now() - started) / 1000;
  return { set, info: { key, d: set.d, n: set.n, seconds, device: encoder.device, notes: encoder.notes.slice() } };
};
