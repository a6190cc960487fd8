/**
 * The Your-classes lab's runner, on the lab kit's run session (./lab-kit/run-session.ts), over one training worker of
 * the app's pool held while the lab works (its jobs: src/engine/own-classes/job.ts, one at a time):
 *
 * - **Features as frames arrive**: each recorded sample is decoded here (createImageBitmap) to RGB at SAMPLE_SIZE
 *   and encoded by the frozen image encoder a few at a time while recording goes on; each vector is kept in memory
 *   and in IndexedDB (./own-classes-store.ts) under its encoder, so a finished class needs only its last frames
 *   encoded, and a reload encodes nothing again.
 * - **History** (src/core/own-classes/history.ts): R's rows are stored in IndexedDB the moment they are computed,
 *   under the history's key (strategy, seed, encoder, samples per class); a session job is a row not stored yet (its
 *   id names its classes and their samples), so a stored row is never computed again, and a row whose classes or
 *   samples changed is, with the reason said.
 * - **Orderings**: a closed-form head's every ordering (or a sample) from its states in one job; the trained head's
 *   orderings one job each (kept in memory for the page's life, so a start after Cancel trains only those not
 *   finished); EDGE's and RS's picks beside them. **Joint**: the same head on every class at once.
 *
 * Nothing leaves the browser.
 */
import { isHeadStrategy, type OwnClassesConfig } from '../core/labs/own-classes/section';
import { ownEdge, type OwnEdge } from '../core/own-classes/edge';
import { historyKey, historyState, stepIds, type HistoryRow } from '../core/own-classes/history';
import { numbersAmongRuns, ownOrderingsPlan, ownOrderingsResult, pickOrders, type OwnOrderingsResult } from '../core/own-classes/orders';
import { overviewOfRuns, type OrderingNumbers, type OrderingsOverview } from '../core/own-classes/order-states';
import { ownRsOrders } from '../core/own-classes/rs';
import { OWN_SAMPLE_SIZE, ownFeatureSet, type OwnClassRows } from '../core/own-classes/settings';
import type { FeatureSet } from '../core/features/feature-set';
import { resizeToRgb } from '../data/parsers/image-folder-zip';
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
  stage: 'encode' | 'train' | 'orderings' | 'joint';
  done: number;
  total: number;
}

/** One session job: a row of the history, an ordering the trained head trains, a closed-form overview, the joint head. */
export type OwnJob = { kind: 'step'; step: number; id: string } | { kind: 'order'; order: number[] } | { kind: 'overview'; id: string } | { kind: 'joint' };

/** What the session records, under the key of its start. */
export type OwnResult = { id: string; configHash: string } & (
  | { kind: 'row'; row: HistoryRow }
  | { kind: 'run'; run: OwnRun }
  | { kind: 'overview'; overview: OrderingsOverview; picks: OrderingNumbers[] }
  | { kind: 'joint'; accuracy: number }
);

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
  store: OwnSampleStore;
  /** the experiment's training-backend preference, read when a worker is leased */
  backend?: () => BackendName | 'auto';
  /** samples → RGB at SAMPLE_SIZE (the browser's decoder; the tests pass their own) */
  decode?: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** where onnxruntime-web's files are served (the app's `ort/`) */
  wasmPaths?: string;
  now?: () => number;
  /** the held worker goes back to the pool after this long without a job (ms; default 30 s) */
  idleReleaseMs?: number;
}

/** A class as the runner takes it: its name and the fingerprint of its samples. */
export interface OwnClassRef {
  name: string;
  fingerprint: string;
}

/** What a teach start gives: the rows that stand now (every class's), and what changed since they were stored. */
export interface TeachResult {
  rows: HistoryRow[];
  changed: { from: number; why: string } | null;
  /** ms of the start, from the call to the last row stored, and of its parts: waiting for the features of the
   *  samples still being encoded (and encoding any missing), computing the rows (the worker's job, data sent and
   *  back included) */
  ms: number;
  phases: { features: number; rows: number };
}

const HISTORY = 'h:';
const ORDERINGS = 'o:';
const JOINT = 'j:';

/**
 * The history rows of a key: read from IndexedDB once, then kept in step with what this runner stores (a class
 * added reads nothing back).
 */
function historyMirror(store: OwnSampleStore) {
  const byKey = new Map<string, Map<number, HistoryRow>>();
  return {
    async rows(key: string): Promise<HistoryRow[]> {
      if (!byKey.has(key)) byKey.set(key, new Map((await store.history(key)).map((r) => [r.step, r])));
      return [...byKey.get(key)!.values()].sort((a, b) => a.step - b.step);
    },
    async put(row: HistoryRow): Promise<void> {
      await store.putHistory(row);
      byKey.get(row.key)?.set(row.step, row);
    },
    async drop(key: string, fromStep: number): Promise<void> {
      await store.dropHistory(key, fromStep);
      const m = byKey.get(key);
      if (m) for (const step of [...m.keys()]) if (step >= fromStep) m.delete(step);
    },
    clear: () => byKey.clear(),
  };
}

/** The session's store: the history rows in IndexedDB, orderings and the joint head in memory (the page's life). */
function sessionStore(store: OwnSampleStore, history: ReturnType<typeof historyMirror>): SessionStore<OwnResult> & { clear(): void } {
  const memory = new Map<string, Map<string, OwnResult>>();
  return {
    notice: store.notice,
    async getAll(hash) {
      if (hash.startsWith(HISTORY)) {
        const key = hash.slice(HISTORY.length);
        return (await history.rows(key)).map((row): OwnResult => ({ id: row.id, configHash: hash, kind: 'row', row }));
      }
      return [...(memory.get(hash)?.values() ?? [])];
    },
    async put(r) {
      if (r.kind === 'row') return history.put(r.row);
      if (!memory.has(r.configHash)) memory.set(r.configHash, new Map());
      memory.get(r.configHash)!.set(r.id, structuredClone(r));
    },
    clear: () => memory.clear(),
  };
}

const jobIdOf = (j: OwnJob): string => (j.kind === 'step' ? j.id : j.kind === 'order' ? j.order.join(',') : j.kind === 'overview' ? j.id : 'joint');

const encoderKeyOf = (cfg: Pick<OwnClassesConfig, 'encoder'>): string => JSON.stringify(cfg.encoder);

export function createOwnClassesRunner(opts: OwnRunnerOptions) {
  const decode = opts.decode ?? ((b: Uint8Array) => decodeToRgb(b));
  const now = opts.now ?? (() => performance.now());
  const history = historyMirror(opts.store);
  const results = sessionStore(opts.store, history);
  const session = createRunSession<OwnJob, OwnResult, OwnCurrent>({ store: results, jobId: jobIdOf, resultId: (r) => r.id, now });
  /** the encoder (its JSON) the visitor allowed to download: any other loads from the browser's cache or a folder only */
  let allowedEncoder: string | null = null;
  let device: 'webgpu' | 'wasm' = 'wasm';
  let dim = 0;
  /** features by encoder key, class name and sample index */
  const features = new Map<string, Map<string, Map<number, Float32Array>>>();
  const featuresOf = (enc: string, name: string): Map<number, Float32Array> => {
    if (!features.has(enc)) features.set(enc, new Map());
    const byName = features.get(enc)!;
    if (!byName.has(name)) byName.set(name, new Map());
    return byName.get(name)!;
  };

  // ---- the one worker, one job at a time ----
  type Held = { main: OwnWorker; release(): void; backend?: { name: string } };
  let lease: Held | null = null;
  let leasing: Promise<Held> | null = null;
  let idle: ReturnType<typeof setTimeout> | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  /** the worker of the job in flight (paused, resumed and cancelled with the session) */
  let current: OwnWorker | null = null;
  const control = currentWorkerControl(() => current);
  async function worker(): Promise<Held> {
    if (idle) clearTimeout(idle);
    idle = null;
    if (lease) return lease;
    leasing ??= opts.lease(opts.backend?.() ?? 'auto').then((l: Held) => (lease = l));
    try {
      return await leasing;
    } finally {
      leasing = null;
    }
  }
  function releaseLater(): void {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      lease?.release();
      lease = null;
    }, opts.idleReleaseMs ?? 30_000);
  }
  function exclusive<T>(fn: (w: OwnWorker, backend: string | null) => Promise<T>): Promise<T> {
    const run = tail.then(async () => {
      const l = await worker();
      current = l.main;
      try {
        return await fn(l.main, l.backend?.name ?? null);
      } finally {
        current = null;
        releaseLater();
      }
    });
    tail = run.catch(() => {});
    return run;
  }

  const encodeInput = (cfg: Pick<OwnClassesConfig, 'encoder'>, images: Uint8Array, count: number) => ({
    encoder: cfg.encoder,
    images,
    shape: [SAMPLE_SIZE, SAMPLE_SIZE, 3] as [number, number, number],
    count,
    allowRemote: allowedEncoder === encoderKeyOf(cfg),
    device,
    ...(opts.wasmPaths ? { wasmPaths: opts.wasmPaths } : {}),
  });

  /** Encode `todo` samples (decoded here), keep and store their features; `onDone` after each batch. */
  async function encode(
    cfg: Pick<OwnClassesConfig, 'encoder'>,
    todo: { name: string; index: number; bytes: Uint8Array }[],
    onDone?: (done: number) => void,
    stop?: () => boolean,
  ): Promise<void> {
    const enc = encoderKeyOf(cfg);
    const side = SAMPLE_SIZE * SAMPLE_SIZE * 3;
    for (let at = 0; at < todo.length; at += 16) {
      if (stop?.()) return;
      const batch = todo.slice(at, at + 16);
      const images = new Uint8Array(batch.length * side);
      for (let i = 0; i < batch.length; i++) images.set(await decode(batch[i].bytes), i * side);
      const out = await exclusive((w) => w.job('own-encode', encodeInput(cfg, images, batch.length)));
      dim = out.dim;
      for (let i = 0; i < batch.length; i++) {
        const values = out.features.slice(i * dim, (i + 1) * dim);
        featuresOf(enc, batch[i].name).set(batch[i].index, values);
        // stored for the next visit; a full disk loses only the time to encode again
        void opts.store.putFeatures(batch[i].name, enc, batch[i].index, values).catch(() => {});
      }
      onDone?.(Math.min(at + 16, todo.length));
    }
  }

  // ---- features as frames arrive ----
  const queue: { cfg: Pick<OwnClassesConfig, 'encoder'>; name: string; index: number; bytes: Uint8Array }[] = [];
  let pumping: Promise<void> | null = null;
  /** why encoding as frames arrive stopped (the encoder did not load); the teach start says it again with its hint */
  let encodeProblem: string | null = null;
  async function pump(): Promise<void> {
    while (queue.length > 0) {
      const enc = encoderKeyOf(queue[0].cfg);
      const batch = queue.splice(0, Math.min(queue.length, 8)).filter((q) => encoderKeyOf(q.cfg) === enc && !featuresOf(enc, q.name).has(q.index));
      if (batch.length === 0) continue;
      try {
        await encode(batch[0].cfg, batch);
        encodeProblem = null;
      } catch (e) {
        // leave the rest to the class's start, which encodes what is missing and reports the failure
        encodeProblem = e instanceof Error ? e.message : String(e);
        queue.length = 0;
      }
    }
  }

  /** Load a class's stored features (this encoder) into memory; the samples' indices that have none. */
  async function loadFeatures(cfg: OwnClassesConfig, name: string, per: number): Promise<number[]> {
    const enc = encoderKeyOf(cfg);
    const have = featuresOf(enc, name);
    const missing = Array.from({ length: per }, (_, i) => i).filter((i) => !have.has(i));
    if (missing.length === 0) return [];
    const stored = await opts.store.features(name, enc);
    for (const [i, v] of stored) {
      have.set(i, v);
      dim = v.length;
    }
    return missing.filter((i) => !have.has(i));
  }

  /** The feature set of the classes (the first `per` samples each), encoding what is missing, with progress. */
  async function featureSet(
    cfg: OwnClassesConfig,
    names: readonly string[],
    ctx: SessionContext<OwnResult, OwnCurrent, Record<never, never>>,
  ): Promise<FeatureSet> {
    await pumping;
    const per = cfg.trainPerClass + cfg.testPerClass;
    const todo: { name: string; index: number; bytes: Uint8Array }[] = [];
    for (const name of names) {
      const missing = await loadFeatures(cfg, name, per);
      if (missing.length === 0) continue;
      const list = (await opts.store.samples(name)).slice(0, per);
      if (list.length < cfg.trainPerClass + 1)
        throw new Error(`“${name}” has ${list.length} samples; it needs at least ${cfg.trainPerClass + 1} (${cfg.trainPerClass} to train, 1 or more to test).`);
      for (const s of list) if (missing.includes(s.index)) todo.push(s);
    }
    if (todo.length > 0) {
      ctx.set({ current: { label: 'Computing features', progress: { stage: 'encode', done: 0, total: todo.length } } });
      const active = ctx.stopwatch();
      await encode(
        cfg,
        todo,
        (done) => {
          ctx.progress({ stage: 'encode', done, total: todo.length });
          ctx.set({ etaSeconds: (active() / done) * (todo.length - done) });
        },
        () => ctx.cancelled,
      );
      if (ctx.cancelled) throw cancelled();
    }
    const enc = encoderKeyOf(cfg);
    const classes: OwnClassRows[] = names.map((name) => {
      const have = featuresOf(enc, name);
      const n = Math.min(per, have.size);
      const rows = new Float32Array(n * dim);
      for (let i = 0; i < n; i++) rows.set(have.get(i)!, i * dim);
      return { name, rows, train: cfg.trainPerClass };
    });
    return ownFeatureSet(classes, dim);
  }

  /** A session start over `jobs`; resolves with the session's runs of this start, or null when cancelled (throws its error). */
  async function start(
    jobs: OwnJob[],
    hash: string,
    body: (todo: OwnJob[], ctx: SessionContext<OwnResult, OwnCurrent, Record<never, never>>, w: OwnWorker) => Promise<void>,
  ): Promise<OwnResult[] | null> {
    await session.start(
      jobs,
      hash,
      async (todo, ctx) => {
        if (todo.length === 0) return;
        const l = await worker();
        if (l.backend) ctx.set({ backend: l.backend.name });
        if (!(await ctx.pausePoint())) return;
        await body(todo, ctx, l.main);
      },
      { workers: [control] },
    );
    const st = session.state;
    if (st.configHash !== hash) return null;
    if (st.status === 'error') throw new Error(st.error ?? 'The run failed.');
    if (st.status !== 'done') return null;
    return st.runs;
  }

  /** Rows of the teaching order over `classes` that are not stored, computed and stored one by one. */
  async function teach(cfg: OwnClassesConfig, classes: readonly OwnClassRef[]): Promise<TeachResult | null> {
    const started = now();
    const key = historyKey(cfg);
    const names = classes.map((c) => c.name);
    const prints = classes.map((c) => c.fingerprint);
    const stored = await history.rows(key);
    const before = historyState(stored, names, prints);
    if (stored.some((r) => r.step >= names.length)) await history.drop(key, names.length);
    const ids = stepIds(names, prints);
    const jobs: OwnJob[] = ids.map((id, step) => ({ kind: 'step', step, id }));
    const phases = { features: 0, rows: 0 };
    const runs = await start(jobs, HISTORY + key, async (todo, ctx) => {
      const from = Math.min(...todo.map((j) => (j as { step: number }).step));
      let t = now();
      const set = await featureSet(cfg, names, ctx);
      phases.features = now() - t;
      if (!(await ctx.pausePoint())) return;
      ctx.set({ current: { label: 'Training', progress: { stage: 'train', done: 0, total: names.length - from } } });
      t = now();
      const out = await exclusive((w) =>
        w.job('own-steps', { set, strategy: cfg.strategy, seed: cfg.seed, classKeys: ids, from }, (e) =>
          ctx.progress({ stage: 'train', done: Math.max(0, e.done - from), total: names.length - from }),
        ),
      );
      phases.rows = now() - t;
      if (ctx.cancelled) throw cancelled();
      for (const r of out.rows) {
        const row: HistoryRow = {
          key,
          step: r.step,
          id: ids[r.step],
          classes: names.slice(0, r.step + 1),
          samples: prints.slice(0, r.step + 1),
          row: r.row,
          testCounts: r.testCounts,
          backend: out.backend,
          computedAt: Date.now(),
          ms: r.ms,
        };
        await ctx.record({ id: row.id, configHash: HISTORY + key, kind: 'row', row });
      }
    });
    if (!runs) return null;
    const byId = new Map(runs.filter((r) => r.kind === 'row').map((r) => [r.id, (r as { row: HistoryRow }).row]));
    const rows = ids.map((id) => byId.get(id));
    if (rows.some((r) => !r)) return null;
    return { rows: rows as HistoryRow[], changed: before.changed, ms: now() - started, phases };
  }

  /** Every ordering (or a sample) of the classes with EDGE's and RS's picks (and EDGE on the names', when given). */
  async function orderings(
    cfg: OwnClassesConfig,
    classes: readonly OwnClassRef[],
    rsSeeds: readonly number[],
    namesEdge: OwnEdge | null = null,
  ): Promise<{ result: OwnOrderingsResult; edge: OwnEdge } | null> {
    const names = classes.map((c) => c.name);
    const ids = stepIds(
      names,
      classes.map((c) => c.fingerprint),
    );
    const C = names.length;
    const plan = ownOrderingsPlan(C, cfg.strategy, cfg.seed);
    const rs = ownRsOrders(rsSeeds, C);
    const taught = Array.from({ length: C }, (_, k) => k);
    const hash = `${ORDERINGS}${historyKey(cfg)}:${ids[C - 1]}`;
    let edge: OwnEdge | null = null;
    let picks: number[][] = [];
    if (!isHeadStrategy(cfg.strategy)) {
      const id = JSON.stringify([plan.sample, namesEdge]);
      const runs = await start([{ kind: 'overview', id }], hash, async (_todo, ctx) => {
        const set = await featureSet(cfg, names, ctx);
        edge = ownEdge(set);
        picks = pickOrders(edge, rs, namesEdge);
        ctx.set({ current: { label: 'Every ordering', progress: { stage: 'orderings', done: 0, total: plan.sample?.count ?? 0 } } });
        const out = await exclusive((w) =>
          w.job('own-overview', { set, strategy: cfg.strategy, seed: cfg.seed, classKeys: ids, sample: plan.sample, picks }, (e) =>
            ctx.progress({ stage: 'orderings', done: e.done, total: e.total }),
          ),
        );
        if (ctx.cancelled) throw cancelled();
        await ctx.record({ id, configHash: hash, kind: 'overview', overview: out.overview, picks: out.picks });
      });
      if (!runs) return null;
      const r = runs.find((x) => x.id === id) as Extract<OwnResult, { kind: 'overview' }> | undefined;
      if (!r) return null;
      if (!edge) {
        // the overview came from the store (the same classes and samples): EDGE again from the features
        edge = ownEdge(await featureSetQuiet(cfg, names));
      }
      return { result: ownOrderingsResult(r.overview, cfg.strategy, edge, rs, namesEdge, r.picks), edge };
    }
    // the trained head: one job per ordering (the overview's and the picks' not among them)
    const set = await featureSetQuiet(cfg, names);
    edge = ownEdge(set);
    picks = [...pickOrders(edge, rs, namesEdge), taught];
    const orders = plan.headOrders!;
    const keys = new Set(orders.map((o) => o.join(',')));
    const extra = picks.filter((o, i) => !keys.has(o.join(',')) && picks.findIndex((x) => x.join(',') === o.join(',')) === i);
    const jobs: OwnJob[] = [...orders, ...extra].map((order) => ({ kind: 'order', order }));
    const runs = await start(jobs, hash, async (todo, ctx) => {
      const fs = await featureSet(cfg, names, ctx);
      ctx.set({ current: { label: todo.length === 1 ? 'Training' : 'Every ordering', progress: { stage: 'orderings', done: 0, total: todo.length } } });
      const times = runTimes(20);
      let lap = ctx.stopwatch();
      let recorded = Promise.resolve();
      const seen = new Set<string>();
      const record = (run: OwnRun): void => {
        const id = run.order.join(',');
        if (seen.has(id)) return;
        seen.add(id);
        const mean = times.mean() ?? 0;
        recorded = recorded.then(() => ctx.record({ id, configHash: hash, kind: 'run', run }, (done) => ({ etaSeconds: mean * (ctx.state.total - done) })));
      };
      let trained: OwnRun[] = [];
      try {
        trained = await exclusive((w) =>
          w.job('own-orderings', { set: fs, strategy: cfg.strategy, seed: cfg.seed, orders: todo.map((j) => (j as { order: number[] }).order) }, (e) => {
            if (!ctx.live()) return;
            ctx.progress({ stage: 'orderings', done: e.done, total: e.total });
            times.add(lap());
            lap = ctx.stopwatch();
            record(e.run);
          }),
        );
      } finally {
        // every run that finished is recorded whole, whatever stopped the job
        await recorded;
      }
      for (const run of trained) record(run);
      await recorded;
    });
    if (!runs) return null;
    const all = runs.filter((r) => r.kind === 'run').map((r) => (r as { run: OwnRun }).run);
    const inPlan = new Map(all.map((r) => [r.order.join(','), r]));
    const planned = orders.map((o) => inPlan.get(o.join(',')));
    if (planned.some((r) => !r)) return null;
    const numbers = numbersAmongRuns(all, picks);
    const overview = overviewOfRuns(
      planned.map((r) => ({ final: r!.finalAccuracy, aia: r!.aia })),
      numbers[numbers.length - 1],
      C,
      plan.exact,
      plan.exact ? undefined : orders,
    );
    return { result: ownOrderingsResult(overview, cfg.strategy, edge, rs, namesEdge, numbers.slice(0, -1)), edge };
  }

  /** The feature set outside a session (every feature is normally here already; a missing one is encoded). */
  async function featureSetQuiet(cfg: OwnClassesConfig, names: readonly string[]): Promise<FeatureSet> {
    const ctx = {
      set: () => {},
      progress: () => {},
      stopwatch: () => () => 0,
      cancelled: false,
    } as unknown as SessionContext<OwnResult, OwnCurrent, Record<never, never>>;
    return featureSet(cfg, names, ctx);
  }

  /** The joint head's accuracy on the classes (the same head and training, every class at once). */
  async function joint(cfg: OwnClassesConfig, classes: readonly OwnClassRef[]): Promise<number | null> {
    const names = classes.map((c) => c.name);
    const ids = stepIds(
      names,
      classes.map((c) => c.fingerprint),
    );
    const hash = `${JOINT}${historyKey({ ...cfg, strategy: 'joint' })}:${ids[names.length - 1]}`;
    const runs = await start([{ kind: 'joint' }], hash, async (_todo, ctx) => {
      const set = await featureSet(cfg, names, ctx);
      ctx.set({ current: { label: 'Joint head', progress: { stage: 'joint', done: 0, total: 1 } } });
      const out = await exclusive((w) => w.job('own-joint', { set, seed: cfg.seed }));
      if (ctx.cancelled) throw cancelled();
      await ctx.record({ id: 'joint', configHash: hash, kind: 'joint', accuracy: out.accuracy });
    });
    const r = runs?.find((x) => x.kind === 'joint') as Extract<OwnResult, { kind: 'joint' }> | undefined;
    return r ? r.accuracy : null;
  }

  return {
    session,
    subscribe: session.subscribe,
    get state(): OwnRunnerState {
      return session.state;
    },
    teach,
    orderings,
    joint,
    /** A sample was stored: its features are computed now, in the background, a few at a time. */
    sampleAdded(cfg: Pick<OwnClassesConfig, 'encoder'>, name: string, index: number, bytes: Uint8Array): void {
      queue.push({ cfg, name, index, bytes });
      pumping ??= pump().finally(() => (pumping = null));
    },
    /** Why computing features as frames arrived stopped (null while it works). */
    get encodeProblem(): string | null {
      return encodeProblem;
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    cancel: () => session.cancel(),
    /**
     * How the encoder loads: `allowed`, the encoder whose weights may come from the hub or a mirror (the visitor
     * pressed the download button, or the browser keeps every file already); any other loads from the browser's cache
     * or a self-hosted folder only, and the device it runs on.
     */
    encoderAccess(o: { allowed: OwnClassesConfig['encoder'] | null; device: 'webgpu' | 'wasm' }): void {
      allowedEncoder = o.allowed ? JSON.stringify(o.allowed) : null;
      device = o.device;
    },
    /** Drop the features (in memory) and the orderings kept of a class (its samples changed) or of all (and the history read). */
    forgetFeatures(name: string | null): void {
      for (const byName of features.values()) {
        if (name === null) byName.clear();
        else byName.delete(name);
      }
      results.clear();
      if (name === null) history.clear();
    },
    /** Give the worker back now (the page closes). */
    dispose(): void {
      session.cancel();
      if (idle) clearTimeout(idle);
      lease?.release();
      lease = null;
    },
  };
}

function cancelled(): Error {
  const e = new Error('Cancelled.');
  e.name = 'RunCancelledError';
  return e;
}

export type OwnClassesRunner = ReturnType<typeof createOwnClassesRunner>;
