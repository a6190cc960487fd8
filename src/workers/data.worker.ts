/// <reference lib="webworker" />
/**
 * The data worker, a thin comlink facade over src/data (./loaded.ts: summaries, samples, downloads with progress;
 * ./parsers: the user's files): it keeps the loaded dataset, sends the UI only a summary and a few images per class
 * (transferred), cancels a load (the previous dataset stays), computes image prototypes, and serves the dataset to
 * a training worker over a MessagePort handed to `connect`.
 */
import * as Comlink from 'comlink';
import { getClassList } from '../core/classes/builtin';
import { contentHash } from '../core/config/url-codec';
import { classMeanPrototypes, type ClassPrototypes } from '../core/similarity/prototypes';
import type { DecodedDataset } from '../data/format';
import {
  fetchWithProgress,
  fromUser,
  heldOfBuiltin,
  loadBuiltinWithProgress,
  sampleSets,
  summaryOfBuiltin,
  type DataSummary,
  type HeldDataset,
  type LoadResult,
  type PrototypeResult,
  type ProgressFn,
  type SampleSets,
  type SamplingOptions,
  type UserLoadOptions,
} from '../data/loaded';
import { type DecodedImage, type NamedFile, parseUserFiles } from '../data/parsers';
import { getBuiltinDataset, loadBuiltinDataset } from '../data/registry';
import { checkFeatureFileSize, readFeatureFile } from '../data/features/upload';
import { withTestSplit } from '../core/features/test-split';
import type { FeatureSet } from '../core/features/feature-set';
import { downloadHubDataset, HUB_CIFAR100, type HubDataset, type HubFileSize } from '../data/hub-datasets';

const HUB_DATASETS: Record<HubDataset['id'], HubDataset> = { cifar100: HUB_CIFAR100 };

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
      const decoded = await loadBuiltinWithProgress(id, import.meta.env.BASE_URL, job.controller.signal, report);
      checkNotCancelled(job);
      report({ phase: 'sample', file: entry.name, fraction: 1 });
      return { data: heldOfBuiltin(decoded), summary: summaryOfBuiltin(decoded), decoded };
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

  /**
   * Download a dataset's files from the Hugging Face hub (only when the visitor asks, after its size was said: `sizes`
   * from `hubDatasetSizes`) and parse them as the visitor's own files.
   */
  async loadHub(id: HubDataset['id'], sizes: HubFileSize[] | undefined, opts: UserLoadOptions, onProgress?: ProgressFn): Promise<LoadResult> {
    const d = HUB_DATASETS[id];
    if (!d) throw new Error(`No hub dataset "${String(id)}".`);
    return runLoad(onProgress, opts, async (job, report) => {
      const files = await downloadHubDataset(d, job.controller.signal, report, { sizes });
      checkNotCancelled(job);
      const label = files.map((f) => f.name).join(', ');
      const parsed = await parseUserFiles(files, {
        onProgress: (fraction) => {
          checkNotCancelled(job);
          report({ phase: 'parse', file: label, fraction });
        },
      });
      checkNotCancelled(job);
      const { data, summary } = fromUser(parsed, files);
      const source = {
        name: d.name,
        package: `hub:${d.repo}`,
        version: d.revision,
        license: 'unknown',
        url: `https://huggingface.co/datasets/${d.repo}`,
        note: d.source,
      };
      return { data, summary: { ...summary, name: `${d.name} from the Hugging Face hub (${d.repo})`, sources: [source] } };
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
   * the page's thread a 300 MB similarity upload froze the page for seconds.
   */
  async contentHash(file: Blob): Promise<string> {
    return contentHash(new Uint8Array(await file.arrayBuffer()));
  },

  /**
   * An uploaded feature file (.npz or CSV, data/features/upload.ts) read, checked and hashed here, off the page's
   * thread: an honest .npz declaring 800 MB of float64 froze the page for 10 s there. Without a test split, 20 % of
   * each class is held out (`heldOut`), as the CLI does. The set's arrays are transferred, not copied. A bad file
   * throws its FeatureSetError's one sentence.
   */
  async readFeatureFile(file: Blob, name: string): Promise<{ set: FeatureSet; contentHash: string; heldOut: boolean }> {
    checkFeatureFileSize(file.size, name);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const hash = contentHash(bytes);
    const { set, heldOut } = withTestSplit(readFeatureFile(bytes, name));
    return Comlink.transfer({ set, contentHash: hash, heldOut }, [
      set.features.buffer as ArrayBuffer,
      set.labels.buffer as ArrayBuffer,
      set.split.buffer as ArrayBuffer,
    ]);
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
            decoded = await loadBuiltinDataset(entry.id, (path, options) =>
              fetchWithProgress(
                base + path,
                new AbortController().signal,
                undefined,
                (loaded, total) =>
                  report({ phase: 'download', file: path.slice(path.lastIndexOf('/') + 1), loaded, total, fraction: total ? loaded / total : 0 }),
                options?.retry ? 'no-store' : 'default',
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
