/**
 * CLIP text embeddings with transformers.js (docs/science.md §6 "CLIP text"; EDGE paper §4.2, App. E.3):
 * `AutoTokenizer` + `CLIPTextModelWithProjection`, `text_embeds` L2-normalised here (the model does not).
 * Runs in Node (onnxruntime-node, device 'cpu') and in a browser worker (onnxruntime-web, 'webgpu' or 'wasm');
 * no DOM. transformers.js is imported lazily, so importing this module (for CLIP_MODELS, ClipLoadError, types)
 * costs nothing.
 *
 * What transformers.js 4.3.1 fetches for a model id (checked in dist/transformers.node.mjs):
 *   AutoTokenizer.from_pretrained        tokenizer_config.json (an existence probe first: a ranged GET for remote
 *                                        hosts), then tokenizer.json + tokenizer_config.json
 *   CLIPTextModelWithProjection          config.json, then onnx/text_model.onnx (dtype 'fp32') or
 *     .from_pretrained                   onnx/text_model_quantized.onnx (dtype 'q8'); no external-data files
 *                                        unless config.json's "transformers.js_config" asks for them
 * It feeds the session only the inputs the graph declares (`input_ids` int64 [batch, seq] for the Xenova CLIP
 * exports; `attention_mask` too if a graph declares it) and we read `text_embeds` [batch, projection_dim].
 *
 * Weight sources (transformers.js `env`, set on every load; loads are serialised because `env` is global):
 * - hub: `env.remoteHost = https://huggingface.co/`, path template `{model}/resolve/{revision}/`.
 * - self-hosted: a folder holding `<modelId>/config.json` etc.: `env.allowLocalModels = true`,
 *   `env.localModelPath = path`, `env.allowRemoteModels = false`. In a browser, `path` is a URL path on the app's
 *   own origin (e.g. `/models/` for files under public/models/); in Node a filesystem folder. The folder is
 *   passed to transformers.js as a path (`<path>/<modelId>`), which is never mistaken for a hub id. An absolute
 *   http(s) `path` is treated as a static mirror (`{model}/` under that URL).
 * - mirror: `env.remoteHost = url`. Without placeholders the mirror is assumed to copy the hub's layout
 *   (`{model}/resolve/{revision}/`, e.g. https://hf-mirror.com/); a URL containing `{model}` (and optionally
 *   `{revision}`) is split into host + template, e.g. `https://example.org/clip/{model}/` for a static copy.
 * - `allowRemote` (default: true for hub, mirror and a self-hosted http(s) URL, false for a folder; the CLI passes false unless
 *   --allow-remote): when false, `env.allowRemoteModels = false` AND `env.fetch` refuses every absolute http(s)
 *   URL that is not on the page's own origin, so no remote fetch can happen even by accident.
 * - Caching: in a browser transformers.js keeps downloaded files in Cache Storage (`env.useBrowserCache`,
 *   cache "transformers-cache"), so a second load does not re-download (`cache: false` turns that off); in Node
 *   remote downloads always go to transformers.js's file cache (`env.useFSCache`, folder `cacheDir`), because its
 *   Node loader hands onnxruntime a file path; local folders are never copied.
 *
 * Devices: 'webgpu' falls back to 'wasm' in a browser when WebGPU is missing (no `navigator.gpu` or no adapter)
 * or the session cannot be created/run on it; in Node 'webgpu' falls back to 'cpu' and 'wasm' means 'cpu'
 * (onnxruntime-node has no wasm backend); in a browser 'cpu' means 'wasm'. `TextEmbedder.device` is what ran,
 * `notes` says why when it differs from the request. In a browser, onnxruntime's .wasm files must be served by the
 * app (`wasmPaths`); a load that would fetch them from a CDN is refused.
 *
 * Truncation: CLIP's context is 77 tokens. transformers.js truncates after adding the special tokens, which can
 * cut off the closing <|endoftext|> — the token CLIP pools at — so a truncated row gets its last token replaced by
 * <|endoftext|> (what Hugging Face's Python tokenizer produces, and OpenAI's clip.tokenize(truncate=True)).
 *
 * Batching: fp32 gives the same vector for a text whatever batch it is in (right padding with <|endoftext|> does
 * not reach the pooled token). q8 exports are dynamically quantized — activation scales are computed over the
 * whole batch tensor — so a q8 vector moves slightly with its batch mates (cosine > 0.9999 on the fixture).
 *
 * Failures are `ClipLoadError`s: `reason` ('offline' | 'not-found' | 'bad-model' | 'device'), a message naming the
 * file or URL that failed, and a `hint` (use a mirror, self-host the weights under public/models/, upload
 * embeddings; in Node: --model-path / --allow-remote).
 */

export type ClipDtype = 'q8' | 'fp32';
/** 'cpu' = onnxruntime-node in Node. */
export type ClipDevice = 'webgpu' | 'wasm' | 'cpu';
export type WeightSource = { kind: 'hub' } | { kind: 'self-hosted'; path: string } | { kind: 'mirror'; url: string };

export interface ClipProgress {
  /** File relative to the model folder (e.g. 'onnx/text_model_quantized.onnx'); '' for whole-model events. */
  file: string;
  loaded: number;
  total: number;
  /** transformers.js's status ('initiate' | 'download' | 'progress' | 'done' | 'progress_total'), then 'ready'. */
  status: string;
}

export interface EmbedderOptions {
  modelId: string;
  dtype: ClipDtype;
  device: ClipDevice;
  source: WeightSource;
  /** May anything be fetched from another host? Default: true for hub/mirror (and a self-hosted http(s) URL), false for a self-hosted folder. */
  allowRemote?: boolean;
  /** Browser only: URL prefix where the app serves onnxruntime-web's ort-wasm-simd-threaded*.{mjs,wasm}. */
  wasmPaths?: string;
  onProgress?: (p: ClipProgress) => void;
  /**
   * Browser: keep downloaded weights in Cache Storage (default true). Node: remote downloads always go through
   * transformers.js's file cache (its Node loader needs a file path for ONNX files), see `cacheDir`.
   */
  cache?: boolean;
  /** Node only: the folder for downloaded files. Default: transformers.js's (node_modules/@huggingface/transformers/.cache/). */
  cacheDir?: string;
  /** The fetch to use for http(s) downloads (tests; custom headers). Default: transformers.js's (global fetch). */
  fetch?: typeof fetch;
}

export interface TextEmbedder {
  modelId: string;
  /** The device that actually ran (after any fallback). */
  device: ClipDevice;
  dtype: ClipDtype;
  /** The device that was asked for. */
  requestedDevice: ClipDevice;
  /** Embedding length (the model's projection_dim). */
  dim: number;
  /** Why the device differs from the request, and similar remarks; empty when nothing to say. */
  notes: string[];
  /** One L2-normalised text_embeds row per text, in order. */
  embed(texts: string[], batchSize?: number): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

export type ClipLoadReason = 'offline' | 'not-found' | 'bad-model' | 'device';

export class ClipLoadError extends Error {
  readonly reason: ClipLoadReason;
  /** The file (relative to the model folder) or URL that failed, when known. */
  readonly file?: string;
  /** How to fix it, one or two sentences. */
  readonly hint: string;
  constructor(reason: ClipLoadReason, message: string, opts: { hint: string; file?: string; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ClipLoadError';
    this.reason = reason;
    this.file = opts.file;
    this.hint = opts.hint;
  }
}

/** Models offered in the app (all exist on the Hugging Face hub with ONNX weights for transformers.js). */
export const CLIP_MODELS: { id: string; label: string; note: string }[] = [
  {
    id: 'Xenova/clip-vit-base-patch32',
    label: 'CLIP ViT-B/32',
    note: 'Default. OpenAI CLIP ViT-B/32; 63 M-parameter text encoder (about 64 MB as q8, 254 MB as fp32).',
  },
  {
    id: 'Xenova/clip-vit-base-patch16',
    label: 'CLIP ViT-B/16',
    note: "The EDGE authors' backbone (clip.load('ViT-B/16')); same text-encoder size as B/32, different weights.",
  },
  {
    id: 'Xenova/clip-vit-large-patch14',
    label: 'CLIP ViT-L/14',
    note: 'Larger: 123 M-parameter text encoder (about 125 MB as q8, 490 MB as fp32); slower to download and run.',
  },
];

export const CLIP_DTYPES: readonly ClipDtype[] = ['q8', 'fp32'];
export const CLIP_DEVICES: readonly ClipDevice[] = ['webgpu', 'wasm', 'cpu'];
/** CLIP's context length. */
export const CLIP_CONTEXT_LENGTH = 77;

/** The ONNX file transformers.js loads for a dtype. */
export function onnxFileFor(dtype: ClipDtype): string {
  return dtype === 'fp32' ? 'onnx/text_model.onnx' : 'onnx/text_model_quantized.onnx';
}

/** Every file a complete model folder needs for a dtype (what to copy when self-hosting). */
export function requiredFiles(dtype: ClipDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(dtype)];
}

const HUB_HOST = 'https://huggingface.co/';
const HUB_TEMPLATE = '{model}/resolve/{revision}/';

// ───────────────────────────── environment ─────────────────────────────

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return !!p?.versions?.node && typeof (globalThis as { window?: unknown }).window === 'undefined' && !isWorkerScope();
}
function isWorkerScope(): boolean {
  return typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
}
function pageOrigin(): string | undefined {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : undefined;
}
function isRemoteUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false; // a relative URL: the app's own origin
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

export function resolveLocation(modelId: string, source: WeightSource): Location {
  const fill = (host: string, template: string, revision = 'main') => {
    const prefix = `${host.endsWith('/') ? host : `${host}/`}${template.replaceAll('{model}', modelId).replaceAll('{revision}', revision)}`;
    return prefix.endsWith('/') ? prefix : `${prefix}/`;
  };
  switch (source.kind) {
    case 'hub': {
      const where = fill(HUB_HOST, HUB_TEMPLATE);
      return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host: HUB_HOST, template: HUB_TEMPLATE };
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
      return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host, template };
    }
    case 'self-hosted': {
      const path = source.path.trim();
      if (/^https?:\/\//i.test(path)) {
        const host = path.endsWith('/') ? path : `${path}/`;
        const where = fill(host, '{model}/');
        return { pretrainedId: modelId, where, at: (f) => where + f, remote: true, host, template: '{model}/' };
      }
      const raw = path.replace(/\\/g, '/');
      // Make the folder path impossible to read as a hub id ("org/name"): absolute and ./ paths never match.
      const explicit = /^(\/|\.\.?\/|[A-Za-z]:\/)/.test(raw) || raw === '.' || raw === '..';
      const base = explicit ? trimSlashes(raw) : `./${trimSlashes(raw)}`;
      const folder = `${base}/${modelId}`; // path '/' gives '/<modelId>'
      const where = `${folder}/`;
      return { pretrainedId: folder, where, at: (f) => where + f, remote: false, localModelPath: `${base}/` };
    }
  }
}

// ───────────────────────────── hints ─────────────────────────────

function hintFor(reason: ClipLoadReason, opts: EmbedderOptions, prefix = ''): string {
  const node = isNode();
  const files = requiredFiles(opts.dtype).join(', ');
  const selfHost = node
    ? `download the model folder (${files}) once and pass it with --model-path DIR`
    : `self-host the weights (copy ${files} to public/models/${opts.modelId}/ and choose the self-hosted source, path /models/)`;
  const mirror = node ? '' : 'use a mirror URL that is reachable from here, ';
  const upload = node
    ? 'or use another similarity source (--source wordnet or --source file:PATH with embeddings made in Python)'
    : 'or upload precomputed embeddings or a similarity matrix instead (e.g. CLIP ViT-B/16 embeddings made in Python)';
  switch (reason) {
    case 'offline':
      return `${prefix}${node ? 'The CLI downloads only with --allow-remote; otherwise ' : 'Check the connection, '}${mirror}${selfHost}, ${upload}.`;
    case 'not-found':
      return `${prefix}Check the model id and that the folder holds ${files} (the transformers.js layout, ONNX files under onnx/); ${mirror}${selfHost}, ${upload}.`;
    case 'bad-model':
      return `${prefix}Download the file again from the model's transformers.js export (e.g. Xenova/clip-vit-base-patch32) — a download cut short, or an HTML error page saved under the file's name, looks like this — ${node ? '' : 'or use another mirror, '}${upload}.`;
    case 'device':
      return `${prefix}${node ? 'Use the cpu device (onnxruntime-node).' : "Choose the wasm device, and make sure the app serves onnxruntime-web's ort-wasm-simd-threaded*.wasm/.mjs itself (wasmPaths)."}`;
  }
}

// ───────────────────────────── loading ─────────────────────────────

interface LoadContext {
  opts: EmbedderOptions;
  loc: Location;
  allowRemote: boolean;
  network?: { url: string; message: string };
  http: { url: string; status: number }[];
  html: string[];
  progress: Map<string, { loaded: number; total: number }>;
}

function relFile(ctx: LoadContext, pathOrUrl: string): string {
  const where = ctx.loc.where;
  if (pathOrUrl.startsWith(where)) return pathOrUrl.slice(where.length);
  const m = /(?:^|\/)((?:onnx\/)?[^/]+\.(?:json|onnx(?:_data(?:_\d+)?)?))$/.exec(pathOrUrl);
  return m ? m[1] : pathOrUrl;
}

function urlOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return (input as { url?: string })?.url ?? String(input);
}

function guardedFetch(base: typeof fetch, ctx: LoadContext): typeof fetch {
  const f = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    if (!ctx.allowRemote && isRemoteUrl(url)) {
      throw new ClipLoadError('offline', `Refused to download ${url}: remote downloads are switched off (allowRemote is false).`, {
        file: url,
        hint: hintFor('offline', ctx.opts),
      });
    }
    let res: Response;
    try {
      res = await base(input, init);
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      ctx.network = { url, message };
      throw new ClipLoadError('offline', `Could not download ${url} (${message}): you seem to be offline, or the host is unreachable.`, {
        file: url,
        hint: hintFor('offline', ctx.opts),
        cause: e,
      });
    }
    if (!res.ok) ctx.http.push({ url, status: res.status });
    else {
      // A dev server's SPA fallback answers a missing file with index.html (200): treat it as missing.
      const type = res.headers.get('content-type') ?? '';
      let path = url;
      try {
        path = new URL(url, 'http://x/').pathname;
      } catch {
        /* keep url */
      }
      if (/text\/html/i.test(type) && /\.(json|onnx|onnx_data)$/i.test(path)) {
        ctx.html.push(url);
        try {
          await res.body?.cancel();
        } catch {
          /* ignore */
        }
        return new Response(null, { status: 404, statusText: 'Not Found (the server answered with an HTML page)' });
      }
    }
    return res;
  };
  return f as typeof fetch;
}

function classify(e: unknown, stage: 'tokenizer' | 'model', ctx: LoadContext): ClipLoadError {
  if (e instanceof ClipLoadError) return e;
  const err = e as Error;
  const msg = err?.message ?? String(e);
  const { opts, loc } = ctx;
  if (ctx.network) {
    return new ClipLoadError('offline', `Could not download ${ctx.network.url} (${ctx.network.message}): you seem to be offline, or the host is unreachable.`, {
      file: ctx.network.url,
      hint: hintFor('offline', opts),
      cause: e,
    });
  }
  const quoted = /"([^"]+)"/.exec(msg)?.[1];
  const status = /\((\d{3})\)/.exec(msg)?.[1];
  if (err?.name === 'ModelFileNotFoundError' || /could not locate file|not found locally|file missing|Unauthorized access|Forbidden access/i.test(msg)) {
    const target = quoted ?? loc.where;
    const file = relFile(ctx, target);
    const what = /Unauthorized|Forbidden/i.test(msg) ? 'is not accessible (the repository may be private or gated)' : 'was not found';
    const html = ctx.html.some((u) => u === target) ? ' (the server answered with an HTML page instead)' : '';
    return new ClipLoadError('not-found', `The model file ${file} ${what} at ${loc.at(file)}${html}.`, {
      file,
      hint: hintFor('not-found', opts),
      cause: e,
    });
  }
  if (/error occurred while trying to load file/i.test(msg)) {
    const file = relFile(ctx, quoted ?? loc.where);
    return new ClipLoadError('offline', `The server failed to deliver ${loc.at(file)}${status ? ` (HTTP ${status})` : ''}.`, {
      file,
      hint: hintFor('offline', opts, 'The host had a problem; try again later. '),
      cause: e,
    });
  }
  if (stage === 'tokenizer' && err instanceof TypeError && /undefined|null/.test(msg)) {
    // AutoTokenizer gets no files when tokenizer_config.json does not exist, then fails on `undefined`.
    return new ClipLoadError('not-found', `The model file tokenizer_config.json was not found at ${loc.at('tokenizer_config.json')}.`, {
      file: 'tokenizer_config.json',
      hint: hintFor('not-found', opts),
      cause: e,
    });
  }
  if (err instanceof SyntaxError) {
    const file = stage === 'tokenizer' ? 'tokenizer.json' : 'config.json';
    const which = stage === 'tokenizer' ? 'tokenizer.json or tokenizer_config.json' : 'config.json';
    return new ClipLoadError('bad-model', `${which} at ${loc.where} is not valid JSON (${msg}).`, {
      file,
      hint: hintFor('bad-model', opts),
      cause: e,
    });
  }
  if (stage === 'tokenizer') {
    return new ClipLoadError('bad-model', `The tokenizer files at ${loc.where} could not be read as a CLIP tokenizer (${msg}).`, {
      file: 'tokenizer.json',
      hint: hintFor('bad-model', opts),
      cause: e,
    });
  }
  if (/backend|execution provider|webgpu|adapter|wasm|dynamically imported module|Unsupported device|no available/i.test(msg)) {
    return new ClipLoadError('device', `The ${opts.device} device could not run the model (${firstLine(msg)}).`, {
      hint: hintFor('device', opts),
      cause: e,
    });
  }
  const file = onnxFileFor(opts.dtype);
  return new ClipLoadError('bad-model', `The ONNX model ${loc.at(file)} could not be loaded (${firstLine(msg)}).`, {
    file,
    hint: hintFor('bad-model', opts),
    cause: e,
  });
}

/** The gist of a (possibly long, multi-line) runtime error, for notes. */
function shortReason(err: ClipLoadError): string {
  const cause = err.cause as { message?: string } | undefined;
  let s = firstLine(cause?.message ?? err.message);
  const i = s.lastIndexOf(' was false. ');
  if (i >= 0) s = s.slice(i + ' was false. '.length);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

// transformers.js `env` is global: one load at a time.
let loadChain: Promise<unknown> = Promise.resolve();
function serialised<T>(f: () => Promise<T>): Promise<T> {
  const run = loadChain.then(f, f);
  loadChain = run.catch(() => undefined);
  return run;
}

/** Minimal shapes of the transformers.js objects we use (its own typings are loose for these). */
interface TfTensor {
  dims: number[];
  data: ArrayLike<number> | BigInt64Array;
  dispose?: () => void;
}
type TfTokenizer = ((texts: string[], opts: { padding: boolean; truncation: boolean }) => { input_ids: TfTensor; attention_mask?: TfTensor }) & {
  eos_token_id?: number;
  pad_token_id?: number;
};
type TfModel = ((inputs: Record<string, unknown>) => Promise<Record<string, TfTensor>>) & {
  dispose?: () => Promise<unknown>;
  sessions?: Record<string, { inputNames?: string[]; outputNames?: string[] }>;
};

/**
 * Programming errors (an unknown dtype, device or source kind) are TypeErrors; things a person typed (model id,
 * folder, mirror URL) are ClipLoadErrors ('not-found') so the UI can show them like any other load failure.
 */
function checkOptions(opts: EmbedderOptions): void {
  const typed = (m: string, hint: string) => new ClipLoadError('not-found', m, { hint });
  if (!CLIP_DTYPES.includes(opts.dtype)) throw new TypeError(`Unknown dtype "${String(opts.dtype)}": use q8 or fp32.`);
  if (!CLIP_DEVICES.includes(opts.device)) throw new TypeError(`Unknown device "${String(opts.device)}": use webgpu, wasm or cpu.`);
  const s = opts.source as WeightSource | undefined;
  if (!s || !['hub', 'self-hosted', 'mirror'].includes(s.kind)) throw new TypeError('The weight source must be hub, self-hosted or mirror.');
  if (typeof opts.modelId !== 'string' || !opts.modelId.trim()) throw typed('No model id was given.', `Choose a model, e.g. ${CLIP_MODELS[0].id}.`);
  if (s.kind === 'self-hosted' && (typeof s.path !== 'string' || !s.path.trim()))
    throw typed('The self-hosted source has no folder.', 'Give the folder that holds the model folders, e.g. /models/ for files under public/models/.');
  if (s.kind === 'mirror') {
    let ok = false;
    try {
      const u = new URL(String(s.url).replace(/\{(model|revision)\}/g, 'x'));
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok)
      throw typed(
        `The mirror URL "${s.url}" is not an http(s) URL.`,
        "Give the mirror's address, e.g. https://hf-mirror.com/ (hub layout) or https://example.org/models/{model}/ (a plain copy).",
      );
  }
}

/** Devices to try in order, with a note for each substitution. */
async function devicePlan(requested: ClipDevice): Promise<{ devices: ClipDevice[]; notes: string[] }> {
  const notes: string[] = [];
  if (isNode()) {
    if (requested === 'cpu') return { devices: ['cpu'], notes };
    if (requested === 'wasm') {
      notes.push('In Node the wasm device runs as cpu (onnxruntime-node).');
      return { devices: ['cpu'], notes };
    }
    return { devices: ['webgpu', 'cpu'], notes };
  }
  if (requested === 'cpu') {
    notes.push('In a browser the cpu device runs as wasm.');
    return { devices: ['wasm'], notes };
  }
  if (requested === 'wasm') return { devices: ['wasm'], notes };
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator?.gpu;
  if (!gpu) {
    notes.push('WebGPU is not available in this browser (no navigator.gpu): ran on wasm.');
    return { devices: ['wasm'], notes };
  }
  let adapter: unknown = null;
  try {
    adapter = await gpu.requestAdapter();
  } catch {
    adapter = null;
  }
  if (!adapter) {
    notes.push('WebGPU is not available (no GPU adapter): ran on wasm.');
    return { devices: ['wasm'], notes };
  }
  return { devices: ['webgpu', 'wasm'], notes };
}

/**
 * If truncation cut off the closing <|endoftext|> of a row (no EOS left in it), put EOS in the row's last slot.
 * `ids` is the row-major [batch, seq] input_ids; returns how many rows were patched.
 */
export function ensureEos(ids: BigInt64Array | number[], batch: number, seq: number, eosId: number): number {
  let patched = 0;
  const eos = typeof ids[0] === 'bigint' ? BigInt(eosId) : eosId;
  for (let b = 0; b < batch; b++) {
    let has = false;
    for (let t = 0; t < seq; t++) {
      if (ids[b * seq + t] == eos) {
        has = true;
        break;
      }
    }
    if (!has) {
      (ids as unknown as (bigint | number)[])[b * seq + seq - 1] = eos;
      patched++;
    }
  }
  return patched;
}

/** L2-normalise one row (float64 arithmetic). */
function unitRow(data: ArrayLike<number>, offset: number, dim: number, text: string): Float32Array {
  let ss = 0;
  for (let k = 0; k < dim; k++) {
    const x = Number(data[offset + k]);
    ss += x * x;
  }
  const norm = Math.sqrt(ss);
  if (!(norm > 0) || !Number.isFinite(norm)) {
    throw new Error(`The model returned a ${norm === 0 ? 'zero' : 'non-finite'} embedding for ${JSON.stringify(text)}; it cannot be normalised.`);
  }
  const out = new Float32Array(dim);
  for (let k = 0; k < dim; k++) out[k] = Number(data[offset + k]) / norm;
  return out;
}

export function createTextEmbedder(opts: EmbedderOptions): Promise<TextEmbedder> {
  try {
    checkOptions(opts);
  } catch (e) {
    return Promise.reject(e);
  }
  return serialised(() => load(opts));
}

async function load(opts: EmbedderOptions): Promise<TextEmbedder> {
  const loc = resolveLocation(opts.modelId.trim(), opts.source);
  const allowRemote = opts.allowRemote ?? loc.remote;
  const ctx: LoadContext = { opts, loc, allowRemote, http: [], html: [], progress: new Map() };
  if (loc.remote && !allowRemote) {
    throw new ClipLoadError('offline', `${opts.modelId} would be downloaded from ${loc.where}, but remote downloads are switched off (allowRemote is false).`, {
      file: loc.at('config.json'),
      hint: hintFor('offline', opts),
    });
  }

  let tf: typeof import('@huggingface/transformers');
  try {
    tf = await import('@huggingface/transformers');
  } catch (e) {
    throw new ClipLoadError('device', `transformers.js could not be loaded (${firstLine((e as Error)?.message ?? String(e))}).`, {
      hint: hintFor('device', opts),
      cause: e,
    });
  }
  const env = tf.env as unknown as Record<string, unknown> & { backends: { onnx: { wasm?: { wasmPaths?: unknown } } } };

  // ── configure the global env for this load ──
  const node = isNode();
  const cache = opts.cache ?? true;
  env.allowLocalModels = !loc.remote;
  env.allowRemoteModels = loc.remote && allowRemote;
  if (loc.localModelPath) env.localModelPath = loc.localModelPath;
  env.remoteHost = loc.host ?? HUB_HOST;
  env.remotePathTemplate = loc.template ?? HUB_TEMPLATE;
  const baseFetch = opts.fetch ?? (globalThis.fetch ? globalThis.fetch.bind(globalThis) : undefined);
  if (baseFetch) env.fetch = guardedFetch(baseFetch, ctx);
  if (node) {
    env.useBrowserCache = false;
    env.useFSCache = loc.remote;
    if (opts.cacheDir) env.cacheDir = opts.cacheDir;
  } else {
    env.useBrowserCache = cache && typeof (globalThis as { caches?: unknown }).caches !== 'undefined';
    env.useFSCache = false;
    const wasm = env.backends?.onnx?.wasm;
    if (wasm && opts.wasmPaths) wasm.wasmPaths = opts.wasmPaths;
    const paths = JSON.stringify(wasm?.wasmPaths ?? '');
    if (/cdn\.jsdelivr\.net|unpkg\.com|cdnjs/i.test(paths)) {
      throw new ClipLoadError('device', `onnxruntime's WebAssembly files would be fetched from a CDN (${paths}); the app must serve them itself.`, {
        hint: "Pass wasmPaths (the URL prefix where the app serves onnxruntime-web's ort-wasm-simd-threaded*.wasm/.mjs, e.g. `${import.meta.env.BASE_URL}ort/`).",
      });
    }
  }

  const onProgress = opts.onProgress;
  const progress_callback = (p: { status?: string; file?: string; loaded?: number; total?: number }) => {
    const file = p.file ?? '';
    const prev = ctx.progress.get(file);
    const loaded = typeof p.loaded === 'number' ? p.loaded : (prev?.loaded ?? 0);
    const total = typeof p.total === 'number' ? p.total : (prev?.total ?? 0);
    ctx.progress.set(file, { loaded, total });
    if (onProgress) {
      try {
        onProgress({ file: p.status === 'progress_total' ? '' : file, loaded, total, status: p.status ?? 'progress' });
      } catch {
        /* a progress listener must not break loading */
      }
    }
  };

  // ── tokenizer ──
  let tokenizer: TfTokenizer;
  try {
    tokenizer = (await tf.AutoTokenizer.from_pretrained(loc.pretrainedId, { progress_callback })) as unknown as TfTokenizer;
  } catch (e) {
    throw classify(e, 'tokenizer', ctx);
  }
  const eosId = tokenizer.eos_token_id;
  if (typeof eosId !== 'number') {
    throw new ClipLoadError('bad-model', `tokenizer_config.json at ${loc.where} names no eos_token that tokenizer.json knows; CLIP pools at <|endoftext|>.`, {
      file: 'tokenizer_config.json',
      hint: hintFor('bad-model', opts),
    });
  }

  // ── model, with device fallback ──
  const plan = await devicePlan(opts.device);
  const notes = plan.notes.slice();
  let model: TfModel | undefined;
  let ran: ClipDevice | undefined;
  let dim = 0;
  let lastError: ClipLoadError | undefined;
  for (let i = 0; i < plan.devices.length; i++) {
    const device = plan.devices[i];
    let m: TfModel | undefined;
    try {
      m = (await tf.CLIPTextModelWithProjection.from_pretrained(loc.pretrainedId, {
        dtype: opts.dtype,
        device,
        progress_callback,
      } as never)) as unknown as TfModel;
      const session = m.sessions?.model;
      const outs = session?.outputNames ?? [];
      const ins = session?.inputNames ?? [];
      if (!outs.includes('text_embeds') || !ins.includes('input_ids')) {
        await m.dispose?.();
        const file = onnxFileFor(opts.dtype);
        throw new ClipLoadError(
          'bad-model',
          `The ONNX model ${loc.at(file)} is not a CLIP text model with projection: it takes [${ins.join(', ')}] and gives [${outs.join(', ')}], not input_ids → text_embeds.`,
          { file, hint: hintFor('bad-model', opts) },
        );
      }
      // A warm-up run: some devices fail only when the graph first runs.
      const rows = await runBatch(tokenizer, m, [''], eosId);
      dim = rows[0].length;
      model = m;
      ran = device;
      break;
    } catch (e) {
      const err = classify(e, 'model', ctx);
      if (m) {
        try {
          await m.dispose?.();
        } catch {
          /* ignore */
        }
      }
      lastError = err;
      const next = plan.devices[i + 1];
      const deviceProblem = err.reason === 'device' || (device === 'webgpu' && err.reason === 'bad-model');
      if (next && deviceProblem) {
        notes.push(`The ${device} device failed (${shortReason(err)}): ran on ${next}.`);
        continue;
      }
      throw err;
    }
  }
  if (!model || !ran) throw lastError ?? new ClipLoadError('device', 'No device could run the model.', { hint: hintFor('device', opts) });
  onProgress?.({ file: '', loaded: 1, total: 1, status: 'ready' });

  const finalModel = model;
  let disposed = false;
  return {
    modelId: opts.modelId,
    device: ran,
    dtype: opts.dtype,
    requestedDevice: opts.device,
    dim,
    notes,
    async embed(texts: string[], batchSize = 32): Promise<Float32Array[]> {
      if (disposed) throw new Error('This text embedder has been disposed.');
      if (!Array.isArray(texts)) throw new TypeError('embed() takes an array of strings.');
      texts.forEach((t, i) => {
        if (typeof t !== 'string') throw new TypeError(`Text ${i} is not a string.`);
      });
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1; got ${batchSize}.`);
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await runBatch(tokenizer, finalModel, texts.slice(i, i + batchSize), eosId)));
      }
      return out;
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await finalModel.dispose?.();
    },
  };
}

async function runBatch(tokenizer: TfTokenizer, model: TfModel, texts: string[], eosId: number): Promise<Float32Array[]> {
  const inputs = tokenizer(texts, { padding: true, truncation: true });
  const ids = inputs.input_ids;
  const [batch, seq] = ids.dims;
  ensureEos(ids.data as BigInt64Array, batch, seq, eosId);
  let outputs: Record<string, TfTensor> | undefined;
  try {
    outputs = await model(inputs as unknown as Record<string, unknown>);
    const e = outputs.text_embeds;
    if (!e || e.dims.length !== 2 || e.dims[0] !== batch) {
      throw new Error(`text_embeds has shape [${e?.dims?.join(', ') ?? ''}], expected [${batch}, projection_dim].`);
    }
    const dim = e.dims[1];
    const data = e.data as ArrayLike<number>;
    const rows: Float32Array[] = [];
    for (let b = 0; b < batch; b++) rows.push(unitRow(data, b * dim, dim, texts[b]));
    return rows;
  } finally {
    ids.dispose?.();
    inputs.attention_mask?.dispose?.();
    if (outputs) for (const t of Object.values(outputs)) t?.dispose?.();
  }
}
