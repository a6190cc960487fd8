/**
 * The lab kit's training-worker pool: every lab leases its training workers here instead of making its own, so a
 * worker that already chose its backend and holds a dataset is reused by the next run of any lab, and two labs never
 * drive the same worker at once (docs/architecture.md). `sharedTrainPool()` is the app's pool of train-client.ts
 * workers; `createWorkerPool` takes any worker factory (the unit tests pass fakes).
 */
import type { BackendInfo, BackendName, ProbeWorkload } from '../../engine/index';
import type { DatasetSpec } from '../../workers/train-api';
import { localChoiceCache, measuredBackend, type ChoiceCache, type MeasuringWorker } from './backend-choice';

/** What the pool needs of a training worker (train-client.ts TrainClient). */
export interface PoolWorker extends MeasuringWorker {
  loadDataset(spec: DatasetSpec): Promise<unknown>;
  /** a throwaway run of the workload on the held dataset, so the first real one starts warm (train-client.ts) */
  warmUp?(workload: ProbeWorkload): Promise<number>;
  dispose(): void;
}

export interface LeaseRequest {
  backend: BackendName | 'auto';
  /** the images `run` / `runShared` train on; a lab whose jobs load their own datasets (src/engine/jobs) leaves it out */
  dataset?: DatasetSpec;
  /** ask for helper workers (the fast path); they come only on CPU backends with more than one core */
  helpers?: boolean;
  /**
   * What the lab will train: each worker warms up on it once (a throwaway run: its first real run starts warm), and
   * with `backend: 'auto'` the backend is chosen by timing it on each candidate (./backend-choice.ts; kept per device in
   * the browser), not by the fixed order
   */
  workload?: ProbeWorkload;
}

export interface Lease<W> {
  main: W;
  helpers: W[];
  /** the backend the main worker chose */
  backend: BackendInfo;
  /** give the workers back (idempotent) */
  release(): void;
}

/**
 * A runner's hold on a leased worker while a start trains: `during` does nothing when there is nothing to do, else
 * leases a worker on `backend`, shows its backend on the session, runs `body` on it and gives it back, however it
 * ends; `worker` is the worker in use meanwhile (what pause and cancel reach), null between starts.
 */
export function leaseHolder<W>(lease: (backend: BackendName | 'auto') => Promise<Pick<Lease<W>, 'main' | 'release'> & { backend: { name: string } }>) {
  let held: W | null = null;
  return {
    get worker(): W | null {
      return held;
    },
    async during(
      backend: BackendName | 'auto',
      todo: readonly unknown[],
      ctx: { set(patch: { backend: string }): void },
      body: (w: W) => Promise<void>,
    ): Promise<void> {
      if (todo.length === 0) return;
      const l = await lease(backend);
      held = l.main;
      ctx.set({ backend: l.backend.name });
      try {
        await body(l.main);
      } finally {
        held = null;
        l.release();
      }
    },
  };
}

export interface WorkerPoolOptions<W> {
  create: () => W;
  /** cores to use at most (default: navigator.hardwareConcurrency, at most MAX_TRAIN_WORKERS) */
  cores?: number;
  /** where measured backend choices are kept (default: localStorage) */
  choiceCache?: ChoiceCache;
}

/**
 * Training workers of one lease at most, whatever the cores. Memory, not cores, is the bound: each worker holds its
 * own copy of the dataset (Fashion-MNIST 55 MB, CIFAR-100 184 MB as bytes), a tfjs/wasm heap and its kept prefix
 * copies (src/core/ground-truth/schedule.ts MAX_KEPT_NODES), ≈ 150–400 MB a worker; Chromium kills a tab (workers
 * included) a little past 4 GB (src/core/config/limits.ts), so 8 workers stay below half of it.
 */
export const MAX_TRAIN_WORKERS = 8;

/** Helper workers for a backend: CPU backends split the work across cores; a GPU has one device to share. */
export function helperCount(backend: string, cores: number): number {
  return backend === 'wasm' || backend === 'cpu' ? Math.max(0, Math.min(MAX_TRAIN_WORKERS, cores) - 1) : 0;
}

interface Slot<W> {
  worker: W;
  busy: boolean;
  /** the preference last asked and what it gave */
  backend: { preferred: string; info: BackendInfo } | null;
  /** the built-in dataset loaded (JSON of its spec), or null */
  dataset: string | null;
  /** the workload this worker last warmed up on (JSON), on its backend and dataset */
  warmed: string | null;
}

/** The cores the browser reports (navigator.hardwareConcurrency), at most MAX_TRAIN_WORKERS; 1 outside a browser. */
export function defaultCores(): number {
  return typeof navigator !== 'undefined' ? Math.max(1, Math.min(MAX_TRAIN_WORKERS, navigator.hardwareConcurrency || 1)) : 1;
}

/**
 * A pool. `lease({backend, dataset, helpers})` gives a `main` worker set up with the backend and dataset and, when
 * asked and useful, `helpers` on the same setup for the CPU fast path (`helperCount`: one per further core, none on a
 * GPU backend, which has one device to share); a helper that fails to start is dropped. `warm(request)` prepares the
 * workers such a lease would get and leaves them idle, so a lab can start them while its user reads the page (the
 * first result ≤ 1 s after Run needs start-up out of the way); a lease waits for a warm-up in flight rather than
 * starting more. A worker remembers its backend and built-in dataset, so the same setup does not probe or load again
 * (the Data tab's dataset is always handed over: it may have changed). `release()` returns the workers idle; a worker
 * that died (TrainWorkerError) is disposed instead. `dispose()` ends every worker.
 */
export function createWorkerPool<W extends PoolWorker>(options: WorkerPoolOptions<W>) {
  const cores = options.cores ?? defaultCores();
  const choiceCache = options.choiceCache ?? localChoiceCache();
  const slots: Slot<W>[] = [];

  function take(): Slot<W> {
    let slot = slots.find((s) => !s.busy);
    if (!slot) {
      slot = { worker: options.create(), busy: false, backend: null, dataset: null, warmed: null };
      slots.push(slot);
    }
    slot.busy = true;
    return slot;
  }

  function drop(slot: Slot<W>): void {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    slot.worker.dispose();
  }

  function give(slot: Slot<W>): void {
    if (!slots.includes(slot)) return;
    slot.busy = false;
  }

  async function prepare(slot: Slot<W>, preferred: BackendName | 'auto', dataset: DatasetSpec | undefined, workload?: ProbeWorkload): Promise<BackendInfo> {
    // `auto` for a workload is chosen by measuring it, once per workload (and kept per device by the cache)
    const measure = preferred === 'auto' && workload !== undefined;
    const asked = measure ? `auto:${JSON.stringify(workload)}` : preferred;
    if (!slot.backend || slot.backend.preferred !== asked) {
      slot.dataset = null; // a new backend: the worker loads the images again onto it
      slot.warmed = null;
      const info = measure ? await measuredBackend(slot.worker, workload, cores, choiceCache) : await slot.worker.selectBackend(preferred);
      slot.backend = { preferred: asked, info };
    }
    if (!dataset) return slot.backend.info;
    // a cached feature set travels with the spec; its cache key (beside it) names it, so the numbers are left out
    const key = dataset.kind === 'builtin' ? JSON.stringify(dataset, (k, v) => (k === 'set' && v && typeof v === 'object' ? undefined : v)) : null;
    if (key === null || slot.dataset !== key) {
      slot.dataset = null;
      slot.warmed = null;
      await slot.worker.loadDataset(dataset);
      slot.dataset = key;
    }
    // once per workload, backend and dataset: a throwaway run, so the first real one finds code and kernels ready
    const warm = workload && slot.worker.warmUp ? `${slot.backend.info.name}:${JSON.stringify(workload)}` : null;
    if (warm !== null && slot.warmed !== warm) {
      await slot.worker.warmUp!(workload!).catch(() => 0);
      slot.warmed = warm;
    }
    return slot.backend.info;
  }

  let warming: Promise<void> | null = null;
  /**
   * Counts the warm-ups and leases asked: a warm-up still queued when a newer one or a lease is asked is skipped (a
   * page that warms on every change of its experiment measures and loads the latest only, and Run waits for the
   * warm-up in flight, not for a queue of stale ones).
   */
  let asked = 0;

  const pool = {
    /** Workers set up for `request`; rejects (and gives the main worker back) when the backend or dataset fails. */
    async lease(request: LeaseRequest): Promise<Lease<W>> {
      asked++;
      // a warm-up in flight holds the workers this lease wants: wait for it rather than start more beside them
      while (warming) await warming;
      return leaseNow(request);
    },

    /**
     * Prepare the workers a lease of `request` would get and leave them idle (see `createWorkerPool`); a warm-up asked
     * while another is in flight runs after it, unless a newer warm-up or a lease is asked before it starts. Resolves
     * with the backend chosen and the workers prepared, or null when preparing failed or the warm-up was skipped
     * (never rejects: the lease meets the failure again and reports it).
     */
    warm(request: LeaseRequest): Promise<{ backend: BackendInfo; workers: number } | null> {
      const id = ++asked;
      const run = async (): Promise<{ backend: BackendInfo; workers: number } | null> => {
        if (id !== asked) return null;
        try {
          const l = await leaseNow(request);
          l.release();
          return { backend: l.backend, workers: 1 + l.helpers.length };
        } catch {
          return null;
        }
      };
      // nothing in flight: it starts now (a lease asked next waits for it)
      const w = warming ? warming.then(run) : run();
      const settled = w.then(() => {
        if (warming === settled) warming = null;
      });
      warming = settled;
      return w;
    },

    /** Workers alive now (busy or idle). */
    get size(): number {
      return slots.length;
    },

    /** Workers leased now. */
    get busy(): number {
      return slots.filter((s) => s.busy).length;
    },

    /** The cores this pool uses at most (main worker + helpers). */
    get cores(): number {
      return cores;
    },

    /** A leased worker that died: take it out of the pool (its lease's release then skips it). */
    discard(worker: W): void {
      const slot = slots.find((s) => s.worker === worker);
      if (slot) drop(slot);
    },

    /** End every worker (leases in flight reject: train-client.ts). */
    dispose(): void {
      for (const s of slots.splice(0)) s.worker.dispose();
    },
  };
  return pool;

  async function leaseNow(request: LeaseRequest): Promise<Lease<W>> {
    const main = take();
    let backend: BackendInfo;
    try {
      backend = await prepare(main, request.backend, request.dataset, request.workload);
    } catch (e) {
      // a worker that failed half-way is in an unknown state: start afresh next time
      drop(main);
      throw e;
    }
    const helpers: Slot<W>[] = [];
    const n = request.helpers ? helperCount(backend.name, cores) : 0;
    if (n > 0) {
      for (let i = 0; i < n; i++) helpers.push(take());
      const ok = await Promise.all(
        helpers.map((h) =>
          prepare(h, backend.name as BackendName, request.dataset, request.workload).then(
            () => true,
            () => false,
          ),
        ),
      );
      for (let i = helpers.length - 1; i >= 0; i--) {
        if (!ok[i]) {
          drop(helpers[i]);
          helpers.splice(i, 1);
        }
      }
    }
    let released = false;
    return {
      main: main.worker,
      helpers: helpers.map((h) => h.worker),
      backend,
      release() {
        if (released) return;
        released = true;
        for (const s of [main, ...helpers]) give(s);
      },
    };
  }
}

export type WorkerPool<W extends PoolWorker> = ReturnType<typeof createWorkerPool<W>>;
