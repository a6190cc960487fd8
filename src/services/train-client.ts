/**
 * The handle on a training worker (comlink; src/workers/train.worker.ts), as the pool leases it to a lab's runner:
 * choose the backend, load the images, train one run or job at a time with progress and backend-fallback notices,
 * pause / resume / cancel it.
 *
 * - Every callback handed to the worker is a `Comlink.proxy`; the worker releases it when the run ends (its port
 *   closes), so nothing accumulates over hundreds of runs.
 * - A cancelled run rejects with an Error whose name is 'RunCancelledError' (`isRunCancelled`); the worker's
 *   trainer disposes every tensor on the way out (`memory()` shows the count back at its baseline).
 * - If the worker itself dies (out of memory, a crash in a backend), every call in flight rejects with a
 *   TrainWorkerError instead of hanging; the client is then unusable (dispose it and make a new one).
 */
import * as Comlink from 'comlink';
import type * as T from '../workers/train-api';
import { sharedDataClient, type DataClient } from './data-client';

/** The worker's API and message types, and the engine's types they carry. */
export type * from '../workers/train-api';
export { builtinDatasetSpec } from '../workers/train-api';

export class TrainWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainWorkerError';
  }
}

/** True for the rejection of a cancelled run. */
export { isCancelError as isRunCancelled } from './lab-kit/run-session';

export interface TrainClientOptions {
  /** where `loadDataset({kind: 'data-worker'})` gets the dataset; default the app's shared data worker */
  dataClient?: () => DataClient;
}

export function createTrainClient(options: TrainClientOptions = {}) {
  const worker = new Worker(new URL('../workers/train.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<T.TrainWorkerApi>(worker);
  let dead: TrainWorkerError | null = null;
  const waiting = new Set<(e: Error) => void>();
  const die = (message: string): void => {
    if (dead) return;
    dead = new TrainWorkerError(message);
    for (const reject of waiting) reject(dead);
    waiting.clear();
  };
  worker.addEventListener('error', (e) => die(`The training worker stopped: ${e.message || 'an error it could not handle'}.`));
  worker.addEventListener('messageerror', () => die('The training worker sent a message that could not be read.'));

  /** A worker call that rejects (instead of hanging) when the worker dies or the client is disposed. */
  function call<T>(f: () => Promise<T>): Promise<T> {
    if (dead) return Promise.reject(dead);
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      f()
        .then(resolve, reject)
        .finally(() => waiting.delete(reject));
    });
  }

  return {
    /** Choose the backend ('auto': webgpu → webgl → wasm → cpu, the first that passes a short probe). */
    selectBackend(preferred: T.BackendName | 'auto' = 'auto'): Promise<T.BackendInfo> {
      return call(() => remote.selectBackend(preferred));
    },

    /** The backend in use now, or null before the first selection. */
    backend(): Promise<string | null> {
      return call(() => remote.backend());
    },

    /** The WebGPU adapter the worker gets, described; null without one. */
    gpuAdapter(): Promise<T.GpuAdapterInfo | null> {
      return call(() => remote.gpuAdapter());
    },

    /** Time the workload on each candidate backend and select the fastest (engine/gpu/measure.ts). */
    measureBackends(workload: T.ProbeWorkload, cpuWorkers: number): Promise<T.MeasuredChoice> {
      return call(() => remote.measureBackends(workload, cpuWorkers));
    },

    /** Warm the worker up for the workload on its held dataset (the first Run then starts warm). */
    warmUp(workload: T.ProbeWorkload): Promise<number> {
      return call(() => remote.warmUp(workload));
    },

    /** Load the images to train on: a built-in dataset (fetched by the worker) or the Data tab's dataset. */
    loadDataset(spec: T.DatasetSpec): Promise<T.TrainDatasetSummary> {
      if (spec.kind === 'builtin') return call(() => remote.loadDataset(spec));
      return call(async () => {
        const channel = new MessageChannel();
        await (options.dataClient ?? sharedDataClient)().connect(channel.port1);
        return remote.loadDataset(spec, Comlink.transfer(channel.port2, [channel.port2]));
      });
    },

    /** Train one run; resolves with R and the backend that finished it. */
    run(
      config: T.TrainRunConfig,
      onProgress?: (e: T.ProgressEvent) => void,
      onNotice?: (n: T.FallbackNotice) => void,
      /** after each task, once: its row of R and its softmax outputs (transferred copies); all arrive before the result */
      onTask?: (r: T.TaskResult) => void,
    ): Promise<T.TrainRunResult & { backend: string }> {
      return call(() =>
        remote.run(
          config,
          onProgress ? Comlink.proxy(onProgress) : undefined,
          onNotice ? Comlink.proxy(onNotice) : undefined,
          onTask ? Comlink.proxy(onTask) : undefined,
        ),
      );
    },

    /**
     * Train many orderings of one experiment together (prefix sharing + population; src/engine/shared-train.ts).
     * `onRunDone(i, result)` fires as each ordering finishes (i indexes `configs`).
     */
    runShared(
      configs: T.TrainRunConfig[],
      options: T.SharedTrainOptions,
      onRunDone: (index: number, result: T.TrainRunResult) => void,
      onProgress?: (p: T.SharedProgress) => void,
      onNotice?: (n: T.FallbackNotice) => void,
      next?: () => T.SharedNext | Promise<T.SharedNext>,
      /** pull mode: a prefix trained here that another worker may continue from (src/core/ground-truth/deal.ts) */
      onCheckpoint?: (c: T.SharedCheckpoint) => void,
    ): Promise<{ backend: string; population: number }> {
      return call(() =>
        remote.runShared(
          configs,
          options,
          Comlink.proxy(onRunDone),
          onProgress ? Comlink.proxy(onProgress) : undefined,
          onNotice ? Comlink.proxy(onNotice) : undefined,
          next ? Comlink.proxy(next) : undefined,
          onCheckpoint ? Comlink.proxy(onCheckpoint) : undefined,
        ),
      );
    },

    /** Run a registered job kind of the engine (src/engine/jobs) with its events. */
    job<K extends T.JobKind>(kind: K, input: T.JobInput<K>, onEvent?: (e: T.JobEvent<K>) => void): Promise<T.JobOutput<K>> {
      return call(() => remote.job(kind, input, onEvent ? Comlink.proxy(onEvent) : undefined) as Promise<T.JobOutput<K>>);
    },

    /** The pre-trained methods' ground truth by class set (engine/features/ptm-job.ts): records in batches. */
    ptmJob(input: T.JobInput<'ptm'>, onEvent: (e: T.JobEvent<'ptm'>) => void): Promise<T.JobOutput<'ptm'>> {
      return call(() => remote.job('ptm', input, Comlink.proxy(onEvent) as never) as Promise<T.JobOutput<'ptm'>>);
    },

    /** A pre-trained method's whole distribution over Ω (engine/features/distribution-job.ts): progress, then the report. */
    distribution(input: T.JobInput<'ptm-distribution'>, onEvent: (e: T.JobEvent<'ptm-distribution'>) => void): Promise<T.JobOutput<'ptm-distribution'>> {
      return call(() => remote.job('ptm-distribution', input, Comlink.proxy(onEvent) as never) as Promise<T.JobOutput<'ptm-distribution'>>);
    },

    pause(): Promise<void> {
      return dead ? Promise.resolve() : remote.pause();
    },
    resume(): Promise<void> {
      return dead ? Promise.resolve() : remote.resume();
    },
    /** Teaching mode's Step: the run in flight pauses itself after `n` more results (0: plays on). */
    pauseAfter(n: number): Promise<void> {
      return dead ? Promise.resolve() : remote.pauseAfter(n);
    },
    /** Cancel the run in flight: its `run` promise rejects with a RunCancelledError. */
    cancel(): Promise<void> {
      return dead ? Promise.resolve() : remote.cancel();
    },

    /** tf.memory() in the worker. */
    memory(): Promise<T.WorkerMemory> {
      return call(() => remote.memory());
    },

    /** Test hook: destroy the worker's WebGPU device (see train.worker.ts). */
    debugLoseDevice(): Promise<boolean> {
      return call(() => remote.debugLoseDevice());
    },

    /** Stop the worker; calls in flight reject. */
    dispose(): void {
      die('The training worker was closed.');
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

export type TrainClient = ReturnType<typeof createTrainClient>;
