/**
 * The Curriculum lab's state and effects (docs/science.md §8): the settings on screen, the runner's state
 * (src/services/curriculum-runner.ts on the lab kit's run session), and what the charts read — the isolated
 * accuracies, every trained (order, scenario) point with ACC, BWT, FWT, ACC₀, and M2I against I2M. Unit-tested
 * with a fake runner (tests/unit/ui/curriculum-lab.test.ts); the page only composes.
 */
import { CURRICULUM_DATASET_IDS } from '../../core/curriculum/catalogue';
import { MAX_ALL_ORDERS_K } from '../../core/curriculum/orders';
import { curriculumOf, type CurriculumConfig } from '../../core/config/sections/curriculum';
import {
  isolatedOf,
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
export const DEFAULT_INPUTS: CurriculumInputs = { ...curriculumOf({}), backend: 'auto' };

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
  if (!(x.epochs >= 1 && x.epochs <= 50)) return 'Epochs: 1 to 50.';
  if (!(x.trainPerClass >= 1 && x.trainPerClass <= 6000)) return 'Training images per class: 1 to 6000.';
  if (!(x.testPerClass >= 1 && x.testPerClass <= 1000)) return 'Test images per class: 1 to 1000.';
  return null;
}

export function settingsOf(x: CurriculumInputs): CurriculumLabSettings {
  return {
    data: { datasets: [...x.datasets], trainPerClass: x.trainPerClass, testPerClass: x.testPerClass },
    settings: { model: { kind: 'mlp', hidden: [x.hidden] }, epochs: x.epochs, augment: x.datasets.some((d) => d.startsWith('emoji')) },
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
  private runner: CurriculumRunner;
  private unsubscribe: () => void;

  constructor(runner: CurriculumRunner, initial?: CurriculumConfig) {
    this.runner = runner;
    if (initial) this.inputs = { ...structuredClone(initial), backend: 'auto' };
    this.unsubscribe = runner.subscribe((s) => (this.state = s));
  }

  /** Unsubscribe and stop the runner (its worker goes back to the pool). */
  dispose(): void {
    this.unsubscribe();
    this.runner.dispose();
  }

  /** The experiment's section of these inputs (what the share link carries). */
  get section(): CurriculumConfig {
    const { backend: _backend, ...rest } = $state.snapshot(this.inputs);
    return rest as CurriculumConfig;
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

  async loadPreview(): Promise<void> {
    if (this.inputs.datasets.length < 2) return;
    try {
      this.previewError = null;
      this.preview = await this.runner.prepare(
        { datasets: [...this.inputs.datasets], trainPerClass: this.inputs.trainPerClass, testPerClass: this.inputs.testPerClass },
        this.inputs.backend,
      );
    } catch (e) {
      this.previewError = e instanceof Error ? e.message : String(e);
    }
  }

  async run(): Promise<void> {
    if (this.problem) return;
    const s = settingsOf(this.inputs);
    this.ran = s;
    this.selected = null;
    await this.runner.run(s, this.inputs.backend);
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
  preset(which: 'quick' | 'default'): void {
    this.inputs = { ...structuredClone(which === 'quick' ? QUICK_INPUTS : DEFAULT_INPUTS), backend: this.inputs.backend };
  }

  /** Everything the lab trained, for the JSON export (the CLI's shape plus the settings). */
  exportJson(): string {
    const a = this.isolated;
    return JSON.stringify(
      {
        settings: this.ran,
        datasets: this.datasets,
        isolated: a ? Object.fromEntries(this.datasets.map((d, p) => [d, a[p]])) : null,
        runs: this.points.map((p) => ({
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
        })),
      },
      null,
      1,
    );
  }
}
