/**
 * The UI's handle on CLIP text embeddings: looks every (model, dtype, prompt, class) up in the IndexedDB cache
 * first, starts the embed worker only for what is missing (so a page whose names are all cached never loads
 * weights), stores what it embedded, and can be cancelled (the worker is terminated; a new one starts next time).
 */
import * as Comlink from 'comlink';
import { ClipLoadError, textEmbedderDownloadSizes, type ClipDevice, type ClipDtype, type ClipProgress, type WeightSource } from '../engine/clip/text-embedder';
import { totalDownload, type DownloadSize } from '../engine/clip/download';
import { openEmbeddingCache, type EmbeddingCache, type EmbeddingKey } from './embedding-cache';
import type { DevicePreference, EmbedWorkerApi, LoadFailure, LoadResult } from '../workers/embed.worker';

export type { ClipDevice, ClipDtype, ClipProgress, WeightSource } from '../engine/clip/text-embedder';
// The model list and file names are plain data in the engine module (it loads transformers.js lazily, only in
// the worker), so the settings can show them without starting anything.
export { CLIP_DTYPES, CLIP_MODELS, requiredFiles } from '../engine/clip/text-embedder';
export type { DevicePreference, LoadFailure } from '../workers/embed.worker';

export interface EmbedRequest {
  modelId: string;
  dtype: ClipDtype;
  device: DevicePreference;
  source: WeightSource;
  classes: string[];
  /** The text embedded for each class (same length as classes). */
  prompts: string[];
}

export interface ClipEmbeddings {
  modelId: string;
  dtype: ClipDtype;
  classes: string[];
  prompts: string[];
  vectors: Float32Array[];
  /** Per class: true when its vector came from the IndexedDB cache. */
  fromCache: boolean[];
  /** The device that embedded the missing names; null when every name came from the cache. */
  device: ClipDevice | null;
  /** Why the device is not the one asked for (e.g. WebGPU missing), if so. */
  fallback?: string;
  /** Milliseconds spent loading the model and embedding (0 when not needed). */
  loadMs: number;
  embedMs: number;
  /** Whether the cache is persistent (IndexedDB available). */
  cachePersistent: boolean;
}

/**
 * What the model of a request would download, asked before anything downloads: HEAD requests for its files (the
 * engine's textEmbedderDownloadSizes, shared with the image encoders), files the browser keeps already counting 0.
 * Runs on the page (no worker); a self-hosted folder on the app's own origin and weights kept in the browser need
 * no network. A failure is a LoadFailure, as a failed load is.
 */
export async function clipDownloadSize(
  req: Pick<EmbedRequest, 'modelId' | 'dtype' | 'device' | 'source'>,
): Promise<{ ok: true; size: DownloadSize } | { ok: false; error: LoadFailure }> {
  try {
    const files = await textEmbedderDownloadSizes({ modelId: req.modelId, dtype: req.dtype, device: req.device, source: req.source, allowRemote: true });
    return { ok: true, size: totalDownload(files) };
  } catch (e) {
    if (e instanceof ClipLoadError) return { ok: false, error: { reason: e.reason, message: e.message, hint: e.hint, file: e.file } };
    return { ok: false, error: { reason: 'unknown', message: e instanceof Error ? e.message : String(e), hint: '' } };
  }
}

export type EmbedOutcome = { ok: true; result: ClipEmbeddings } | { ok: false; cancelled: true } | { ok: false; cancelled: false; error: LoadFailure };

export function createEmbedClient() {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<EmbedWorkerApi> | null = null;
  let cachePromise: Promise<EmbeddingCache> | null = null;
  let cancelCurrent: (() => void) | null = null;

  const cache = () => (cachePromise ??= openEmbeddingCache());

  function ensureWorker(): Comlink.Remote<EmbedWorkerApi> {
    if (!remote) {
      worker = new Worker(new URL('../workers/embed.worker.ts', import.meta.url), { type: 'module' });
      remote = Comlink.wrap<EmbedWorkerApi>(worker);
    }
    return remote;
  }
  function stopWorker() {
    if (remote) remote[Comlink.releaseProxy]();
    worker?.terminate();
    worker = null;
    remote = null;
  }

  const keys = (req: Pick<EmbedRequest, 'modelId' | 'dtype' | 'classes' | 'prompts'>): EmbeddingKey[] =>
    req.classes.map((className, i) => ({ model: req.modelId, dtype: req.dtype, prompt: req.prompts[i], className }));

  /** Rejects with a 'cancelled' marker when cancel() is called while the promise is pending. */
  function cancellable<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      cancelCurrent = () => reject(CANCELLED);
      p.then(resolve, reject);
    });
  }

  return {
    /** Cache only, no worker, no network: the cached vector of each class, or undefined. */
    async lookup(req: Pick<EmbedRequest, 'modelId' | 'dtype' | 'classes' | 'prompts'>): Promise<(Float32Array | undefined)[]> {
      return (await cache()).getMany(keys(req));
    },

    /** Cached names from IndexedDB, the rest from the model (loaded if needed, with progress). */
    async embed(req: EmbedRequest, onProgress?: (p: ClipProgress) => void): Promise<EmbedOutcome> {
      const c = await cache();
      const k = keys(req);
      const cached = await c.getMany(k);
      const missing = cached.flatMap((v, i) => (v ? [] : [i]));
      const base = { modelId: req.modelId, dtype: req.dtype, classes: [...req.classes], prompts: [...req.prompts], cachePersistent: c.persistent };
      if (!missing.length)
        return { ok: true, result: { ...base, vectors: cached as Float32Array[], fromCache: cached.map(() => true), device: null, loadMs: 0, embedMs: 0 } };

      const r = ensureWorker();
      const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
      try {
        const loaded = await cancellable<LoadResult>(
          r.load({ modelId: req.modelId, dtype: req.dtype, device: req.device, source: req.source }, progress) as Promise<LoadResult>,
        );
        if (!loaded.ok) return { ok: false, cancelled: false, error: loaded.error };
        const out = await cancellable(r.embed(missing.map((i) => req.prompts[i])));
        const vectors = cached.slice();
        missing.forEach((ci, m) => (vectors[ci] = out.data.subarray(m * out.dim, (m + 1) * out.dim)));
        const now = Date.now();
        await c.putMany(missing.map((ci) => ({ ...k[ci], vector: vectors[ci]!, createdAt: now, device: out.device })));
        return {
          ok: true,
          result: {
            ...base,
            vectors: vectors as Float32Array[],
            fromCache: cached.map((v) => v !== undefined),
            device: out.device,
            fallback: loaded.fallback,
            loadMs: loaded.ms,
            embedMs: out.ms,
          },
        };
      } catch (e) {
        if (e === CANCELLED) {
          stopWorker();
          return { ok: false, cancelled: true };
        }
        // the worker itself broke (it never throws on purpose): start afresh next time
        stopWorker();
        return { ok: false, cancelled: false, error: { reason: 'unknown', message: e instanceof Error ? e.message : String(e), hint: '' } };
      } finally {
        cancelCurrent = null;
      }
    },

    /** Stop a running load or embedding (terminates the worker). */
    cancel() {
      cancelCurrent?.();
    },

    dispose() {
      cancelCurrent?.();
      stopWorker();
      void cachePromise?.then((c) => c.close());
      cachePromise = null;
    },
  };
}

const CANCELLED = Symbol('cancelled');
