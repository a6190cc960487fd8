/// <reference lib="webworker" />
/**
 * The training worker, the one every lab leases from the pool: a thin comlink facade over src/engine. It keeps one
 * cache of built-in datasets (fetched once), holds the dataset a run trains on (a built-in one or the Data tab's,
 * handed over a MessagePort), and runs one job at a time — a run, prefix-shared runs, or a registered job kind of
 * src/engine/jobs — with pause / resume / cancel. Callbacks are comlink proxies, released when the job ends.
 *
 * The wasm backend's binaries are served by the app from public/tfjs/ (scripts/prepare-tfjs-wasm.mjs).
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs-core';
import { BUILTIN_DATASETS, getBuiltinDataset, loadBuiltinDataset, type FetchBytes } from '../data/registry';
import {
  activeBackend,
  fromDecodedDataset,
  gpuAdapterInfo,
  isFeatureDataset,
  measureBackends,
  warmTraining,
  RunControl,
  selectBackend,
  setWasmBase,
  subsetPerClass,
  trainRunWithFallback,
  trainSharedWithFallback,
  type SharedProgress,
  type BackendInfo,
  type BackendName,
  type FallbackNotice,
  type ImageDataset,
  type TrainDataset,
  type ProbsRecord,
  type ProgressEvent,
  type TrainRunConfig,
  type TrainRunResult,
} from '../engine/index';
import { JOBS, jobContext, type JobKind } from '../engine/jobs';
import { featureDatasetOf } from '../engine/features/dataset';
import { featureSetOf } from '../engine/features/source-set';
import type {
  DatasetSpec,
  JobEvent,
  JobEventFn,
  JobInput,
  JobOutput,
  NoticeFn,
  ProgressFn,
  TaskFn,
  TaskResult,
  TrainDatasetSummary,
  TrainWorkerApi,
  WorkerMemory,
} from './train-api';
import { controlMethods } from './run-control';
import { delivery } from './deliver';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

/** The engine's per-task event as a TaskResult with copied, transferable buffers. */
function taskResult(e: { task: number; row: number[]; probs?: ProbsRecord[] }, tasks: number): TaskResult {
  const probs = (e.probs ?? []).map((p) => ({ ...p, probs: p.probs.slice(), labels: p.labels.slice() }));
  const result: TaskResult = { task: e.task, tasks, row: e.row.slice(), probs };
  const buffers = probs.flatMap((p) => [p.probs.buffer as ArrayBuffer, p.labels.buffer as ArrayBuffer]);
  return buffers.length > 0 ? Comlink.transfer(result, buffers) : result;
}

interface Held {
  dataset: TrainDataset;
  summary: TrainDatasetSummary;
}

let held: Held | null = null;
let control: RunControl | null = null;

function perClass(labels: ArrayLike<number>, classes: number): number[] {
  const out = new Array<number>(classes).fill(0);
  for (let i = 0; i < labels.length; i++) out[labels[i]]++;
  return out;
}

function summarise(kind: DatasetSpec['kind'], id: string, name: string, ds: TrainDataset, spec: DatasetSpec): TrainDatasetSummary {
  return {
    kind,
    id,
    name,
    classNames: ds.classNames.slice(),
    shape: [...ds.shape],
    train: { count: ds.train.labels.length, perClass: perClass(ds.train.labels, ds.classNames.length) },
    test: { count: ds.test.labels.length, perClass: perClass(ds.test.labels, ds.classNames.length) },
    trainPerClass: spec.trainPerClass ?? null,
    testPerClass: spec.testPerClass ?? null,
    seed: spec.seed ?? null,
    bytes: ds.train.images.byteLength + ds.train.labels.byteLength + ds.test.images.byteLength + ds.test.labels.byteLength,
  };
}

function subset(ds: ImageDataset, spec: DatasetSpec): ImageDataset {
  return spec.trainPerClass === undefined && spec.testPerClass === undefined
    ? ds
    : subsetPerClass(ds, { trainPerClass: spec.trainPerClass, testPerClass: spec.testPerClass });
}

const fetchBytes: FetchBytes = async (path, options) => {
  const res = await fetch(import.meta.env.BASE_URL + path, { cache: options?.retry ? 'no-store' : 'default' });
  if (!res.ok) throw new Error(`cannot read ${path}: HTTP ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
};

/** The worker's one dataset cache: every built-in dataset fetched once, for runs and every job kind. */
const jobs = jobContext(async (id) => fromDecodedDataset(await loadBuiltinDataset(id, fetchBytes)), new RunControl());

/** Let go of comlink callback proxies from the UI (their message ports close), in the order given. */
function release(...cbs: unknown[]): void {
  for (const cb of cbs) (cb as Partial<Record<typeof Comlink.releaseProxy, () => void>> | undefined)?.[Comlink.releaseProxy]?.();
}

/** Take the worker's one run slot; busy (the run's callbacks let go) while another run holds it. */
function claimRun(...cbs: unknown[]): RunControl {
  if (control) {
    release(...cbs);
    throw busy();
  }
  const c = new RunControl();
  control = c;
  return c;
}

/** Give the run slot back (if `c` still holds it) and let go of the run's callbacks. */
function endRun(c: RunControl, ...cbs: unknown[]): void {
  if (control === c) control = null;
  release(...cbs);
}

/** The shared (ground-truth) path's progress messages: at most one per this many ms. */
const SHARED_PROGRESS_MS = 250;

/** At most one progress message per 100 ms, and always the last step of an epoch. */
function throttled(cb: ProgressFn | undefined): ProgressFn | undefined {
  if (!cb) return undefined;
  let last = -Infinity;
  return (e) => {
    const now = performance.now();
    if (e.step < e.steps && now - last < 100) return;
    last = now;
    void Promise.resolve(cb(e)).catch(() => {});
  };
}

function busy(): Error {
  return new Error('A training run is already in progress in this worker; cancel it or wait for it to finish.');
}

const api: TrainWorkerApi = {
  /** Choose the backend: 'auto' = webgpu → webgl → wasm → cpu, the first that passes the probe. */
  async selectBackend(preferred: BackendName | 'auto' = 'auto'): Promise<BackendInfo> {
    if (control) throw busy();
    return selectBackend(preferred);
  },

  backend(): string | null {
    return tf.engine().backendName ?? null;
  },

  gpuAdapter() {
    return gpuAdapterInfo();
  },

  async measureBackends(workload, cpuWorkers) {
    if (control) throw busy();
    return measureBackends(workload, { cpuWorkers });
  },

  async warmUp(workload) {
    if (control) throw busy();
    return held ? warmTraining(held.dataset, workload) : 0;
  },

  /** Load the images to train on (replaces the dataset held before). */
  async loadDataset(spec: DatasetSpec, port?: MessagePort): Promise<TrainDatasetSummary> {
    if (control) throw busy();
    if (spec.kind === 'builtin' && spec.features) {
      // feature vectors of the experiment's classes (the first n of each per split), through the source's seam; cached
      // features (an encoder's or an upload's) need no images here, so a built-in list of names (CIFAR-100) is fine
      const cached = spec.features.source.source === 'cached';
      const entry = cached ? (BUILTIN_DATASETS.find((d) => d.id === spec.id) ?? { id: spec.id, name: spec.id }) : getBuiltinDataset(spec.id);
      const { classes } = spec.features;
      const set = await featureSetOf(jobs, entry.id, spec.features.source, {
        classes,
        trainPerClass: spec.trainPerClass ?? null,
        testPerClass: spec.testPerClass ?? null,
      });
      const dataset = featureDatasetOf(set, classes);
      held = { dataset, summary: summarise('builtin', entry.id, entry.name, dataset, spec) };
      return held.summary;
    }
    if (spec.kind === 'builtin') {
      const entry = getBuiltinDataset(spec.id);
      const dataset = subset(await jobs.builtin(entry.id), spec);
      held = { dataset, summary: summarise('builtin', entry.id, entry.name, dataset, spec) };
      return held.summary;
    }
    if (!port) throw new Error("Loading the Data tab's dataset needs a port to the data worker.");
    const remote = Comlink.wrap<{ dataset(): ImageDataset | null; summary(): { id: string; name: string } | null }>(port);
    try {
      const [full, info] = await Promise.all([remote.dataset(), remote.summary()]);
      if (!full || !info) throw new Error('The Data tab has no dataset loaded yet.');
      const dataset = subset({ shape: full.shape, classNames: full.classNames, train: full.train, test: full.test }, spec);
      held = { dataset, summary: summarise('data-worker', info.id, info.name, dataset, spec) };
      return held.summary;
    } finally {
      remote[Comlink.releaseProxy]();
      port.close();
    }
  },

  datasetSummary(): TrainDatasetSummary | null {
    return held?.summary ?? null;
  },

  /**
   * Train one run (one ordering × strategy × seed) on the held dataset. Rejects with a RunCancelledError (by
   * name: comlink keeps an error's name) when cancelled; a failed backend falls back to the next one and the
   * run continues from its last finished task, reported through `onNotice`.
   */
  async run(config: TrainRunConfig, onProgress?: ProgressFn, onNotice?: NoticeFn, onTask?: TaskFn): Promise<TrainRunResult> {
    const c = claimRun(onProgress, onNotice, onTask);
    const tasks = delivery(onTask);
    try {
      if (!held) throw new Error('No dataset is loaded in the training worker (call loadDataset first).');
      const result = await trainRunWithFallback(held.dataset, config, {
        control: c,
        onProgress: throttled(onProgress),
        onNotice: (n) => void Promise.resolve(onNotice?.(n)).catch(() => {}),
        // once per task, after its checkpoint (fallback.ts: never twice, even when a backend fails and the run resumes)
        ...(onTask
          ? {
              onTaskEnd: (e: { task: number; row: number[]; probs?: ProbsRecord[] }) => tasks.send(taskResult(e, config.tasks.length)),
            }
          : {}),
      });
      // every task is delivered (and handled by the UI) before the result arrives
      await tasks.settled();
      const buffers = (result.probs ?? []).flatMap((p) => [p.probs.buffer as ArrayBuffer, p.labels.buffer as ArrayBuffer]);
      return buffers.length > 0 ? Comlink.transfer(result, buffers) : result;
    } finally {
      endRun(c, onProgress, onNotice, onTask);
    }
  },

  /**
   * Train many orderings of one experiment together (src/engine/shared-train.ts): prefix sharing, and
   * population training where the backend gains from it. Each ordering's result goes to `onRunDone` as soon as it
   * is finished (the caller stores it at once); progress at most 10 times a second (and whenever a task ends). The
   * same pause / resume / cancel as `run`; a failed backend hands the unfinished orderings to the next one.
   * With `next` (pull mode) it trains only the orderings `next` deals, in that order.
   * Resolves with the backend that finished and the population size used. Its parameters take their types from
   * TrainWorkerApi (this object is typed as one).
   */
  async runShared(configs, options, onRunDone, onProgress, onNotice, next, onCheckpoint) {
    const c = claimRun(onRunDone, onProgress, onNotice, next, onCheckpoint);
    const runsDone = delivery<[number, Parameters<typeof onRunDone>[1]]>(([i, r]) => onRunDone(i, r));
    let population = 1;
    let last = -Infinity;
    // progress crosses to the page at most every SHARED_PROGRESS_MS (each message redraws the page's progress, and the
    // page shares the cores with the workers); one held back is sent when training ends, so the final count arrives
    let heldBack: SharedProgress | null = null;
    const send = (p: SharedProgress): void => void Promise.resolve(onProgress?.(p)).catch(() => {});
    try {
      if (!held) throw new Error('No dataset is loaded in the training worker (call loadDataset first).');
      await trainSharedWithFallback(held.dataset, configs, options, {
        control: c,
        onRunDone: (i, r) => runsDone.send([i, r]),
        onProgress: (p) => {
          population = p.population;
          const now = performance.now();
          if (now - last < SHARED_PROGRESS_MS) {
            heldBack = p;
            return;
          }
          last = now;
          heldBack = null;
          send(p);
        },
        onNotice: (n) => void Promise.resolve(onNotice?.(n)).catch(() => {}),
        // pull mode: the UI deals the orderings (every result already delivered is stored before the next is asked)
        ...(next ? { next: async () => await next() } : {}),
        // pull mode: a prefix another worker may continue from goes to the page as it is trained (a copy: the
        // structured clone of the message; the page keeps it until every ordering through it is dealt)
        ...(onCheckpoint ? { onCheckpoint: (cp) => void Promise.resolve(onCheckpoint(cp)).catch(() => {}) } : {}),
      });
      if (heldBack) send(heldBack);
      await runsDone.settled();
      return { backend: tf.getBackend(), population };
    } finally {
      endRun(c, onRunDone, onProgress, onNotice, next, onCheckpoint);
    }
  },

  /**
   * Run a registered job kind (src/engine/jobs): its events go to `onEvent`; the same one-at-a-time slot and
   * pause / resume / cancel as `run`. Rejects with a RunCancelledError (by name) when cancelled.
   */
  async job<K extends JobKind>(kind: K, input: JobInput<K>, onEvent?: JobEventFn<K>): Promise<JobOutput<K>> {
    const job = JOBS[kind] as unknown as (input: JobInput<K>, ctx: typeof jobs, emit: (e: JobEvent<K>) => void) => Promise<JobOutput<K>>;
    if (!job) throw new Error(`The training worker has no job kind "${kind}".`);
    const c = claimRun(onEvent);
    const events = delivery(onEvent);
    try {
      const out = await job(input, { ...jobs, held: () => (held && !isFeatureDataset(held.dataset) ? held.dataset : null), control: c }, events.send);
      // every event (a finished step) is delivered, and handled by the page, before the result arrives
      await events.settled();
      return out;
    } finally {
      endRun(c, onEvent);
    }
  },

  /** Pause / resume / cancel the job in flight (no effect without one). */
  ...controlMethods(() => control),

  /** tf.memory() of the active backend (tests check that a run leaves the tensor count at its baseline). */
  memory(): WorkerMemory {
    const m = tf.memory();
    return { backend: activeBackend(), numTensors: m.numTensors, numBytes: m.numBytes, numDataBuffers: m.numDataBuffers };
  },

  /**
   * Test hook: destroy the WebGPU device the backend uses, as a driver reset would (it fires `device.lost`), so
   * the fallback path can be exercised in a real browser. Returns false when the backend has no such device.
   */
  debugLoseDevice(): boolean {
    const backend = tf.backend() as unknown as { device?: { destroy?: () => void } };
    if (tf.getBackend() !== 'webgpu' || !backend.device?.destroy) return false;
    backend.device.destroy();
    return true;
  },
};

Comlink.expose(api);
