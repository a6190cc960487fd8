/**
 * The Open-world lab's runner: one OOD worker (src/workers/ood.worker.ts), one run at a time, each finished step
 * shown at once. State follows Svelte's store contract (`subscribe` calls the listener at once and returns the
 * unsubscribe function); a fresh object on every change.
 *
 * Not here yet (see the lab's report): storing finished runs (IndexedDB) and resuming a run after a reload; the
 * lab kit's run session (./lab-kit/run-session.ts) is the place to join once the lab is wired into the app.
 */
import * as Comlink from 'comlink';
import { validateOpenWorldSettings, type OpenWorldSettings } from '../core/ood/config';
import type { OpenWorldStep } from '../engine/ood/run';
import type { OodActivityFn, OodRunResult, OodStepFn, OodWorkerApi } from '../workers/ood.worker';

export type OodRunStatus = 'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

export interface OodRunnerState {
  status: OodRunStatus;
  settings: OpenWorldSettings | null;
  /** steps finished so far (live) */
  steps: OpenWorldStep[];
  result: OodRunResult | null;
  /** what the worker is doing now, in words */
  activity: string;
  error: string | null;
}

/** What the runner needs of the worker (the comlink remote; a fake in the tests). */
export interface OodRemote {
  run(settings: OpenWorldSettings, onStep: OodStepFn, onActivity?: OodActivityFn): Promise<OodRunResult>;
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
}

const INITIAL: OodRunnerState = { status: 'idle', settings: null, steps: [], result: null, activity: '', error: null };

function defaultRemote(): { remote: OodRemote; dispose: () => void } {
  const worker = new Worker(new URL('../workers/ood.worker.ts', import.meta.url), { type: 'module' });
  const wrapped = Comlink.wrap<OodWorkerApi>(worker);
  return {
    remote: {
      run: (s, onStep, onActivity) => wrapped.run(s, Comlink.proxy(onStep), onActivity ? Comlink.proxy(onActivity) : undefined) as Promise<OodRunResult>,
      pause: () => wrapped.pause(),
      resume: () => wrapped.resume(),
      cancel: () => wrapped.cancel(),
    },
    dispose: () => worker.terminate(),
  };
}

export function createOodRunner(make: () => { remote: OodRemote; dispose: () => void } = defaultRemote) {
  let state: OodRunnerState = INITIAL;
  const listeners = new Set<(s: OodRunnerState) => void>();
  let handle: { remote: OodRemote; dispose: () => void } | null = null;
  let runId = 0;
  const set = (patch: Partial<OodRunnerState>): void => {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  };
  const remote = (): OodRemote => (handle ??= make()).remote;

  return {
    subscribe(listener: (s: OodRunnerState) => void): () => void {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
    get state(): OodRunnerState {
      return state;
    },
    /** Starts a run of `settings` (a run in flight is cancelled first); resolves when it ends. */
    async run(settings: OpenWorldSettings): Promise<void> {
      const errors = validateOpenWorldSettings(settings);
      if (errors.length > 0) {
        set({ ...INITIAL, status: 'error', settings, error: errors.join(' ') });
        return;
      }
      if (state.status === 'running' || state.status === 'paused') await remote().cancel();
      const id = ++runId;
      set({ ...INITIAL, status: 'running', settings, activity: 'loading the data…' });
      const mine = () => id === runId;
      try {
        const result = await remote().run(
          settings,
          (step) => mine() && set({ steps: [...state.steps, step] }),
          (a) => {
            if (!mine()) return;
            set({ activity: a.phase === 'train' ? `training task ${a.progress.task + 1} of ${a.progress.tasks}, epoch ${a.progress.epoch + 1}` : `step ${a.step + 1}: ${a.detector}` });
          },
        );
        if (mine()) set({ status: 'done', result, activity: '' });
      } catch (e) {
        if (!mine()) return;
        const err = e as Error;
        if (err.name === 'RunCancelledError' || /cancelled/i.test(err.message)) set({ status: 'cancelled', activity: '' });
        else set({ status: 'error', error: err.message, activity: '' });
      }
    },
    async pause(): Promise<void> {
      if (state.status !== 'running') return;
      await remote().pause();
      set({ status: 'paused' });
    },
    async resume(): Promise<void> {
      if (state.status !== 'paused') return;
      await remote().resume();
      set({ status: 'running' });
    },
    async cancel(): Promise<void> {
      if (state.status !== 'running' && state.status !== 'paused') return;
      runId++;
      await remote().cancel();
      set({ status: 'cancelled', activity: '' });
    },
    dispose(): void {
      runId++;
      handle?.dispose();
      handle = null;
      listeners.clear();
    },
  };
}

export type OodRunner = ReturnType<typeof createOodRunner>;
