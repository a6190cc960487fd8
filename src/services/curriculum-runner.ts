/**
 * The Curriculum lab's runner (docs/science.md §8), on the lab kit's run session (./lab-kit/run-session.ts): one
 * curriculum worker (src/workers/curriculum.worker.ts) trains, one job at a time, first the isolated model of every
 * dataset (a_j), then the orders (every K! order, or M2I / I2M / a hand order once the a_j are known) for every
 * strategy. Each finished job is stored at once in IndexedDB ("cil-lab-curriculum", keyed by what determines it:
 * `curriculumHash` of the datasets, subset, training settings and seed, then the job's id), so a reload or a second
 * start trains only what is missing. Where IndexedDB is missing, results are kept in memory and `notice` says so.
 */
import * as Comlink from 'comlink';
import { openDB, type IDBPDatabase } from 'idb';
import { fnv1a64 } from '../core/config/url-codec';
import { allOrders, handOrder, i2mOrder, m2iOrder, orderKey } from '../core/curriculum/orders';
import type { BackendInfo, BackendName, ProgressEvent } from '../engine/index';
import type { RunSettings } from '../engine/run-config';
import type { CurriculumData, CurriculumPreview, CurriculumWorkerApi, OrderRun } from '../workers/curriculum.worker';
import { createRunSession, oneAtATime, type SessionStore } from './lab-kit/run-session';

export type { CurriculumPreview, OrderRun };

/** Everything a curriculum run needs. */
export interface CurriculumLabSettings {
  data: CurriculumData;
  settings: RunSettings;
  strategies: string[];
  seed: number;
  /** 'all' | 'm2i' | 'i2m' (M2I and I2M are both trained for these two, to compare them) | a hand order of ids */
  order: 'all' | 'm2i' | 'i2m' | string[];
}

export type CurriculumJob = { kind: 'isolated'; position: number } | { kind: 'order'; order: number[]; strategy: string };

export type CurriculumResult =
  | { id: string; configHash: string; kind: 'isolated'; position: number; accuracy: number; backend: string }
  | ({ id: string; configHash: string; kind: 'order' } & OrderRun);

export interface CurriculumCurrent {
  label: string;
  progress: ProgressEvent | null;
}

export function jobId(j: CurriculumJob): string {
  return j.kind === 'isolated' ? `isolated:${j.position}` : `order:${j.strategy}:${orderKey(j.order)}`;
}

/** The key results are stored under: what determines every job's numbers (not the strategies or the orders). */
export function curriculumHash(s: CurriculumLabSettings): string {
  return fnv1a64(new TextEncoder().encode(JSON.stringify({ data: s.data, settings: s.settings, seed: s.seed })));
}

/** The order jobs of a start, given the isolated accuracies (positions into the curriculum). */
export function orderJobs(s: CurriculumLabSettings, isolated: number[] | null): CurriculumJob[] {
  const K = s.data.datasets.length;
  let orders: number[][];
  if (s.order === 'all') orders = allOrders(K);
  else if (Array.isArray(s.order)) orders = [handOrder(s.order, s.data.datasets)];
  else if (isolated) orders = [m2iOrder(isolated), i2mOrder(isolated)];
  else return [];
  return s.strategies.flatMap((strategy) => orders.map((order) => ({ kind: 'order' as const, order, strategy })));
}

export function isolatedJobs(s: CurriculumLabSettings): CurriculumJob[] {
  return s.data.datasets.map((_, position) => ({ kind: 'isolated' as const, position }));
}

/** The isolated accuracies among results, by position (null until every dataset has one). */
export function isolatedOf(runs: readonly CurriculumResult[], K: number): number[] | null {
  const a: (number | undefined)[] = Array(K).fill(undefined);
  for (const r of runs) if (r.kind === 'isolated' && r.position < K) a[r.position] = r.accuracy;
  return a.every((x) => x !== undefined) ? (a as number[]) : null;
}

/* ---------- the store ---------- */

export const CURRICULUM_DB = 'cil-lab-curriculum';

export function memoryStore(notice: string | null = null): SessionStore<CurriculumResult> {
  const m = new Map<string, CurriculumResult>();
  return {
    notice,
    async getAll(hash) {
      return [...m.values()].filter((r) => r.configHash === hash);
    },
    async put(r) {
      m.set(`${r.configHash}|${r.id}`, structuredClone(r));
    },
  };
}

async function openStore(): Promise<SessionStore<CurriculumResult>> {
  const fallback = (why: string) => memoryStore(`Results are kept in memory only (${why}): a reload will lose them.`);
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  try {
    const db: IDBPDatabase = await Promise.race([
      openDB(CURRICULUM_DB, 1, {
        upgrade(d) {
          d.createObjectStore('runs').createIndex('configHash', 'configHash');
        },
        blocking(_c, _n, event) {
          (event.target as IDBDatabase).close();
        },
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('IndexedDB did not open within 5 s')), 5000)),
    ]);
    return {
      notice: null,
      getAll: async (hash) => (await db.getAllFromIndex('runs', 'configHash', hash)) as CurriculumResult[],
      put: async (r) => void (await db.put('runs', r, `${r.configHash}|${r.id}`)),
    };
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  }
}

/* ---------- the runner ---------- */

/** What the runner needs of the worker (the comlink remote; a fake in the tests). */
export interface CurriculumRemote {
  selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo>;
  prepare(d: CurriculumData): Promise<CurriculumPreview>;
  isolated(d: CurriculumData, settings: RunSettings, p: number, seed: number, onProgress: (e: ProgressEvent) => void): Promise<number>;
  order(
    d: CurriculumData,
    settings: RunSettings,
    job: { order: number[]; strategy: string; seed: number },
    onProgress: (e: ProgressEvent) => void,
  ): Promise<OrderRun>;
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
}

function defaultRemote(): CurriculumRemote {
  const worker = new Worker(new URL('../workers/curriculum.worker.ts', import.meta.url), { type: 'module' });
  const w = Comlink.wrap<CurriculumWorkerApi>(worker);
  return {
    selectBackend: (p) => w.selectBackend(p),
    prepare: (d) => w.prepare(d),
    isolated: (d, s, p, seed, cb) => w.isolated(d, s, p, seed, Comlink.proxy(cb)),
    order: (d, s, job, cb) => w.order(d, s, job, Comlink.proxy(cb)) as Promise<OrderRun>,
    pause: () => w.pause(),
    resume: () => w.resume(),
    cancel: () => w.cancel(),
  };
}

export function createCurriculumRunner(opts: { remote?: () => CurriculumRemote; store?: () => Promise<SessionStore<CurriculumResult>> } = {}) {
  let remote: CurriculumRemote | null = null;
  const worker = (): CurriculumRemote => (remote ??= (opts.remote ?? defaultRemote)());
  const storeReady = (opts.store ?? openStore)();
  // the session asks its store synchronously for `notice`; it forwards to the opened store
  let opened: SessionStore<CurriculumResult> | null = null;
  const store: SessionStore<CurriculumResult> = {
    get notice() {
      return opened?.notice ?? null;
    },
    getAll: async (h) => (opened ??= await storeReady).getAll(h),
    put: async (r) => (opened ??= await storeReady).put(r),
  };
  const session = createRunSession<CurriculumJob, CurriculumResult, CurriculumCurrent>({ store, jobId, resultId: (r) => r.id });

  const driverFor = (s: CurriculumLabSettings, hash: string) =>
    oneAtATime<CurriculumJob, CurriculumResult, CurriculumCurrent>({
      current: (job) => ({
        label:
          job.kind === 'isolated' ? `${s.data.datasets[job.position]} alone (a_j)` : `${job.strategy}: ${job.order.map((p) => s.data.datasets[p]).join(' → ')}`,
        progress: null,
      }),
      train: async (job, ctx) => {
        const onProgress = (e: ProgressEvent): void => ctx.progress(e);
        if (job.kind === 'isolated') {
          const accuracy = await worker().isolated(s.data, s.settings, job.position, s.seed, onProgress);
          return { id: jobId(job), configHash: hash, kind: 'isolated', position: job.position, accuracy, backend: '' };
        }
        const r = await worker().order(s.data, s.settings, { order: job.order, strategy: job.strategy, seed: s.seed }, onProgress);
        return { id: jobId(job), configHash: hash, kind: 'order', ...r };
      },
      after: (r) => (r.kind === 'order' ? { backend: r.backend } : {}),
    });

  return {
    session,
    subscribe: session.subscribe,
    get state() {
      return session.state;
    },
    selectBackend: (p: BackendName | 'auto') => worker().selectBackend(p),
    prepare: (d: CurriculumData) => worker().prepare(d),
    /** Isolated models first, then the orders; stored jobs are read back, not trained again. */
    async run(s: CurriculumLabSettings): Promise<void> {
      const hash = curriculumHash(s);
      const w = worker();
      const first = isolatedJobs(s);
      await session.start(first, hash, driverFor(s, hash), { workers: [w] });
      if (session.state.status !== 'done') return;
      const isolated = isolatedOf(session.state.runs, s.data.datasets.length);
      await session.start([...first, ...orderJobs(s, isolated)], hash, driverFor(s, hash), { workers: [w] });
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    step: (n = 1) => session.step(n),
    cancel: () => session.cancel(),
  };
}

export type CurriculumRunner = ReturnType<typeof createCurriculumRunner>;
