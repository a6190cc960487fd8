/**
 * The Curriculum lab's runner (docs/science.md §8), on the lab kit's run session (./lab-kit/run-session.ts): a
 * training worker leased from the shared pool trains, one job at a time (the engine's curriculum jobs,
 * src/engine/curriculum/job.ts), first the isolated model of every dataset (a_j), then the orders (every K! order,
 * or M2I / I2M / a hand order once the a_j are known) for every strategy. Each finished job is stored at once
 * (database "cil-lab-curriculum" of the app's store, keyed by what determines it: `curriculumHash` of the datasets,
 * subset, training settings and seed, then the job's id), so a reload or a second start trains only what is
 * missing; a second tab on the same settings follows the first (`coordinator`).
 */
import { fnv1a64 } from '../core/config/url-codec';
import { allOrders, handOrder, i2mOrder, m2iOrder, orderKey } from '../core/curriculum/orders';
import type { BackendName, ProgressEvent } from '../engine/index';
import { TRAINER_DEFAULTS } from '../engine/defaults';
import type { CurriculumData, CurriculumPreview, OrderRun } from '../engine/curriculum/job';
import type { RunSettings } from '../engine/run-config';
import { createRunSession, currentWorkerControl, oneAtATime, type SessionCoordinator, type SessionDriver, type SessionStore } from './lab-kit/run-session';
import { leaseHolder, type Lease } from './lab-kit/train-pool';
import { memoryStore as memoryDb, openStore, type DbSpec, type Store } from './store';
import type { TrainClient } from './train-client';

export type { CurriculumData, CurriculumPreview, OrderRun };

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

/** The batch size the lab's runs train with (the trainer's default: the settings leave it out). */
export function curriculumBatchSize(s: CurriculumLabSettings): number {
  return s.settings.batchSize ?? TRAINER_DEFAULTS.batchSize;
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
const SPEC: DbSpec = { name: CURRICULUM_DB, version: 1, tables: [{ name: 'runs', indexes: { configHash: 'configHash' } }] };

function curriculumStore(db: Store): SessionStore<CurriculumResult> {
  return {
    notice: db.notice,
    getAll: (hash) => db.getAll<CurriculumResult>('runs', { index: 'configHash', value: hash }),
    put: (r) => db.put('runs', structuredClone(r), `${r.configHash}|${r.id}`),
  };
}

export function memoryStore(notice: string | null = null): SessionStore<CurriculumResult> {
  return curriculumStore(memoryDb(SPEC, notice));
}

async function openCurriculumStore(): Promise<SessionStore<CurriculumResult>> {
  return curriculumStore(await openStore(SPEC));
}

/* ---------- the runner ---------- */

/** What the runner needs of a training worker (the pool's, ./train-client.ts; a fake in the tests). */
export type CurriculumWorker = Pick<TrainClient, 'job' | 'pause' | 'resume' | 'cancel'>;

export interface CurriculumRunnerOptions {
  /** a worker for a while (the shared pool's lease) */
  lease: (backend: BackendName | 'auto') => Promise<Pick<Lease<CurriculumWorker>, 'main' | 'release'> & { backend: { name: string } }>;
  store?: () => Promise<SessionStore<CurriculumResult>>;
  coordinator?: SessionCoordinator | null;
}

export function createCurriculumRunner(opts: CurriculumRunnerOptions) {
  /** the worker of the start in flight */
  const held = leaseHolder(opts.lease);
  const storeReady = (opts.store ?? openCurriculumStore)();
  // the session asks its store synchronously for `notice`; it forwards to the opened store
  let opened: SessionStore<CurriculumResult> | null = null;
  const store: SessionStore<CurriculumResult> = {
    get notice() {
      return opened?.notice ?? null;
    },
    getAll: async (h) => (opened ??= await storeReady).getAll(h),
    put: async (r) => (opened ??= await storeReady).put(r),
  };
  const session = createRunSession<CurriculumJob, CurriculumResult, CurriculumCurrent>({ store, jobId, resultId: (r) => r.id, coordinator: opts.coordinator });

  const trainer = (s: CurriculumLabSettings, hash: string, w: CurriculumWorker) =>
    oneAtATime<CurriculumJob, CurriculumResult, CurriculumCurrent>({
      current: (job) => ({
        label:
          job.kind === 'isolated' ? `${s.data.datasets[job.position]} alone (a_j)` : `${job.strategy}: ${job.order.map((p) => s.data.datasets[p]).join(' → ')}`,
        progress: null,
      }),
      train: async (job, ctx) => {
        const onProgress = (e: ProgressEvent): void => ctx.progress(e);
        if (job.kind === 'isolated') {
          const accuracy = await w.job('curriculum-isolated', { data: s.data, settings: s.settings, position: job.position, seed: s.seed }, onProgress);
          return { id: jobId(job), configHash: hash, kind: 'isolated', position: job.position, accuracy, backend: '' };
        }
        const r = await w.job('curriculum-order', { data: s.data, settings: s.settings, order: job.order, strategy: job.strategy, seed: s.seed }, onProgress);
        return { id: jobId(job), configHash: hash, kind: 'order', ...r };
      },
      after: (r) => (r.kind === 'order' ? { backend: r.backend } : {}),
    });

  /** The session's driver: a worker leased from the pool for the start (none while following another tab). */
  const driverFor =
    (
      s: CurriculumLabSettings,
      hash: string,
      backend: BackendName | 'auto',
    ): SessionDriver<CurriculumJob, CurriculumResult, CurriculumCurrent, Record<never, never>> =>
    (todo, ctx) =>
      held.during(backend, todo, ctx, async (w) => {
        if (await ctx.pausePoint()) await trainer(s, hash, w)(todo, ctx);
      });
  const control = currentWorkerControl(() => held.worker);

  return {
    session,
    subscribe: session.subscribe,
    get state() {
      return session.state;
    },
    /** The curriculum's datasets as the model sees them (a worker leased for the while). */
    async prepare(d: CurriculumData, backend: BackendName | 'auto' = 'auto'): Promise<CurriculumPreview> {
      const l = await opts.lease(backend);
      try {
        return await l.main.job('curriculum-preview', d);
      } finally {
        l.release();
      }
    },
    /** What the store holds for these settings (one seed's: every job stored under their key), without training. */
    stored: (s: CurriculumLabSettings): Promise<CurriculumResult[]> => store.getAll(curriculumHash(s)),
    /** Isolated models first, then the orders; stored jobs are read back, not trained again. */
    async run(s: CurriculumLabSettings, backend: BackendName | 'auto' = 'auto'): Promise<void> {
      const hash = curriculumHash(s);
      const first = isolatedJobs(s);
      await session.start(first, hash, driverFor(s, hash, backend), { workers: [control] });
      if (session.state.status !== 'done') return;
      const isolated = isolatedOf(session.state.runs, s.data.datasets.length);
      await session.start([...first, ...orderJobs(s, isolated)], hash, driverFor(s, hash, backend), { workers: [control] });
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    step: (n = 1) => session.step(n),
    cancel: () => session.cancel(),
    /** Stop the start in flight (its worker goes back to the pool). */
    dispose: () => session.cancel(),
  };
}

export type CurriculumRunner = ReturnType<typeof createCurriculumRunner>;
