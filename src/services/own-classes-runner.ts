/**
 * The Your-classes lab's runner, on the lab kit's run session (./lab-kit/run-session.ts): features of every recorded
 * sample through the frozen image encoder (each sample encoded once, kept by class and index), then the visitor's
 * ordering trained with their strategy, or every ordering, on a worker of the app's one training pool (the jobs of
 * src/engine/own-classes/job.ts). One session job is one class order; its result (R of that order) is recorded the
 * moment it finishes, so Pause, Resume, Cancel and the time left work as in every other lab, and a start after a
 * cancel trains only the orders not finished. Images are decoded here (createImageBitmap) to RGB at SAMPLE_SIZE;
 * nothing leaves the browser.
 *
 * The results are kept in memory only (the lab stores nothing but the visitor's samples: ./own-classes-store.ts),
 * under a key of everything that determines them (the classes and their samples, the split, the encoder, the
 * strategy, the seed); forgetting samples drops them with the features.
 */
import type { OwnClassesConfig } from '../core/config/sections/own-classes';
import { fnv1a64 } from '../core/config/url-codec';
import { ownEdge, type OwnEdge } from '../core/own-classes/edge';
import { OWN_SAMPLE_SIZE, ownFeatureSet, type OwnClassRows } from '../core/own-classes/settings';
import type { FeatureSet } from '../core/features/feature-set';
import { resizeToRgb } from '../data/parsers/image-folder-zip';
import { everyOwnOrder } from '../core/own-classes/orders';
import type { OwnRun } from '../engine/own-classes/job';
import type { BackendName } from '../engine/index';
import { createRunSession, currentWorkerControl, runTimes, type SessionContext, type SessionState, type SessionStore } from './lab-kit/run-session';
import type { Lease } from './lab-kit/train-pool';
import type { OwnSampleStore } from './own-classes-store';
import type { TrainClient } from './train-client';

export type { OwnRun };

/** Side of the square RGB image each sample is decoded to before the encoder's own preprocessing. */
export const SAMPLE_SIZE = OWN_SAMPLE_SIZE;

export async function decodeToRgb(bytes: Uint8Array, size = SAMPLE_SIZE): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart]));
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d');
    if (!g) throw new Error('This browser cannot decode images in a canvas.');
    g.drawImage(bitmap, 0, 0);
    const { data } = g.getImageData(0, 0, bitmap.width, bitmap.height);
    return resizeToRgb(data, bitmap.width, bitmap.height, [size, size]);
  } finally {
    bitmap.close();
  }
}

export interface OwnProgress {
  stage: 'encode' | 'train' | 'orderings';
  done: number;
  total: number;
}

/** One session job: a class order (class k = the k-th taught). */
export interface OwnJob {
  order: number[];
}

/** What the session records: one order's R, under the key of its start. */
export interface OwnResult extends OwnRun {
  id: string;
  configHash: string;
}

export interface OwnCurrent {
  label: string;
  progress: OwnProgress | null;
}

export type OwnRunnerState = SessionState<OwnResult, OwnCurrent>;

/** What the runner needs of a training worker (the pool's, ./train-client.ts; a fake in the tests). */
export type OwnWorker = Pick<TrainClient, 'job' | 'pause' | 'resume' | 'cancel'>;

export interface OwnRunnerOptions {
  /** a worker for a while (the shared pool's lease) */
  lease: (backend: BackendName | 'auto') => Promise<Pick<Lease<OwnWorker>, 'main' | 'release'> & { backend?: { name: string } }>;
  samples: Pick<OwnSampleStore, 'samples'>;
  /** the experiment's training-backend preference, read at each start */
  backend?: () => BackendName | 'auto';
  /** samples → RGB at SAMPLE_SIZE (the browser's decoder; the tests pass their own) */
  decode?: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** where onnxruntime-web's files are served (the app's `ort/`) */
  wasmPaths?: string;
  now?: () => number;
}

export const jobIdOf = (order: readonly number[]): string => order.join(',');

/** The key of a start: everything its runs' numbers depend on (`generation` counts the samples forgotten). */
export function ownRunKey(cfg: OwnClassesConfig, classes: readonly string[], generation: number): string {
  const key = { classes, train: cfg.trainPerClass, test: cfg.testPerClass, encoder: cfg.encoder, strategy: cfg.strategy, seed: cfg.seed, generation };
  return fnv1a64(new TextEncoder().encode(JSON.stringify(key)));
}

/** The runs of a page's life, in memory (the lab keeps no results: a reload re-trains in seconds). */
function memoryResults(): SessionStore<OwnResult> & { clear(): void } {
  const byKey = new Map<string, Map<string, OwnResult>>();
  return {
    notice: null,
    getAll: async (hash) => [...(byKey.get(hash)?.values() ?? [])],
    put: async (r) => {
      if (!byKey.has(r.configHash)) byKey.set(r.configHash, new Map());
      byKey.get(r.configHash)!.set(r.id, structuredClone(r));
    },
    clear: () => byKey.clear(),
  };
}

export function createOwnClassesRunner(opts: OwnRunnerOptions) {
  const features = new Map<string, Float32Array>();
  let dim = 0;
  let encoderKey = '';
  /** the encoder (its JSON) the visitor allowed to download: any other loads only from the cache or a folder */
  let allowedEncoder: string | null = null;
  let device: 'webgpu' | 'wasm' = 'wasm';
  let generation = 0;
  const keyOf = (name: string, index: number) => `${name}\u0000${index}`;
  const decode = opts.decode ?? ((b: Uint8Array) => decodeToRgb(b));
  const now = opts.now ?? (() => performance.now());
  const store = memoryResults();
  const session = createRunSession<OwnJob, OwnResult, OwnCurrent>({ store, jobId: (j) => jobIdOf(j.order), resultId: (r) => r.id, now });
  /** the worker of the start in flight (paused, resumed and cancelled with the session) */
  let worker: OwnWorker | null = null;
  const control = currentWorkerControl(() => worker);

  /** The feature set of the first `names.length` classes: only samples not encoded yet go through the encoder. */
  async function featureSet(
    cfg: OwnClassesConfig,
    names: readonly string[],
    w: OwnWorker,
    ctx: SessionContext<OwnResult, OwnCurrent, Record<never, never>>,
  ): Promise<FeatureSet> {
    const key = JSON.stringify(cfg.encoder);
    if (key !== encoderKey) {
      features.clear();
      encoderKey = key;
    }
    const per = cfg.trainPerClass + cfg.testPerClass;
    const lists = [];
    for (const name of names) {
      const list = (await opts.samples.samples(name)).slice(0, per);
      if (list.length < cfg.trainPerClass + 1)
        throw new Error(`“${name}” has ${list.length} samples; it needs at least ${cfg.trainPerClass + 1} (${cfg.trainPerClass} to train, 1 or more to test).`);
      lists.push({ name, list });
    }
    const missing = lists.flatMap(({ name, list }) => list.filter((s) => !features.has(keyOf(name, s.index))).map((s) => ({ name, s })));
    if (missing.length > 0) {
      ctx.set({ current: { label: 'Computing features', progress: { stage: 'encode', done: 0, total: missing.length } } });
      const side = SAMPLE_SIZE * SAMPLE_SIZE * 3;
      const images = new Uint8Array(missing.length * side);
      for (let i = 0; i < missing.length; i++) images.set(await decode(missing[i].s.bytes), i * side);
      if (!(await ctx.pausePoint())) throw cancelled();
      const active = ctx.stopwatch();
      const out = await w.job(
        'own-encode',
        {
          encoder: cfg.encoder,
          images,
          shape: [SAMPLE_SIZE, SAMPLE_SIZE, 3],
          count: missing.length,
          allowRemote: allowedEncoder === key,
          device,
          ...(opts.wasmPaths ? { wasmPaths: opts.wasmPaths } : {}),
        },
        (e) => {
          ctx.progress({ stage: 'encode', done: e.done, total: missing.length });
          // the rest of the images at the rate so far (the training after them takes well under a second)
          if (e.done > 0) ctx.set({ etaSeconds: (active() / e.done) * (missing.length - e.done) });
        },
      );
      // a cancelled start keeps none of it: the features are kept only once all of them came back
      if (ctx.cancelled) throw cancelled();
      dim = out.dim;
      missing.forEach(({ name, s }, i) => features.set(keyOf(name, s.index), out.features.slice(i * dim, (i + 1) * dim)));
    }
    const classes: OwnClassRows[] = lists.map(({ name, list }) => {
      const rows = new Float32Array(list.length * dim);
      list.forEach((s, i) => rows.set(features.get(keyOf(name, s.index))!, i * dim));
      return { name, rows, train: cfg.trainPerClass };
    });
    return ownFeatureSet(classes, dim);
  }

  /**
   * One start: the orders of `jobs` over the classes `names`. Each finished order is recorded at once, with the time
   * left (the moving average of the orders so far × the orders left). Resolves with the runs in the order of `jobs`
   * and the feature set, or null when cancelled; throws the run's error.
   */
  async function start(cfg: OwnClassesConfig, names: string[], jobs: OwnJob[]): Promise<{ runs: OwnRun[]; set: FeatureSet | null } | null> {
    const hash = ownRunKey(cfg, names, generation);
    let set: FeatureSet | null = null;
    await session.start(
      jobs,
      hash,
      async (todo, ctx) => {
        if (todo.length === 0) return;
        const lease = await opts.lease(opts.backend?.() ?? 'auto');
        worker = lease.main;
        if (lease.backend) ctx.set({ backend: lease.backend.name });
        try {
          if (!(await ctx.pausePoint())) return;
          set = await featureSet(cfg, names, lease.main, ctx);
          if (!(await ctx.pausePoint())) return;
          const label = todo.length === 1 ? 'Training' : 'Every ordering';
          ctx.set({ current: { label, progress: { stage: todo.length === 1 ? 'train' : 'orderings', done: 0, total: todo.length } } });
          const times = runTimes(20);
          let lap = ctx.stopwatch();
          let recorded = Promise.resolve();
          const seen = new Set<string>();
          const record = (run: OwnRun): void => {
            const id = jobIdOf(run.order);
            if (seen.has(id)) return;
            seen.add(id);
            const result: OwnResult = { ...run, id, configHash: hash };
            const mean = times.mean() ?? 0;
            recorded = recorded.then(() => ctx.record(result, (done) => ({ etaSeconds: mean * (ctx.state.total - done) })));
          };
          let runs: OwnRun[] = [];
          try {
            runs = await lease.main.job('own-orderings', { set, strategy: cfg.strategy, seed: cfg.seed, orders: todo.map((j) => j.order) }, (e) => {
              if (!ctx.live()) return;
              ctx.progress({ stage: todo.length === 1 ? 'train' : 'orderings', done: e.done, total: e.total });
              times.add(lap());
              lap = ctx.stopwatch();
              record(e.run);
            });
          } finally {
            // every run that finished is recorded whole, whatever stopped the job
            await recorded;
          }
          // a worker's events come on their own channel and may arrive after its result: the result is the list
          for (const run of runs) record(run);
          await recorded;
        } finally {
          worker = null;
          lease.release();
        }
      },
      { workers: [control] },
    );
    const st = session.state;
    if (st.configHash !== hash) return null;
    if (st.status === 'error') throw new Error(st.error ?? 'The run failed.');
    if (st.status !== 'done') return null;
    const byId = new Map(st.runs.map((r) => [r.id, r]));
    const runs = jobs.map((j) => byId.get(jobIdOf(j.order)));
    if (runs.some((r) => !r)) return null;
    return { runs: runs.map((r) => ({ order: r!.order, matrix: r!.matrix, finalAccuracy: r!.finalAccuracy })), set };
  }

  return {
    session,
    subscribe: session.subscribe,
    get state(): OwnRunnerState {
      return session.state;
    },
    /** R of the teaching order over the first `upTo` classes; null when cancelled. */
    async train(cfg: OwnClassesConfig, upTo: number): Promise<OwnRun | null> {
      const names = cfg.classes.slice(0, upTo);
      const out = await start(cfg, names, [{ order: names.map((_, k) => k) }]);
      return out ? out.runs[0] : null;
    },
    /** Every ordering of the classes (the first is the teaching order) and EDGE's two; null when cancelled. */
    async orderings(cfg: OwnClassesConfig): Promise<{ runs: OwnRun[]; edge: OwnEdge } | null> {
      const names = [...cfg.classes];
      const jobs = everyOwnOrder(names.length).map((order) => ({ order }));
      const out = await start(cfg, names, jobs);
      if (!out) return null;
      // every run came from the store: the features are still here (the same key means the same samples)
      const set = out.set ?? (await featureSetFromCache(cfg, names));
      return { runs: out.runs, edge: ownEdge(set) };
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    cancel: () => session.cancel(),
    /**
     * How the encoder loads: `allowed`, the encoder whose weights the visitor pressed the download button for (they may
     * come from the hub or a mirror; any other loads from the browser's cache or a self-hosted folder only), and the
     * device it runs on.
     */
    encoderAccess(o: { allowed: OwnClassesConfig['encoder'] | null; device: 'webgpu' | 'wasm' }): void {
      allowedEncoder = o.allowed ? JSON.stringify(o.allowed) : null;
      device = o.device;
    },
    /** Drop the features and runs of a class (its samples changed) or of all. */
    forgetFeatures(name: string | null): void {
      if (name === null) features.clear();
      else for (const k of [...features.keys()]) if (k.startsWith(`${name}\u0000`)) features.delete(k);
      generation++;
      store.clear();
    },
  };

  async function featureSetFromCache(cfg: OwnClassesConfig, names: readonly string[]): Promise<FeatureSet> {
    const per = cfg.trainPerClass + cfg.testPerClass;
    const classes: OwnClassRows[] = [];
    for (const name of names) {
      const list = (await opts.samples.samples(name)).slice(0, per);
      const rows = new Float32Array(list.length * dim);
      list.forEach((s, i) => {
        const f = features.get(keyOf(name, s.index));
        if (!f) throw new Error(`The features of “${name}” are gone; train again.`);
        rows.set(f, i * dim);
      });
      classes.push({ name, rows, train: cfg.trainPerClass });
    }
    return ownFeatureSet(classes, dim);
  }
}

function cancelled(): Error {
  const e = new Error('Cancelled.');
  e.name = 'RunCancelledError';
  return e;
}

export type OwnClassesRunner = ReturnType<typeof createOwnClassesRunner>;
