/**
 * The Time lab's runner (docs/science.md §7), on the lab kit's run session (./lab-kit/run-session.ts): each
 * protocol of the settings is one job, trained by the engine's `stream` job (src/engine/stream/job.ts) on a worker
 * leased from the shared pool. Every finished protocol is stored at once (database "cil-lab-time" of the app's
 * store, keyed by the settings and the protocol) and, while one trains, its checkpoint after every bucket: the same
 * settings again read finished protocols back and continue an interrupted one after its last bucket (a reload too).
 * The bucket samples and Alg. 1's α sweep run on a leased worker as well.
 */
import { validateTimeLabConfig, type TimeLabConfig } from '../core/labs/time/settings';
import { STREAM_PROTOCOLS, type StreamProtocol } from '../core/stream/metrics';
import type { BackendName } from '../engine/index';
import type { StreamPreview } from '../engine/stream/lab';
import type { SweepEntry } from '../engine/stream/job';
import type { StreamCheckpoint, StreamProgress, StreamRunResult, StreamStepEnd } from '../engine/stream/train';
import { createRunSession, currentWorkerControl, type SessionCoordinator, type SessionState } from './lab-kit/run-session';
import { leaseHolder, type Lease } from './lab-kit/train-pool';
import { memoryStore, openStore, type DbSpec, type Store } from './store';
import type { TrainClient } from './train-client';

export type { StreamPreview, StreamProgress, StreamRunResult, StreamStepEnd, SweepEntry };

export const TIME_DB = 'cil-lab-time';
const SPEC: DbSpec = { name: TIME_DB, version: 1, tables: [{ name: 'results' }, { name: 'checkpoints' }] };

/**
 * The key of the settings' results: the canonical JSON of the validated settings, without `control` (whether the
 * no-drift control also trains changes none of these runs' numbers; the control's runs have settings of their own).
 */
export function timeSettingsKey(c: TimeLabConfig): string {
  const { control: _c, ...v } = validateTimeLabConfig(c).value ?? c;
  return JSON.stringify(v);
}

/** The protocol in flight: its bucket and epoch. */
export interface TimeCurrent {
  protocol: StreamProtocol;
  step: number;
  epoch: number;
  epochs: number;
  progress: StreamProgress | null;
}

/** A finished protocol with the key of its settings (the store keeps the result itself under both keys). */
export type TimeResult = StreamRunResult & { settingsKey: string };

export type TimeRunnerState = SessionState<TimeResult, TimeCurrent> & {
  /** rows of R so far, per protocol trained in this start (a stored protocol's R is its result's matrix) */
  rows: Partial<Record<StreamProtocol, number[][]>>;
};

/** What the runner needs of a training worker (the pool's, ./train-client.ts; a fake in the tests). */
export type TimeWorker = Pick<TrainClient, 'job' | 'pause' | 'resume' | 'cancel'>;

export interface TimeRunnerOptions {
  /** a worker for a while (the shared pool's lease) */
  lease: (backend: BackendName | 'auto') => Promise<Pick<Lease<TimeWorker>, 'main' | 'release'> & { backend: { name: string } }>;
  store?: Promise<Store>;
  coordinator?: SessionCoordinator | null;
  now?: () => number;
}

export function openTimeStore(): Promise<Store> {
  return openStore(SPEC);
}

export function memoryTimeStore(): Store {
  return memoryStore(SPEC);
}

export function createTimeRunner(options: TimeRunnerOptions) {
  const storeP = options.store ?? openTimeStore();
  let opened: Store | null = null;
  void storeP.then((s) => (opened = s));
  let settings: TimeLabConfig | null = null;
  const held = leaseHolder(options.lease);
  let stepping = false;

  const session = createRunSession<StreamProtocol, TimeResult, TimeCurrent, { rows: TimeRunnerState['rows'] }>({
    store: {
      get notice() {
        return opened?.notice ?? null;
      },
      async getAll(settingsKey) {
        const db = await storeP;
        const all = await Promise.all(STREAM_PROTOCOLS.map((p) => db.get<StreamRunResult>('results', `${settingsKey}|${p}`)));
        return all.filter((r): r is StreamRunResult => r !== undefined).map((r) => ({ ...r, settingsKey }));
      },
      async put({ settingsKey, ...result }) {
        const db = await storeP;
        const key = `${settingsKey}|${result.protocol}`;
        await db.put('results', result, key);
        await db.delete('checkpoints', key);
      },
    },
    jobId: (p) => p,
    resultId: (r) => r.protocol,
    initialExtra: { rows: {} },
    now: options.now,
    coordinator: options.coordinator,
  });

  /** A leased worker for `f` (the bucket samples, the sweep), given back after. */
  async function withWorker<T>(backend: BackendName | 'auto', f: (w: TimeWorker) => Promise<T>): Promise<T> {
    const l = await options.lease(backend);
    try {
      return await f(l.main);
    } finally {
      l.release();
    }
  }

  const control = currentWorkerControl(() => held.worker);

  return {
    subscribe: session.subscribe,
    get state(): TimeRunnerState {
      return session.state;
    },
    /** The store's notice (results kept in memory only), once it is open. */
    async notice(): Promise<string | null> {
      return (await storeP).notice;
    },
    /** The finished protocols the store holds for these settings (one seed's), without training. */
    async stored(c: TimeLabConfig): Promise<TimeResult[]> {
      const db = await storeP;
      const key = timeSettingsKey(c);
      const all = await Promise.all(STREAM_PROTOCOLS.map((p) => db.get<StreamRunResult>('results', `${key}|${p}`)));
      return all.filter((r): r is StreamRunResult => r !== undefined).map((r) => ({ ...r, settingsKey: key }));
    },
    /** The stream's bucket samples for these settings. */
    prepare(c: TimeLabConfig, backend: BackendName | 'auto' = 'auto'): Promise<StreamPreview> {
      return withWorker(backend, (w) => w.job('stream-preview', c));
    },
    /** Every protocol of the settings: stored ones read back, an interrupted one continued after its last bucket. */
    async run(c: TimeLabConfig, backend: BackendName | 'auto' = 'auto'): Promise<void> {
      const db = await storeP;
      settings = structuredClone(c);
      const key = timeSettingsKey(c);
      await session.start(
        settings.protocols.slice(),
        key,
        (todo, ctx) =>
          held.during(backend, todo, ctx, async (w) => {
            for (const protocol of todo) {
              if (!(await ctx.pausePoint())) return;
              const cpKey = `${key}|${protocol}`;
              const resumeFrom = (await db.get<StreamCheckpoint>('checkpoints', cpKey)) ?? null;
              const rows = (resumeFrom?.matrix ?? []).map((r) => r.slice());
              ctx.set({
                current: { protocol, step: resumeFrom?.nextStep ?? 0, epoch: 0, epochs: 0, progress: null },
                rows: { ...ctx.state.rows, [protocol]: rows },
              });
              const result = await w.job('stream', { config: c, protocol, resumeFrom }, (e) => {
                if (!ctx.live()) return;
                if (e.kind === 'checkpoint') void db.put('checkpoints', e.checkpoint, cpKey);
                else if (e.kind === 'progress') {
                  const p = e.progress;
                  ctx.set({ current: { protocol, step: p.step, epoch: p.epoch, epochs: p.epochs, progress: p } });
                } else {
                  ctx.set({ rows: { ...ctx.state.rows, [protocol]: [...(ctx.state.rows[protocol] ?? []), e.end.row] } });
                  if (stepping) {
                    stepping = false;
                    session.pause();
                  }
                }
              });
              if (!ctx.live()) return;
              await ctx.record({ ...result, settingsKey: key }, () => ({
                rows: { ...ctx.state.rows, [protocol]: result.matrix.map((r) => r.slice()) },
                current: null,
                backend: result.backend,
              }));
            }
          }),
        { workers: [control] },
      );
    },
    /** Alg. 1 alone for every α of Table 2 on these bucket sizes (no training). */
    sweep(sizes: number[], k: number, trials: number, seed: number): Promise<SweepEntry[]> {
      return withWorker('auto', (w) => w.job('reservoir-sweep', { sizes, k, trials, seed }));
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    /** Teaching mode's Step: one more bucket, then pause (from a pause it resumes). */
    step(): void {
      stepping = true;
      session.resume();
    },
    cancel: () => session.cancel(),
    get active(): boolean {
      return session.active;
    },
    /** the settings of the last start */
    get settings(): TimeLabConfig | null {
      return settings;
    },
    dispose(): void {
      session.cancel();
    },
  };
}

export type TimeRunner = ReturnType<typeof createTimeRunner>;
