/**
 * The feature set of a config's feature source, from the cache or by extracting (docs/science.md appendix E): the
 * one entry point every lab and the Data tab call.
 *
 *   const request = featureRequestOf(config, { device: 'webgpu', allowRemote: true });
 *   const job = startFeatureJob(request, { onEvent: (e) => show(e) });   // job.pause(), job.resume(), job.cancel()
 *   const { set, cached, notice } = await job.done;                       // rejects with a RunCancelledError on cancel
 *
 * - The images are where the config says: a built-in dataset (the training worker fetches it) or, for a custom
 *   dataset with images, the Data tab's dataset (handed to the worker first).
 * - The job runs on a worker leased from the app's training pool (engine/features/job.ts says why that worker):
 *   first the cache key (a hash of the images), then the cache (./feature-cache.ts), and only on a miss the
 *   extraction, whose result is stored whole or not at all (a storage quota gives `notice`, the set still returns).
 * - Uploaded features are not extracted: the Data tab stores them in the same cache under their file's content hash
 *   (`uploadKey`), and the request for an upload reads them from there.
 */
import { experimentClassNames } from '../core/config/derived';
import { featurePrototypeRows } from '../core/features/prototypes';
import { encoderDownloadSizes } from '../engine/clip/image-encoder';
import { getClassList } from '../core/classes/builtin';
import { datasetClassListId, datasetHasImages } from '../core/config/defaults';
import type { ExperimentConfig, FeaturesConfig } from '../core/config/types';
import { featuresOf } from '../core/config/sections/features';
import { relabelToClassList, type FeatureSet } from '../core/features/feature-set';
import { featureSourceLabel } from '../core/features/source';
import type { FeatureJobEvent, FeatureJobInfo, FeatureJobInput, FeatureJobSource } from '../engine/features/job';
import type { ExtractRows } from '../engine/features/extract';
import { totalDownload, type DownloadSize, type ModelDevice } from '../engine/clip/download';
import { sharedTrainPool, type Lease } from './lab-kit';
import { featureCache, type FeatureCache } from './feature-cache';
import { sharedDataClient } from './data-client';
import type { TrainClient } from './train-client';

export type { FeatureJobEvent } from '../engine/features/job';

/** What to extract: which images and rows, with which source; `label` says it in words. */
export interface FeatureRequest {
  /** a built-in dataset with images, or the Data tab's dataset (a custom one, or a names-only list such as CIFAR-100 whose images the user loaded) */
  dataset: { kind: 'builtin'; id: string } | { kind: 'data-worker'; classNames?: string[] };
  rows: ExtractRows;
  source: FeatureJobSource;
  batchSize?: number;
  label: string;
}

export interface FeatureRequestEnv {
  /** the device asked for an encoder (default webgpu; the encoder falls back to wasm and says why) */
  device?: ModelDevice;
  /** may an encoder's weights be fetched from another host (only after the user pressed the download button) */
  allowRemote?: boolean;
  /** where the app serves onnxruntime-web's files (default: the app's ort/ folder) */
  wasmPaths?: string;
}

/** The cache key of uploaded features (the file's content hash: the upload is its own source). */
export function uploadKey(contentHash: string): string {
  return `upload:${contentHash}`;
}

/** Every class name of the config's dataset (index = class). */
export function datasetClassNames(config: ExperimentConfig): string[] {
  return config.dataset.id === 'custom' ? config.dataset.classNames.slice() : getClassList(datasetClassListId(config.dataset.id)).classes.slice();
}

/** The label of a feature source for a config ("stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)"). */
export function sourceLabelOf(config: ExperimentConfig, f: FeaturesConfig = featuresOf(config)): string {
  return featureSourceLabel(f, datasetClassNames(config), config.classes);
}

/**
 * Why a config's dataset cannot give images to extract from, or null. A built-in list of names without images here
 * (CIFAR-100, CUB-200, …) takes its images from the Data tab, where the user loads the files from their disk; whether
 * the Data tab holds that dataset is checked when the job runs (by its class names).
 */
export function imagesProblem(config: ExperimentConfig): string | null {
  const d = config.dataset;
  if (d.id === 'custom') return d.images ? null : 'The custom class list has no images: load an image dataset in the Data tab, or upload features.';
  return null;
}

/** Where a config's images are: a built-in image dataset, or the Data tab's (checked by the list's class names). */
function datasetOfConfig(config: ExperimentConfig): FeatureRequest['dataset'] {
  const d = config.dataset;
  if (d.id === 'custom') return { kind: 'data-worker' };
  return datasetHasImages(d.id) ? { kind: 'builtin', id: d.id } : { kind: 'data-worker', classNames: datasetClassNames(config) };
}

/**
 * The request of a config's extractable source `f` (default the config's own): null for pixels and uploads (nothing
 * to extract). Throws a plain Error with one sentence when the dataset has no images.
 */
export function featureRequestOf(config: ExperimentConfig, env: FeatureRequestEnv = {}, f: FeaturesConfig = featuresOf(config)): FeatureRequest | null {
  if (f.source === 'pixels' || f.source === 'upload') return null;
  const problem = imagesProblem(config);
  if (problem) throw new Error(problem);
  const rows: ExtractRows = { classes: config.classes.slice(), trainPerClass: config.data.trainPerClass, testPerClass: config.data.testPerClass };
  const dataset = datasetOfConfig(config);
  const label = sourceLabelOf(config, f);
  if (f.source === 'backbone') return { dataset, rows, source: { source: 'backbone', seed: f.seed }, label };
  return {
    dataset,
    rows,
    label,
    source: {
      source: 'encoder',
      model: f.model,
      revision: f.revision,
      precision: f.precision,
      weights: structuredClone(f.weights),
      device: env.device ?? 'webgpu',
      allowRemote: env.allowRemote ?? false,
      wasmPaths: env.wasmPaths ?? `${import.meta.env?.BASE_URL ?? '/'}ort/`,
    },
  };
}

export interface FeatureResult {
  set: FeatureSet;
  key: string;
  /** read from the cache (nothing extracted) */
  cached: boolean;
  /** the extraction's figures; null when cached */
  info: FeatureJobInfo | null;
  /** why the set was not cached (quota), or the cache's in-memory notice; null otherwise */
  notice: string | null;
}

export interface FeatureJobHandle {
  done: Promise<FeatureResult>;
  pause(): void;
  resume(): void;
  cancel(): void;
}

export interface FeatureJobOptions {
  onEvent?: (e: FeatureJobEvent) => void;
  /** a training worker for the job (default: leased from the app's pool) */
  lease?: () => Promise<Lease<Pick<TrainClient, 'job' | 'loadDataset' | 'pause' | 'resume' | 'cancel'>>>;
  cache?: () => Promise<FeatureCache>;
}

/** The worker's job input of a request (a data-worker dataset is handed over first and then held). */
function jobInput(req: FeatureRequest): FeatureJobInput {
  return {
    dataset: req.dataset.kind === 'builtin' ? req.dataset : { kind: 'held', ...(req.dataset.classNames ? { classNames: req.dataset.classNames } : {}) },
    rows: req.rows,
    source: req.source,
    ...(req.batchSize ? { batchSize: req.batchSize } : {}),
  };
}

/** Cache keys of built-in datasets' requests already asked (their images never change within a page's life). */
const knownKeys = new Map<string, string>();

/**
 * The cache's state of requests without extracting: each one's key (a worker hashes the images; one worker, leased
 * once, answers them all; keys of built-in datasets are remembered) and its cached size (null: not cached).
 */
export async function cachedFeatureStates(
  reqs: readonly FeatureRequest[],
  opts: Omit<FeatureJobOptions, 'onEvent'> = {},
): Promise<{ key: string; bytes: number | null }[]> {
  const inputs = reqs.map(jobInput);
  const memo = inputs.map((input) => (input.dataset.kind === 'builtin' ? JSON.stringify(input) : null));
  const keys = memo.map((m) => (m ? (knownKeys.get(m) ?? null) : null));
  if (keys.some((k) => k === null)) {
    const lease = await (opts.lease ?? (() => sharedTrainPool().lease({ backend: 'auto' })))();
    try {
      if (reqs.some((r, i) => keys[i] === null && r.dataset.kind === 'data-worker')) await lease.main.loadDataset({ kind: 'data-worker' });
      for (let i = 0; i < inputs.length; i++) {
        if (keys[i] !== null) continue;
        keys[i] = await lease.main.job('features-key', inputs[i]);
        if (memo[i]) knownKeys.set(memo[i]!, keys[i]!);
      }
    } finally {
      lease.release();
    }
  }
  const cache = await (opts.cache ?? featureCache)();
  return Promise.all(keys.map(async (key) => ({ key: key!, bytes: (await cache.meta(key!))?.bytes ?? null })));
}

/** The cache's state of one request (`cachedFeatureStates` of one). */
export async function cachedFeatureState(req: FeatureRequest, opts: Omit<FeatureJobOptions, 'onEvent'> = {}): Promise<{ key: string; bytes: number | null }> {
  return (await cachedFeatureStates([req], opts))[0];
}

/** Start the request's job (see the header); `done` settles with the set, or rejects (a cancel: RunCancelledError). */
export function startFeatureJob(req: FeatureRequest, opts: FeatureJobOptions = {}): FeatureJobHandle {
  let worker: Pick<TrainClient, 'pause' | 'resume' | 'cancel'> | null = null;
  // an object, so the checks after each await read the state a pause or cancel set meanwhile
  const now: { state: 'running' | 'paused' | 'cancelled' } = { state: 'running' };
  const stateNow = () => now.state;
  const cancelled = () => Object.assign(new Error('The feature extraction was cancelled.'), { name: 'RunCancelledError' });
  const done = (async (): Promise<FeatureResult> => {
    const cache = await (opts.cache ?? featureCache)();
    const lease = await (opts.lease ?? (() => sharedTrainPool().lease({ backend: 'auto' })))();
    try {
      if (stateNow() === 'cancelled') throw cancelled();
      worker = lease.main;
      if (req.dataset.kind === 'data-worker') await lease.main.loadDataset({ kind: 'data-worker' });
      const input = jobInput(req);
      const key = await lease.main.job('features-key', input);
      const hit = await cache.get(key).catch(() => null);
      if (hit) return { set: hit, key, cached: true, info: null, notice: cache.notice };
      if (stateNow() === 'cancelled') throw cancelled();
      if (stateNow() === 'paused') void lease.main.pause();
      const out = await lease.main.job('features', input, opts.onEvent);
      const put = await cache.put(key, out.set, { label: req.label, device: out.info.device });
      return { set: out.set, key, cached: false, info: out.info, notice: put.notice ?? cache.notice };
    } finally {
      worker = null;
      lease.release();
    }
  })();
  return {
    done,
    pause() {
      if (now.state !== 'running') return;
      now.state = 'paused';
      void worker?.pause();
    },
    resume() {
      if (now.state !== 'paused') return;
      now.state = 'running';
      void worker?.resume();
    },
    cancel() {
      now.state = 'cancelled';
      void worker?.cancel();
    },
  };
}

/** The feature set of a config's source (`startFeatureJob(...).done`); pixels and uploads not in the cache are refused. */
export async function featureSetFor(config: ExperimentConfig, env: FeatureRequestEnv = {}, opts: FeatureJobOptions = {}): Promise<FeatureResult> {
  const f = featuresOf(config);
  if (f.source === 'upload') {
    const key = uploadKey(f.file.contentHash);
    const set = await (await (opts.cache ?? featureCache)()).get(key);
    if (!set) throw new Error(`The uploaded features ${f.file.name} are not in this browser: upload the file again in the Data tab.`);
    return { set, key, cached: true, info: null, notice: null };
  }
  const req = featureRequestOf(config, env, f);
  if (!req) throw new Error(`The pixels of ${experimentClassNames(config).length} classes are not a feature set: choose a feature source.`);
  return startFeatureJob(req, opts).done;
}

/**
 * The cached feature set of a config's encoder or upload source, for a lab that trains on it: read from the cache,
 * never extracted (an encoder's extraction downloads weights, which only the Data tab's button may start). Rejects with
 * one sentence when the set is not cached. Its key is the cache key (what the workers keep it under).
 */
export async function cachedFeatureSetFor(config: ExperimentConfig, opts: Omit<FeatureJobOptions, 'onEvent'> = {}): Promise<{ key: string; set: FeatureSet }> {
  const f = featuresOf(config);
  if (f.source === 'upload') {
    // an upload names its own classes: its rows relabelled to the dataset's class indices by name
    const got = await featureSetFor(config, {}, opts);
    const names = datasetClassNames(config);
    const missing = config.classes.map((k) => names[k]).filter((n) => !got.set.classNames.includes(n));
    if (missing.length > 0)
      throw new Error(
        `The uploaded features ${f.file.name} have no class named ${missing.map((n) => JSON.stringify(n)).join(', ')}: choose the file's classes, or press "Train on these" on its row in the Data tab.`,
      );
    return { key: `${got.key}@${config.dataset.id === 'custom' ? JSON.stringify(names) : config.dataset.id}`, set: relabelToClassList(got.set, names) };
  }
  const req = featureRequestOf(config, {}, f);
  if (!req || f.source !== 'encoder') throw new Error('Only an image encoder’s or an uploaded file’s features are read from the cache.');
  const { key, bytes } = await cachedFeatureState(req, opts);
  const set = bytes === null ? null : await (await (opts.cache ?? featureCache)()).get(key);
  if (!set) throw new Error(`The features of ${req.label} are not extracted yet: extract them in the Data tab (Feature sources), then run again.`);
  return { key, set };
}

/**
 * The files an encoder load would fetch and their total size, asked with HEAD requests before anything downloads
 * (engine/clip/image-encoder.ts encoderDownloadSizes; files the browser keeps already count 0): what the download
 * button says. `bytes` is null when a server does not say.
 */
export async function encoderDownloadSize(source: Extract<FeatureJobSource, { source: 'encoder' }>): Promise<DownloadSize> {
  return totalDownload(
    await encoderDownloadSizes({
      modelId: source.model,
      revision: source.revision,
      precision: source.precision,
      device: source.device,
      source: source.weights,
      allowRemote: true,
    }),
  );
}

/** What reading an uploaded feature file gives: the checked set, its file's content hash, and whether a test split was held out. */
export interface FeatureUpload {
  set: FeatureSet;
  contentHash: string;
  heldOut: boolean;
}

/**
 * Read an uploaded feature file (.npz or CSV; data/features/upload.ts) in the data worker — checked, hashed, and
 * without a test split given one (20 % of each class, as the CLI does) — and keep it in the feature cache under its
 * content hash: the config refers to it by name and hash (FileRef), never carries it. Nothing is parsed on the page's
 * thread (an 800 MB-declaring .npz takes seconds). Throws with one sentence for a bad file (nothing kept); a full
 * store gives `notice` and the set.
 */
export async function storeUploadedFeatures(
  file: Blob & { name: string },
  cache: () => Promise<FeatureCache> = featureCache,
  read: (file: Blob, name: string) => Promise<FeatureUpload> = (f, name) => sharedDataClient().readFeatureFile(f, name),
): Promise<{ ref: { name: string; contentHash: string }; set: FeatureSet; key: string; notice: string | null; heldOut: boolean }> {
  const { set, contentHash, heldOut } = await read(file, file.name);
  const ref = { name: file.name, contentHash };
  const key = uploadKey(ref.contentHash);
  const put = await (await cache()).put(key, set, { label: `uploaded features ${file.name}`, device: 'upload', file: file.name });
  return { ref, set, key, notice: put.notice, heldOut };
}

/** The image encoders offered by name in the settings (any other model id may be typed). */
export { IMAGE_ENCODERS as IMAGE_ENCODER_CHOICES } from '../engine/clip/image-encoder';

/**
 * The class prototypes of the config's feature source for classes `indices` (the Orderings lab's "prototypes of the
 * feature source", docs/science.md §6): every training image of those classes (not the experiment's subset, as for the
 * pixels' prototypes and `cil-lab orders --similarity features`), from the cache or extracted; an encoder is never
 * downloaded here (compute its features in the Data tab first, or use a self-hosted folder).
 */
export async function featurePrototypesFor(
  config: ExperimentConfig,
  indices: readonly number[],
  opts: FeatureJobOptions = {},
): Promise<{ rows: Float32Array[]; counts: number[]; label: string }> {
  const f = featuresOf(config);
  let set: FeatureSet;
  let label: string;
  let wanted = indices.slice();
  if (f.source === 'upload') {
    ({ set } = await featureSetFor(config, {}, opts));
    label = sourceLabelOf(config, f);
    // an upload names its own classes: the experiment's are found by name
    const names = datasetClassNames(config);
    wanted = indices.map((k) => {
      const at = set.classNames.indexOf(names[k]);
      if (at < 0) throw new Error(`The uploaded features have no class named ${JSON.stringify(names[k])}.`);
      return at;
    });
  } else {
    const req = featureRequestOf(config, { allowRemote: false }, f);
    if (!req) throw new Error('The pixels are not a feature source: their prototypes are the image prototypes.');
    ({ set } = await startFeatureJob({ ...req, rows: { classes: indices.slice(), trainPerClass: null, testPerClass: 0 } }, opts).done);
    label = req.label;
  }
  return { ...featurePrototypeRows(set, wanted), label: `class prototypes of ${label}` };
}
