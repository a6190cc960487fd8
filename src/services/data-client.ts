/**
 * The UI's handle on the data worker (comlink): load a built-in dataset or the user's files, with progress and
 * cancel; get a new choice of samples. The worker keeps the decoded dataset; the UI only ever receives a summary
 * and a few images per class. One worker per page, released on dispose.
 */
import * as Comlink from 'comlink';
import type { NamedFile } from '../data/parsers/types';
import type { LoadProgress, LoadResult, PrototypeResult, SampleSets, SamplingOptions, UserLoadOptions } from '../data/loaded';
import type { DataWorkerApi } from '../workers/data.worker';
import type { HubDataset, HubFileSize } from '../data/hub-datasets';
import type { FeatureSet } from '../core/features/feature-set';

export type { DataSummary, LoadProgress, LoadResult, PrototypeResult, SampleSet, SampleSets, SamplingOptions, UserLoadOptions } from '../data/loaded';

/** The default sample: S = 8 images per class, seed 0. */
export const DEFAULT_SAMPLING: SamplingOptions = { perClass: 8, seed: 0 };

/** Thrown (to the caller) by a load that was cancelled. */
export class LoadCancelledError extends Error {
  constructor() {
    super('Loading was cancelled.');
    this.name = 'LoadCancelled';
  }
}

export function isCancelled(e: unknown): boolean {
  return e instanceof Error && e.name === 'LoadCancelled';
}

/** Reads a File's bytes in chunks, reporting progress; one buffer of exactly the file's size. */
async function readFile(file: File, onBytes: (loaded: number) => void, isCancelled: () => boolean): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let at = 0;
  for (;;) {
    if (isCancelled()) {
      await reader.cancel();
      throw new LoadCancelledError();
    }
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value.subarray(0, Math.max(0, Math.min(value.length, out.length - at))), at);
    at += value.length;
    onBytes(Math.min(at, out.length));
  }
  if (at !== file.size) throw new Error(`${file.name}: read ${at} bytes but the file has ${file.size}; was it changed while loading?`);
  return out;
}

export function createDataClient() {
  // the last dataset shown (summary + the few sample images), so a page that is shown again starts where it was
  let last: LoadResult | null = null;
  const remember = (r: LoadResult): LoadResult => (last = r);
  const worker = new Worker(new URL('../workers/data.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<DataWorkerApi>(worker);
  // the load in flight: cancel() rejects it at once (the worker stops at its next step and keeps the old dataset)
  let pending: { cancelled: boolean; reject: (e: Error) => void } | null = null;

  function track<T>(work: (job: { cancelled: boolean }) => Promise<T>): Promise<T> {
    if (pending) {
      pending.cancelled = true;
      pending.reject(new LoadCancelledError());
    }
    return new Promise<T>((resolve, reject) => {
      const job = { cancelled: false, reject };
      pending = job;
      work(job)
        .then(resolve, reject)
        .finally(() => {
          if (pending === job) pending = null;
        });
    });
  }

  return {
    /** Load built-in dataset `id` ("digits", "fashion-mnist", "emoji"). */
    loadBuiltin(id: string, sampling: SamplingOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult> {
      return track(() => remote.loadBuiltin(id, sampling, Comlink.proxy(onProgress))).then(remember);
    },

    /** Read the user's files here (progress per file), transfer their bytes to the worker, parse there. */
    loadFiles(files: File[], opts: UserLoadOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult> {
      return track(async (job) => {
        const bytesTotal = files.reduce((s, f) => s + f.size, 0);
        let before = 0;
        const named: NamedFile[] = [];
        for (const f of files) {
          const bytes = await readFile(
            f,
            (loaded) =>
              onProgress({
                phase: 'read',
                file: f.name,
                loaded,
                total: f.size,
                bytesDone: before + loaded,
                bytesTotal,
                fraction: bytesTotal ? (before + loaded) / bytesTotal : 1,
              }),
            () => job.cancelled,
          );
          before += f.size;
          named.push({ name: f.name, bytes });
        }
        if (job.cancelled) throw new LoadCancelledError();
        const buffers = named.map((n) => n.bytes.buffer as ArrayBuffer);
        return remote.loadFiles(Comlink.transfer(named, buffers), opts, Comlink.proxy(onProgress));
      }).then(remember);
    },

    /** A dataset from the Hugging Face hub's files (downloaded in the worker, after its size was asked and said). */
    loadHub(id: HubDataset['id'], sizes: HubFileSize[] | undefined, opts: UserLoadOptions, onProgress: (p: LoadProgress) => void): Promise<LoadResult> {
      return track(() => remote.loadHub(id, sizes, opts, Comlink.proxy(onProgress))).then(remember);
    },

    /** A new choice of S images per class (seeded) from the dataset already loaded. */
    resample(sampling: SamplingOptions): Promise<SampleSets> {
      return remote.resample(sampling).then((samples) => {
        if (last) last = { ...last, samples };
        return samples;
      });
    },

    /** What was shown last (null before the first load). */
    get last(): LoadResult | null {
      return last;
    },

    /** Stop the load in flight; its promise rejects with LoadCancelledError, the previous dataset stays. */
    cancel(): void {
      const job = pending;
      if (!job) return;
      job.cancelled = true;
      pending = null;
      void remote.cancel();
      job.reject(new LoadCancelledError());
    },

    /**
     * Image prototypes of classes `classIndices` (positions in the class list) of built-in dataset `id`
     * (data.worker.ts `classPrototypes`); the loaded dataset stays as it is.
     */
    classPrototypes(id: string, classIndices: number[], onProgress?: (p: LoadProgress) => void): Promise<PrototypeResult> {
      return remote.classPrototypes(id, classIndices, onProgress ? Comlink.proxy(onProgress) : undefined);
    },

    /** An uploaded feature file read, checked and hashed in the worker (data.worker.ts `readFeatureFile`). */
    readFeatureFile(file: Blob, name: string): Promise<{ set: FeatureSet; contentHash: string; heldOut: boolean }> {
      return remote.readFeatureFile(file, name);
    },

    /** The content hash of a file as a FileRef records it, computed in the worker (data.worker.ts `contentHash`). */
    contentHash(file: Blob): Promise<string> {
      return remote.contentHash(file);
    },

    /** Give another worker access to the loaded dataset (see data.worker.ts `connect`). */
    connect(port: MessagePort): Promise<void> {
      return remote.connect(Comlink.transfer(port, [port]));
    },

    dispose(): void {
      pending?.reject(new LoadCancelledError());
      pending = null;
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

export type DataClient = ReturnType<typeof createDataClient>;

let shared: DataClient | null = null;

/**
 * The app's one data worker: it outlives the Data page (switching labs keeps the loaded dataset), and the training
 * engine reaches the same dataset through `connect`.
 */
export function sharedDataClient(): DataClient {
  shared ??= createDataClient();
  return shared;
}
