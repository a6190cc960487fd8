/**
 * Where a transformers.js model's files are: the Hugging Face hub, a mirror, or a self-hosted folder or URL — one
 * rule for CLIP's text side (text-embedder.ts) and every image encoder (image-encoder.ts), so the same weight source
 * (the config's `ClipWeightSource`) means the same URLs for both.
 *
 * - hub: `https://huggingface.co/` with the path template `{model}/resolve/{revision}/`.
 * - mirror: without placeholders the mirror copies the hub's layout (`{model}/resolve/{revision}/`, e.g.
 *   https://hf-mirror.com/); a URL containing `{model}` (and optionally `{revision}`) is split into host + template,
 *   e.g. `https://example.org/clip/{model}/` for a static copy.
 * - self-hosted: a folder holding `<modelId>/config.json` etc. In a browser a URL path on the app's own origin (e.g.
 *   `/models/` for files under public/models/), in Node a filesystem folder; the folder is given to transformers.js
 *   as a path (`<path>/<modelId>`), which is never mistaken for a hub id. An absolute http(s) path is a static
 *   mirror (`{model}/` under that URL).
 *
 * Pure (no transformers.js): importing it costs nothing.
 */

export type WeightSource = { kind: 'hub' } | { kind: 'self-hosted'; path: string } | { kind: 'mirror'; url: string };

export const HUB_HOST = 'https://huggingface.co/';
export const HUB_TEMPLATE = '{model}/resolve/{revision}/';

// ───────────────────────────── environment ─────────────────────────────

export function isWorkerScope(): boolean {
  return typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
}
export function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return !!p?.versions?.node && typeof (globalThis as { window?: unknown }).window === 'undefined' && !isWorkerScope();
}
export function pageOrigin(): string | undefined {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : undefined;
}
/** An absolute http(s) URL on another origin than the page's (a relative URL is the app's own). */
export function isRemoteUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return u.origin !== pageOrigin();
}

// ───────────────────────────── where the files are ─────────────────────────────

export interface Location {
  /** What transformers.js gets as `pretrained_model_name_or_path`. */
  pretrainedId: string;
  /** Human-readable folder or URL prefix, ending in '/'. */
  where: string;
  /** Full URL or path of a file, for messages. */
  at(file: string): string;
  remote: boolean;
  host?: string;
  template?: string;
  localModelPath?: string;
  /** The revision filled into the template ('main' unless asked). */
  revision: string;
}

function trimSlashes(s: string): string {
  return s.replace(/\/+$/, '');
}

function splitTemplateUrl(url: string): { host: string; template: string } {
  const i = url.indexOf('{model}');
  // Host = everything up to the last '/' before {model}; template = the rest.
  const cut = url.lastIndexOf('/', i) + 1;
  return { host: url.slice(0, cut), template: url.slice(cut) };
}

/** The location of `modelId`'s files under `source`, at `revision` (a hub branch, tag or commit; default main). */
export function resolveLocation(modelId: string, source: WeightSource, revision = 'main'): Location {
  const fill = (host: string, template: string) => {
    const prefix = `${host.endsWith('/') ? host : `${host}/`}${template.replaceAll('{model}', modelId).replaceAll('{revision}', revision)}`;
    return prefix.endsWith('/') ? prefix : `${prefix}/`;
  };
  switch (source.kind) {
    case 'hub': {
      const where = fill(HUB_HOST, HUB_TEMPLATE);
      return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host: HUB_HOST, template: HUB_TEMPLATE, revision };
    }
    case 'mirror': {
      const url = source.url.trim();
      let host: string;
      let template: string;
      if (url.includes('{model}')) ({ host, template } = splitTemplateUrl(url));
      else {
        host = url.endsWith('/') ? url : `${url}/`;
        template = HUB_TEMPLATE;
      }
      const where = fill(host, template);
      return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host, template, revision };
    }
    case 'self-hosted': {
      const path = source.path.trim();
      if (/^https?:\/\//i.test(path)) {
        const host = path.endsWith('/') ? path : `${path}/`;
        const where = fill(host, '{model}/');
        return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host, template: '{model}/', revision };
      }
      const raw = path.replace(/\\/g, '/');
      // Make the folder path impossible to read as a hub id ("org/name"): absolute and ./ paths never match.
      const explicit = /^(\/|\.\.?\/|[A-Za-z]:\/)/.test(raw) || raw === '.' || raw === '..';
      const base = explicit ? trimSlashes(raw) : `./${trimSlashes(raw)}`;
      const folder = `${base}/${modelId}`; // path '/' gives '/<modelId>'
      const where = `${folder}/`;
      return { pretrainedId: folder, where, at: (f) => where + f, remote: false, localModelPath: `${base}/`, revision };
    }
  }
}

/** The weight source as typed by a person is usable: a model id, a folder, an http(s) mirror. One sentence otherwise. */
export function weightSourceProblem(modelId: unknown, s: WeightSource | undefined): { message: string; hint: string } | null {
  if (typeof modelId !== 'string' || !modelId.trim()) return { message: 'No model id was given.', hint: 'Choose a model, e.g. Xenova/clip-vit-base-patch32.' };
  if (s?.kind === 'self-hosted' && (typeof s.path !== 'string' || !s.path.trim()))
    return {
      message: 'The self-hosted source has no folder.',
      hint: 'Give the folder that holds the model folders, e.g. /models/ for files under public/models/.',
    };
  if (s?.kind === 'mirror') {
    let ok = false;
    try {
      const u = new URL(String(s.url).replace(/\{(model|revision)\}/g, 'x'));
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok)
      return {
        message: `The mirror URL "${s.url}" is not an http(s) URL.`,
        hint: "Give the mirror's address, e.g. https://hf-mirror.com/ (hub layout) or https://example.org/models/{model}/ (a plain copy).",
      };
  }
  return null;
}
