/**
 * The Ground-truth lab's runner, on the lab kit's run session (./lab-kit/run-session.ts, which stores every finished
 * run at once, skips what the store holds, and gives pause, resume, cancel and the ETA): trains a plan's jobs
 * (ordering × strategy × seed, src/core/ground-truth/plan.ts) in the pool's training workers. `done` counts finished
 * jobs including the skipped ones (the progress bar is done / total). A failed run (after the engine's backend
 * fallback gave up) ends the start with status 'error' and its message; runs finished before it stay stored.
 */
import type { ExperimentConfig } from '../core/config/schema';
import type { GroundTruthJob } from '../core/ground-truth/plan';
import { trainRunConfigOf } from '../engine/run-config';
import { storedRunOf, type ResultsStore, type StoredRun } from './results-store';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import { scheduleOrderings, type Schedule } from '../core/ground-truth/schedule';
import { createDealer, type DealerStats } from '../core/ground-truth/deal';
import type { FallbackNotice, ProgressEvent, SharedCheckpoint, SharedNext, SharedProgress, SharedTrainOptions, TrainRunConfig } from '../engine/index';
import type { PtmJobEvent, PtmJobInput, PtmJobOutput } from '../engine/features/ptm-job';
import type { HeadBar } from '../engine/features/head-bar';
import { createRunSession, oneAtATime, quietly, type SessionContext, type SessionCoordinator, type SessionState } from './lab-kit/run-session';

/** The session's state (./lab-kit/run-session.ts) with this lab's run in flight and the fast path's plan. */
export type RunnerState = SessionState<StoredRun, { orderingKey: string; strategy: string; seed: number; progress: ProgressEvent | null }> & {
  /**
   * The fast path's plan and progress (prefix sharing + population), over every group of this start:
   * tasks trained so far and planned, what the naive path would train, the population size in use. Null on the
   * naive path. `order`: how the orderings finish — 'sample' (in the seeded sample order, dealt to the workers one
   * by one: the finished ones are a uniform random sample at every moment, within workers − 1) or 'depth-first'
   * (the memory fallback of core/ground-truth/schedule.ts: whole first-task subtrees per worker, not a sample).
   * `stepsDone`: optimiser steps trained so far over all workers. `handoffs`: prefixes one worker trained and
   * another continued from (core/ground-truth/deal.ts), and how many of those deals waited for the prefix to finish.
   */
  sharing: {
    tasksDone: number;
    tasksPlanned: number;
    naiveTasks: number;
    population: number;
    order: Schedule['mode'];
    stepsDone: number;
    handoffs: { imports: number; waits: number };
    /** what trains (engine SharedProgress `kernels`: level-batched WebGPU, the fused wasm step, tfjs), and on WebGPU why not level-batched */
    kernels?: SharedProgress['kernels'];
    note?: string;
  } | null;
  /**
   * The pre-trained methods' path (engine/features/ptm-job.ts: exact by class set, not trained), per method and seed
   * as they run: the stage, orderings done of the total, states computed, and when finished the path in words
   * ("exact by class set: 31 states for 90 orderings") with the seconds of the features, the set-up and the orderings.
   */
  ptm: PtmRunInfo[];
};

export interface PtmRunInfo {
  strategy: string;
  seed: number;
  stage: 'features' | 'setup' | 'orderings' | 'done';
  done: number;
  total: number;
  states: number;
  path: string | null;
  method: string | null;
  seconds: { features: number; setup: number; orderings: number } | null;
  /** the trained head's bar on these features, when this group measured it (engine/features/head-bar.ts) */
  headBar?: HeadBar;
}

/** What the runner's pre-trained path needs: which strategies are pre-trained methods, and each group's job input. */
export interface RunnerPtm {
  isPtm(strategy: string): boolean;
  inputOf(strategy: string, seed: number, orderings: number[][][]): PtmJobInput;
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
    next?: () => SharedNext | Promise<SharedNext>,
    onCheckpoint?: (c: SharedCheckpoint) => void,
  ): Promise<{ backend: string; population: number }>;
  /** the pre-trained methods' job (train-client.ts `job('ptm', …)`) */
  ptmJob?(input: PtmJobInput, onEvent: (e: PtmJobEvent) => void): Promise<PtmJobOutput>;
}

/** The backend a pre-trained method's runs record: float64 arithmetic in plain TypeScript, no tfjs. */
export const PTM_BACKEND = 'core';

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
    const k = c.tasks[0]
      .slice()
      .sort((a, b) => a - b)
      .join(',');
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
type Extra = { sharing: Sharing; ptm: PtmRunInfo[] };
const currentOf = (j: GroundTruthJob): Current => ({ orderingKey: j.orderingKey, strategy: j.strategy, seed: j.seed, progress: null });

export function createGroundTruthRunner(options: GroundTruthRunnerOptions) {
  const { store } = options;
  let client = options.client as RunnerClient;
  const etaWindow = Math.max(1, options.etaWindow ?? 10);
  const session = createRunSession<GroundTruthJob, StoredRun, Current, Extra>({
    store,
    jobId,
    resultId: jobId,
    initialExtra: { sharing: null, ptm: [] },
    now: options.now,
    coordinator: options.coordinator,
  });
  type Ctx = SessionContext<StoredRun, Current, Extra>;

  /** Ask the worker its backend before the first run (shown while the first run trains). */
  async function showBackend(ctx: Ctx): Promise<void> {
    if (!client.backend) return;
    const b = await client.backend();
    if (b) ctx.set({ backend: b });
  }

  /** One run at a time (the naive path; teaching mode's Step counts runs). */
  const naive = (configHash: string, trainConfigFor: (job: GroundTruthJob) => TrainRunConfig) =>
    oneAtATime<GroundTruthJob, StoredRun, Current, Extra>({
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
   * The fast path: the jobs of one (strategy, seed) differ only in their ordering, so each such group trains with
   * `runShared` (prefix sharing + population in the worker); every run is stored the moment it finishes, as on the
   * naive path. The orderings finish in the sample order (`order`: ordering keys, first first; see
   * core/ground-truth/schedule.ts): one worker trains them in that order; several workers are dealt them one by
   * one from that order as each becomes free (pull mode, core/ground-truth/deal.ts), so the finished orderings are
   * the first n of the order within workers − 1. A prefix is trained by the worker dealt the first ordering through
   * it; a worker dealt a later one continues from its checkpoint (weights + strategy state, passed through here), so
   * no task is trained twice. When the order would keep too many copies (deep tries), the schedule falls back to a
   * seeded depth-first walk and whole first-task subtrees per worker (nothing trained twice, not a sample).
   * ETA = active time per task trained so far × tasks left.
   */
  async function sharedLoop(
    ctx: Ctx,
    todo: GroundTruthJob[],
    trainConfigFor: (job: GroundTruthJob) => TrainRunConfig,
    configHash: string,
    order: string[] | null,
    orderSeed: number,
    maxKept?: number,
  ): Promise<void> {
    const groups = new Map<string, GroundTruthJob[]>();
    for (const job of todo) groups.set(`${job.strategy}\u0000${job.seed}`, [...(groups.get(`${job.strategy}\u0000${job.seed}`) ?? []), job]);
    const rankOfKey = new Map((order ?? []).map((k, r) => [k, r]));
    const planned = [...groups.values()].map((g) => {
      const configs = g.map(trainConfigFor);
      const trie = planPrefixes(configs.map((c) => c.tasks));
      const schedule = scheduleOrderings(
        configs.map((c) => c.tasks),
        (i) => rankOfKey.get(g[i].orderingKey) ?? rankOfKey.size + i,
        orderSeed,
        maxKept,
      );
      return { jobs: g, configs, shared: trie.sharedTasks, naive: trie.naiveTasks, schedule };
    });
    const sharing: NonNullable<RunnerState['sharing']> = {
      tasksDone: 0,
      tasksPlanned: planned.reduce((n, g) => n + g.shared, 0),
      naiveTasks: planned.reduce((n, g) => n + g.naive, 0),
      population: 1,
      order: planned[0]?.schedule.mode ?? 'sample',
      stepsDone: 0,
      handoffs: { imports: 0, waits: 0 },
    };
    ctx.set({ sharing: { ...sharing, handoffs: { ...sharing.handoffs } } });
    const active = ctx.stopwatch();
    const eta = (): number | null => (sharing.tasksDone === 0 ? null : (active() / sharing.tasksDone) * Math.max(0, sharing.tasksPlanned - sharing.tasksDone));
    const workers = ctx.workers as RunnerClient[];
    let tasksBefore = 0;
    let stepsBefore = 0;
    const handoffsBefore = { imports: 0, waits: 0 };
    for (const group of planned) {
      if (!(await ctx.pausePoint())) return;
      const puts: Promise<void>[] = [];
      ctx.set({ current: currentOf(group.jobs[0]) });
      sharing.order = group.schedule.mode;
      const pull = group.schedule.mode === 'sample' && workers.length > 1;
      // the parts: pull mode deals every ordering to whichever worker is free; otherwise one worker trains the
      // group in order, or (depth-first fallback) whole first-task subtrees per worker, each in the walk's order
      const parts = pull
        ? workers.map(() => group.configs.map((_, i) => i))
        : group.schedule.mode === 'sample'
          ? [group.configs.map((_, i) => i)]
          : splitBySubtree(group.configs, workers.length);
      const partTasks = parts.map(() => 0);
      const partSteps = parts.map(() => 0);
      const dealer = pull
        ? createDealer<SharedCheckpoint>(
            group.configs.map((c) => c.tasks),
            group.schedule.order,
            workers.length,
          )
        : null;
      const handoffs = (stats: DealerStats | undefined) => ({
        imports: handoffsBefore.imports + (stats?.imports ?? 0),
        waits: handoffsBefore.waits + (stats?.waits ?? 0),
      });
      const next = (k: number) => (): Promise<SharedNext> => {
        if (!ctx.live()) dealer!.stop();
        return dealer!.next(k);
      };
      // counted as done once stored (as on the naive path): a reload then finds every run the page counted
      const onRunDone = (i: number, result: RunnerRunResult): void => {
        if (ctx.live()) puts.push(ctx.record(storedRunOf(configHash, group.jobs[i], result), () => ({ backend: result.backend, etaSeconds: eta() })));
      };
      try {
        const outs = await Promise.all(
          parts.map((part, k) => {
            if (part.length === 0) return null;
            const w = workers[k];
            const at = new Map(part.map((i, j) => [i, j]));
            const orderHere = group.schedule.order.filter((i) => at.has(i)).map((i) => at.get(i) as number);
            return w.runShared!(
              part.map((i) => group.configs[i]),
              pull ? { population: 'auto' } : { population: 'auto', order: orderHere },
              (j, result) => onRunDone(part[j], result),
              (p) => {
                if (!ctx.live()) return;
                partTasks[k] = p.tasksDone;
                partSteps[k] = p.stepsDone ?? 0;
                sharing.tasksDone = tasksBefore + partTasks.reduce((a, b) => a + b, 0);
                sharing.stepsDone = stepsBefore + partSteps.reduce((a, b) => a + b, 0);
                sharing.population = p.population;
                sharing.kernels = p.kernels;
                if (p.note) sharing.note = p.note;
                sharing.handoffs = handoffs(dealer?.stats);
                const current = ctx.state.current;
                ctx.set({ sharing: { ...sharing }, etaSeconds: eta(), current: current ? { ...current, progress: p.step } : null });
              },
              (n) => ctx.notice(n.message, n.to),
              dealer ? next(k) : undefined,
              dealer ? (c: SharedCheckpoint) => dealer.publish(k, c.key, c) : undefined,
            ).catch((e: unknown) => {
              // one worker failed or was cancelled: stop the others too (and any deal waiting for its prefix), then
              // report the first reason
              dealer?.stop();
              for (const o of workers) quietly(() => o.cancel());
              throw e;
            });
          }),
        );
        const out = outs.find((o) => o !== null);
        if (out) ctx.set({ backend: out.backend });
      } finally {
        dealer?.stop();
        await Promise.all(puts);
      }
      tasksBefore += partTasks.reduce((a, b) => a + b, 0);
      stepsBefore += partSteps.reduce((a, b) => a + b, 0);
      Object.assign(handoffsBefore, handoffs(dealer?.stats));
      sharing.tasksDone = tasksBefore;
      sharing.stepsDone = stepsBefore;
      sharing.handoffs = { ...handoffsBefore };
      ctx.set({ sharing: { ...sharing }, current: null });
    }
  }

  /**
   * The pre-trained methods: one worker job per (method, seed) computes every ordering of the group from the states
   * cached by class set (core/ptm/ground-truth.ts); its records arrive in batches and each is stored as a run at
   * once, as a trained run is. Nothing is trained, so the prefix plan and the sample order do not apply.
   */
  async function ptmLoop(ctx: Ctx, todo: GroundTruthJob[], configHash: string, ptm: RunnerPtm): Promise<void> {
    const groups = new Map<string, GroundTruthJob[]>();
    for (const job of todo) groups.set(`${job.strategy}\u0000${job.seed}`, [...(groups.get(`${job.strategy}\u0000${job.seed}`) ?? []), job]);
    if (!client.ptmJob) throw new Error('This training worker cannot run the pre-trained methods (no ptm job).');
    const infos: PtmRunInfo[] = [...groups.values()].map((g) => ({
      strategy: g[0].strategy,
      seed: g[0].seed,
      stage: 'features',
      done: 0,
      total: g.length,
      states: 0,
      path: null,
      method: null,
      seconds: null,
    }));
    const show = () => ctx.set({ ptm: infos.map((x) => ({ ...x })) });
    show();
    let k = 0;
    for (const group of groups.values()) {
      const info = infos[k++];
      if (!(await ctx.pausePoint())) return;
      ctx.set({ current: currentOf(group[0]) });
      const byKey = new Map(group.map((j) => [j.orderingKey, j]));
      const puts: Promise<void>[] = [];
      const t0 = (options.now ?? (() => performance.now()))();
      try {
        const out = await client.ptmJob(
          ptm.inputOf(
            info.strategy,
            info.seed,
            group.map((j) => j.tasks),
          ),
          (e) => {
            if (!ctx.live()) return;
            if (e.kind === 'stage') {
              info.stage = e.stage;
              show();
              return;
            }
            // the seconds a run records: the group's time so far over its orderings so far
            const seconds = ((options.now ?? (() => performance.now()))() - t0) / 1000 / Math.max(1, e.done);
            for (const r of e.records) {
              const job = byKey.get(r.orderingKey);
              if (!job) continue;
              const untrained = new Array<number>(r.matrix.length).fill(0);
              puts.push(ctx.record(storedRunOf(configHash, job, { matrix: r.matrix, untrained, testCounts: r.testCounts, backend: PTM_BACKEND, seconds })));
            }
            info.done = e.done;
            info.states = e.states;
            show();
          },
        );
        Object.assign(info, {
          stage: 'done',
          path: out.summary.path,
          method: out.summary.method,
          seconds: out.seconds,
          states: out.summary.cache.computed,
          ...(out.headBar ? { headBar: out.headBar } : {}),
        });
        show();
      } finally {
        await Promise.all(puts);
      }
    }
    ctx.set({ current: null, backend: PTM_BACKEND });
  }

  return {
    get state(): RunnerState {
      return session.state;
    },

    /**
     * Train the plan's jobs that the store does not hold yet for `configHash`. Resolves when the runner stops
     * (done, cancelled or error: see `state.status`). A start while another is active cancels that one first.
     */
    async start(
      plan: { jobs: GroundTruthJob[] },
      trainConfigFor: (job: GroundTruthJob) => TrainRunConfig,
      configHash: string,
      /** `order`: ordering keys in the order the fast path is to finish them (core/ground-truth/schedule.ts sampleOrder; default: plan order); `orderSeed`: the depth-first fallback's seed; `maxKept`: its bound (tests) */
      options: {
        fast?: boolean;
        client?: RunnerClient;
        helpers?: RunnerClient[];
        order?: string[];
        orderSeed?: number;
        maxKept?: number;
        /** the pre-trained methods among the strategies: their runs come from the ptm job, first (they take a moment) */
        ptm?: RunnerPtm;
      } = {},
    ): Promise<void> {
      if (options.client) client = options.client;
      if (!client) throw new Error('The Ground-truth runner has no training worker: give one to createGroundTruthRunner or to start.');
      const helpers = (options.helpers ?? []).filter((h) => !!h.runShared);
      const fast = options.fast ?? true;
      const naiveDriver = naive(configHash, trainConfigFor);
      await session.start(
        plan.jobs,
        configHash,
        async (all, ctx) => {
          const ptm = options.ptm;
          const ptmTodo = ptm ? all.filter((j) => ptm.isPtm(j.strategy)) : [];
          const todo = ptm ? all.filter((j) => !ptm.isPtm(j.strategy)) : all;
          if (ptm && ptmTodo.length > 0) await ptmLoop(ctx, ptmTodo, configHash, ptm);
          if (todo.length === 0 || !ctx.live() || ctx.cancelled) return;
          await showBackend(ctx);
          if (fast && client.runShared && todo.length > 1)
            await sharedLoop(ctx, todo, trainConfigFor, configHash, options.order ?? null, options.orderSeed ?? 0, options.maxKept);
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

/** The engine's run config of each job, from the experiment: the one mapping every lab and the CLI use (src/engine/run-config.ts). */
export function trainConfigFor(config: ExperimentConfig): (job: GroundTruthJob) => TrainRunConfig {
  return (job) => trainRunConfigOf(config, job);
}
