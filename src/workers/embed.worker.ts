/// <reference lib="webworker" />
// Thin comlink facade over the CLIP text embedder (src/engine/clip): load a model (WebGPU first, wasm when WebGPU
// is missing or fails — the engine's fallback; the result says which device ran), embed texts, dispose.
// onnxruntime's wasm files come from the app itself (public/ort/, copied by scripts/prepare-ort.mjs), never from a
// CDN. Errors cross the worker boundary as plain data, because comlink keeps only an Error's name and message.
import * as Comlink from 'comlink';
import {
  ClipLoadError,
  createTextEmbedder,
  type ClipDevice,
  type ClipDtype,
  type ClipProgress,
  type TextEmbedder,
  type WeightSource,
} from '../engine/clip/text-embedder';

/** 'webgpu' = WebGPU when the browser has an adapter, else (or when it fails) wasm; 'wasm' = wasm only. */
export type DevicePreference = 'webgpu' | 'wasm';

export interface LoadRequest {
  modelId: string;
  dtype: ClipDtype;
  device: DevicePreference;
  source: WeightSource;
}

export interface LoadFailure {
  reason: 'offline' | 'not-found' | 'bad-model' | 'device' | 'unknown';
  message: string;
  hint: string;
  file?: string;
}

export type LoadResult =
  { ok: true; modelId: string; dtype: ClipDtype; device: ClipDevice; ms: number; reused: boolean; fallback?: string } | { ok: false; error: LoadFailure };

let embedder: TextEmbedder | null = null;
let loadedKey = '';

function keyOf(req: LoadRequest): string {
  return JSON.stringify([req.modelId, req.dtype, req.device, req.source]);
}

function failure(e: unknown, device: DevicePreference): LoadFailure {
  if (e instanceof ClipLoadError) {
    // the engine's device hint says "choose the wasm device": misleading when wasm is what failed
    const hint =
      e.reason === 'device' && device === 'wasm'
        ? `The wasm runtime itself failed: make sure the app serves onnxruntime-web's ort-wasm-simd-threaded.asyncify.wasm/.mjs at ${import.meta.env.BASE_URL}ort/ (npm start and npm run build copy them there, scripts/prepare-ort.mjs), then reload the page.`
        : e.hint;
    return { reason: e.reason, message: e.message, hint, file: e.file };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { reason: 'unknown', message, hint: '' };
}

const api = {
  /** Load (or keep) the embedder for these settings. Progress goes to the callback, released when done. */
  async load(req: LoadRequest, onProgress?: (p: ClipProgress) => void): Promise<LoadResult> {
    const t0 = performance.now();
    try {
      if (embedder && loadedKey === keyOf(req))
        return { ok: true, modelId: embedder.modelId, dtype: embedder.dtype, device: embedder.device, ms: 0, reused: true };
      if (embedder) {
        await embedder.dispose();
        embedder = null;
        loadedKey = '';
      }
      const base = {
        modelId: req.modelId,
        dtype: req.dtype,
        source: req.source,
        allowRemote: req.source.kind !== 'self-hosted',
        wasmPaths: `${import.meta.env.BASE_URL}ort/`,
        onProgress: onProgress ? (p: ClipProgress) => void onProgress({ ...p }) : undefined,
      };
      // The engine tries WebGPU first and falls back to wasm by itself (no adapter, or the session fails on it);
      // `notes` says why when it did.
      embedder = await createTextEmbedder({ ...base, device: req.device });
      const fallback = embedder.device !== req.device ? embedder.notes.join(' ') || `Ran on ${embedder.device}.` : undefined;
      loadedKey = keyOf(req);
      return { ok: true, modelId: embedder.modelId, dtype: embedder.dtype, device: embedder.device, ms: performance.now() - t0, reused: false, fallback };
    } catch (e) {
      return { ok: false, error: failure(e, req.device) };
    } finally {
      const p = onProgress as unknown as { [Comlink.releaseProxy]?: () => void } | undefined;
      p?.[Comlink.releaseProxy]?.();
    }
  },

  /** Embed texts with the loaded model: one contiguous float32 block (texts × dim), transferred, not copied. */
  async embed(texts: string[], batchSize?: number): Promise<{ dim: number; data: Float32Array; ms: number; device: ClipDevice }> {
    if (!embedder) throw new Error('No CLIP model is loaded: load one first.');
    const t0 = performance.now();
    const vectors = await embedder.embed(texts, batchSize);
    const dim = vectors[0]?.length ?? 0;
    const data = new Float32Array(texts.length * dim);
    vectors.forEach((v, i) => data.set(v, i * dim));
    return Comlink.transfer({ dim, data, ms: performance.now() - t0, device: embedder.device }, [data.buffer]);
  },

  async dispose() {
    if (embedder) await embedder.dispose();
    embedder = null;
    loadedKey = '';
  },
};

export type EmbedWorkerApi = typeof api;
Comlink.expose(api);
