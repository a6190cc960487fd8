/**
 * Which image encoders the Your-classes lab can run here, found without touching the network (docs/science.md §10,
 * "Offline"): a self-hosted folder answers on the page's own origin; a hub or mirror model is ready when the browser
 * keeps every file it needs (transformers.js's Cache Storage); otherwise it needs a download, which an offline
 * browser cannot make. The site ships small encoders under models/cil-lab/ that always run here, and any image
 * encoder the browser has kept is offered too.
 */
import type { OwnEncoder } from '../core/labs/own-classes/section';
import { BROWSER_CACHE_NAME } from '../engine/clip/download';
import { encoderRequiredFiles, likelyEncoderKind } from '../engine/clip/image-encoder';
import { HUB_HOST, resolveLocation } from '../engine/clip/weights';

export type EncoderState = 'here' | 'cached' | 'download' | 'missing';

/** The encoders this site ships under `models/cil-lab/` (public/models/cil-lab, made by scripts/prepare-clip-fixture.mjs). */
export const SHIPPED_ENCODERS: readonly { model: string; label: string; note: string }[] = [
  {
    model: 'clip-vision-tiny',
    label: 'Tiny encoder (ships with this site)',
    note: 'a tiny CLIP-shaped network with random weights, made for the tests (16 numbers per image): it tells colours and simple shapes apart, not real objects; it runs offline',
  },
];

/** Whether the browser says it is offline (no network interface): the hub cannot be reached. */
export function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Cache Storage's kept files (null where there is none). */
async function keptFiles(): Promise<Cache | null> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage) return null;
  try {
    return (await storage.has(BROWSER_CACHE_NAME)) ? await storage.open(BROWSER_CACHE_NAME) : null;
  } catch {
    return null;
  }
}

/**
 * Where an encoder's weights would come from now: 'here' (a self-hosted folder on this site that answers), 'missing'
 * (a self-hosted folder without it), 'cached' (every file kept by the browser), 'download'.
 */
export async function encoderState(e: OwnEncoder, fetcher: typeof fetch = (i, r) => fetch(i, r)): Promise<EncoderState> {
  const loc = resolveLocation(e.model, e.weights);
  const files = encoderRequiredFiles(likelyEncoderKind(e.model), e.precision);
  if (!loc.remote) {
    try {
      const res = await fetcher(loc.at('config.json'), { method: 'HEAD' });
      // a dev server answers a missing file with its index.html
      return res.ok && !/text\/html/i.test(res.headers.get('content-type') ?? '') ? 'here' : 'missing';
    } catch {
      return 'missing';
    }
  }
  const cache = await keptFiles();
  if (!cache) return 'download';
  for (const f of files) if (!(await cache.match(loc.at(f)).catch(() => undefined))) return 'download';
  return 'cached';
}

/** An encoder the lab can offer because it runs here. */
export interface RunnableEncoder {
  label: string;
  note: string;
  encoder: OwnEncoder;
}

/**
 * The encoders that run here without a download: the shipped ones whose folder answers (under `modelsBase`, the
 * app's models/ URL), and every hub image encoder whose files the browser keeps (each precision found).
 */
export async function runnableEncoders(modelsBase: string, fetcher?: typeof fetch): Promise<RunnableEncoder[]> {
  const out: RunnableEncoder[] = [];
  for (const s of SHIPPED_ENCODERS) {
    const encoder: OwnEncoder = { source: 'encoder', model: s.model, precision: 'fp32', weights: { kind: 'self-hosted', path: `${modelsBase}cil-lab/` } };
    if ((await encoderState(encoder, fetcher)) === 'here') out.push({ label: s.label, note: s.note, encoder });
  }
  const cache = await keptFiles();
  if (!cache) return out;
  const seen = new Set<string>();
  for (const req of await cache.keys().catch(() => [] as readonly Request[])) {
    // https://huggingface.co/<org>/<name>/resolve/<revision>/onnx/<file>.onnx
    const m = new RegExp(
      `^${HUB_HOST.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([^/]+/[^/]+)/resolve/main/onnx/(vision_model|model)(_quantized|_fp16)?\\.onnx$`,
    ).exec(req.url);
    if (!m) continue;
    const precision = m[3] === '_quantized' ? 'q8' : m[3] === '_fp16' ? 'fp16' : 'fp32';
    const encoder: OwnEncoder = { source: 'encoder', model: m[1], precision, weights: { kind: 'hub' } };
    const id = JSON.stringify(encoder);
    if (seen.has(id) || likelyEncoderKind(m[1]) !== (m[2] === 'vision_model' ? 'clip-vision' : 'auto')) continue;
    seen.add(id);
    if ((await encoderState(encoder, fetcher)) === 'cached')
      out.push({ label: `${m[1]} (${precision})`, note: 'kept by this browser from an earlier download; it runs offline', encoder });
  }
  return out;
}
