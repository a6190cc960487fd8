/**
 * The Ground-truth lab's runs: the training workers leased from the lab kit's shared pool (every core the browser
 * reports on CPU backends, warmed up when the page first idles so Run starts at once), the results store keyed per
 * run by what determines it (./run-store.ts), the runner on the run session (tabs coordinated), and the statistics of
 * the runs finished so far — with whether they are a uniform random sample (`partialSample`). The third layer of
 * `GroundTruthLab`, over the plan (./lab-plan.svelte.ts).
 */
import { type ExperimentConfig, type FeaturesConfig, type StrategySetting } from '../../core/config/schema';
import { isPtmStrategyId, type PtmStrategy } from '../../core/ptm/defaults';
import { deriveGroundTruth, type GroundTruthStats } from '../../core/ground-truth/derive';
import { strategiesShown } from '../../core/results-import/stored-runs';
import { createGroundTruthRunner, trainConfigFor, type GroundTruthRunner, type RunnerClient, type RunnerState } from '../../services/ground-truth-runner';
import { paced, sharedTrainPool, webLocksCoordinator, type SessionCoordinator } from '../../services/lab-kit';
import { createWorkerPool, type WorkerPool } from '../../services/lab-kit/train-pool';
import { cachedFeatureSetFor } from '../../services/feature-source';
import { groundTruthWorkload } from '../../services/ground-truth-workload';
import { openResultsStore, type ResultsStore, type StoredRun } from '../../services/results-store';
import {
  builtinDatasetSpec,
  type BackendInfo,
  type DatasetSpec,
  type DistributionJobEvent,
  type DistributionJobInput,
  type DistributionJobOutput,
  type WorkerFeatures,
} from '../../services/train-client';
import { errorText, type LabLink } from './lab-inputs.svelte';
import { GroundTruthPlanState, type LabOrderingsClient } from './lab-plan.svelte';
import { groundTruthRunKeys } from '../../core/ground-truth/run-keys';
import { keyedRunStore, type KeyedRunStore } from './run-store';

/** What the lab needs of a training worker (services/train-client.ts; a fake in the unit tests). */
export type LabTrainClient = RunnerClient & {
  selectBackend(preferred: ExperimentConfig['backend']['train']): Promise<BackendInfo>;
  loadDataset(spec: DatasetSpec): Promise<unknown>;
  dispose(): void;
  /** a pre-trained method's whole distribution (train-client.ts `distribution`; ./whole-distribution.svelte.ts) */
  distribution?(input: DistributionJobInput, onEvent: (e: DistributionJobEvent) => void): Promise<DistributionJobOutput>;
};

export interface GroundTruthLabDeps {
  /** the app's experiment and its share link */
  link: LabLink;
  orderings?: LabOrderingsClient;
  /** the training workers (default: the app's shared pool, services/lab-kit `sharedTrainPool`) */
  pool?: WorkerPool<LabTrainClient>;
  /** tests: a pool of these workers instead (with `cores`) */
  createTrainClient?: () => LabTrainClient;
  openStore?: () => Promise<ResultsStore>;
  /** cores for the fast path's workers of a pool made from `createTrainClient` (default: navigator.hardwareConcurrency) */
  cores?: number;
  /** ms clock (tests) */
  now?: () => number;
  /** tabs on the same experiment: one trains, the others follow (default: the lab kit's Web Locks coordinator) */
  coordinator?: SessionCoordinator | null;
}

export class GroundTruthRunsState extends GroundTruthPlanState {
  protected readonly pool: WorkerPool<LabTrainClient>;
  private readonly openStore: () => Promise<ResultsStore>;
  protected readonly now: () => number;
  private readonly coordinator: SessionCoordinator | null;

  // --- what the workers and the store said ---
  /** the results store, keyed per run by what determines it (./run-store.ts) */
  store = $state.raw<KeyedRunStore | null>(null);
  runner = $state.raw<GroundTruthRunner | null>(null);
  runnerState = $state.raw<RunnerState | null>(null);
  backendInfo = $state.raw<BackendInfo | null>(null);
  preparing = $state('');
  startError = $state('');
  storedRuns = $state.raw<StoredRun[]>([]);
  /** the runner's runs after "Delete the stored runs" (they are gone from the store; a new start makes a new list) */
  forgottenRuns = $state.raw<StoredRun[] | null>(null);
  workersInUse = $state(1);
  lastRunSeconds = $state<number | null>(null);
  /** the warm-up (`warmUp`): '' not asked, 'warming', or what is ready */
  warm = $state<{ state: '' | 'warming' | 'ready'; backend: string; workers: number; seconds: number }>({ state: '', backend: '', workers: 0, seconds: 0 });

  /** the inputs the pool's workers were last warmed up for (`warmUp`) */
  private warmKey = '';
  private unsubscribe: (() => void) | null = null;
  private pacer: ReturnType<typeof paced<RunnerState>> | null = null;
  /** starts not returned yet (`run`): the store closes after the last of them once the page has gone (`dispose`) */
  private starts = 0;
  private disposed = false;

  constructor(deps: GroundTruthLabDeps) {
    super(deps.link, deps.orderings);
    this.pool =
      deps.pool ??
      (deps.createTrainClient
        ? createWorkerPool<LabTrainClient>({ create: deps.createTrainClient, cores: deps.cores })
        : (sharedTrainPool() as unknown as WorkerPool<LabTrainClient>));
    this.openStore = deps.openStore ?? (() => openResultsStore());
    this.now = deps.now ?? (() => performance.now());
    this.coordinator = deps.coordinator === undefined ? webLocksCoordinator('ground-truth') : deps.coordinator;
  }

  /** Open the store and the runner (once the page is mounted); the workers are leased per start from the pool. */
  async mount(): Promise<void> {
    const s = keyedRunStore(await this.openStore());
    this.store = s;
    const runner = createGroundTruthRunner({ store: s, coordinator: this.coordinator });
    this.runner = runner;
    // at most two states a second while training (lab kit `paced`): 90 results in seconds would otherwise recompute
    // the statistics and redraw every chart 90 times on the main thread, taking CPU from the training workers
    this.pacer = paced((st: RunnerState) => (this.runnerState = st));
    this.unsubscribe = runner.subscribe(this.pacer);
  }

  /**
   * The page goes away (a link opened from outside mounts it afresh): the run stops (finished runs stay stored), the
   * orderings worker ends, and the store closes once the start in flight has returned (it still writes its last run).
   */
  dispose(): void {
    this.disposed = true;
    this.runner?.cancel();
    this.pacer?.cancel();
    this.unsubscribe?.();
    if (this.starts === 0) this.store?.close();
    this.orderings.dispose();
  }

  /**
   * The feature source the workers get: the backbone's as the config says; an encoder's or an upload's features read
   * from the page's feature cache and sent as `cached` (a message in one sentence when they are not extracted yet).
   */
  private async resolvedFeatures(config: ExperimentConfig): Promise<WorkerFeatures | null> {
    const f = config.features ?? { source: 'pixels' };
    if (f.source !== 'encoder' && f.source !== 'upload') return workerFeaturesOf(f);
    const { key, set } = await cachedFeatureSetFor(config);
    return { source: 'cached', key, set };
  }

  /** The images the workers train on, from the inputs (the feature vectors of the experiment's classes on features). */
  private datasetSpec(resolved?: WorkerFeatures | null): DatasetSpec {
    const source = resolved === undefined ? workerFeaturesOf(this.features) : resolved;
    return {
      ...builtinDatasetSpec(this.datasetId, this.trainPerClass, this.testPerClass),
      ...(source ? { features: { source, classes: this.classIdx.slice() } } : {}),
    } as DatasetSpec;
  }

  /**
   * Start the workers a Run would lease (backend probed, wasm initialised, dataset loaded) and leave them idle in
   * the pool, so the first result after Run waits for training only. The page calls it on its first
   * idle moment and again when the backend or the data change; a Run pressed meanwhile waits for it instead of
   * starting more workers beside it.
   */
  async warmUp(): Promise<void> {
    if (this.foreignDataset || this.active) return;
    // an encoder's or an upload's features come from the cache when Run is pressed (nothing to warm before that)
    if (this.features.source === 'encoder' || this.features.source === 'upload') return;
    const request = { backend: this.backendPref, dataset: this.datasetSpec(), helpers: this.fastPath && !this.teaching, workload: this.workload };
    const key = JSON.stringify(request);
    if (key === this.warmKey) return;
    this.warmKey = key;
    const t0 = this.now();
    this.warm = { state: 'warming', backend: '', workers: 0, seconds: 0 };
    const got = await this.pool.warm(request);
    if (key !== this.warmKey) return;
    // the backend the workers chose is the one Run will use (and a preferred one that failed is said now)
    if (got && !this.active) this.backendInfo = got.backend;
    this.warm = got
      ? { state: 'ready', backend: got.backend.name, workers: got.workers, seconds: (this.now() - t0) / 1000 }
      : { state: '', backend: '', workers: 0, seconds: 0 };
  }

  /**
   * What the workers will train (services/ground-truth-workload.ts): each warms up on it once, so the first Run finds
   * its code and kernels ready, and with backend `auto` the backend is chosen by measuring it (kept per device in this
   * browser). Undefined until the plan is known, or where the data is not known ahead (uploads, feature vectors):
   * `auto` keeps its order then.
   */
  readonly workload = $derived(
    this.plan && this.checked.hash && this.checked.errors.length === 0 ? groundTruthWorkload(this.checked.config, this.plan) : undefined,
  );

  /**
   * Which backend trains and why, for "What exactly ran" and under the backend line: the measurement that chose it
   * ("wasm runs, the fastest measured: wasm 0.9 ms a model-step … against webgpu …"), or the order `auto` followed, or
   * the user's choice. '' before a backend is chosen.
   */
  readonly backendWhy = $derived.by(() => {
    const info = this.backendInfo;
    if (!info) return '';
    const m = info.measured;
    if (m && m.choice === info.name) return `${m.reason}${m.cached ? ` (Measured in this browser on ${m.at.slice(0, 10)}, kept for this device.)` : ''}`;
    if (this.backendPref !== 'auto') return `${info.name}: chosen in the settings.`;
    return `${info.name}: the first of auto's order (WebGPU → WebGL → wasm → CPU, software GPUs after wasm) that passed its probe; not measured for this experiment.`;
  });

  /**
   * A worker of the pool holding this experiment's feature source, for a job beside the runs (the whole distribution,
   * ./whole-distribution.svelte.ts): the lease (release it), the source the worker was given and the config it is for.
   */
  async leaseFeatureWorker(): Promise<{ lease: Awaited<ReturnType<WorkerPool<LabTrainClient>['lease']>>; source: WorkerFeatures; config: ExperimentConfig }> {
    const config = $state.snapshot(this.checked.config) as ExperimentConfig;
    const source = await this.resolvedFeatures(config);
    if (!source) throw new Error('The whole distribution is of a pre-trained method on features: choose a feature source under “Train on”.');
    const lease = await this.pool.lease({ backend: this.backendPref, dataset: this.datasetSpec(source), helpers: false });
    return { lease, source, config };
  }

  /** the store keys of this experiment's runs (each run by what determines it; core/ground-truth/run-keys.ts) */
  readonly runKeys = $derived(this.checked.hash ? groundTruthRunKeys(this.checked.config) : null);
  /** The experiment's key, its run keys told to the store first; null while the inputs are invalid. */
  private storeKey(): string | null {
    const keys = this.runKeys;
    if (keys) this.store?.register(keys);
    return keys?.experiment ?? null;
  }

  /** What the store holds for this experiment (a reload, or a share link opened in this browser, resumes from it). */
  async loadStoredRuns(): Promise<void> {
    const hash = this.storeKey();
    const s = this.store;
    if (!s || !hash) {
      this.storedRuns = [];
      return;
    }
    const runs = await s.getAll(hash);
    if (this.checked.hash === hash) this.storedRuns = runs;
  }

  readonly status = $derived(this.runnerState?.status ?? 'idle');
  readonly active = $derived(this.status === 'running' || this.status === 'paused' || this.preparing !== '');
  /** the runner's state is of this experiment */
  readonly mine = $derived(
    !!this.runnerState &&
      this.runnerState.configHash === this.checked.hash &&
      this.runnerState.status !== 'idle' &&
      this.runnerState.runs !== this.forgottenRuns,
  );
  readonly runs = $derived(this.mine && this.runnerState!.runs.length >= this.storedRuns.length ? this.runnerState!.runs : this.storedRuns);
  readonly jobsTotal = $derived(this.plan ? this.plan.jobs.length : 0);
  readonly storedForPlan = $derived.by(() => {
    const plan = this.plan;
    if (!plan) return 0;
    const have = new Set(this.runs.map((r) => JSON.stringify([r.orderingKey, r.strategy, r.seed])));
    return plan.jobs.filter((j) => have.has(JSON.stringify([j.orderingKey, j.strategy, j.seed]))).length;
  });

  readonly stats = $derived.by((): GroundTruthStats | null => {
    const plan = this.plan;
    if (!plan) return null;
    const running = this.status === 'running';
    return deriveGroundTruth({
      runs: this.runs,
      plan,
      variable: this.variable,
      // imported methods ("der", "memo") are shown beside the checked strategies (results-import/stored-runs.ts)
      strategies: strategiesShown(this.strategyIds, this.runs, running),
      sampleCount: running ? false : { maxL: 20, repeats: 100, seed: 0 },
    });
  });

  /** Train the plan's runs not stored yet; `stepRuns` > 0 (teaching mode's Step): pause after that many. */
  async run(stepRuns = 0): Promise<void> {
    this.starts++;
    try {
      await this.start(stepRuns);
    } finally {
      if (--this.starts === 0 && this.disposed) this.store?.close();
    }
  }

  private async start(stepRuns: number): Promise<void> {
    const runner = this.runner;
    const thePlan = this.plan;
    const hash = this.storeKey();
    if (!thePlan || !hash || !runner) return;
    const config = $state.snapshot(this.checked.config) as ExperimentConfig;
    // teaching mode steps one ordering at a time (the naive path); otherwise the fast path unless switched off
    const fast = this.fastPath && !this.teaching;
    this.startError = '';
    const startedAt = this.now();
    let lease: Awaited<ReturnType<WorkerPool<LabTrainClient>['lease']>>;
    let source: WorkerFeatures | null;
    try {
      // the fast path on a CPU backend gets one more worker per further core (the pool's helpers)
      this.preparing = `Starting the training worker${fast ? 's' : ''} (backend, ${this.datasetName})…`;
      source = await this.resolvedFeatures(config);
      lease = await this.pool.lease({ backend: this.backendPref, dataset: this.datasetSpec(source), helpers: fast, workload: this.workload });
      this.backendInfo = lease.backend;
    } catch (e) {
      this.startError = errorText(e);
      return;
    } finally {
      this.preparing = '';
    }
    this.workersInUse = 1 + lease.helpers.length;
    this.lastRunSeconds = null;
    try {
      const started = runner.start(thePlan, trainConfigFor(config), hash, {
        fast,
        client: lease.main,
        helpers: lease.helpers,
        order: this.sampleKeys ?? undefined,
        orderSeed: this.own.sampleSeed,
        ptm: this.ptmOf(config, source),
      });
      if (stepRuns > 0) runner.step(stepRuns);
      await started;
    } finally {
      // after a failure (a worker that died, train-client.ts TrainWorkerError, or a backend that gave up) the
      // workers leave the pool: the next start gets fresh ones; otherwise they go back to it, ready
      if (runner.state.status === 'error') for (const w of [lease.main, ...lease.helpers]) this.pool.discard(w);
      lease.release();
    }
    this.lastRunSeconds = (this.now() - startedAt) / 1000;
    if (this.store && !this.disposed && this.checked.hash === hash) this.storedRuns = await this.store.getAll(hash);
  }

  /** The runner's pre-trained path for a config on features (its PTM strategies run as the worker's ptm job). */
  private ptmOf(config: ExperimentConfig, source: WorkerFeatures | null) {
    if (!source || config.dataset.id === 'custom') return undefined;
    const datasetId = config.dataset.id;
    return {
      isPtm: (id: string) => isPtmStrategyId(id),
      inputOf: (strategy: string, seed: number, orderings: number[][][]) => ({
        datasetId,
        features: source,
        classes: config.classes.slice(),
        trainPerClass: config.data.trainPerClass,
        testPerClass: config.data.testPerClass,
        strategy: ptmSetting(config.strategies.find((s) => s.id === strategy)!),
        seed,
        taskSizes: config.taskSizes.slice(),
        orderings,
        training: trainingOfConfig(config),
        // beside a trained head, the first method's first seed also measures the head's bar on these features
        ...(headBarOf(config, strategy, seed) ?? {}),
      }),
    };
  }

  /**
   * How far the truth is, and whether what is finished is a random sample of it (partial statistics are
   * honest only then). `n`: truth orderings every run of which (each strategy and seed) is finished; `uniform`: those
   * are the first n of the seeded sample order, give or take the workers in parallel − 1 (the fast path's orderings
   * finish in that order; the naive path trains the protocols' orderings first, so it is not). Per strategy the
   * same, over that strategy's runs. Null before there is a plan. (For GroundTruthResults / the verdict: mark
   * statistics as partial while n < total, and as "not a random sample" when !uniform.)
   */
  readonly partialSample = $derived.by(
    (): { n: number; total: number; uniform: boolean; byStrategy: Record<string, { n: number; uniform: boolean }> } | null => {
      const plan = this.plan;
      const keys = this.sampleKeys;
      if (!plan || !keys) return null;
      const truth = new Set(plan.orderings.filter((o) => o.roles.includes('truth')).map((o) => o.key));
      const truthKeys = keys.filter((k) => truth.has(k));
      // orderings may finish out of order by the workers in parallel − 1 (this start's, or the pool's at most)
      const slack = Math.max(0, Math.max(this.workersInUse, this.pool.cores) - 1);
      const seeds = Math.max(1, this.parsed.seeds.length);
      const count = new Map<string, number>();
      const byStrat = new Map<string, Map<string, number>>();
      for (const r of this.runs) {
        count.set(r.orderingKey, (count.get(r.orderingKey) ?? 0) + 1);
        const m = byStrat.get(r.strategy) ?? new Map<string, number>();
        m.set(r.orderingKey, (m.get(r.orderingKey) ?? 0) + 1);
        byStrat.set(r.strategy, m);
      }
      const judge = (finished: (k: string) => boolean): { n: number; uniform: boolean } => {
        const n = truthKeys.filter(finished).length;
        // every finished one lies among the first n + slack of the order
        const uniform = this.scheduleMode === 'sample' && truthKeys.slice(n + slack).every((k) => !finished(k));
        return { n, uniform };
      };
      const all = judge((k) => (count.get(k) ?? 0) >= this.runsPerOrdering);
      const byStrategy: Record<string, { n: number; uniform: boolean }> = {};
      for (const id of this.strategyIds) byStrategy[id] = judge((k) => (byStrat.get(id)?.get(k) ?? 0) >= seeds);
      return { ...all, total: truthKeys.length, byStrategy };
    },
  );

  // Pause / Resume / Cancel go to the runner once there is one
  pause = (): void => this.runner?.pause();
  resume = (): void => this.runner?.resume();
  cancel = (): void => this.runner?.cancel();

  /** Delete the stored runs of this experiment. */
  async forget(): Promise<void> {
    const hash = this.storeKey();
    if (!this.store || !hash) return;
    await this.store.delete(hash);
    if (this.runnerState?.configHash === hash) this.forgottenRuns = this.runnerState.runs;
    this.storedRuns = [];
    this.selection = null;
  }

  /** After an import: read the store again. */
  async reloadStored(): Promise<void> {
    const hash = this.storeKey();
    if (this.store && hash) this.storedRuns = await this.store.getAll(hash);
  }
}

/** The worker's feature source of a config's `features` (null: pixels). */
export function workerFeaturesOf(f: FeaturesConfig): WorkerFeatures | null {
  switch (f.source) {
    case 'pixels':
      return null;
    case 'backbone':
      return { source: 'backbone', seed: f.seed };
    case 'encoder':
      return { source: 'encoder', model: f.model, revision: f.revision, precision: f.precision };
    case 'upload':
      return { source: 'upload', file: f.file.name };
  }
}

/** How a first-session layer trains: the experiment's epochs, learning rate, batch size and Adam's constants. */
function trainingOfConfig(config: ExperimentConfig) {
  const t = config.training;
  return { epochs: t.epochs, lr: t.lr, batchSize: t.batchSize, beta1: t.optimiser.beta1, beta2: t.optimiser.beta2, epsilon: t.optimiser.epsilon };
}

/** The head's bar settings for the group of (strategy, seed): the first pre-trained method's first seed, when a trained head runs too. */
function headBarOf(
  config: ExperimentConfig,
  strategy: string,
  seed: number,
): { headBar: { epochs: number; lr: number; batchSize: number; hidden: number[]; seed: number } } | null {
  const firstPtm = config.strategies.find((s) => isPtmStrategyId(s.id));
  if (!config.strategies.some((s) => !isPtmStrategyId(s.id)) || firstPtm?.id !== strategy || seed !== config.seeds[0]) return null;
  const t = config.training;
  const hidden = config.model.kind === 'head' ? config.model.hidden.slice() : [];
  return { headBar: { epochs: t.epochs, lr: t.lr, batchSize: t.batchSize, hidden, seed } };
}

function ptmSetting(s: StrategySetting): PtmStrategy {
  if (!isPtmStrategyId(s.id)) throw new Error(`"${s.id}" is not a pre-trained method.`);
  return structuredClone(s) as PtmStrategy;
}
