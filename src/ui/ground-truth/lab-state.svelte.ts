/**
 * The Ground-truth lab's state (issue 4; docs/science.md §2; EDGE paper §5): the page's inputs, what they resolve
 * to (validated config, plan, stored runs, statistics), the training runner and the actions of the page's buttons.
 * GroundTruthPage.svelte only composes (ui/common/lab kit + GroundTruthControls + GroundTruthResults); everything
 * it shows is read from one `GroundTruthLab`.
 *
 * Runes outside a component: inputs are `$state`, what follows from them `$derived`. The side effects are methods
 * (`syncFromLink`, `pushToLink`, `loadSimilarity`, `loadStoredRuns`, `run`, …) so the unit tests
 * (tests/unit/ui/ground-truth-lab-state.test.ts) call them directly, without a browser; `attach()` wires them to
 * `$effect`s for the page (call it while the component initialises).
 *
 * - The inputs start from the app's experiment (the share link, the same one the Orderings lab edits) and are
 *   written back to it part by part (./page-config.ts); a change made elsewhere (a link opened over the page, the
 *   Orderings lab's classes) is read back, the page's own writes are not (`seenKey`).
 * - Stored runs (IndexedDB, services/results-store.ts) are found by the experiment's key `checked.hash` and kept
 *   per run under what determines it (./run-store.ts, ./page-config.ts groundTruthRunKeys): a reload, a share link
 *   opened in this browser, or the same strategy in a changed experiment (another strategy added, a larger budget)
 *   resumes from them.
 * - Teaching mode's Play / Pause / Step trains one ordering at a time (the naive path).
 * - Training workers are leased from the lab kit's shared pool (services/lab-kit/train-pool.ts: every core the
 *   browser reports on CPU backends), warmed up when the page first idles so Run starts at once (issue 19).
 * - The fast path finishes the orderings in the seeded sample order (core/ground-truth/schedule.ts), so the
 *   finished ones are a uniform random sample at every moment; `partialSample` says how many and whether they are.
 */
import { untrack } from 'svelte';
import { getClassList } from '../../core/classes/builtin';
import {
  STRATEGY_IDS,
  datasetClassListId,
  validateConfig,
  type BuiltinDatasetRef,
  type ConfigIssue,
  type ExperimentConfig,
  type StrategyId,
} from '../../core/config/schema';
import { deriveGroundTruth, statisticsJson, statisticsTable, type AccuracyVariable, type GroundTruthStats } from '../../core/ground-truth/derive';
import { planGroundTruth, type GroundTruthJob, type GroundTruthPlan } from '../../core/ground-truth/plan';
import { planPrefixes } from '../../core/ground-truth/prefix-plan';
import { sampleOrder, scheduleOrderings } from '../../core/ground-truth/schedule';
import { matrixFromRows } from '../../core/orderings/matrix';
import { parseTaskSizes, resolveTaskSizes } from '../../core/orderings/task-sizes';
import { strategiesShown } from '../../core/results-import/stored-runs';
import { BUILTIN_DATASETS, type BuiltinDatasetId } from '../../data/registry';
import { createGroundTruthRunner, type GroundTruthRunner, type RunnerClient, type RunnerState } from '../../services/ground-truth-runner';
import { paced, sharedTrainPool, webLocksCoordinator, type SessionCoordinator } from '../../services/lab-kit';
import { createWorkerPool, type WorkerPool } from '../../services/lab-kit/train-pool';
import { createOrderingsClient, type OrderingsRequest } from '../../services/orderings-client';
import { openResultsStore, type ResultsStore, type StoredRun } from '../../services/results-store';
import type { ShareLinkStore } from '../../services/share-link.svelte';
import type { BackendInfo, DatasetSpec, TrainRunConfig } from '../../services/train-client';
import { trainRunConfigOf } from '../../engine/run-config';
import { downloadBlob, exportFileName, toCsv } from '../common/chart-export';
import { taskColours } from '../common/palette';
import { parseSeeds } from '../orderings/page-inputs';
import { orderingText } from './format';
import {
  applyGroundTruthState,
  firstClassesOf,
  foldGroundTruthState,
  groundTruthRunHash,
  groundTruthRunKeys,
  inputsFromConfig,
  inputsKey,
  orderingProgress,
  wordnetPinsFor,
  wordnetPinsOf,
  type GroundTruthInputs,
  type GroundTruthState,
} from './page-config';
import { parseTrainingSeeds, parseWidths, runsTable } from './page-inputs';
import { keyedRunStore, type KeyedRunStore } from './run-store';

export const STRATEGY_NAMES: Record<StrategyId, string> = {
  finetune: 'Finetune',
  ewc: 'EWC',
  replay: 'Replay',
  lwf: 'LwF',
  si: 'SI',
  icarl: 'iCaRL',
  agem: 'A-GEM',
  gdumb: 'GDumb',
  joint: 'Joint (bound)',
  ncm: 'NCM',
};

/** What the lab needs of a training worker (services/train-client.ts; a fake in the unit tests). */
export type LabTrainClient = RunnerClient & {
  selectBackend(preferred: ExperimentConfig['backend']['train']): Promise<BackendInfo>;
  loadDataset(spec: DatasetSpec): Promise<unknown>;
  dispose(): void;
};

/** What the lab needs of the orderings worker (services/orderings-client.ts). */
export interface LabOrderingsClient {
  compute(req: OrderingsRequest): Promise<{ matrix: number[][] }>;
  dispose(): void;
}

export interface GroundTruthLabDeps {
  /** the app's experiment and its share link */
  link: Pick<ShareLinkStore, 'config' | 'update' | 'teaching'>;
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

type Selection = { key: string; strategy: string } | null;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class GroundTruthLab {
  readonly link: GroundTruthLabDeps['link'];
  private readonly orderings: LabOrderingsClient;
  private readonly pool: WorkerPool<LabTrainClient>;
  private readonly openStore: () => Promise<ResultsStore>;
  private readonly now: () => number;
  private readonly coordinator: SessionCoordinator | null;

  // --- the experiment's inputs (editable while nothing runs) ---
  datasetId = $state<BuiltinDatasetId>('fashion-mnist');
  /** The experiment's dataset when this lab cannot train on it (names only, from the Orderings lab); null when it can. */
  foreignDataset = $state<string | null>(null);
  selected = $state<number[]>([]);
  tasks = $state(3);
  sizesText = $state('');
  chosen = $state<Record<string, boolean>>({});
  budget = $state(500);
  sampleSeed = $state(0);
  seedsText = $state('0');
  rsSeedsText = $state('0');
  /** null: the experiment's model is not an MLP (a CNN from a config file; it stays as it is). */
  hiddenText = $state<string | null>(null);
  epochs = $state(1);
  lr = $state(0.001);
  batchSize = $state(32);
  trainPerClass = $state<number | null>(null);
  testPerClass = $state<number | null>(null);
  backendPref = $state<ExperimentConfig['backend']['train']>('auto');
  variable = $state<AccuracyVariable>('final');
  /** The chosen ordering (click a block or a point): ui.selectedOrdering in the link, shown for the first strategy. */
  selection = $state<Selection>(null);
  selectedSeed = $state<number | null>(null);
  /** teaching mode: "More settings" unfolded */
  moreOpen = $state(false);
  /** issue 7: prefix sharing + population (a speed choice: the numbers are the same, so it is not in the link) */
  fastPath = $state(true);

  // --- what the workers and the store said ---
  similarity = $state.raw<{ key: string; matrix: number[][] } | null>(null);
  similarityError = $state('');
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
  private seenKey: string;
  private simRequest = 0;

  constructor(deps: GroundTruthLabDeps) {
    this.link = deps.link;
    this.orderings = deps.orderings ?? createOrderingsClient();
    this.pool =
      deps.pool ??
      (deps.createTrainClient
        ? createWorkerPool<LabTrainClient>({ create: deps.createTrainClient, cores: deps.cores })
        : (sharedTrainPool() as unknown as WorkerPool<LabTrainClient>));
    this.openStore = deps.openStore ?? (() => openResultsStore());
    this.now = deps.now ?? (() => performance.now());
    this.coordinator = deps.coordinator === undefined ? webLocksCoordinator('ground-truth') : deps.coordinator;
    this.applyInputs(inputsFromConfig(this.link.config));
    this.seenKey = inputsKey(this.link.config);
  }

  // ---------------------------------------------------------------- inputs ⇄ the experiment

  private selectionOf(key: string | null): Selection {
    const first = STRATEGY_IDS.find((id) => this.chosen[id]);
    return key && first ? { key, strategy: first } : null;
  }

  applyInputs(i: GroundTruthInputs): void {
    this.datasetId = i.datasetId;
    this.foreignDataset = i.foreignDataset;
    this.selected = i.selected;
    this.tasks = i.tasks;
    this.sizesText = i.sizesText;
    this.chosen = i.chosen;
    this.budget = i.budget;
    this.sampleSeed = i.sampleSeed;
    this.seedsText = i.seedsText;
    this.rsSeedsText = i.rsSeedsText;
    this.hiddenText = i.hiddenText;
    this.epochs = i.epochs;
    this.lr = i.lr;
    this.batchSize = i.batchSize;
    this.trainPerClass = i.trainPerClass;
    this.testPerClass = i.testPerClass;
    this.backendPref = i.backend;
    this.variable = i.accuracy;
    this.selection = this.selectionOf(i.selectedOrdering);
  }

  /** The experiment changed elsewhere: re-read the inputs. The page's own writes do not count (`seenKey`). */
  syncFromLink(): void {
    const key = inputsKey(this.link.config);
    if (key === this.seenKey) return;
    this.seenKey = key;
    untrack(() => this.applyInputs(inputsFromConfig(this.link.config)));
  }

  /** Fold the page's inputs (the valid parts) into the experiment, so the share link and the Orderings lab follow. */
  pushToLink(): void {
    const s = this.gtState;
    this.link.update((c) => foldGroundTruthState(c, s));
    this.seenKey = inputsKey(untrack(() => this.link.config));
  }

  // teaching mode (`?teach`, the header toggle or the link): ui.hiddenControls hides controls by id (dataset,
  // classes, tasks, strategies, budget, seeds, model, backend); the rest beyond the essentials folds away
  readonly teaching = $derived.by(() => this.link.teaching);
  readonly hiddenControls = $derived.by(() => new Set(this.link.config.ui.hiddenControls));
  hide(id: string): boolean {
    return this.teaching && this.hiddenControls.has(id);
  }
  // what the lab reads of the experiment without a control here (as primitives: other config changes do not replan)
  readonly similarityKind = $derived.by(() => this.link.config.similarity.kind);
  readonly pinsKey = $derived.by(() => JSON.stringify(wordnetPinsOf(this.link.config)));
  readonly medianSeed = $derived.by(() => this.link.config.protocols.medianSeed);
  readonly foreignName = $derived.by(() => {
    const f = this.foreignDataset;
    if (!f) return '';
    if (f === 'custom') return 'custom class names';
    try {
      return getClassList(datasetClassListId(f as BuiltinDatasetRef)).name;
    } catch {
      return f;
    }
  });

  readonly dataset = $derived(BUILTIN_DATASETS.find((d) => d.id === this.datasetId) ?? BUILTIN_DATASETS[0]);
  readonly classList = $derived(getClassList(this.dataset.classListId));
  readonly classIdx = $derived([...this.selected].sort((a, b) => a - b));
  readonly strategyIds = $derived(STRATEGY_IDS.filter((id) => this.chosen[id]));

  // --- validated inputs; each problem is shown next to the control that caused it ---
  readonly sizesInput = $derived.by(() => {
    const n = this.classIdx.length;
    if (n < 2) return { sizes: [] as number[], error: 'Select at least two classes.' };
    try {
      const explicit = this.sizesText.trim() ? parseTaskSizes(this.sizesText) : undefined;
      return { sizes: resolveTaskSizes(n, { tasks: this.tasks, taskSizes: explicit }), error: '' };
    } catch (e) {
      return { sizes: [] as number[], error: errorText(e) };
    }
  });
  readonly parsed = $derived.by(() => {
    const out: { seeds: number[]; rsSeeds: number[]; hidden: number[]; errors: Record<string, string> } = { seeds: [], rsSeeds: [], hidden: [], errors: {} };
    try {
      out.seeds = parseTrainingSeeds(this.seedsText);
    } catch (e) {
      out.errors.seeds = errorText(e);
    }
    try {
      out.rsSeeds = parseSeeds(this.rsSeedsText);
    } catch (e) {
      out.errors.rsSeeds = errorText(e);
    }
    try {
      out.hidden = this.hiddenText === null ? [] : parseWidths(this.hiddenText);
    } catch (e) {
      out.errors.hidden = errorText(e);
    }
    return out;
  });
  /** the page's inputs, resolved (null parts are invalid right now: the experiment keeps its own values for them) */
  readonly gtState = $derived<GroundTruthState>({
    datasetId: this.foreignDataset ? null : this.datasetId,
    classes: this.classIdx,
    taskSizes: this.sizesInput.error || !this.sizesInput.sizes.length ? null : this.sizesInput.sizes,
    strategies: this.strategyIds,
    budget: this.budget,
    sampleSeed: this.sampleSeed,
    seeds: this.parsed.errors.seeds ? null : this.parsed.seeds,
    rsSeeds: this.parsed.errors.rsSeeds ? null : this.parsed.rsSeeds,
    hidden: this.hiddenText === null || this.parsed.errors.hidden ? null : this.parsed.hidden,
    epochs: this.epochs,
    lr: this.lr,
    batchSize: this.batchSize,
    trainPerClass: this.trainPerClass,
    testPerClass: this.testPerClass,
    backend: this.backendPref,
    accuracy: this.variable,
    selectedOrdering: this.selection?.key ?? null,
  });
  /** the experiment this page would run: the app's experiment with all of the page's inputs in, its errors, its key */
  readonly checked = $derived.by(() => {
    const v = validateConfig(applyGroundTruthState(this.link.config, this.gtState));
    // a names-only dataset is said once, at the dataset control
    const errors: ConfigIssue[] = v.errors.filter((e) => !this.foreignDataset || (e.path !== 'dataset' && !e.path.startsWith('dataset.') && e.path !== 'lab'));
    if (this.strategyIds.length === 0) errors.push({ path: 'strategies', message: 'Choose at least one strategy.' });
    let hash: string | null = null;
    if (
      errors.length === 0 &&
      !this.foreignDataset &&
      this.similarityKind === 'wordnet' &&
      this.sizesInput.sizes.length &&
      Object.keys(this.parsed.errors).length === 0
    ) {
      try {
        // the key of the stored runs: what this lab trains (other labs' settings aside), page-config.ts
        hash = groundTruthRunHash(v.config);
      } catch (e) {
        errors.push({ path: '', message: errorText(e) });
      }
    }
    return { config: v.config, errors, hash };
  });
  /** The config errors under a path ("training", "classes"), as one sentence ('' when none). */
  errorAt(prefix: string): string {
    return this.checked.errors
      .filter((e) => e.path === prefix || e.path.startsWith(`${prefix}.`) || e.path.startsWith(`${prefix}[`))
      .map((e) => e.message)
      .join(' ');
  }

  // ---------------------------------------------------------------- similarity (WordNet, in the orderings worker) and the plan

  readonly classNames = $derived(this.classIdx.map((i) => this.classList.classes[i]));
  /** WordNet with the experiment's pins (a class the config pins by name), else the class list's own synsets */
  readonly simPins = $derived(
    wordnetPinsFor(
      JSON.parse(this.pinsKey) as Record<string, string>,
      this.classNames,
      this.classIdx.map((i) => this.classList.synsets[i]),
    ),
  );
  readonly simKey = $derived(`${this.dataset.classListId}:${this.classIdx.join(',')}:${JSON.stringify(this.simPins)}`);
  /** true when the similarity of the current classes is to be computed (not known yet, WordNet, an image dataset) */
  readonly similarityNeeded = $derived(
    this.classNames.length >= 2 && this.similarity?.key !== this.simKey && this.similarityKind === 'wordnet' && !this.foreignDataset,
  );

  /** Compute S's matrix for the current classes (a later request wins over an earlier one still in flight). */
  async loadSimilarity(): Promise<void> {
    if (!this.similarityNeeded) return;
    const key = this.simKey;
    const names = [...this.classNames];
    const pins = this.simPins;
    const id = ++this.simRequest;
    try {
      const v = await this.orderings.compute({
        classes: names,
        taskSizes: [names.length],
        similarity: { kind: 'wordnet', pins },
        options: { protocols: [], distribution: false },
      });
      if (id !== this.simRequest) return;
      this.similarity = { key, matrix: v.matrix };
      this.similarityError = '';
    } catch (e) {
      if (id === this.simRequest) this.similarityError = errorText(e);
    }
  }

  readonly planned = $derived.by((): { plan: GroundTruthPlan | null; error: string } => {
    const sim = this.similarity;
    if (
      !sim ||
      sim.key !== this.simKey ||
      this.similarityKind !== 'wordnet' ||
      this.foreignDataset ||
      !this.sizesInput.sizes.length ||
      this.strategyIds.length === 0 ||
      this.parsed.errors.rsSeeds ||
      this.parsed.errors.seeds
    )
      return { plan: null, error: '' };
    try {
      const plan = planGroundTruth({
        classes: this.classIdx,
        taskSizes: this.sizesInput.sizes,
        similarity: matrixFromRows(sim.matrix),
        protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: this.parsed.rsSeeds, medianSeed: this.medianSeed },
        strategies: this.strategyIds,
        seeds: this.parsed.seeds,
        budget: this.budget,
        sampleSeed: this.sampleSeed,
      });
      return { plan, error: '' };
    } catch (e) {
      return { plan: null, error: errorText(e) };
    }
  });
  readonly plan = $derived(this.planned.plan);
  /** what the fast path saves for this plan (per strategy and seed: every group trains the same orderings) */
  readonly prefixSaving = $derived.by(() => {
    const plan = this.plan;
    if (!plan || plan.orderings.length < 2) return null;
    const trie = planPrefixes(plan.orderings.map((o) => o.tasks));
    return { shared: trie.sharedTasks, naive: trie.naiveTasks };
  });
  readonly plannedTruth = $derived(this.plan ? this.plan.truthCount : 0);
  /** WordNet can rate every pair of classes alike (the digits' names are all hyponyms of "digit"): then S is flat */
  readonly flatS = $derived.by(() => {
    const plan = this.plan;
    if (!plan || plan.orderings.length < 2) return false;
    const scores = plan.orderings.map((o) => o.score);
    return Math.max(...scores) - Math.min(...scores) < 1e-12;
  });
  readonly runsPerOrdering = $derived(this.strategyIds.length * Math.max(1, this.parsed.seeds.length));

  // ---------------------------------------------------------------- the worker, the store and the runner

  /** Open the store and the runner (the page's onMount); the workers are leased per start from the pool. */
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

  destroy(): void {
    this.runner?.cancel();
    this.pacer?.cancel();
    this.unsubscribe?.();
    this.store?.close();
    this.orderings.dispose();
  }

  /** The images the workers train on, from the inputs. */
  private datasetSpec(): DatasetSpec {
    return {
      kind: 'builtin',
      id: this.datasetId,
      ...(this.trainPerClass !== null ? { trainPerClass: this.trainPerClass } : {}),
      ...(this.testPerClass !== null ? { testPerClass: this.testPerClass } : {}),
      seed: 0,
    } as DatasetSpec;
  }

  /**
   * Start the workers a Run would lease (backend probed, wasm initialised, dataset loaded) and leave them idle in
   * the pool, so the first result after Run waits for training only (issue 19). The page calls it on its first
   * idle moment and again when the backend or the data change; a Run pressed meanwhile waits for it instead of
   * starting more workers beside it.
   */
  async warmUp(): Promise<void> {
    if (this.foreignDataset || this.active) return;
    const request = { backend: this.backendPref, dataset: this.datasetSpec(), helpers: this.fastPath && !this.teaching };
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

  /** the store keys of this experiment's runs (issue 16, item 16: each run by what determines it; page-config.ts) */
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
    try {
      // the fast path on a CPU backend gets one more worker per further core (the pool's helpers)
      this.preparing = `Starting the training worker${fast ? 's' : ''} (backend, ${this.dataset.name})…`;
      lease = await this.pool.lease({ backend: this.backendPref, dataset: this.datasetSpec(), helpers: fast });
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
        orderSeed: this.sampleSeed,
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
    if (this.store && this.checked.hash === hash) this.storedRuns = await this.store.getAll(hash);
  }

  /** The ordering keys in the seeded sample order the fast path finishes them in (core/ground-truth/schedule.ts). */
  readonly sampleKeys = $derived(this.plan ? sampleOrder(this.plan, this.sampleSeed) : null);
  /** 'sample', or 'depth-first' when the sample order would keep too many copies (deep tries; schedule.ts). */
  readonly scheduleMode = $derived.by(() => {
    const plan = this.plan;
    const keys = this.sampleKeys;
    if (!plan || !keys || plan.orderings.length < 2) return 'sample' as const;
    const rank = new Map(keys.map((k, r) => [k, r]));
    return scheduleOrderings(
      plan.orderings.map((o) => o.tasks),
      (i) => rank.get(plan.orderings[i].key) ?? i,
      this.sampleSeed,
    ).mode;
  });

  /**
   * How far the truth is, and whether what is finished is a random sample of it (issue 17: partial statistics are
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

  pause(): void {
    this.runner?.pause();
  }
  resume(): void {
    this.runner?.resume();
  }
  cancel(): void {
    this.runner?.cancel();
  }

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

  // ---------------------------------------------------------------- teaching mode's Play / Pause / Step

  readonly byOrdering = $derived(this.plan ? orderingProgress(this.plan.jobs, this.runs) : null);
  readonly canStart = $derived(!!this.plan && !!this.checked.hash && !!this.runner && this.preparing === '' && this.checked.errors.length === 0);
  readonly canPlay = $derived(this.status === 'paused' ? true : this.canStart && !!this.byOrdering?.next);
  readonly canStep = $derived(!!this.byOrdering?.next && this.status !== 'running' && (this.status === 'paused' || (!this.active && this.canStart)));
  play(): void {
    if (this.status === 'paused') this.runner?.resume();
    else if (!this.active) void this.run();
  }
  /** Train exactly one more ordering (all its runs: one per strategy and seed), then pause. */
  stepOnce(): void {
    const p = this.byOrdering;
    if (!p || !p.next) return;
    if (this.status === 'paused') this.runner?.step(p.runsOfNext);
    else if (!this.active) void this.run(p.runsOfNext);
  }

  readonly current = $derived(this.runnerState?.current ?? null);
  readonly inUse = $derived(this.runnerState?.backend || this.backendInfo?.name || '');
  /** the preferred backend failed its probe: say so, and which one runs instead */
  readonly selectionNotice = $derived.by(() => {
    const info = this.backendInfo;
    const pref = this.backendPref;
    if (!info || pref === 'auto' || info.name === pref) return '';
    const failed = info.tried.find((t) => t.name === pref);
    return `${pref} is not available here${failed?.error ? ` (${failed.error})` : ''}; training on ${info.name} instead.`;
  });

  // ---------------------------------------------------------------- the chosen ordering (click a block or a point)

  select(key: string, strategy: string): void {
    this.selection = { key, strategy };
    this.selectedSeed = null;
  }
  readonly selectedRuns = $derived.by(() => {
    const sel = this.selection;
    return sel ? this.runs.filter((r) => r.orderingKey === sel.key && r.strategy === sel.strategy).sort((a, b) => a.seed - b.seed) : [];
  });
  readonly selectedRun = $derived(this.selectedRuns.find((r) => r.seed === this.selectedSeed) ?? this.selectedRuns[0] ?? null);
  readonly selectedPoint = $derived.by(() => {
    const sel = this.selection;
    if (!sel || !this.stats) return null;
    return this.stats.strategies.find((s) => s.strategy === sel.strategy)?.points.find((p) => p.key === sel.key) ?? null;
  });
  readonly colours = $derived(taskColours(this.sizesInput.sizes.length));
  /** An ordering's key in words ("T1 zero, three → T2 one, five"). */
  describe = (key: string): string => {
    const o = this.plan?.orderings.find((x) => x.key === key);
    return o ? orderingText(o.tasks, this.classList.classes) : key;
  };

  // ---------------------------------------------------------------- the panel's other actions

  toggleClass(i: number): void {
    this.selected = this.selected.includes(i) ? this.selected.filter((x) => x !== i) : [...this.selected, i];
  }
  pickDataset(id: string): void {
    this.datasetId = id as BuiltinDatasetId;
    this.foreignDataset = null;
    this.selected = firstClassesOf(this.datasetId);
  }
  useWordnet(): void {
    this.link.update((c) => void (c.similarity = { kind: 'wordnet', pins: {} }));
  }

  // ---------------------------------------------------------------- exports

  readonly stem = $derived(`ground-truth-${this.datasetId}-${this.classIdx.length}c-${this.sizesInput.sizes.length}t-${this.variable}`);
  private scoreOf(key: string): number | null {
    return this.plan?.orderings.find((o) => o.key === key)?.score ?? null;
  }
  /** The runs as CSV or JSON (the JSON with the experiment and its key). */
  runsExport(format: 'csv' | 'json'): string {
    if (format === 'csv') return toCsv(runsTable(this.runs, (k) => this.scoreOf(k)));
    return JSON.stringify({ config: $state.snapshot(this.checked.config), configHash: this.checked.hash, runs: this.runs }, null, 1);
  }
  /** The statistics as CSV or JSON ('' before there is a plan). */
  statsExport(format: 'csv' | 'json'): string {
    const stats = this.stats;
    const plan = this.plan;
    if (!stats) return '';
    if (format === 'csv') return toCsv(statisticsTable(stats));
    return JSON.stringify(
      {
        config: $state.snapshot(this.checked.config),
        configHash: this.checked.hash,
        plan: { omega: plan?.omega, exhaustive: plan?.exhaustive, truthLabel: plan?.truthLabel, protocolOrderings: plan?.protocolOrderings },
        statistics: statisticsJson(stats),
      },
      null,
      1,
    );
  }
  exportRuns(format: 'csv' | 'json'): void {
    downloadBlob(this.runsExport(format), exportFileName(`${this.stem}-runs`, format), format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json');
  }
  exportStats(format: 'csv' | 'json'): void {
    if (!this.stats) return;
    downloadBlob(this.statsExport(format), exportFileName(`${this.stem}-statistics`, format), format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json');
  }

  // ---------------------------------------------------------------- the page's effects

  /**
   * Wire the side effects to the component (call while it initialises): inputs ⇄ the link, the similarity of the
   * current classes (debounced), the stored runs of the current experiment.
   */
  attach(): void {
    $effect(() => this.syncFromLink());
    $effect(() => this.pushToLink());
    $effect(() => {
      if (!this.similarityNeeded) return;
      void this.simKey;
      const timer = setTimeout(() => void this.loadSimilarity(), 100);
      return () => clearTimeout(timer);
    });
    $effect(() => {
      void this.checked.hash;
      void this.store;
      void this.loadStoredRuns();
    });
  }
}

/** The engine's run config of each job, from the experiment: the one mapping every lab and the CLI use (src/engine/run-config.ts). */
export function trainConfigFor(config: ExperimentConfig): (job: GroundTruthJob) => TrainRunConfig {
  return (job) => trainRunConfigOf(config, job);
}
