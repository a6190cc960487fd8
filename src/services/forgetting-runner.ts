/**
 * The Forgetting lab's runner (docs/science.md §3: built on the lab kit's run session,
 * ./lab-kit/run-session.ts): trains the runs of an experiment config (`forgetting.preset`'s runs, or the one run the
 * config describes; src/core/forgetting/from-config.ts) one after another in a training worker leased from the
 * shared pool (./lab-kit/train-pool.ts), with softmax outputs recorded, and stores each finished run at once.
 *
 * - Every run's engine config is `trainRunConfigOf(jobConfig(config, job), job)` (src/engine/run-config.ts), the
 *   function the other labs and the CLI use (`forgettingRunConfigs`).
 * - Runs are stored under a group derived from the jobs (`groupOf`): starting the same setup again trains only the
 *   runs it lacks (a reload, or a cancelled preset, resumes).
 * - While a run trains, the worker delivers each finished task (its row of R and its softmax outputs); `current.live`
 *   gathers them (src/core/forgetting/live.ts), so the page draws CPCF task by task.
 * - Two tabs on the same setup (with `coordinator`): one trains, the other shows the runs it stores (`following`).
 * - ETA: from the share of training steps done (each task weighs its classes × epochs, `runFraction`), so a single
 *   run has an estimate before it finishes; `current.fraction` is that share for the run in flight.
 */
import type { ExperimentConfig } from '../core/config/schema';
import { forgettingJobsOf, groupOf, jobConfig, jobKey } from '../core/forgetting/from-config';
import { addDeliveredTask, emptyLiveRun, type LiveRun } from '../core/forgetting/live';
import { runFraction, type ForgettingJob, type PresetId } from '../core/forgetting/setup';
import { trainRunConfigOf } from '../engine/run-config';
import type { BackendInfo, BackendName, ProgressEvent, TrainRunConfig, TrainRunResult } from '../engine/index';
import { builtinDatasetSpec, type DatasetSpec, type TaskResult } from '../workers/train-api';
import type { ForgettingRun, ForgettingStore, StoredProbs } from './forgetting-store';
import { createRunSession, type Controllable, type SessionContext, type SessionCoordinator, type SessionState } from './lab-kit/run-session';
import type { Lease, PoolWorker } from './lab-kit/train-pool';

/** The engine's run config of every run of a config, with its job. */
export function forgettingRunConfigs(
  config: ExperimentConfig,
  o: Parameters<typeof forgettingJobsOf>[1] = {},
): { job: ForgettingJob; config: TrainRunConfig }[] {
  return forgettingJobsOf(config, o).map((job) => ({ job, config: trainRunConfigOf(jobConfig(config, job), job) }));
}

/** The images a job trains on (the worker's dataset spec). */
export function datasetSpecOf(job: ForgettingJob): DatasetSpec {
  return builtinDatasetSpec(job.dataset, job.trainPerClass, job.testPerClass);
}

/** The run in flight. */
export interface ForgettingCurrent {
  id: string;
  group: string;
  preset: PresetId | null;
  job: ForgettingJob;
  /** the run's index among the start's jobs */
  index: number;
  /** rows of R and outputs of the tasks finished so far */
  live: LiveRun<StoredProbs>;
  createdAt: number;
  progress: ProgressEvent | null;
  /** share of the run's training steps done (0..1) */
  fraction: number;
}

export type ForgettingRunnerState = SessionState<ForgettingRun, ForgettingCurrent> & {
  /** the group of the last start (its runs are `runs`) */
  group: string | null;
  preset: PresetId | null;
  /** 'Choosing the backend…', 'Loading digits…' while a worker is being set up, else '' */
  preparing: string;
  backendInfo: BackendInfo | null;
};

type Extra = Pick<ForgettingRunnerState, 'group' | 'preset' | 'preparing' | 'backendInfo'>;

/** What the runner needs of a training worker (train-client.ts TrainClient; a fake in the unit tests). */
export interface ForgettingWorker extends PoolWorker, Controllable {
  run(
    config: TrainRunConfig,
    onProgress?: (e: ProgressEvent) => void,
    onNotice?: (n: { message: string; to: string | null }) => void,
    onTask?: (t: TaskResult) => void,
  ): Promise<TrainRunResult & { backend: string }>;
}

export interface ForgettingRunnerOptions<W extends ForgettingWorker> {
  store: Pick<ForgettingStore, 'all' | 'put'> & { readonly notice?: string | null };
  /** the shared pool (./lab-kit/index.ts `sharedTrainPool`) or a test's */
  pool: { lease(request: { backend: BackendName | 'auto'; dataset: DatasetSpec }): Promise<Lease<W>> };
  now?: () => number;
  /** another tab training the same setup: follow it (./lab-kit/coordinator.ts) */
  coordinator?: SessionCoordinator | null;
  /** Date.now() of stored runs (tests) */
  clock?: () => number;
}

export function createForgettingRunner<W extends ForgettingWorker>(options: ForgettingRunnerOptions<W>) {
  const { store, pool } = options;
  const clock = options.clock ?? (() => Date.now());
  let group = '';
  const session = createRunSession<ForgettingJob, ForgettingRun, ForgettingCurrent, Extra>({
    store: { getAll: async (g) => (await store.all()).filter((r) => r.group === g), put: (r) => store.put(r), notice: store.notice },
    jobId: jobKey,
    resultId: (r) => jobKey(r.job),
    initialExtra: { group: null, preset: null, preparing: '', backendInfo: null },
    now: options.now,
    coordinator: options.coordinator,
  });
  type Ctx = SessionContext<ForgettingRun, ForgettingCurrent, Extra>;

  let lease: Lease<W> | null = null;
  let leaseKey = '';
  /** pause / resume / cancel reach the worker of the run in flight, whichever lease it came from */
  const worker: Controllable = {
    pause: () => lease?.main.pause(),
    resume: () => lease?.main.resume(),
    cancel: () => lease?.main.cancel(),
  };
  function releaseLease(): void {
    lease?.release();
    lease = null;
    leaseKey = '';
  }

  async function workerFor(job: ForgettingJob, backend: BackendName | 'auto', ctx: Ctx): Promise<W> {
    const spec = datasetSpecOf(job);
    const key = `${backend}|${JSON.stringify(spec)}`;
    if (lease && leaseKey === key) return lease.main;
    releaseLease();
    ctx.set({ preparing: `Loading ${job.dataset} on the ${backend === 'auto' ? 'best' : backend} backend…` });
    lease = await pool.lease({ backend, dataset: spec });
    leaseKey = key;
    ctx.set({ preparing: '', backendInfo: lease.backend, backend: lease.backend.name });
    return lease.main;
  }

  async function train(config: ExperimentConfig, jobs: ForgettingJob[], todo: ForgettingJob[], ctx: Ctx): Promise<void> {
    const preset = config.forgetting.preset;
    const backend = config.backend.train;
    const active = ctx.stopwatch();
    const weights = todo.map((j) => j.tasks.reduce((n, t, i) => n + t.length * (i === 0 ? j.firstTaskEpochs : j.epochs), 0));
    const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
    let weightDone = 0;
    for (let k = 0; k < todo.length; k++) {
      if (!(await ctx.pausePoint())) return;
      const job = todo[k];
      const client = await workerFor(job, backend, ctx);
      if (!(await ctx.pausePoint())) return;
      const index = jobs.indexOf(job);
      const id = `${group}-${index}`;
      const createdAt = clock();
      ctx.set({ current: { id, group, preset, job, index, live: emptyLiveRun<StoredProbs>(job.tasks.length), createdAt, progress: null, fraction: 0 } });
      const result = await client.run(
        trainRunConfigOf(jobConfig(config, job), job),
        (e) => {
          const cur = ctx.state.current;
          if (!ctx.live() || !cur || cur.id !== id) return;
          const fraction = runFraction(job.tasks, job.firstTaskEpochs, job.epochs, e);
          const overall = (weightDone + fraction * weights[k]) / totalWeight;
          ctx.set({ current: { ...cur, progress: e, fraction }, etaSeconds: overall > 0.02 ? (active() * (1 - overall)) / overall : null });
        },
        (n) => ctx.notice(n.message, n.to),
        (t) => {
          const cur = ctx.state.current;
          if (ctx.live() && cur && cur.id === id) ctx.set({ current: { ...cur, live: addDeliveredTask(cur.live, t) } });
        },
      );
      const run: ForgettingRun = {
        id,
        group,
        preset,
        job,
        matrix: result.matrix,
        testCounts: result.testCounts,
        trainCounts: result.trainCounts,
        calibrationCounts: result.calibrationCounts,
        classOrder: result.classOrder,
        probs: result.probs ?? [],
        backend: result.backend,
        seconds: result.seconds,
        createdAt,
      };
      weightDone += weights[k];
      const overall = weightDone / totalWeight;
      await ctx.record(run, () => ({ current: null, backend: result.backend, etaSeconds: overall < 1 ? (active() * (1 - overall)) / overall : 0 }));
    }
  }

  return {
    get state(): ForgettingRunnerState {
      return session.state;
    },

    /**
     * Train the runs of `config` that are not stored yet (see the top of this file). `edgeOrderings` are needed for
     * the EDGE preset; `orderingLabel` names a single run's ordering. Resolves when the runner stops.
     */
    async start(config: ExperimentConfig, o: Parameters<typeof forgettingJobsOf>[1] = {}): Promise<void> {
      const jobs = forgettingJobsOf(config, o);
      const preset = config.forgetting.preset;
      const g = groupOf(preset, jobs);
      const frozen = structuredClone(config);
      group = g;
      await session.start(
        jobs,
        g,
        async (todo, ctx) => {
          ctx.set({ group: g, preset });
          await train(frozen, jobs, todo, ctx);
        },
        { workers: [worker] },
      );
      if (group === g && !session.active) releaseLease();
    },

    pause: session.pause,
    resume: session.resume,
    step: session.step,
    cancel: session.cancel,
    subscribe: session.subscribe,
    /** Give the leased worker back (the page is closing). */
    dispose(): void {
      session.cancel();
      releaseLease();
    },
  };
}

export type ForgettingRunner = ReturnType<typeof createForgettingRunner>;
