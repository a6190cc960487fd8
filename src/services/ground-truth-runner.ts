/**
 * The Ground-truth lab's runner: trains a plan's jobs (ordering × strategy × seed, src/core/ground-truth/plan.ts)
 * one after another in the training worker, stores every finished run at once, and tells its subscribers how far
 * it is (ARCHITECTURE.md: "Results are stored per (config hash, ordering key, strategy, seed) as soon as each run
 * finishes, so a reload or a crash loses at most the run in flight, and finished runs are never trained twice").
 *
 * - start(plan, trainConfigFor, configHash) first reads what the store already holds for the config; those jobs
 *   are skipped (`skipped`) and their runs are in `runs` from the start. So a reload resumes where it stopped.
 * - `done` counts finished jobs including the skipped ones (the progress bar is done / total).
 * - Nothing heavy runs here: training is in the worker, storing is IndexedDB's async I/O; this module only awaits
 *   and forwards (≤ 10 progress updates a second, throttled in the worker), so the page stays responsive.
 * - pause(): the run in flight pauses in the worker (at its next step) and no new run starts; resume() continues
 *   both. cancel(): the run in flight is cancelled (its partial work is dropped, the worker frees its tensors),
 *   finished runs stay stored; start() again resumes from the store.
 * - ETA: the mean wall time of the last `etaWindow` runs (paused time excluded) × the jobs left; null until the
 *   first run of this session finishes.
 * - A failed run (after the engine's backend fallback gave up) stops the runner with status 'error' and the
 *   message; runs finished before it stay stored. A store that cannot write keeps the run in `runs` and says so in
 *   `notice`.
 *
 * The state is a fresh object on every change (listeners may keep it; Svelte stores contract: `subscribe` calls
 * the listener at once and returns the unsubscribe function).
 */
import type { GroundTruthJob } from '../core/ground-truth/plan';
import { storedRunOf, type ResultsStore, type StoredRun } from './results-store';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import type { FallbackNotice, ProgressEvent, SharedProgress, SharedTrainOptions, TrainRunConfig } from '../engine/index';

export type RunnerStatus = 'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

export interface RunnerState {
  status: RunnerStatus;
  /** finished jobs of the plan, the skipped (already stored) ones included */
  done: number;
  total: number;
  /** jobs found in the store at start */
  skipped: number;
  etaSeconds: number | null;
  /** the backend of the last run (or the worker's, before the first) */
  backend: string;
  /** the last backend-fallback or storage notice, for the app's notice line */
  notice: string | null;
  error: string | null;
  current: { orderingKey: string; strategy: string; seed: number; progress: ProgressEvent | null } | null;
  /** every stored run of the config (imported ones included), then each new run as it finishes */
  runs: StoredRun[];
  /** the config the runs belong to (null before the first start) */
  configHash: string | null;
  /**
   * The fast path's plan and progress (prefix sharing + population, issue 7), over every group of this start:
   * tasks trained so far and planned, what the naive path would train, the population size in use. Null on the
   * naive path.
   */
  sharing: { tasksDone: number; tasksPlanned: number; naiveTasks: number; population: number } | null;
}

/** What the runner needs of a run's result (structurally the engine's TrainRunResult). */
export interface RunnerRunResult {
  matrix: number[][];
  untrained: number[];
  testCounts: number[];
  backend: string;
  backends?: string[];
  seconds: number;
}

/** What the runner needs of the training client (train-client.ts; a fake in the unit tests). */
export interface RunnerClient {
  run(config: TrainRunConfig, onProgress?: (e: ProgressEvent) => void, onNotice?: (n: FallbackNotice) => void): Promise<RunnerRunResult>;
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
  backend?(): Promise<string | null>;
  /** the fast path (train-client.ts `runShared`); without it the runner trains one run at a time */
  runShared?(
    configs: TrainRunConfig[],
    options: SharedTrainOptions,
    onRunDone: (index: number, result: RunnerRunResult) => void,
    onProgress?: (p: SharedProgress) => void,
    onNotice?: (n: FallbackNotice) => void,
  ): Promise<{ backend: string; population: number }>;
}

export type RunnerStore = Pick<ResultsStore, 'put' | 'getAll'> & { readonly notice?: string | null };

export interface GroundTruthRunnerOptions {
  client: RunnerClient;
  store: RunnerStore;
  /** runs the ETA averages over (default 10) */
  etaWindow?: number;
  /** clock in ms (tests) */
  now?: () => number;
}

export type RunnerListener = (state: RunnerState) => void;

/**
 * The indices of `configs` split into `parts` lists by first task (canonical): every ordering of a subtree of the
 * prefix trie goes to the same list, the subtrees dealt to the list with the fewest orderings (largest first).
 */
export function splitBySubtree(configs: { tasks: number[][] }[], parts: number): number[][] {
  const out: number[][] = Array.from({ length: Math.max(1, parts) }, () => []);
  const byFirst = new Map<string, number[]>();
  configs.forEach((c, i) => {
    const k = c.tasks[0].slice().sort((a, b) => a - b).join(',');
    byFirst.set(k, [...(byFirst.get(k) ?? []), i]);
  });
  for (const sub of [...byFirst.values()].sort((a, b) => b.length - a.length)) {
    const target = out.reduce((best, l) => (l.length < best.length ? l : best), out[0]);
    target.push(...sub);
  }
  for (const l of out) l.sort((a, b) => a - b);
  return out;
}

export function jobId(j: { orderingKey: string; strategy: string; seed: number }): string {
  return JSON.stringify([j.orderingKey, j.strategy, j.seed]);
}

function isCancelError(e: unknown): boolean {
  return e instanceof Error && e.name === 'RunCancelledError';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The notice for a finished run the store refused. */
function notStored(e: unknown): string {
  return `A finished run could not be stored (${messageOf(e)}); it is shown until the page closes but will be trained again after a reload.`;
}

/** Call a client control method without letting a dead worker's rejection go unhandled. */
function quietly(f: () => Promise<void> | void): void {
  try {
    void Promise.resolve(f()).catch(() => {});
  } catch {
    // the worker is gone: nothing to pause, resume or cancel
  }
}

interface Session {
  cancelled: boolean;
  paused: boolean;
  pausedAt: number;
  pausedMs: number;
  wake: (() => void) | null;
  finished: Promise<void>;
  /** step(): finished runs still to train before pausing by itself (unset or 0: no step in progress) */
  stepsLeft?: number;
  /** more workers for the fast path (start's `helpers`), paused, resumed and cancelled with the main one */
  helpers: RunnerClient[];
}

export function createGroundTruthRunner(options: GroundTruthRunnerOptions) {
  const { client, store } = options;
  const etaWindow = Math.max(1, options.etaWindow ?? 10);
  const now = options.now ?? (() => performance.now());
  const listeners = new Set<RunnerListener>();
  let state: RunnerState = {
    status: 'idle',
    done: 0,
    total: 0,
    skipped: 0,
    etaSeconds: null,
    backend: '',
    notice: store.notice ?? null,
    error: null,
    current: null,
    runs: [],
    configHash: null,
    sharing: null,
  };
  let session: Session | null = null;

  function set(patch: Partial<RunnerState>): void {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  }

  async function waitWhilePaused(s: Session): Promise<void> {
    while (s.paused && !s.cancelled) await new Promise<void>((resolve) => (s.wake = resolve));
  }

  /** Pause a session: no new run starts, and every worker pauses its run in flight at its next step. */
  function pauseSession(s: Session): void {
    if (s.paused || s.cancelled) return;
    s.paused = true;
    s.pausedAt = now();
    for (const w of [client, ...s.helpers]) quietly(() => w.pause());
    set({ status: 'paused' });
  }

  /** A run was recorded: teaching mode's Step pauses once all the runs of its step are in. */
  function stepRecorded(s: Session): void {
    if (s.stepsLeft && --s.stepsLeft === 0) pauseSession(s);
  }

  /**
   * The fast path: the jobs of one (strategy, seed) differ only in their ordering, so each such group trains in one
   * `runShared` call (prefix sharing + population in the worker); every run is stored the moment it finishes,
   * as on the naive path. ETA = active time per task trained so far × tasks left (the trie's nodes, not runs:
   * runs finish unevenly, the first after K tasks, the rest faster).
   */
  async function sharedLoop(s: Session, todo: GroundTruthJob[], trainConfigFor: (job: GroundTruthJob) => TrainRunConfig, configHash: string): Promise<void> {
    const live = (): boolean => session === s;
    const groups = new Map<string, GroundTruthJob[]>();
    for (const job of todo) groups.set(`${job.strategy}\u0000${job.seed}`, [...(groups.get(`${job.strategy}\u0000${job.seed}`) ?? []), job]);
    const planned = [...groups.values()].map((g) => {
      const configs = g.map(trainConfigFor);
      const trie = planPrefixes(configs.map((c) => c.tasks));
      return { jobs: g, configs, shared: trie.sharedTasks, naive: trie.naiveTasks };
    });
    const sharing = { tasksDone: 0, tasksPlanned: planned.reduce((n, g) => n + g.shared, 0), naiveTasks: planned.reduce((n, g) => n + g.naive, 0), population: 1 };
    set({ sharing: { ...sharing } });
    const started = now();
    s.pausedMs = 0;
    let tasksBefore = 0;
    for (const group of planned) {
      await waitWhilePaused(s);
      if (s.cancelled) break;
      const puts: Promise<void>[] = [];
      const first = group.jobs[0];
      set({ current: { orderingKey: first.orderingKey, strategy: first.strategy, seed: first.seed, progress: null } });
      const eta = (): number | null => {
        if (sharing.tasksDone === 0) return null;
        const active = Math.max(0, now() - started - s.pausedMs - (s.paused ? now() - s.pausedAt : 0)) / 1000;
        return (active / sharing.tasksDone) * (sharing.tasksPlanned - sharing.tasksDone);
      };
      // split the group across the session's workers by first task (whole subtrees of the trie, so nothing shared
      // is trained twice), balancing the number of orderings
      const workers = [client, ...s.helpers];
      const parts = splitBySubtree(group.configs, workers.length);
      const partTasks = parts.map(() => 0);
      const onRunDone = (i: number, result: RunnerRunResult): void => {
        if (!live()) return;
        const job = group.jobs[i];
        const run = storedRunOf(configHash, job, result);
        // counted as done once stored (as on the naive path): a reload then finds every run the page counted
        const recorded = (notice: string | null): void => {
          if (!live()) return;
          set({ done: state.done + 1, runs: [...state.runs, run], backend: result.backend, etaSeconds: eta(), ...(notice ? { notice } : {}) });
          stepRecorded(s);
        };
        puts.push(
          store.put(run).then(
            () => recorded(null),
            (e: unknown) => recorded(notStored(e)),
          ),
        );
      };
      try {
        const outs = await Promise.all(
          parts.map((part, k) =>
            part.length === 0
              ? null
              : workers[k].runShared!(
                  part.map((i) => group.configs[i]),
                  { population: 'auto' },
                  (j, result) => onRunDone(part[j], result),
                  (p) => {
                    if (!live()) return;
                    partTasks[k] = p.tasksDone;
                    sharing.tasksDone = tasksBefore + partTasks.reduce((a, b) => a + b, 0);
                    sharing.population = p.population;
                    set({ sharing: { ...sharing }, etaSeconds: eta(), current: state.current ? { ...state.current, progress: p.step } : null });
                  },
                  (n) => {
                    if (live()) set({ notice: n.message, ...(n.to ? { backend: n.to } : {}) });
                  },
                ).catch((e: unknown) => {
                  // one worker failed or was cancelled: stop the others too, then report the first reason
                  for (const w of workers) quietly(() => w.cancel());
                  throw e;
                }),
          ),
        );
        const out = outs.find((o) => o !== null);
        if (live() && out) set({ backend: out.backend });
      } catch (e) {
        await Promise.all(puts);
        if (s.cancelled || isCancelError(e)) {
          s.cancelled = true;
          break;
        }
        throw e;
      }
      await Promise.all(puts);
      tasksBefore += group.shared;
      sharing.tasksDone = tasksBefore;
      set({ sharing: { ...sharing }, current: null });
    }
  }

  async function loop(s: Session, jobs: GroundTruthJob[], trainConfigFor: (job: GroundTruthJob) => TrainRunConfig, configHash: string, fast: boolean): Promise<void> {
    const live = (): boolean => session === s;
    try {
      if (client.backend) {
        const b = await client.backend();
        if (b && live()) set({ backend: b });
      }
      const stored = await store.getAll(configHash);
      const have = new Set(stored.map(jobId));
      const todo = jobs.filter((j) => !have.has(jobId(j)));
      const skipped = jobs.length - todo.length;
      set({ runs: stored, skipped, done: skipped });
      if (fast && client.runShared && todo.length > 1) {
        await sharedLoop(s, todo, trainConfigFor, configHash);
        set({ status: s.cancelled ? 'cancelled' : 'done', current: null, etaSeconds: s.cancelled ? null : 0 });
        return;
      }
      const durations: number[] = [];
      for (const job of todo) {
        await waitWhilePaused(s);
        if (s.cancelled) break;
        const config = trainConfigFor(job);
        set({ current: { orderingKey: job.orderingKey, strategy: job.strategy, seed: job.seed, progress: null } });
        const started = now();
        s.pausedMs = 0;
        let result: RunnerRunResult;
        try {
          result = await client.run(
            config,
            (progress) => {
              if (live() && state.current) set({ current: { ...state.current, progress } });
            },
            (n) => {
              if (live()) set({ notice: n.message, ...(n.to ? { backend: n.to } : {}) });
            },
          );
        } catch (e) {
          if (s.cancelled || isCancelError(e)) {
            s.cancelled = true;
            break;
          }
          throw e;
        }
        const run = storedRunOf(configHash, job, result);
        let notice = state.notice;
        try {
          await store.put(run);
        } catch (e) {
          notice = notStored(e);
        }
        if (s.paused) s.pausedMs += now() - s.pausedAt; // paused while storing: count up to now
        if (s.paused) s.pausedAt = now();
        durations.push(Math.max(0, now() - started - s.pausedMs) / 1000);
        if (durations.length > etaWindow) durations.shift();
        const done = state.done + 1;
        const mean = durations.reduce((a, b) => a + b, 0) / durations.length;
        set({ done, runs: [...state.runs, run], backend: result.backend, etaSeconds: mean * (jobs.length - done), current: null, notice });
        stepRecorded(s);
      }
      set({ status: s.cancelled ? 'cancelled' : 'done', current: null, etaSeconds: s.cancelled ? null : 0 });
    } catch (e) {
      set({ status: 'error', error: messageOf(e), current: null, etaSeconds: null });
    } finally {
      if (session === s) session = null;
    }
  }

  function cancel(): void {
    const s = session;
    if (!s || s.cancelled) return;
    s.cancelled = true;
    for (const w of [client, ...s.helpers]) quietly(() => w.cancel());
    s.wake?.();
    s.wake = null;
  }

  return {
    get state(): RunnerState {
      return state;
    },

    /**
     * Train the plan's jobs that the store does not hold yet for `configHash`. Resolves when the runner stops
     * (done, cancelled or error: see `state.status`). A start while another is active cancels that one first.
     */
    async start(plan: { jobs: GroundTruthJob[] }, trainConfigFor: (job: GroundTruthJob) => TrainRunConfig, configHash: string, options: { fast?: boolean; helpers?: RunnerClient[] } = {}): Promise<void> {
      if (session) {
        const old = session;
        cancel();
        await old.finished;
      }
      let finish!: () => void;
      const s: Session = { cancelled: false, paused: false, pausedAt: 0, pausedMs: 0, wake: null, finished: new Promise<void>((r) => (finish = r)), helpers: (options.helpers ?? []).filter((h) => !!h.runShared) };
      session = s;
      set({
        status: 'running',
        done: 0,
        total: plan.jobs.length,
        skipped: 0,
        etaSeconds: null,
        notice: store.notice ?? null,
        error: null,
        current: null,
        runs: [],
        configHash,
        sharing: null,
      });
      try {
        await loop(s, plan.jobs, trainConfigFor, configHash, options.fast ?? true);
      } finally {
        finish();
      }
    },

    pause(): void {
      const s = session;
      if (s) pauseSession(s);
    },

    resume(): void {
      const s = session;
      if (!s || !s.paused || s.cancelled) return;
      s.stepsLeft = 0; // Play after a step plays on
      s.paused = false;
      s.pausedMs += now() - s.pausedAt;
      for (const w of [client, ...s.helpers]) quietly(() => w.resume());
      set({ status: 'running' });
      s.wake?.();
      s.wake = null;
    },

    /**
     * Teaching mode's Step: train `runs` more runs (default 1; the page passes the runs of one ordering) and pause
     * again once they are stored. From a pause it resumes (the run in flight counts); while running it pauses after
     * the next `runs` finish. No-op without a started session (start first, then step).
     */
    step(runs = 1): void {
      const s = session;
      if (!s || s.cancelled) return;
      this.resume();
      s.stepsLeft = Math.max(1, Math.floor(runs));
    },

    /** Stop: the run in flight is dropped, finished runs stay stored. `state.status` becomes 'cancelled'. */
    cancel,

    /** Svelte-store style: called at once with the current state, then on every change. */
    subscribe(listener: RunnerListener): () => void {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
  };
}

export type GroundTruthRunner = ReturnType<typeof createGroundTruthRunner>;
