/// <reference lib="webworker" />
/**
 * The Time lab's worker: a thin comlink facade over src/engine/stream (docs/science.md §7). It fetches
 * Fashion-MNIST once, cuts the stream the settings ask for (kept until they change), runs one protocol at a time
 * with pause / resume / cancel, and runs Alg. 1's α sweep (no training) off the UI thread.
 */
import * as Comlink from 'comlink';
import { buildStream, type StreamBuckets } from '../core/stream/buckets';
import type { TimeLabConfig } from '../core/stream/config';
import type { StreamProtocol } from '../core/stream/metrics';
import { ALPHA_SWEEP, reservoirTrials, type AlphaSpec } from '../core/stream/reservoir';
import { createDefaultRng } from '../core/random/default-rng';
import { loadBuiltinDataset } from '../data/registry';
import { fromDecodedDataset, RunControl, selectBackend, setWasmBase, type BackendInfo, type BackendName, type ImageDataset } from '../engine/index';
import { runConfigOf, streamPreview, streamSpecOf, type StreamPreview } from '../engine/stream/lab';
import { trainStream, type StreamCheckpoint, type StreamProgress, type StreamRunResult, type StreamStepEnd } from '../engine/stream/train';
import { controlMethods } from './run-control';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

export interface SweepEntry {
  alpha: AlphaSpec;
  /** composition[t][j]: mean samples of bucket j in the buffer after bucket t */
  composition: number[][];
}

/** one fetch of Fashion-MNIST, shared by every call (a second prepare while the first still loads waits for it) */
let pool: Promise<ImageDataset> | null = null;
let held: { key: string; stream: StreamBuckets; dataset: ImageDataset } | null = null;
let control: RunControl | null = null;

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(import.meta.env.BASE_URL + path);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function streamFor(c: TimeLabConfig): Promise<NonNullable<typeof held>> {
  const spec = streamSpecOf(c);
  const key = JSON.stringify(spec);
  if (held?.key === key) return held;
  pool ??= loadBuiltinDataset('fashion-mnist', fetchBytes).then(fromDecodedDataset);
  let source: ImageDataset;
  try {
    source = await pool;
  } catch (e) {
    pool = null; // try again next time
    throw e;
  }
  const stream = buildStream(spec, { images: source.train.images, labels: source.train.labels, shape: source.shape, numClasses: source.classNames.length });
  held = {
    key,
    stream,
    dataset: {
      shape: source.shape,
      classNames: source.classNames,
      train: { images: stream.images, labels: stream.labels },
      test: { images: new Uint8Array(0), labels: new Uint8Array(0) },
    },
  };
  return held;
}

const api = {
  async selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo> {
    return selectBackend(preferred);
  },
  /** Cut the stream of these settings; the bucket samples for the page. */
  async prepare(c: TimeLabConfig): Promise<StreamPreview> {
    const h = await streamFor(c);
    return streamPreview(h.stream, h.dataset.classNames);
  },
  async run(
    c: TimeLabConfig,
    protocol: StreamProtocol,
    onStep: (e: StreamStepEnd) => void,
    onProgress: (e: StreamProgress) => void,
    onCheckpoint: ((cp: StreamCheckpoint) => void) | null,
    resumeFrom: StreamCheckpoint | null,
  ): Promise<StreamRunResult> {
    const h = await streamFor(c);
    control = new RunControl();
    try {
      return await trainStream(h.dataset, runConfigOf(c, protocol, h.stream.sizes), {
        onStepEnd: onStep,
        onProgress,
        control,
        ...(onCheckpoint ? { onCheckpoint } : {}),
        ...(resumeFrom ? { resumeFrom } : {}),
      });
    } finally {
      control = null;
    }
  },
  /** Alg. 1 alone for every α of the paper's Table 2, on these bucket sizes. */
  async sweep(sizes: number[], k: number, trials: number, seed: number): Promise<SweepEntry[]> {
    return ALPHA_SWEEP.map((alpha) => ({ alpha, composition: reservoirTrials(sizes, k, alpha, trials, createDefaultRng(seed)).composition }));
  },
  /** Pause / resume / cancel the run in flight (no effect without one). */
  ...controlMethods(() => control),
};

export type TimeWorkerApi = typeof api;
Comlink.expose(api);
