/**
 * The Ground-truth lab's runner: trains a plan's jobs (ordering × strategy × seed, src/core/ground-truth/plan.ts)
 * one after another in the training worker, stores every finished run at once, and tells its subscribers how far
 * it is (docs/architecture.md: "Results are stored per (config hash, ordering key, strategy, seed) as soon as each run
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
import { createRunSession, oneAtATime, quietly, type SessionContext, type SessionCoordinator, type SessionState, type SessionStatus } from './lab-kit/run-session';

export type RunnerStatus = SessionStatus;

/** The session's state (./lab-kit/run-session.ts) with this lab's run in flight and the fast path's plan. */
export type RunnerState = SessionState<StoredRun, { orderingKey: string; strategy: string; seed: number; progress: ProgressEvent | null }> & {
  /**
   * The fast path's plan and progress (prefix sharing + population, issue 7), over every group of this start:
   * tasks trained so far and planned, what the naive path would train, the population size in use. Null on the
   * naive path.
   */
  sharing: { tasksDone: number; tasksPlanned: number; naiveTasks: number; population: number } | null;
};

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
  /** the worker that trains (a start may bring its own, e.g. leased from ./lab-kit/train-pool.ts) */
  client?: RunnerClient;
  store: RunnerStore;
  /** runs the ETA averages over (default 10) */
  etaWindow?: number;
  /** clock in ms (tests) */
  now?: () => number;
  /** another tab training the same config: follow it (./lab-kit/coordinator.ts `webLocksCoordinator('ground-truth')`) */
  coordinator?: SessionCoordinator | null;
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

type Current = NonNullable<RunnerState['current']>;
type Sharing = RunnerState['sharing'];
const currentOf = (j: GroundTruthJob): Current => ({ orderingKey: j.orderingKey, strategy: j.strategy, seed: j.seed, progress: null });

export function createGroundTruthRunner(options: GroundTruthRunnerOptions) {
  const { store } = options;
  let client = options.client as RunnerClient;
  const etaWindow = Math.max(1, options.etaWindow ?? 10);
  const session = createRunSession<GroundTruthJob, StoredRun, Current, { sharing: Sharing }>({
    store,
    jobId,
    resultId: jobId,
    initialExtra: { sharing: null },
    now: options.now,
    coordinator: options.coordinator,
  });
  type Ctx = SessionContext<StoredRun, Current, { sharing: Sharing }>;

  /** Ask the worker its backend before the first run (shown while the first run trains). */
  async function showBackend(ctx: Ctx): Promise<void> {
    if (!client.backend) return;
    const b = await client.backend();
    if (b) ctx.set({ backend: b });
  }

  /** One run at a time (the naive path; teaching mode's Step counts runs). */
  const naive = (configHash: string, trainConfigFor: (job: GroundTruthJob) => TrainRunConfig) =>
    oneAtATime<GroundTruthJob, StoredRun, Current, { sharing: Sharing }>({
      etaWindow,
      current: currentOf,
      train: async (job, ctx) => {
        const result = await client.run(
          trainConfigFor(job),
          (p) => ctx.progress(p),
          (n) => ctx.notice(n.message, n.to),
        );
        return storedRunOf(configHash, job, result);
      },
      after: (run) => ({ backend: run.backend }),
    });

  /**
   * The fast path: the jobs of one (strategy, seed) differ only in their ordering, so each such group trains in one
   * `runShared` call (prefix sharing + population in the worker); every run is stored the moment it finishes,
   * as on the naive path. ETA = active time per task trained so far × tasks left (the trie's nodes, not runs:
   * runs finish unevenly, the first after K tasks, the rest faster).
   */
  async function sharedLoop(ctx: Ctx, todo: GroundTruthJob[], trainConfigFor: (job: GroundTruthJob) => TrainRunConfig, configHash: string): Promise<void> {
    const groups = new Map<string, GroundTruthJob[]>();
    for (const job of todo) groups.set(`${job.strategy}\u0000${job.seed}`, [...(groups.get(`${job.strategy}\u0000${job.seed}`) ?? []), job]);
    const planned = [...groups.values()].map((g) => {
      const configs = g.map(trainConfigFor);
      const trie = planPrefixes(configs.map((c) => c.tasks));
      return { jobs: g, configs, shared: trie.sharedTasks, naive: trie.naiveTasks };
    });
    const sharing = { tasksDone: 0, tasksPlanned: planned.reduce((n, g) => n + g.shared, 0), naiveTasks: planned.reduce((n, g) => n + g.naive, 0), population: 1 };
    ctx.set({ sharing: { ...sharing } });
    const active = ctx.stopwatch();
    const eta = (): number | null => (sharing.tasksDone === 0 ? null : (active() / sharing.tasksDone) * (sharing.tasksPlanned - sharing.tasksDone));
    // the workers of this start: split each group across them by first task (whole subtrees of the trie, so nothing
    // shared is trained twice), balancing the number of orderings
    const workers = ctx.workers as RunnerClient[];
    let tasksBefore = 0;
    for (const group of planned) {
      if (!(await ctx.pausePoint())) return;
      const puts: Promise<void>[] = [];
      ctx.set({ current: currentOf(group.jobs[0]) });
      const parts = splitBySubtree(group.configs, workers.length);
      const partTasks = parts.map(() => 0);
      // counted as done once stored (as on the naive path): a reload then finds every run the page counted
      const onRunDone = (i: number, result: RunnerRunResult): void => {
        if (ctx.live()) puts.push(ctx.record(storedRunOf(configHash, group.jobs[i], result), () => ({ backend: result.backend, etaSeconds: eta() })));
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
                    if (!ctx.live()) return;
                    partTasks[k] = p.tasksDone;
                    sharing.tasksDone = tasksBefore + partTasks.reduce((a, b) => a + b, 0);
                    sharing.population = p.population;
                    const current = ctx.state.current;
                    ctx.set({ sharing: { ...sharing }, etaSeconds: eta(), current: current ? { ...current, progress: p.step } : null });
                  },
                  (n) => ctx.notice(n.message, n.to),
                ).catch((e: unknown) => {
                  // one worker failed or was cancelled: stop the others too, then report the first reason
                  for (const w of workers) quietly(() => w.cancel());
                  throw e;
                }),
          ),
        );
        const out = outs.find((o) => o !== null);
        if (out) ctx.set({ backend: out.backend });
      } finally {
        await Promise.all(puts);
      }
      tasksBefore += group.shared;
      sharing.tasksDone = tasksBefore;
      ctx.set({ sharing: { ...sharing }, current: null });
    }
  }

  return {
    get state(): RunnerState {
      return session.state;
    },

    /**
     * Train the plan's jobs that the store does not hold yet for `configHash`. Resolves when the runner stops
     * (done, cancelled or error: see `state.status`). A start while another is active cancels that one first.
     */
    async start(plan: { jobs: GroundTruthJob[] }, trainConfigFor: (job: GroundTruthJob) => TrainRunConfig, configHash: string, options: { fast?: boolean; client?: RunnerClient; helpers?: RunnerClient[] } = {}): Promise<void> {
      if (options.client) client = options.client;
      if (!client) throw new Error('The Ground-truth runner has no training worker: give one to createGroundTruthRunner or to start.');
      const helpers = (options.helpers ?? []).filter((h) => !!h.runShared);
      const fast = options.fast ?? true;
      const naiveDriver = naive(configHash, trainConfigFor);
      await session.start(
        plan.jobs,
        configHash,
        async (todo, ctx) => {
          await showBackend(ctx);
          if (fast && client.runShared && todo.length > 1) await sharedLoop(ctx, todo, trainConfigFor, configHash);
          else await naiveDriver(todo, ctx);
        },
        { workers: [client, ...helpers] },
      );
    },

    pause: session.pause,
    resume: session.resume,
    /**
     * Teaching mode's Step: train `runs` more runs (default 1; the page passes the runs of one ordering) and pause
     * again once they are stored. From a pause it resumes (the run in flight counts); while running it pauses after
     * the next `runs` finish. No-op without a started session (start first, then step).
     */
    step: session.step,
    /** Stop: the run in flight is dropped, finished runs stay stored. `state.status` becomes 'cancelled'. */
    cancel: session.cancel,
    /** Svelte-store style: called at once with the current state, then on every change. */
    subscribe(listener: RunnerListener): () => void {
      return session.subscribe(listener);
    },
  };
}

export type GroundTruthRunner = ReturnType<typeof createGroundTruthRunner>;
