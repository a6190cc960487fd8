/**
 * The Open-world lab's runner, on the lab kit's run session (./lab-kit/run-session.ts): a training worker leased
 * from the shared pool runs the settings step by step (the engine's `ood` job, src/engine/ood/job.ts); each
 * finished step is stored at once (./ood-store.ts, keyed by `openWorldKey(settings)`) with the trainer's checkpoint
 * after its task. Two tabs on the same settings: one trains, the other follows what it stores (`coordinator`).
 *
 * - `open(settings)` shows what the store holds for the settings, without training (a reload, a share link).
 * - `run(settings)`: the session's jobs are the steps 0..T−1; stored steps are skipped. When the stored steps are
 *   0..n−1 and the stored checkpoint is the one after step n−1, the worker continues from it (`resumeFrom`:
 *   exact, tests/unit/engine/ood/ood-resume.test.ts) and only steps n.. are trained (`resumedFrom = n`). Otherwise
 *   (no checkpoint, e.g. a crash between storing a checkpoint and its step) the run trains from scratch, keeps the
 *   stored steps shown and stores only the missing ones (`restarted`).
 * - pause / resume / cancel / step(n) are the session's (teaching mode's Step = one more step, then pause).
 * - A finished run's remaining result (`OodRunMeta`) is stored too: with the steps it is exactly `cil-lab ood`'s
 *   output (src/engine/ood/report.ts), the lab's JSON export.
 *
 * State follows Svelte's store contract (`subscribe` calls the listener at once and returns the unsubscribe); a fresh
 * object on every change.
 */
import { openWorldKey, validateOpenWorldSettings, type OpenWorldSettings } from '../core/labs/open-world/settings';
import type { OodRunMeta } from '../engine/ood/report';
import type { OpenWorldStep } from '../engine/ood/run';
import type { BackendName, ProgressEvent, RunCheckpoint } from '../engine/index';
import type { OodRunResult } from '../engine/ood/job';
import { createRunSession, runTimes, type SessionContext, type SessionCoordinator, type SessionState, type SessionStatus } from './lab-kit/run-session';
import type { Lease } from './lab-kit/train-pool';
import type { OodStore, StoredOodStep } from './ood-store';
import type { TrainClient } from './train-client';

export type { OodRunResult };

/** a finished step, with the trainer's checkpoint after its task (what the lab stores to resume after it) */
export type OodStepFn = (step: OpenWorldStep, checkpoint: RunCheckpoint) => void;
export type OodActivityFn = (a: { phase: 'train'; progress: ProgressEvent } | { phase: 'detector'; step: number; detector: string }) => void;

export type OodRunStatus = SessionStatus;

/** What the worker is doing now. */
export interface OodCurrent {
  label: string;
  progress: null;
}

interface Extra {
  settings: OpenWorldSettings | null;
  /** this start continued after `resumedFrom` stored steps from their checkpoint (null: it did not) */
  resumedFrom: number | null;
  /** this start found stored steps but no checkpoint to continue from: it trains from scratch, storing only the missing steps */
  restarted: boolean;
  meta: OodRunMeta | null;
  /** what the worker is doing now, in words */
  activity: string;
}

export interface OodRunnerState {
  status: OodRunStatus;
  /** the settings shown (opened or run) and their key */
  settings: OpenWorldSettings | null;
  key: string | null;
  /** the steps shown, by step: stored ones and the run's new ones */
  steps: OpenWorldStep[];
  /** the rest of the finished run (null before the run has finished) */
  meta: OodRunMeta | null;
  /** steps the store held when the settings were opened or the run started */
  storedSteps: number;
  /** the stored checkpoint lets Run continue after the stored steps */
  resumable: boolean;
  resumedFrom: number | null;
  restarted: boolean;
  done: number;
  total: number;
  etaSeconds: number | null;
  activity: string;
  backend: string;
  notice: string | null;
  error: string | null;
  /** another tab trains these settings (the session's coordinator): this one shows what it stores */
  following: boolean;
}

/** What the runner needs of a training worker (the pool's, ./train-client.ts; a fake in the tests). */
export type OodWorker = Pick<TrainClient, 'job' | 'pause' | 'resume' | 'cancel'> & Partial<Pick<TrainClient, 'pauseAfter'>>;

interface OodRemote {
  run(
    settings: OpenWorldSettings,
    onStep: OodStepFn,
    onActivity: OodActivityFn,
    resumeFrom?: { checkpoint: RunCheckpoint; steps: OpenWorldStep[] },
    pauseAfter?: number,
  ): Promise<OodRunResult>;
}

/** The worker's `ood` job as a run with a step and an activity callback. */
function oodRemoteOf(worker: OodWorker): OodRemote {
  return {
    run: (settings, onStep, onActivity, resumeFrom, pauseAfter) =>
      worker.job('ood', { settings, ...(resumeFrom ? { resumeFrom } : {}), ...(pauseAfter ? { pauseAfter } : {}) }, (e) => {
        if (e.kind === 'step') onStep(e.step, e.checkpoint);
        else if (e.kind === 'train') onActivity({ phase: 'train', progress: e.progress });
        else onActivity({ phase: 'detector', step: e.step, detector: e.detector });
      }),
  };
}

/** What the store keeps of a finished run besides its steps. */
export function metaOf(r: OodRunResult): OodRunMeta {
  const { tasks, matrix, backend, seconds, config } = r.train;
  return { oodSets: r.oodSets, train: { tasks, matrix, backend, seconds, config }, seconds: r.seconds };
}

/** Stored steps 0..n−1 and a checkpoint after step n−1: the run can continue from it. */
export function resumePoint(stored: StoredOodStep[], checkpoint: RunCheckpoint | undefined): { checkpoint: RunCheckpoint; steps: OpenWorldStep[] } | null {
  const sorted = [...stored].sort((a, b) => a.step - b.step);
  if (!checkpoint || sorted.length === 0 || !sorted.every((s, i) => s.step === i) || checkpoint.nextTask !== sorted.length) return null;
  return { checkpoint, steps: sorted.map((s) => s.data) };
}

export interface OodRunnerOptions {
  store: OodStore | Promise<OodStore>;
  /** a worker for one run (the shared pool's lease) */
  lease: (backend: BackendName | 'auto') => Promise<Pick<Lease<OodWorker>, 'main' | 'release'> & { backend: { name: string } }>;
  /** another tab training the same settings: follow it (./lab-kit/coordinator.ts) */
  coordinator?: SessionCoordinator | null;
  now?: () => number;
}

export function createOodRunner(options: OodRunnerOptions) {
  const storeP = Promise.resolve(options.store);
  let store: OodStore | null = null;
  void storeP.then((s) => {
    store = s;
    if (s.notice) emit();
  });
  /** the worker of the run in flight */
  let handle: OodWorker | null = null;

  const session = createRunSession<number, StoredOodStep, OodCurrent, Extra>({
    store: {
      getAll: async (key) => (await storeP).steps(key),
      put: async (r) => (await storeP).putStep(r),
      get notice() {
        return store?.notice ?? null;
      },
    },
    jobId: (t) => String(t),
    resultId: (r) => String(r.step),
    initialExtra: { settings: null, resumedFrom: null, restarted: false, meta: null, activity: '' },
    now: options.now,
    coordinator: options.coordinator,
  });
  type Ctx = SessionContext<StoredOodStep, OodCurrent, Extra>;
  type SState = SessionState<StoredOodStep, OodCurrent> & Extra;

  /** what `open` found (shown while no session of the same key has started) */
  let view: { settings: OpenWorldSettings; key: string; steps: StoredOodStep[]; meta: OodRunMeta | null; resumable: boolean } | null = null;
  let openId = 0;
  let state: OodRunnerState = compose(session.state);
  const listeners = new Set<(s: OodRunnerState) => void>();

  function compose(ss: SState): OodRunnerState {
    if (view && ss.configHash === view.key && ss.status !== 'idle') {
      const steps = [...ss.runs].sort((a, b) => a.step - b.step);
      return {
        status: ss.status,
        settings: view.settings,
        key: ss.configHash,
        steps: steps.map((s) => s.data),
        meta: ss.meta,
        storedSteps: ss.skipped,
        resumable: false,
        resumedFrom: ss.resumedFrom,
        restarted: ss.restarted,
        done: ss.done,
        total: ss.total,
        etaSeconds: ss.etaSeconds,
        activity: ss.activity,
        backend: ss.backend,
        notice: ss.notice ?? store?.notice ?? null,
        error: ss.error,
        following: ss.following,
      };
    }
    const steps = view?.steps ?? [];
    const T = view?.settings.tasks ?? 0;
    return {
      status: view && view.meta && steps.length === T ? 'done' : 'idle',
      settings: view?.settings ?? null,
      key: view?.key ?? null,
      steps: steps.map((s) => s.data),
      meta: view?.meta ?? null,
      storedSteps: steps.length,
      resumable: view?.resumable ?? false,
      resumedFrom: null,
      restarted: false,
      done: steps.length,
      total: T,
      etaSeconds: null,
      activity: '',
      backend: ss.backend,
      notice: store?.notice ?? null,
      error: null,
      following: false,
    };
  }
  function emit(): void {
    state = compose(session.state);
    for (const l of listeners) l(state);
  }
  session.subscribe(() => emit());

  async function train(settings: OpenWorldSettings, key: string, backend: BackendName | 'auto', ctx: Ctx): Promise<void> {
    const st = await storeP;
    const stored = [...ctx.state.runs];
    const T = settings.tasks;
    const meta = stored.length === T ? await st.run(key) : undefined;
    if (meta) {
      ctx.set({ meta });
      return;
    }
    const resume = resumePoint(stored, await st.checkpoint(key));
    ctx.set({
      resumedFrom: resume ? resume.steps.length : null,
      restarted: !resume && stored.length > 0,
      current: { label: 'run', progress: null },
      activity: resume ? `continuing after step ${resume.steps.length}…` : 'loading the data…',
    });
    const lease = await options.lease(backend);
    // paused while the worker was starting: wait here (the worker's job has no run to pause yet)
    if (!(await ctx.pausePoint()) || !ctx.live()) {
      lease.release();
      return;
    }
    handle = lease.main;
    ctx.set({ backend: lease.backend.name });
    try {
      await trainOn(oodRemoteOf(lease.main), settings, key, ctx, st, stored, resume);
    } finally {
      if (handle === lease.main) handle = null;
      lease.release();
    }
  }

  async function trainOn(
    remote: OodRemote,
    settings: OpenWorldSettings,
    key: string,
    ctx: Ctx,
    st: OodStore,
    stored: StoredOodStep[],
    resume: ReturnType<typeof resumePoint>,
  ): Promise<void> {
    const have = new Set(stored.map((s) => s.step));
    const times = runTimes(5);
    let watch = ctx.stopwatch();
    let chain: Promise<void> = Promise.resolve();
    let failed: unknown = null;
    const result = await remote.run(
      settings,
      (step, checkpoint) => {
        chain = chain
          .then(async () => {
            if (!ctx.live()) return;
            // the checkpoint first: a stored step then always has the checkpoint to continue after it
            await st.putCheckpoint(key, checkpoint);
            if (have.has(step.step)) return;
            times.add(watch());
            watch = ctx.stopwatch();
            await ctx.record({ key, step: step.step, data: step }, (done) => ({ etaSeconds: (times.mean() ?? 0) * (ctx.state.total - done) }));
          })
          .catch((e) => void (failed ??= e));
      },
      (a) => {
        if (ctx.live())
          ctx.set({
            activity:
              a.phase === 'train'
                ? `training task ${a.progress.task + 1} of ${a.progress.tasks}, epoch ${a.progress.epoch + 1}`
                : `step ${a.step + 1}: ${a.detector}`,
          });
      },
      resume ?? undefined,
      // a Step that starts the run: the worker pauses itself after that many steps
      ctx.stepsLeft(),
    );
    await chain;
    if (failed) ctx.set({ notice: `A finished step could not be stored (${failed instanceof Error ? failed.message : String(failed)}).` });
    if (!ctx.live()) return;
    const m = metaOf(result);
    await st.putRun(key, m);
    await st.deleteCheckpoint(key);
    ctx.set({ meta: m, backend: result.train.backend, activity: '' });
  }

  const worker = {
    pause: () => handle?.pause(),
    resume: () => handle?.resume(),
    cancel: () => handle?.cancel(),
    pauseAfter: (n: number) => handle?.pauseAfter?.(n),
  };

  return {
    subscribe(listener: (s: OodRunnerState) => void): () => void {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
    get state(): OodRunnerState {
      return state;
    },
    /** What the store holds for `settings` (one seed's): its steps in order and, once finished, the rest of the run. */
    async stored(settings: OpenWorldSettings): Promise<{ steps: OpenWorldStep[]; meta: OodRunMeta | null }> {
      const key = openWorldKey(settings);
      const st = await storeP;
      const [steps, meta] = await Promise.all([st.steps(key), st.run(key)]);
      return { steps: [...steps].sort((a, b) => a.step - b.step).map((s) => s.data), meta: meta ?? null };
    },
    /** Show what the store holds for `settings` (no training). Ignored while a run is in flight. */
    async open(settings: OpenWorldSettings): Promise<void> {
      if (session.active) return;
      const id = ++openId;
      const key = openWorldKey(settings);
      const st = await storeP;
      const [steps, meta, checkpoint] = await Promise.all([st.steps(key), st.run(key), st.checkpoint(key)]);
      if (id !== openId || session.active) return;
      view = { settings: structuredClone(settings), key, steps, meta: meta ?? null, resumable: resumePoint(steps, checkpoint) !== null };
      emit();
    },
    /** Train what the store lacks of `settings` (continuing from a stored checkpoint when it can); resolves when it stops. */
    async run(settings: OpenWorldSettings, backend: BackendName | 'auto' = 'auto'): Promise<void> {
      const errors = validateOpenWorldSettings(settings);
      if (errors.length > 0) {
        view = { settings: structuredClone(settings), key: openWorldKey(settings), steps: [], meta: null, resumable: false };
        emit();
        state = { ...state, status: 'error', error: errors.join(' ') };
        for (const l of listeners) l(state);
        return;
      }
      openId++;
      const key = openWorldKey(settings);
      view = { settings: structuredClone(settings), key, steps: [], meta: null, resumable: false };
      const s = structuredClone(settings);
      const started = session.start(
        Array.from({ length: settings.tasks }, (_, t) => t),
        key,
        async (_todo, ctx) => {
          ctx.set({ settings: s });
          await train(s, key, backend, ctx);
        },
        { workers: [worker] },
      );
      await started;
    },
    pause: () => session.pause(),
    resume: () => session.resume(),
    /** Teaching mode's Step: one more step, then pause (starts the run when none is in flight). */
    step(settings: OpenWorldSettings, backend: BackendName | 'auto' = 'auto'): void {
      if (session.active) session.step(1);
      else {
        void this.run(settings, backend);
        session.step(1);
      }
    },
    cancel: () => session.cancel(),
    get active(): boolean {
      return session.active;
    },
    /** Stop the run in flight (its worker goes back to the pool) and forget the listeners. */
    dispose(): void {
      session.cancel();
      listeners.clear();
    },
  };
}

export type OodRunner = ReturnType<typeof createOodRunner>;
