/**
 * The Curriculum lab's state and effects (docs/science.md §8): the settings on screen, the runner's state
 * (src/services/curriculum-runner.ts on the lab kit's run session), and what the charts read — the isolated
 * accuracies, every trained (order, scenario) point with ACC, BWT, FWT, ACC₀, and M2I against I2M. Unit-tested
 * with a fake runner (tests/unit/ui/curriculum-lab.test.ts); the lab kit composes the page (./index.ts).
 */
import { untrack } from 'svelte';
import { CLASSES_PER_DATASET, CURRICULUM_DATASETS, CURRICULUM_DATASET_IDS } from '../../core/curriculum/catalogue';
import { labSeedList } from '../../core/labs/seeds';
import { curriculumObservation, type CurriculumObservation } from '../../core/lessons/observations';
import { curriculumVerdict, curriculumVerdictInput, type CurriculumVerdictInput } from '../../core/verdict/curriculum';
import type { Verdict } from '../../core/verdict/types';
import { allOrders, MAX_ALL_ORDERS_K } from '../../core/curriculum/orders';
import { CURRICULUM_FILL, type CurriculumConfig } from '../../core/labs/curriculum/section';
import { CURRICULUM_SETTINGS as S, curriculumTraining } from '../../core/labs/curriculum/settings';
import { CURRICULUM_LAB_START } from '../../core/labs/curriculum';
import {
  curriculumBatchSize,
  isolatedOf,
  orderJobs,
  type CurriculumLabSettings,
  type CurriculumPreview,
  type CurriculumResult,
  type CurriculumRunner,
  type OrderRun,
} from '../../services/curriculum-runner';
import { leadRows, orderPoints, type OrderPoint, type Scenario } from './results';

/** The page's inputs: the experiment's curriculum section (shared by the link) and the backend preference. */
export interface CurriculumInputs extends CurriculumConfig {
  /** the backend preference (what is shown; it does not change the numbers the store keys on) */
  backend: 'auto' | 'webgpu' | 'webgl' | 'wasm' | 'cpu';
}

/** The page's defaults: the lab's default curriculum, every order, fine-tuning and replay, a small subset. */
export const DEFAULT_INPUTS: CurriculumInputs = { ...structuredClone(CURRICULUM_FILL as CurriculumConfig), backend: 'auto' };

/** Where a new experiment starts (the lab's start, src/core/labs/curriculum/index.ts). */
export const START_INPUTS: CurriculumInputs = { ...CURRICULUM_LAB_START, backend: 'auto' };

/** The quick preset: 3 datasets (6 orders), one strategy, 1 epoch on 30 images per class (3.7 s measured; the page shows the time left while it runs). */
export const QUICK_INPUTS: CurriculumInputs = {
  ...DEFAULT_INPUTS,
  datasets: ['digits', 'fashion-mnist', 'emoji-food'],
  strategies: ['finetune'],
  epochs: 1,
  trainPerClass: 30,
  testPerClass: 20,
  hidden: 64,
};

export const LAB_STRATEGIES = ['finetune', 'replay', 'ewc', 'lwf', 'icarl', 'agem', 'joint'] as const;

/** Why the inputs cannot run, or null. */
export function inputsProblem(x: CurriculumInputs): string | null {
  if (x.datasets.length < 2) return 'Pick at least 2 datasets.';
  if (x.datasets.some((d) => !CURRICULUM_DATASET_IDS.includes(d))) return 'Unknown dataset.';
  if (x.order === 'all' && x.datasets.length > MAX_ALL_ORDERS_K) return `Every order is trained only for at most ${MAX_ALL_ORDERS_K} datasets.`;
  if (Array.isArray(x.order) && (x.order.length !== x.datasets.length || x.order.some((d) => !x.datasets.includes(d))))
    return 'The hand order must list each picked dataset once.';
  if (x.strategies.length === 0) return 'Pick at least one strategy.';
  const out = (k: 'epochs' | 'trainPerClass' | 'testPerClass'): boolean => !(x[k] >= S[k].min && x[k] <= S[k].max);
  if (out('epochs')) return `Epochs: ${S.epochs.min} to ${S.epochs.max}.`;
  if (out('trainPerClass')) return `Training images per class: ${S.trainPerClass.min} to ${S.trainPerClass.max}.`;
  if (out('testPerClass')) return `Test images per class: ${S.testPerClass.min} to ${S.testPerClass.max}.`;
  return null;
}

export function settingsOf(x: CurriculumInputs): CurriculumLabSettings {
  return {
    data: { datasets: [...x.datasets], trainPerClass: x.trainPerClass, testPerClass: x.testPerClass },
    settings: curriculumTraining(x),
    strategies: [...x.strategies],
    seed: x.seed,
    order: Array.isArray(x.order) ? [...x.order] : x.order,
  };
}

export class CurriculumLab {
  inputs: CurriculumInputs = $state(structuredClone(DEFAULT_INPUTS));
  /** the runner's state (set at once by the subscription in the constructor) */
  state: CurriculumRunner['state'] = $state.raw(undefined as unknown as CurriculumRunner['state']);
  preview: CurriculumPreview | null = $state.raw(null);
  previewError: string | null = $state(null);
  /** the settings of the last start (the results belong to them) */
  ran: CurriculumLabSettings | null = $state.raw(null);
  /** the chosen strategy of the distribution, gain and heat-map charts, and the chosen order's key */
  strategy = $state('');
  selected: string | null = $state(null);
  heatScenario: Scenario = $state('cil');
  /** every seed's stored results of the inputs shown (seed order; the verdict and the table over seeds read them) */
  seedResults: { seed: number; runs: CurriculumResult[] }[] = $state.raw([]);
  /** the seed training now (several seeds train one after another) */
  seedNow: number | null = $state(null);
  private runner: CurriculumRunner;
  private unsubscribe: () => void;

  constructor(runner: CurriculumRunner, initial?: CurriculumConfig) {
    this.runner = runner;
    if (initial) this.inputs = { ...structuredClone(initial), backend: 'auto' };
    this.unsubscribe = runner.subscribe((s) => (this.state = s));
  }

  /** Unsubscribe and stop the runner (its worker goes back to the pool). */
  /**
   * Wire the effects to the page (call while it initialises): the samples follow the datasets and their sizes, and
   * every seed's stored results of the settings shown are read (the verdict, the table over seeds).
   */
  attach(): void {
    $effect(() => {
      void [this.inputs.datasets.join(','), this.inputs.trainPerClass, this.inputs.testPerClass];
      // only these three change the samples: the backend (read inside) must not ask for another preview
      untrack(() => void this.loadPreview());
    });
    $effect(() => {
      void JSON.stringify(this.section);
      if (!this.active) void this.loadSeedResults();
    });
  }

  dispose(): void {
    this.unsubscribe();
    this.runner.dispose();
  }

  /** The experiment's section of these inputs (what the share link carries). */
  get section(): CurriculumConfig {
    const { backend: _backend, ...rest } = $state.snapshot(this.inputs);
    return rest as CurriculumConfig;
  }

  get seeds(): number[] {
    return labSeedList(this.inputs.seed, this.inputs.seeds);
  }
  /** The settings of one seed's runs (what they are stored under). */
  seedSettings(seed: number): CurriculumLabSettings {
    return { ...settingsOf(this.inputs), seed };
  }
  /** Read every seed's stored results of the inputs shown (no training). */
  async loadSeedResults(): Promise<void> {
    if (this.problem) return;
    const want = JSON.stringify(this.section);
    const out: { seed: number; runs: CurriculumResult[] }[] = [];
    for (const seed of this.seeds) out.push({ seed, runs: await this.runner.stored(this.seedSettings(seed)) });
    if (JSON.stringify(this.section) === want) this.seedResults = out;
  }
  /** Every seed's results, the start in flight's as they arrive. */
  get allSeedResults(): { seed: number; runs: CurriculumResult[] }[] {
    const live = this.ran && this.active ? this.ran.seed : null;
    return this.seedResults.map((x) => (x.seed === live ? { seed: x.seed, runs: this.state.runs } : x));
  }
  /** Models a Run trains at one seed: each dataset alone, then each strategy on each order (M2I and I2M for m2i / i2m). */
  readonly modelsPerSeed = $derived.by((): number => {
    const K = this.inputs.datasets.length;
    const orders = this.inputs.order === 'all' ? allOrders(K).length : Array.isArray(this.inputs.order) ? 1 : 2;
    return K + this.inputs.strategies.length * orders;
  });
  /** Models a Run trains over every seed (known before it starts, so the page never says "0 of 0"). */
  readonly modelsPlanned = $derived(this.seeds.length * this.modelsPerSeed);
  /** Of those, the ones trained or stored: each seed's isolated models and its strategies' orders, at most its share. */
  readonly modelsDone = $derived.by((): number => {
    const s = settingsOf(this.inputs);
    const K = s.data.datasets.length;
    let n = 0;
    for (const x of this.allSeedResults) {
      const isolated = isolatedOf(x.runs, K);
      const wanted = new Set(orderJobs(s, isolated).map((j) => (j.kind === 'order' ? `${j.strategy}|${j.order.join(',')}` : '')));
      const alone = x.runs.filter((r) => r.kind === 'isolated' && r.position < K).length;
      const orders = x.runs.filter((r) => r.kind === 'order' && wanted.has(`${r.strategy}|${r.order.join(',')}`)).length;
      n += Math.min(this.modelsPerSeed, alone + orders);
    }
    return n;
  });
  /**
   * Every seed's trained orders as the verdict's input (the same as `cil-lab curriculum` builds), and whether every
   * seed trained every order it plans; null before any seed has its datasets' isolated accuracies.
   */
  #reading(): { input: CurriculumVerdictInput; complete: boolean } | null {
    const s = settingsOf(this.inputs);
    const K = s.data.datasets.length;
    const scenarios = this.scenarios;
    const seeds = this.allSeedResults.flatMap((x) => {
      const isolated = isolatedOf(x.runs, K);
      if (!isolated) return [];
      const wanted = new Set(orderJobs(s, isolated).map((j) => (j.kind === 'order' ? `${j.strategy}|${j.order.join(',')}` : '')));
      const orders = x.runs.filter(
        (r): r is OrderRun & { kind: 'order' } & CurriculumResult => r.kind === 'order' && wanted.has(`${r.strategy}|${r.order.join(',')}`),
      );
      return [{ seed: x.seed, isolated, orders }];
    });
    if (seeds.length === 0) return null;
    const counts = this.preview && this.preview.trainCounts.length === K ? this.preview.trainCounts : null;
    const input = curriculumVerdictInput({
      datasets: s.data.datasets.map((id, p) => ({
        id,
        name: CURRICULUM_DATASETS.find((d) => d.id === id)?.name ?? id,
        trainImagesPerClass: counts ? Math.floor(counts[p] / CLASSES_PER_DATASET) : s.data.trainPerClass,
      })),
      epochs: this.inputs.epochs,
      batchSize: curriculumBatchSize(s),
      strategies: s.strategies,
      scenarios,
      seeds,
    });
    // provisional until every seed has trained every order it plans
    const complete = this.allSeedResults.every((x) => {
      const iso = isolatedOf(x.runs, K);
      return (
        iso !== null &&
        orderJobs({ ...s, seed: x.seed }, iso).every((j) =>
          x.runs.some((r) => r.kind === 'order' && j.kind === 'order' && r.strategy === j.strategy && r.order.join(',') === j.order.join(',')),
        )
      );
    });
    return { input, complete };
  }

  /** What the runs show, in words (docs/verdicts.md §Curriculum); provisional until every seed trained every order. */
  get verdict(): Verdict | null {
    const r = this.#reading();
    if (!r) return null;
    const v = curriculumVerdict(r.input);
    if (r.complete) return v;
    const K = settingsOf(this.inputs).data.datasets.length;
    const done = this.allSeedResults.filter((x) => isolatedOf(x.runs, K) !== null).length;
    return { ...v, provisional: true, provisionalNote: `Provisional: ${done} of ${this.seeds.length} seeds started; orders still training.` };
  }
  /** What an open lesson checks: M2I − I2M per strategy and scenario over the seeds (the verdict's numbers). */
  get observation(): CurriculumObservation | null {
    const r = this.#reading();
    return r ? curriculumObservation(r.input, r.complete) : null;
  }

  get problem(): string | null {
    return inputsProblem(this.inputs);
  }
  get status() {
    return this.state.status;
  }
  get active(): boolean {
    return this.state.status === 'running' || this.state.status === 'paused';
  }
  get datasets(): string[] {
    return this.ran?.data.datasets ?? this.inputs.datasets;
  }
  get scenarios(): Scenario[] {
    const s = this.inputs.scenario;
    return s === 'both' ? ['cil', 'til'] : [s];
  }
  get isolated(): number[] | null {
    return isolatedOf(this.state.runs, this.datasets.length);
  }
  get orderRuns(): OrderRun[] {
    return this.state.runs.filter((r): r is Extract<CurriculumResult, { kind: 'order' }> => r.kind === 'order');
  }
  get points(): OrderPoint[] {
    const a = this.isolated;
    return a ? orderPoints(this.orderRuns, a, this.datasets, this.scenarios) : [];
  }
  get strategyShown(): string {
    const trained = [...new Set(this.orderRuns.map((r) => r.strategy))];
    return trained.includes(this.strategy) ? this.strategy : (trained[0] ?? '');
  }
  get strategyPoints(): OrderPoint[] {
    return this.points.filter((p) => p.strategy === this.strategyShown);
  }
  get leads() {
    return leadRows(this.points);
  }
  /** The order shown in the heat map: the chosen one, else M2I, else the first trained. */
  get heatPoint(): OrderPoint | null {
    const ps = this.strategyPoints.filter((p) => p.scenario === this.heatScenario || this.scenarios.length === 1);
    return ps.find((p) => p.key.split('|')[1] === this.selected) ?? ps.find((p) => p.m2i) ?? ps[0] ?? null;
  }

  /** the latest preview asked for: an older one that answers later (a preset clicked while it loads) is dropped */
  #previewAsk = 0;

  async loadPreview(): Promise<void> {
    if (this.inputs.datasets.length < 2) return;
    const ask = ++this.#previewAsk;
    try {
      this.previewError = null;
      const preview = await this.runner.prepare(
        { datasets: [...this.inputs.datasets], trainPerClass: this.inputs.trainPerClass, testPerClass: this.inputs.testPerClass },
        this.inputs.backend,
      );
      if (ask === this.#previewAsk) this.preview = preview;
    } catch (e) {
      if (ask === this.#previewAsk) this.previewError = e instanceof Error ? e.message : String(e);
    }
  }

  /**
   * Train every seed, one after another (each job stored as it finishes; stored ones are read back), then show the
   * first seed's results again. Stops at the first seed that does not finish.
   */
  async run(): Promise<void> {
    if (this.problem) return;
    const seeds = this.seeds;
    this.selected = null;
    await this.loadSeedResults();
    for (const seed of seeds) {
      const s = this.seedSettings(seed);
      this.ran = s;
      this.seedNow = seeds.length > 1 ? seed : null;
      await this.runner.run(s, this.inputs.backend);
      if (this.state.status !== 'done') break;
      await this.loadSeedResults();
    }
    this.seedNow = null;
    if (seeds.length > 1 && this.state.status === 'done') {
      this.ran = this.seedSettings(seeds[0]);
      await this.runner.run(this.ran, this.inputs.backend);
    }
  }
  pause(): void {
    this.runner.pause();
  }
  resume(): void {
    this.runner.resume();
  }
  step(): void {
    if (this.state.status === 'paused') this.runner.step(1);
    else if (!this.active) {
      void this.run();
      this.runner.step(1);
    }
  }
  cancel(): void {
    this.runner.cancel();
  }
  preset(which: 'quick' | 'default' | 'start'): void {
    const p = which === 'quick' ? QUICK_INPUTS : which === 'start' ? START_INPUTS : DEFAULT_INPUTS;
    this.inputs = { ...structuredClone(p), backend: this.inputs.backend };
  }

  /**
   * Everything the lab trained, for the JSON export (the CLI's shape plus the settings): the runs shown and, when
   * several seeds trained, every seed's isolated accuracies and runs, with the verdict over them.
   */
  exportJson(): string {
    const a = this.isolated;
    const K = this.datasets.length;
    const runsOf = (points: OrderPoint[]) =>
      points.map((p) => ({
        order: p.order.map((q) => this.datasets[q]),
        scenario: p.scenario,
        strategy: p.strategy,
        matrix: p.matrix,
        acc: p.acc,
        bwt: p.bwt,
        fwt: p.fwt,
        acc0: p.acc0,
        m2i: p.m2i,
        i2m: p.i2m,
      }));
    const seeds = this.allSeedResults.map((x) => {
      const iso = isolatedOf(x.runs, K);
      const orders = x.runs.filter((r): r is Extract<CurriculumResult, { kind: 'order' }> => r.kind === 'order');
      return {
        seed: x.seed,
        isolated: iso ? Object.fromEntries(this.datasets.map((d, p) => [d, iso[p]])) : null,
        runs: iso ? runsOf(orderPoints(orders, iso, this.datasets, this.scenarios)) : [],
      };
    });
    return JSON.stringify(
      {
        settings: this.ran,
        datasets: this.datasets,
        isolated: a ? Object.fromEntries(this.datasets.map((d, p) => [d, a[p]])) : null,
        runs: runsOf(this.points),
        ...(this.seeds.length > 1 ? { seeds, headline: this.verdict?.headline ?? null, verdict: this.verdict?.sentences ?? null } : {}),
      },
      null,
      1,
    );
  }
}
