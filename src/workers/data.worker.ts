/// <reference lib="webworker" />
/**
 * The data worker (comlink facade over src/data): loads a built-in dataset (fetch with byte progress) or parses the
 * user's files (src/data/parsers), keeps the decoded dataset here, and sends the UI only a summary and a few
 * images per class (transferred, never the whole dataset). A load can be cancelled; a failed or cancelled load
 * leaves the previous dataset in place. Another worker (the training engine) can get the dataset over a
 * MessagePort handed to `connect`.
 */
import * as Comlink from 'comlink';
import { datasetFiles, parseDatasetMeta, type DecodedDataset, type SourceMeta, type SplitName, type StyleMeta } from '../data/format';
import {
  type DecodedImage,
  type NamedFile,
  type ParsedImages,
  type UserDataset,
  DataFormatError,
  detectFormat,
  parseIdxFiles,
  parseUserFiles,
} from '../data/parsers';
import { builtinDatasetPath, getBuiltinDataset, loadBuiltinDataset } from '../data/registry';
import { countPerClass, packSamples, selectSamples, type SampleSet } from '../data/samples';
import { classMeanPrototypes, type ClassPrototypes } from '../core/similarity/prototypes';
import { getClassList } from '../core/classes/builtin';
import { contentHash } from '../core/config/url-codec';

export type { SampleSet };

/** What the UI shows about the loaded dataset (no pixels). */
export interface DataSummary {
  kind: 'builtin' | 'user';
  /** the built-in id, or "user" */
  id: string;
  name: string;
  description: string;
  /** user data: what the files were recognised as */
  format?: string;
  /** user data: the files as given */
  files?: { name: string; bytes: number }[];
  /** class names, index = label */
  classes: string[];
  /** emoji: Unicode group/sub-group per class */
  classDetails?: { group?: string; subgroup?: string; codepoint?: string }[];
  /** [height, width, channels] */
  shape: [number, number, number];
  splits: Record<SplitName, { count: number; perClass: number[] }>;
  splitDescription: string;
  sources: SourceMeta[];
  /** emoji: the artist styles; a style is train-only or test-only */
  styles?: StyleMeta[];
  dropped?: { name: string; reason: string }[];
  failedRenderings?: { rendering: string; reason: string }[];
  /** user zips: files left out, and why */
  skipped?: { path: string; reason: string }[];
}

/** Progress of a load. `fraction` is of the whole phase; byte counts are of the file named, when known. */
export interface LoadProgress {
  phase: 'read' | 'download' | 'parse' | 'sample';
  file: string;
  loaded?: number;
  total?: number;
  /** all files of the phase together */
  bytesDone?: number;
  bytesTotal?: number;
  fraction: number;
}

export interface SamplingOptions {
  /** S: images per class (default 8) */
  perClass: number;
  /** seed of numpy RandomState whose per-class permutations choose the images (default 0) */
  seed: number;
}

export type SampleSets = Record<SplitName, SampleSet>;

export interface LoadResult {
  summary: DataSummary;
  samples: SampleSets;
}

export interface UserLoadOptions extends SamplingOptions {
  /** names for IDX labels 0, 1, … (IDX files carry none) */
  classNames?: string[];
}

/** The dataset as the engine wants it (structurally src/engine/types.ts ImageDataset), plus emoji styles. */
export interface HeldDataset {
  shape: [number, number, number];
  classNames: string[];
  train: { images: Uint8Array; labels: Uint8Array | Int32Array; styles?: Uint8Array };
  test: { images: Uint8Array; labels: Uint8Array | Int32Array; styles?: Uint8Array };
}

type ProgressFn = (p: LoadProgress) => void;

/** Image prototypes of some classes of a built-in dataset (see `classPrototypes`). */
export interface PrototypeResult {
  datasetId: string;
  datasetName: string;
  /** [height, width, channels]; a prototype has h·w·c values */
  shape: [number, number, number];
  /** one row per requested class, in the order asked: the mean of its L2-normalised training images */
  rows: Float32Array[];
  /** training images averaged per requested class (blank images left out) */
  counts: number[];
}

/** Prototypes of every class of a built-in dataset, by dataset id (the pixels are not kept, only the means). */
const prototypeCache = new Map<string, Promise<{ name: string; shape: [number, number, number]; listIndex: number[]; protos: ClassPrototypes }>>();

/** The dataset the worker holds (the last load's). */
interface Held {
  data: HeldDataset;
  summary: DataSummary;
  decoded?: DecodedDataset;
}
let current: Held | null = null;
let active: { cancelled: boolean; controller: AbortController } | null = null;

function begin() {
  cancelActive();
  const job = { cancelled: false, controller: new AbortController() };
  active = job;
  return job;
}
function cancelActive() {
  if (!active) return;
  active.cancelled = true;
  active.controller.abort();
  active = null;
}
function checkNotCancelled(job: { cancelled: boolean }) {
  if (job.cancelled) {
    const e = new Error('Loading was cancelled.');
    e.name = 'LoadCancelled';
    throw e;
  }
}

type Job = ReturnType<typeof begin>;

/**
 * One load under a fresh job (cancelling the one before): `work` builds the dataset, reporting through a throttled
 * `report`; its samples go back to the UI and it becomes `current`. A cancelled job fails as LoadCancelled.
 */
async function runLoad(
  onProgress: ProgressFn | undefined,
  sampling: SamplingOptions,
  work: (job: Job, report: ProgressFn) => Promise<Held>,
): Promise<LoadResult> {
  const job = begin();
  const report = throttled(onProgress);
  try {
    const held = await work(job, report);
    const samples = sampleSets(held.data, sampling);
    current = held;
    return transferResult({ summary: held.summary, samples });
  } catch (e) {
    if (job.cancelled) checkNotCancelled(job);
    throw e;
  } finally {
    if (active === job) active = null;
    release(onProgress);
  }
}

/** Let go of a comlink callback proxy from the UI (its message port closes). */
function release(cb: ProgressFn | undefined): void {
  (cb as unknown as Partial<Record<typeof Comlink.releaseProxy, () => void>> | undefined)?.[Comlink.releaseProxy]?.();
}

/** At most one progress message per 50 ms (and always the last one). */
function throttled(cb: ProgressFn | undefined): ProgressFn {
  let last = 0;
  return (p) => {
    const now = performance.now();
    if (!cb || (p.fraction < 1 && now - last < 50)) return;
    last = now;
    void Promise.resolve(cb(p)).catch(() => {});
  };
}

/** GET with byte progress; `expected` (from meta.json) sizes the buffer when the server's length is not usable. */
async function fetchWithProgress(
  url: string,
  signal: AbortSignal,
  expected: number | undefined,
  onBytes: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
  const header = Number(res.headers.get('content-length'));
  const total = expected ?? (!res.headers.get('content-encoding') && header > 0 ? header : 0);
  if (!res.body) {
    const b = new Uint8Array(await res.arrayBuffer());
    onBytes(b.length, b.length);
    return b;
  }
  const reader = res.body.getReader();
  let buf: Uint8Array | null = total > 0 ? new Uint8Array(total) : null;
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (buf && loaded + value.length <= buf.length) buf.set(value, loaded);
    else {
      if (buf) chunks.push(buf.subarray(0, loaded));
      buf = null;
      chunks.push(value);
    }
    loaded += value.length;
    onBytes(loaded, Math.max(total, loaded));
  }
  if (buf) return loaded === buf.length ? buf : buf.slice(0, loaded);
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function summaryOfBuiltin(d: DecodedDataset): DataSummary {
  const m = d.meta;
  const entry = getBuiltinDataset(m.id);
  const hasDetails = m.classInfo.some((c) => c.group);
  return {
    kind: 'builtin',
    id: m.id,
    name: entry.name,
    description: entry.description,
    classes: m.classes.slice(),
    ...(hasDetails ? { classDetails: m.classInfo.map((c) => ({ group: c.group, subgroup: c.subgroup, codepoint: c.codepoint })) } : {}),
    shape: d.shape,
    splits: {
      train: { count: m.train.count, perClass: m.train.perClass.slice() },
      test: { count: m.test.count, perClass: m.test.perClass.slice() },
    },
    splitDescription: m.split.description,
    sources: m.sources,
    ...(m.styles ? { styles: m.styles } : {}),
    ...(m.dropped ? { dropped: m.dropped } : {}),
    ...(m.failedRenderings ? { failedRenderings: m.failedRenderings } : {}),
  };
}

const FORMAT_NAMES: Record<UserDataset['format'], string> = {
  idx: 'MNIST-style IDX files',
  cifar10: 'CIFAR-10 binary',
  cifar100: 'CIFAR-100 binary (fine labels)',
  'image-folder': 'a .zip of images, one folder per class (resized to 32×32 RGB)',
};

const EMPTY_SPLIT = (shape: [number, number, number]): ParsedImages => ({ images: new Uint8Array(0), labels: new Uint8Array(0), shape });

function fromUser(u: UserDataset, files: NamedFile[], classNames?: string[]): { data: HeldDataset; summary: DataSummary } {
  const shape = u.train.shape;
  const test = u.test ?? EMPTY_SPLIT(shape);
  if (test.labels.length > 0 && test.shape.join('×') !== shape.join('×')) {
    throw new DataFormatError(`the test images are ${test.shape.join('×')} but the training images are ${shape.join('×')}`);
  }
  let maxLabel = -1;
  for (const s of [u.train, test]) for (let i = 0; i < s.labels.length; i++) maxLabel = Math.max(maxLabel, s.labels[i]);
  const given = u.train.classNames ?? u.test?.classNames ?? classNames;
  if (given && given.length <= maxLabel) {
    throw new DataFormatError(`label ${maxLabel} has no class name (${given.length} names given, labels 0–${given.length - 1})`);
  }
  const names = given ?? Array.from({ length: maxLabel + 1 }, (_, k) => String(k));
  const data: HeldDataset = {
    shape,
    classNames: names,
    train: { images: u.train.images, labels: u.train.labels },
    test: { images: test.images, labels: test.labels },
  };
  const list = files.map((f) => ({ name: f.name, bytes: f.bytes.length }));
  const splitDescription = u.test
    ? u.format === 'idx'
      ? 'the train/test split of your files (a name with "t10k" or "test" is the test file)'
      : 'the train/test split of your files'
    : 'your files have no test split: every image is in the training split';
  const summary: DataSummary = {
    kind: 'user',
    id: 'user',
    name: files.length === 1 ? files[0].name : `${files[0].name} + ${files.length - 1} more`,
    description: `Your data: ${FORMAT_NAMES[u.format]}${given ? '' : '; the files carry no class names, so classes are named by their label'}.`,
    format: FORMAT_NAMES[u.format],
    files: list,
    classes: names,
    shape,
    splits: {
      train: { count: u.train.labels.length, perClass: countPerClass(u.train.labels, names.length) },
      test: { count: test.labels.length, perClass: countPerClass(test.labels, names.length) },
    },
    splitDescription,
    sources: [],
    ...(u.skipped?.length ? { skipped: u.skipped } : {}),
  };
  return { data, summary };
}

function sampleSets(d: HeldDataset, o: SamplingOptions): SampleSets {
  const one = (split: SplitName): SampleSet => {
    const s = d[split];
    const chosen = selectSamples(s.labels, d.classNames.length, o.perClass, o.seed);
    return packSamples(s.images, d.shape, chosen, { split, perClass: o.perClass, seed: o.seed, styles: s.styles });
  };
  return { train: one('train'), test: one('test') };
}

function transferResult(r: LoadResult): LoadResult {
  return Comlink.transfer(r, [r.samples.train.pixels.buffer as ArrayBuffer, r.samples.test.pixels.buffer as ArrayBuffer]);
}

/** Images of a .zip as RGBA: createImageBitmap + OffscreenCanvas (no DOM in a worker). */
async function decodeImage(bytes: Uint8Array): Promise<DecodedImage> {
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas in this worker');
    ctx.drawImage(bitmap, 0, 0);
    const img = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    return { data: img.data, width: img.width, height: img.height };
  } finally {
    bitmap.close();
  }
}

const api = {
  /** Load a built-in dataset (public/data/<id>/), reporting the bytes of each file as they arrive. */
  async loadBuiltin(id: string, sampling: SamplingOptions, onProgress?: ProgressFn): Promise<LoadResult> {
    return runLoad(onProgress, sampling, async (job, report) => {
      const entry = getBuiltinDataset(id);
      const expected = new Map<string, number>();
      const loaded = new Map<string, number>();
      const base = import.meta.env.BASE_URL;
      const fetchBytes = async (path: string): Promise<Uint8Array> => {
        const file = path.slice(path.lastIndexOf('/') + 1);
        const bytes = await fetchWithProgress(base + path, job.controller.signal, expected.get(path), (n, total) => {
          loaded.set(path, n);
          if (!expected.has(path)) expected.set(path, total);
          let done = 0;
          let all = 0;
          for (const [p, size] of expected) {
            all += size;
            done += Math.min(size, loaded.get(p) ?? 0);
          }
          report({ phase: 'download', file, loaded: n, total, bytesDone: done, bytesTotal: all, fraction: all ? done / all : 0 });
        });
        if (file === 'meta.json') {
          // meta.json gives every file's exact size: the bar can show the whole download from the start
          try {
            const meta = parseDatasetMeta(JSON.parse(new TextDecoder().decode(bytes)));
            const size = meta.shape[0] * meta.shape[1] * meta.shape[2];
            for (const f of datasetFiles(meta)) {
              const split = meta.train.images === f || meta.train.labels === f || meta.train.styles === f ? meta.train : meta.test;
              expected.set(builtinDatasetPath(entry.id, f), f === split.images ? split.count * size : split.count);
            }
          } catch {
            // loadBuiltinDataset reports a bad meta.json
          }
        }
        return bytes;
      };
      const decoded = await loadBuiltinDataset(id, fetchBytes);
      checkNotCancelled(job);
      report({ phase: 'sample', file: entry.name, fraction: 1 });
      const data: HeldDataset = {
        shape: decoded.shape,
        classNames: decoded.meta.classes,
        train: { images: decoded.train.images, labels: decoded.train.labels, ...(decoded.train.styles ? { styles: decoded.train.styles } : {}) },
        test: { images: decoded.test.images, labels: decoded.test.labels, ...(decoded.test.styles ? { styles: decoded.test.styles } : {}) },
      };
      return { data, summary: summaryOfBuiltin(decoded), decoded };
    });
  },

  /** Parse the user's files (bytes transferred from the UI). */
  async loadFiles(files: NamedFile[], opts: UserLoadOptions, onProgress?: ProgressFn): Promise<LoadResult> {
    const label = files.map((f) => f.name).join(', ');
    const total = files.reduce((s, f) => s + f.bytes.length, 0);
    return runLoad(onProgress, opts, async (job, report) => {
      const parsed = await parseUserFiles(files, {
        classNames: opts.classNames,
        decodeImage,
        onProgress: (fraction) => {
          checkNotCancelled(job);
          report({ phase: 'parse', file: label, fraction, bytesTotal: total });
        },
      });
      checkNotCancelled(job);
      const { data, summary } = fromUser(parsed, files, opts.classNames);
      return { data, summary };
    });
  },

  /** Cancel the load in flight (a download stops at once; parsing stops at its next progress step). */
  cancel(): void {
    cancelActive();
  },

  /** A new choice of samples from the dataset already loaded. */
  resample(sampling: SamplingOptions): SampleSets {
    if (!current) throw new Error('no dataset is loaded yet');
    const s = sampleSets(current.data, sampling);
    return Comlink.transfer(s, [s.train.pixels.buffer as ArrayBuffer, s.test.pixels.buffer as ArrayBuffer]);
  },

  summary(): DataSummary | null {
    return current?.summary ?? null;
  },

  /**
   * The content hash a FileRef records for an uploaded file (core/config `contentHash`), read and hashed here: on
   * the page's thread a 300 MB similarity upload froze the page for seconds (issue 16 item 7).
   */
  async contentHash(file: Blob): Promise<string> {
    return contentHash(new Uint8Array(await file.arrayBuffer()));
  },

  /**
   * Image prototypes (src/core/similarity/prototypes.ts: the pixels as fixed features, each training image
   * L2-normalised, then averaged per class) of the classes `classIndices` of built-in dataset `id`, where an index
   * is a position in the dataset's class list (src/core/classes/builtin.ts; what the Orderings page selects). Uses
   * the loaded dataset when it is that one, else downloads it without replacing the loaded dataset; the means of
   * all its classes are kept (a few KB), the pixels are not.
   */
  async classPrototypes(id: string, classIndices: number[], onProgress?: ProgressFn): Promise<PrototypeResult> {
    const report = throttled(onProgress);
    try {
      const entry = getBuiltinDataset(id);
      let job = prototypeCache.get(entry.id);
      if (!job) {
        job = (async () => {
          let decoded: DecodedDataset;
          if (current?.decoded && current.summary.kind === 'builtin' && current.summary.id === entry.id) decoded = current.decoded;
          else {
            const base = import.meta.env.BASE_URL;
            decoded = await loadBuiltinDataset(entry.id, (path) =>
              fetchWithProgress(base + path, new AbortController().signal, undefined, (loaded, total) =>
                report({ phase: 'download', file: path.slice(path.lastIndexOf('/') + 1), loaded, total, fraction: total ? loaded / total : 0 }),
              ),
            );
          }
          const protos = classMeanPrototypes(decoded.train.images, decoded.train.labels, decoded.imageSize, decoded.meta.classes.length);
          return { name: entry.name, shape: decoded.shape, listIndex: decoded.meta.classInfo.map((c) => c.classListIndex), protos };
        })();
        prototypeCache.set(entry.id, job);
        job.catch(() => prototypeCache.delete(entry.id));
      }
      const p = await job;
      const labels = classIndices.map((i) => p.listIndex.indexOf(i));
      const missing = classIndices.filter((_, k) => labels[k] < 0 || p.protos.counts[labels[k]] === 0);
      if (missing.length) {
        const names = getClassList(entry.classListId).classes;
        const list = missing.map((i) => names[i] ?? `#${i}`).join(', ');
        throw new Error(
          `${p.name} has no training images of ${list}: image prototypes need images of every class; deselect ${missing.length > 1 ? 'them' : 'it'} or use another similarity source.`,
        );
      }
      const out: PrototypeResult = {
        datasetId: entry.id,
        datasetName: p.name,
        shape: p.shape,
        rows: labels.map((l) => p.protos.rows[l].slice()),
        counts: labels.map((l) => p.protos.counts[l]),
      };
      return Comlink.transfer(
        out,
        out.rows.map((r) => r.buffer as ArrayBuffer),
      );
    } finally {
      release(onProgress);
    }
  },

  /**
   * Serve the loaded dataset to another worker (e.g. the training engine) over `port`: it calls
   * `Comlink.wrap(port).dataset()` and gets a copy of the typed arrays (the UI thread never sees them).
   */
  connect(port: MessagePort): void {
    Comlink.expose(
      {
        dataset: (): HeldDataset | null => current?.data ?? null,
        summary: (): DataSummary | null => current?.summary ?? null,
      },
      port,
    );
  },
};

export type DataWorkerApi = typeof api;
Comlink.expose(api);
