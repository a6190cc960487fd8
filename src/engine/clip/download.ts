/**
 * Loading a transformers.js model without surprises, shared by CLIP's text side (text-embedder.ts) and the image
 * encoders (image-encoder.ts): transformers.js's global `env` set for one load at a time, downloads guarded (no
 * remote URL is fetched unless allowed, a dev server's HTML fallback is a missing file), the sizes of the files a
 * load would download asked for before it (HEAD requests, so a button can say how many MB), every failure a
 * `ModelLoadError` with a reason, the file that failed and a hint, and the device plan (WebGPU first, then wasm).
 *
 * Weight sources (weights.ts) and `allowRemote` (default: true for hub, mirror and a self-hosted http(s) URL, false
 * for a folder; the CLI passes false unless --allow-remote): when false, `env.allowRemoteModels = false` AND
 * `env.fetch` refuses every absolute http(s) URL not on the page's own origin, so nothing is fetched even by
 * accident. Caching: in a browser transformers.js keeps downloaded files in Cache Storage (`useBrowserCache`, cache
 * "transformers-cache"; `cache: false` turns it off); in Node remote downloads go to its file cache (`useFSCache`,
 * folder `cacheDir`), because its Node loader hands onnxruntime a file path; local folders are never copied.
 *
 * Devices: 'webgpu' falls back to 'wasm' in a browser when WebGPU is missing (no `navigator.gpu` or no adapter) or the
 * session cannot be created/run on it; in Node 'webgpu' falls back to 'cpu' and 'wasm' means 'cpu' (onnxruntime-node
 * has no wasm backend); in a browser 'cpu' means 'wasm'. In a browser, onnxruntime's .wasm files must be served by
 * the app (`wasmPaths`); a load that would fetch them from a CDN is refused.
 */
import { HUB_HOST, HUB_TEMPLATE, isNode, isRemoteUrl, weightSourceProblem, type Location, type WeightSource } from './weights';

/** 'cpu' = onnxruntime-node in Node. */
export type ModelDevice = 'webgpu' | 'wasm' | 'cpu';
export const MODEL_DEVICES: readonly ModelDevice[] = ['webgpu', 'wasm', 'cpu'];

export type ModelLoadReason = 'offline' | 'not-found' | 'bad-model' | 'device';

export class ModelLoadError extends Error {
  readonly reason: ModelLoadReason;
  /** The file (relative to the model folder) or URL that failed, when known. */
  readonly file?: string;
  /** How to fix it, one or two sentences. */
  readonly hint: string;
  constructor(reason: ModelLoadReason, message: string, opts: { hint: string; file?: string; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ClipLoadError';
    this.reason = reason;
    this.file = opts.file;
    this.hint = opts.hint;
  }
}

export interface LoadProgress {
  /** File relative to the model folder (e.g. 'onnx/text_model_quantized.onnx'); '' for whole-model events. */
  file: string;
  loaded: number;
  total: number;
  /** transformers.js's status ('initiate' | 'download' | 'progress' | 'done' | 'progress_total'), then 'ready'. */
  status: string;
}

/** What the hints of a load's errors name: the model, the files to self-host, and what else the user can do. */
export interface HintContext {
  modelId: string;
  /** the files a complete model folder needs (what to copy when self-hosting) */
  files: string[];
  /** the alternative to a model, in Node and in a browser ("or use another similarity source …") */
  alternative: { node: string; browser: string };
}

export function hintFor(reason: ModelLoadReason, h: HintContext, prefix = ''): string {
  const node = isNode();
  const files = h.files.join(', ');
  const selfHost = node
    ? `download the model folder (${files}) once and pass it with --model-path DIR`
    : `self-host the weights (copy ${files} to public/models/${h.modelId}/ and choose the self-hosted source, path /models/)`;
  const mirror = node ? '' : 'use a mirror URL that is reachable from here, ';
  const upload = node ? h.alternative.node : h.alternative.browser;
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

// ───────────────────────────── guarded downloads ─────────────────────────────

/** What one load saw: where, whether remote is allowed, and the network failures and HTML answers on the way. */
export interface LoadContext {
  hints: HintContext;
  loc: Location;
  allowRemote: boolean;
  /** the device asked for (named in device failures) */
  device: ModelDevice;
  network?: { url: string; message: string };
  http: { url: string; status: number }[];
  html: string[];
  progress: Map<string, { loaded: number; total: number }>;
}

export function loadContext(hints: HintContext, loc: Location, allowRemote: boolean, device: ModelDevice): LoadContext {
  return { hints, loc, allowRemote, device, http: [], html: [], progress: new Map() };
}

export function relFile(ctx: LoadContext, pathOrUrl: string): string {
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

/** `base` with the guards of the header: remote URLs refused unless allowed, network errors and HTML answers recorded. */
export function guardedFetch(base: typeof fetch, ctx: LoadContext): typeof fetch {
  const f = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    if (!ctx.allowRemote && isRemoteUrl(url)) {
      throw new ModelLoadError('offline', `Refused to download ${url}: remote downloads are switched off (allowRemote is false).`, {
        file: url,
        hint: hintFor('offline', ctx.hints),
      });
    }
    let res: Response;
    try {
      res = await base(input, init);
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      ctx.network = { url, message };
      throw new ModelLoadError('offline', `Could not download ${url} (${message}): you seem to be offline, or the host is unreachable.`, {
        file: url,
        hint: hintFor('offline', ctx.hints),
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

/**
 * The size of one file a load would download, from a HEAD request (null when the server does not say); 0 with
 * `cached` when the browser already keeps the file (nothing to download).
 */
export interface FileSize {
  file: string;
  url: string;
  bytes: number | null;
  cached?: boolean;
}

/** What `downloadSizes` asks whether a file is kept already: the Cache API's `match` (Cache Storage, or a test's). */
export type KeptFiles = Pick<Cache, 'match'>;

/** transformers.js's Cache Storage in a browser (its default `env.cacheKey`), where `configureEnv` keeps downloads. */
export const BROWSER_CACHE_NAME = 'transformers-cache';

/** The browser's cache of downloaded model files, when there is one (never created here); null in Node. */
async function browserCache(): Promise<KeptFiles | null> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (isNode() || !storage) return null;
  try {
    return (await storage.has(BROWSER_CACHE_NAME)) ? await storage.open(BROWSER_CACHE_NAME) : null;
  } catch {
    return null; // storage blocked (private mode, an opaque origin): every file is asked for
  }
}

/**
 * The sizes of `files` at `loc` before anything is downloaded. A file the browser already keeps (transformers.js's
 * Cache Storage, under the URL it would fetch: `kept`) is 0 bytes and asks nothing, so a model downloaded before
 * needs no network; every other file is one HEAD request through the guarded fetch (the hub answers an LFS file with
 * a redirect whose `x-linked-size` is the size; other servers with `content-length`). A missing file is a
 * 'not-found' ModelLoadError. For a local folder in Node nothing is downloaded, so there is nothing to ask: every
 * size is null.
 */
export async function downloadSizes(ctx: LoadContext, files: readonly string[], base?: typeof fetch, kept?: KeptFiles | null): Promise<FileSize[]> {
  const fetcher = base ?? (globalThis.fetch ? globalThis.fetch.bind(globalThis) : undefined);
  const local = !ctx.loc.remote && isNode();
  if (local || !fetcher) return files.map((file) => ({ file, url: ctx.loc.at(file), bytes: null }));
  const cache = kept === undefined ? await browserCache() : kept;
  const guarded = guardedFetch(fetcher, ctx);
  const out: FileSize[] = [];
  for (const file of files) {
    const url = ctx.loc.at(file);
    if (cache && (await cache.match(url).catch(() => undefined))) {
      out.push({ file, url, bytes: 0, cached: true });
      continue;
    }
    const res = await guarded(url, { method: 'HEAD', redirect: 'follow' });
    if (!res.ok) {
      throw new ModelLoadError('not-found', `The model file ${file} was not found at ${url} (HTTP ${res.status}).`, {
        file,
        hint: hintFor('not-found', ctx.hints),
      });
    }
    const linked = Number(res.headers.get('x-linked-size'));
    const length = Number(res.headers.get('content-length'));
    out.push({ file, url, bytes: linked > 0 ? linked : length > 0 ? length : null });
  }
  return out;
}

/** The sizes of `files` of a model at `loc`, asked as a load with these options would fetch them (downloadSizes). */
export function modelDownloadSizes(
  hints: HintContext,
  loc: Location,
  opts: { allowRemote?: boolean; device: ModelDevice; fetch?: typeof fetch },
  files: readonly string[],
): Promise<FileSize[]> {
  return downloadSizes(loadContext(hints, loc, opts.allowRemote ?? loc.remote, opts.device), files, opts.fetch);
}

/** A download's total (null when a server did not say a file's size) and its files, for a button and its title. */
export interface DownloadSize {
  bytes: number | null;
  files: { file: string; bytes: number | null }[];
}

/** The total of `downloadSizes`' answer. */
export function totalDownload(files: readonly FileSize[]): DownloadSize {
  const known = files.every((f) => f.bytes !== null);
  return { bytes: known ? files.reduce((s, f) => s + (f.bytes ?? 0), 0) : null, files: files.map((f) => ({ file: f.file, bytes: f.bytes })) };
}

// ───────────────────────────── failures ─────────────────────────────

/** The gist of a (possibly long, multi-line) runtime error, for notes. */
export function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export function shortReason(err: ModelLoadError): string {
  const cause = err.cause as { message?: string } | undefined;
  let s = firstLine(cause?.message ?? err.message);
  const i = s.lastIndexOf(' was false. ');
  if (i >= 0) s = s.slice(i + ' was false. '.length);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

/**
 * A transformers.js or onnxruntime failure as a ModelLoadError. `stage` says what was being loaded (the tokenizer,
 * the preprocessor config, the model), `modelFile` the ONNX file the model load reads.
 */
export function classifyLoadError(e: unknown, stage: 'tokenizer' | 'preprocessor' | 'model', ctx: LoadContext, modelFile: string): ModelLoadError {
  if (e instanceof ModelLoadError) return e;
  const err = e as Error;
  const msg = err?.message ?? String(e);
  const { hints, loc } = ctx;
  if (ctx.network) {
    return new ModelLoadError(
      'offline',
      `Could not download ${ctx.network.url} (${ctx.network.message}): you seem to be offline, or the host is unreachable.`,
      {
        file: ctx.network.url,
        hint: hintFor('offline', hints),
        cause: e,
      },
    );
  }
  const quoted = /"([^"]+)"/.exec(msg)?.[1];
  const status = /\((\d{3})\)/.exec(msg)?.[1];
  if (err?.name === 'ModelFileNotFoundError' || /could not locate file|not found locally|file missing|Unauthorized access|Forbidden access/i.test(msg)) {
    const target = quoted ?? loc.where;
    const file = relFile(ctx, target);
    const what = /Unauthorized|Forbidden/i.test(msg) ? 'is not accessible (the repository may be private or gated)' : 'was not found';
    const html = ctx.html.some((u) => u === target) ? ' (the server answered with an HTML page instead)' : '';
    return new ModelLoadError('not-found', `The model file ${file} ${what} at ${loc.at(file)}${html}.`, { file, hint: hintFor('not-found', hints), cause: e });
  }
  if (/error occurred while trying to load file/i.test(msg)) {
    const file = relFile(ctx, quoted ?? loc.where);
    return new ModelLoadError('offline', `The server failed to deliver ${loc.at(file)}${status ? ` (HTTP ${status})` : ''}.`, {
      file,
      hint: hintFor('offline', hints, 'The host had a problem; try again later. '),
      cause: e,
    });
  }
  const firstFile = stage === 'tokenizer' ? 'tokenizer_config.json' : stage === 'preprocessor' ? 'preprocessor_config.json' : 'config.json';
  if (stage !== 'model' && err instanceof TypeError && /undefined|null/.test(msg)) {
    // AutoTokenizer / AutoImageProcessor get no files when their config does not exist, then fail on `undefined`.
    return new ModelLoadError('not-found', `The model file ${firstFile} was not found at ${loc.at(firstFile)}.`, {
      file: firstFile,
      hint: hintFor('not-found', hints),
      cause: e,
    });
  }
  if (err instanceof SyntaxError) {
    const which = stage === 'tokenizer' ? 'tokenizer.json or tokenizer_config.json' : firstFile;
    return new ModelLoadError('bad-model', `${which} at ${loc.where} is not valid JSON (${msg}).`, {
      file: stage === 'tokenizer' ? 'tokenizer.json' : firstFile,
      hint: hintFor('bad-model', hints),
      cause: e,
    });
  }
  if (stage === 'tokenizer') {
    return new ModelLoadError('bad-model', `The tokenizer files at ${loc.where} could not be read as a CLIP tokenizer (${msg}).`, {
      file: 'tokenizer.json',
      hint: hintFor('bad-model', hints),
      cause: e,
    });
  }
  if (stage === 'preprocessor') {
    return new ModelLoadError('bad-model', `preprocessor_config.json at ${loc.where} could not be read as an image processor (${firstLine(msg)}).`, {
      file: 'preprocessor_config.json',
      hint: hintFor('bad-model', hints),
      cause: e,
    });
  }
  if (/backend|execution provider|webgpu|adapter|wasm|dynamically imported module|Unsupported device|no available/i.test(msg)) {
    return new ModelLoadError('device', `The ${ctx.device} device could not run the model (${firstLine(msg)}).`, { hint: hintFor('device', hints), cause: e });
  }
  return new ModelLoadError('bad-model', `The ONNX model ${loc.at(modelFile)} could not be loaded (${firstLine(msg)}).`, {
    file: modelFile,
    hint: hintFor('bad-model', hints),
    cause: e,
  });
}

// ───────────────────────────── one load at a time ─────────────────────────────

// transformers.js `env` is global: one load at a time.
let loadChain: Promise<unknown> = Promise.resolve();
function serialised<T>(f: () => Promise<T>): Promise<T> {
  const run = loadChain.then(f, f);
  loadChain = run.catch(() => undefined);
  return run;
}

/**
 * A side's `create…(opts)`: `check` the options at once (its failure is a rejected promise, never a throw), then
 * `load` once every load before it has ended.
 */
export function checkedLoad<O, T>(opts: O, check: (opts: O) => void, load: (opts: O) => Promise<T>): Promise<T> {
  try {
    check(opts);
  } catch (e) {
    return Promise.reject(e);
  }
  return serialised(() => load(opts));
}

/**
 * The options both sides share, checked after the side's own precision: programming errors (an unknown device or
 * source kind) are TypeErrors; what a person typed (model id, folder, mirror URL) is a ModelLoadError ('not-found'), so
 * the UI shows it like any other load failure.
 */
export function checkDeviceAndSource(opts: ModelLoadOptions): void {
  if (!MODEL_DEVICES.includes(opts.device)) throw new TypeError(`Unknown device "${String(opts.device)}": use webgpu, wasm or cpu.`);
  const s = opts.source as WeightSource | undefined;
  if (!s || !['hub', 'self-hosted', 'mirror'].includes(s.kind)) throw new TypeError('The weight source must be hub, self-hosted or mirror.');
  const problem = weightSourceProblem(opts.modelId, s);
  if (problem) throw new ModelLoadError('not-found', problem.message, { hint: problem.hint });
}

export type Transformers = typeof import('@huggingface/transformers');

/** transformers.js, imported lazily (importing the modules that use it costs nothing until a load). */
export async function importTransformers(hints: HintContext): Promise<Transformers> {
  try {
    return await import('@huggingface/transformers');
  } catch (e) {
    throw new ModelLoadError('device', `transformers.js could not be loaded (${firstLine((e as Error)?.message ?? String(e))}).`, {
      hint: hintFor('device', hints),
      cause: e,
    });
  }
}

export interface EnvOptions {
  /**
   * Browser: keep downloaded weights in Cache Storage (default true). Node: remote downloads always go through
   * transformers.js's file cache (its Node loader needs a file path for ONNX files), see `cacheDir`.
   */
  cache?: boolean;
  /** Node only: the folder for downloaded files. Default: transformers.js's (node_modules/@huggingface/transformers/.cache/). */
  cacheDir?: string;
  /** Browser only: URL prefix where the app serves onnxruntime-web's ort-wasm-simd-threaded*.{mjs,wasm}. */
  wasmPaths?: string;
  /** The fetch for http(s) downloads (tests; custom headers). Default: the global fetch. */
  fetch?: typeof fetch;
}

/** What every model load is given: the text embedder's and the image encoders' options add their precision. */
export interface ModelLoadOptions extends EnvOptions {
  modelId: string;
  device: ModelDevice;
  source: WeightSource;
  /** May anything be fetched from another host? Default: true for hub/mirror (and a self-hosted http(s) URL), false for a self-hosted folder. */
  allowRemote?: boolean;
  onProgress?: (p: LoadProgress) => void;
}

/** Set transformers.js's global `env` for one load (see the header); call inside `serialised`. */
export function configureEnv(tf: Transformers, ctx: LoadContext, opts: EnvOptions): void {
  const env = tf.env as unknown as Record<string, unknown> & { backends: { onnx: { wasm?: { wasmPaths?: unknown } } } };
  const { loc } = ctx;
  const cache = opts.cache ?? true;
  env.allowLocalModels = !loc.remote;
  env.allowRemoteModels = loc.remote && ctx.allowRemote;
  if (loc.localModelPath) env.localModelPath = loc.localModelPath;
  env.remoteHost = loc.host ?? HUB_HOST;
  env.remotePathTemplate = loc.template ?? HUB_TEMPLATE;
  const baseFetch = opts.fetch ?? (globalThis.fetch ? globalThis.fetch.bind(globalThis) : undefined);
  if (baseFetch) env.fetch = guardedFetch(baseFetch, ctx);
  if (isNode()) {
    env.useBrowserCache = false;
    env.useFSCache = loc.remote;
    if (opts.cacheDir) env.cacheDir = opts.cacheDir;
    return;
  }
  env.useBrowserCache = cache && typeof (globalThis as { caches?: unknown }).caches !== 'undefined';
  env.useFSCache = false;
  const wasm = env.backends?.onnx?.wasm;
  if (wasm && opts.wasmPaths) wasm.wasmPaths = opts.wasmPaths;
  const paths = JSON.stringify(wasm?.wasmPaths ?? '');
  if (/cdn\.jsdelivr\.net|unpkg\.com|cdnjs/i.test(paths)) {
    throw new ModelLoadError('device', `onnxruntime's WebAssembly files would be fetched from a CDN (${paths}); the app must serve them itself.`, {
      hint: "Pass wasmPaths (the URL prefix where the app serves onnxruntime-web's ort-wasm-simd-threaded*.wasm/.mjs, e.g. `${import.meta.env.BASE_URL}ort/`).",
    });
  }
}

/** transformers.js's progress callback, remembering each file's progress and passing it on (never throwing). */
export function progressCallback(ctx: LoadContext, onProgress?: (p: LoadProgress) => void) {
  return (p: { status?: string; file?: string; loaded?: number; total?: number }): void => {
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
}

/**
 * The start every model load shares (the image encoder's and the text embedder's): the load's context, the refusal
 * of a remote download that is switched off (before anything is fetched), transformers.js imported and configured,
 * and the progress callback.
 */
export async function startLoad(
  loc: Location,
  hints: HintContext,
  opts: ModelLoadOptions,
): Promise<{ tf: Transformers; ctx: LoadContext; progress_callback: ReturnType<typeof progressCallback> }> {
  const allowRemote = opts.allowRemote ?? loc.remote;
  const ctx = loadContext(hints, loc, allowRemote, opts.device);
  if (loc.remote && !allowRemote) {
    throw new ModelLoadError(
      'offline',
      `${opts.modelId} would be downloaded from ${loc.where}, but remote downloads are switched off (allowRemote is false).`,
      {
        file: loc.at('config.json'),
        hint: hintFor('offline', hints),
      },
    );
  }
  const tf = await importTransformers(hints);
  configureEnv(tf, ctx, opts);
  return { tf, ctx, progress_callback: progressCallback(ctx, opts.onProgress) };
}

/** Devices to try in order, with a note for each substitution. */
export async function devicePlan(requested: ModelDevice): Promise<{ devices: ModelDevice[]; notes: string[] }> {
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

/** What a loaded transformers.js model is to the checks below: its ONNX sessions' names, and its dispose. */
export interface OpenedModel {
  dispose?: () => Promise<unknown>;
  sessions?: Record<string, { inputNames?: string[]; outputNames?: string[] }>;
}

/** The input and output names of a model's main ONNX session (empty where it has none). */
export interface SessionNames {
  ins: string[];
  outs: string[];
}

/**
 * `open` a model on one device, then `check` it (its session's inputs and outputs, a warm-up run: some devices fail
 * only when the graph first runs). A model that fails its check is disposed before the failure is thrown, so the
 * next device starts clean.
 */
async function openChecked<M extends OpenedModel, R>(open: () => Promise<M>, check: (m: M, names: SessionNames) => Promise<R>): Promise<R> {
  const m = await open();
  try {
    const session = m.sessions?.model;
    return await check(m, { ins: session?.inputNames ?? [], outs: session?.outputNames ?? [] });
  } catch (e) {
    try {
      await m.dispose?.();
    } catch {
      /* the check's failure is the one to report */
    }
    throw e;
  }
}

/**
 * Open and check the model (openChecked) on each device of the plan in turn: a device problem (or a WebGPU session
 * that cannot run the graph) moves on to the next device with a note; any other failure is thrown as it is.
 */
export async function withDeviceFallback<M extends OpenedModel, T>(
  requested: ModelDevice,
  ctx: LoadContext,
  modelFile: string,
  open: (device: ModelDevice) => Promise<M>,
  check: (m: M, names: SessionNames) => Promise<T>,
): Promise<{ value: T; device: ModelDevice; notes: string[] }> {
  const plan = await devicePlan(requested);
  const notes = plan.notes.slice();
  for (let i = 0; i < plan.devices.length; i++) {
    const device = plan.devices[i];
    try {
      return { value: await openChecked(() => open(device), check), device, notes };
    } catch (e) {
      const err = classifyLoadError(e, 'model', ctx, modelFile);
      const next = plan.devices[i + 1];
      const deviceProblem = err.reason === 'device' || (device === 'webgpu' && err.reason === 'bad-model');
      if (next && deviceProblem) {
        notes.push(`The ${device} device failed (${shortReason(err)}): ran on ${next}.`);
        continue;
      }
      throw err;
    }
  }
  throw new ModelLoadError('device', 'No device could run the model.', { hint: hintFor('device', ctx.hints) });
}
