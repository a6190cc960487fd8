/**
 * A dataset as the Data tab holds it: what the UI is shown of it (a summary, no pixels), the held images, a sample of
 * a few images per class, and how its files are fetched with byte progress. Used by the data worker
 * (src/workers/data.worker.ts), which only adds the job control and the transfers.
 */
import { joinChunks } from './bytes';
import { datasetFiles, parseDatasetMeta, type DecodedDataset, type SourceMeta, type SplitName, type StyleMeta } from './format';
import { DataFormatError, type NamedFile, type ParsedImages, type UserDataset } from './parsers';
import { builtinDatasetPath, getBuiltinDataset, loadBuiltinDataset, type FetchBytes } from './registry';
import { countPerClass, packSamples, selectSamples, type SampleSet } from './samples';

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

export type ProgressFn = (p: LoadProgress) => void;

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

/**
 * GET with byte progress; `expected` (from meta.json) sizes the buffer when the server's length is not usable;
 * `cache` is fetch's cache mode ('no-store' for a retry: registry.ts FetchBytes).
 */
export async function fetchWithProgress(
  url: string,
  signal: AbortSignal,
  expected: number | undefined,
  onBytes: (loaded: number, total: number) => void,
  cache: RequestCache = 'default',
): Promise<Uint8Array> {
  const res = await fetch(url, { signal, cache });
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
  return joinChunks(chunks, loaded);
}

export function summaryOfBuiltin(d: DecodedDataset): DataSummary {
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
  'cifar100-parquet': "CIFAR-100 as the Hugging Face hub's parquet files (fine labels)",
  'image-folder': 'a .zip of images, one folder per class (resized to 32×32 RGB)',
};

const EMPTY_SPLIT = (shape: [number, number, number]): ParsedImages => ({ images: new Uint8Array(0), labels: new Uint8Array(0), shape });

/** The user's parsed files as the held dataset and its summary; a label without a class name is an error. */
export function fromUser(u: UserDataset, files: NamedFile[], classNames?: string[]): { data: HeldDataset; summary: DataSummary } {
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

/** S images per class of each split, chosen by the seeded per-class permutations (./samples.ts). */
export function sampleSets(d: HeldDataset, o: SamplingOptions): SampleSets {
  const one = (split: SplitName): SampleSet => {
    const s = d[split];
    const chosen = selectSamples(s.labels, d.classNames.length, o.perClass, o.seed);
    return packSamples(s.images, d.shape, chosen, { split, perClass: o.perClass, seed: o.seed, styles: s.styles });
  };
  return { train: one('train'), test: one('test') };
}

/**
 * Fetch a built-in dataset (public/data/<id>/) with byte progress over all its files: meta.json first, whose sizes
 * let the progress show the whole download from the start.
 */
export async function loadBuiltinWithProgress(id: string, base: string, signal: AbortSignal, report: ProgressFn): Promise<DecodedDataset> {
  const entry = getBuiltinDataset(id);
  const expected = new Map<string, number>();
  const loaded = new Map<string, number>();
  const fetchBytes: FetchBytes = async (path, options) => {
    const file = path.slice(path.lastIndexOf('/') + 1);
    const bytes = await fetchWithProgress(
      base + path,
      signal,
      expected.get(path),
      (n, total) => {
        loaded.set(path, n);
        if (!expected.has(path)) expected.set(path, total);
        let done = 0;
        let all = 0;
        for (const [p, size] of expected) {
          all += size;
          done += Math.min(size, loaded.get(p) ?? 0);
        }
        report({ phase: 'download', file, loaded: n, total, bytesDone: done, bytesTotal: all, fraction: all ? done / all : 0 });
      },
      options?.retry ? 'no-store' : 'default',
    );
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
  return decoded;
}

/** The decoded built-in dataset as the held dataset (with emoji styles). */
export function heldOfBuiltin(decoded: DecodedDataset): HeldDataset {
  return {
    shape: decoded.shape,
    classNames: decoded.meta.classes,
    train: { images: decoded.train.images, labels: decoded.train.labels, ...(decoded.train.styles ? { styles: decoded.train.styles } : {}) },
    test: { images: decoded.test.images, labels: decoded.test.labels, ...(decoded.test.styles ? { styles: decoded.test.styles } : {}) },
  };
}
