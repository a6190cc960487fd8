/**
 * The Open-world lab's runner (issue 13; built on the lab kit's run session, ./lab-kit/run-session.ts): one OOD
 * worker (src/workers/ood.worker.ts) runs the settings step by step; each finished step is stored at once
 * (./ood-store.ts, keyed by `openWorldKey(settings)`) with the trainer's checkpoint after its task.
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
import * as Comlink from 'comlink';
import { openWorldKey, validateOpenWorldSettings, type OpenWorldSettings } from '../core/ood/config';
import type { OodRunMeta } from '../engine/ood/report';
import type { OpenWorldStep } from '../engine/ood/run';
import type { BackendName, RunCheckpoint } from '../engine/index';
import type { OodActivityFn, OodRunResult, OodStepFn, OodWorkerApi } from '../workers/ood.worker';
import { createRunSession, runTimes, type SessionContext, type SessionState, type SessionStatus } from './lab-kit/run-session';
import type { OodStore, StoredOodStep } from './ood-store';

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

/** What the runner needs of the worker (the comlink remote; a fake in the tests). */
export interface OodRemote {
  run(
    settings: OpenWorldSettings,
    onStep: OodStepFn,
    onActivity?: OodActivityFn,
    resumeFrom?: { checkpoint: RunCheckpoint; steps: OpenWorldStep[] },
  ): Promise<OodRunResult>;
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
  /** the backend preference (../ui/common/BackendPicker.svelte); resolves to the backend in use */
  selectBackend?(preferred: BackendName | 'auto'): Promise<{ name: string }>;
}

function defaultRemote(): { remote: OodRemote; dispose: () => void } {
  const worker = new Worker(new URL('../workers/ood.worker.ts', import.meta.url), { type: 'module' });
  const wrapped = Comlink.wrap<OodWorkerApi>(worker);
  return {
    remote: {
      run: (s, onStep, onActivity, resumeFrom) =>
        wrapped.run(s, Comlink.proxy(onStep), onActivity ? Comlink.proxy(onActivity) : undefined, resumeFrom) as Promise<OodRunResult>,
      pause: () => wrapped.pause(),
      resume: () => wrapped.resume(),
      cancel: () => wrapped.cancel(),
      selectBackend: (p) => wrapped.selectBackend(p),
    },
    dispose: () => worker.terminate(),
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
  make?: () => { remote: OodRemote; dispose: () => void };
  now?: () => number;
}

export function createOodRunner(options: OodRunnerOptions) {
  const make = options.make ?? defaultRemote;
  const storeP = Promise.resolve(options.store);
  let store: OodStore | null = null;
  void storeP.then((s) => {
    store = s;
    if (s.notice) emit();
  });
  let handle: { remote: OodRemote; dispose: () => void } | null = null;
  const remote = (): OodRemote => (handle ??= make()).remote;

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
    if (remote().selectBackend) ctx.set({ backend: (await remote().selectBackend!(backend)).name });
    const have = new Set(stored.map((s) => s.step));
    const times = runTimes(5);
    let watch = ctx.stopwatch();
    let chain: Promise<void> = Promise.resolve();
    let failed: unknown = null;
    const result = await remote().run(
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
    pause: () => handle?.remote.pause(),
    resume: () => handle?.remote.resume(),
    cancel: () => handle?.remote.cancel(),
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
    dispose(): void {
      session.cancel();
      handle?.dispose();
      handle = null;
      listeners.clear();
    },
  };
}

export type OodRunner = ReturnType<typeof createOodRunner>;
