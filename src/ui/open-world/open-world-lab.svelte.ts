/**
 * The Open-world lab's state and effects (docs/science.md §5): the settings on screen (the experiment's, through its
 * entry's `view` and `apply`), the runner's state (src/services/ood-runner.ts on the lab kit's run session: stored
 * steps, resume), the lines the page shows about the store, the exports, and the choices of the charts. The lab kit
 * composes the page (./index.ts): OpenWorldControls and OpenWorldResults around one `OpenWorldLab`.
 */
import { untrack } from 'svelte';
import {
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_PRESETS,
  parseOpenWorldClasses,
  validateOpenWorldSettings,
  type OpenWorldSettings,
} from '../../core/labs/open-world/settings';
import type { DetectorId } from '../../core/ood/detectors';
import type { ExperimentConfig } from '../../core/config/schema';
import { oodCommandLine, oodExportJson, oodResultsTable, oodSeedsExportJson, oodSeedsResultsTable } from '../../services/ood-export';
import type { OodReport } from '../../services/ood-export';
import { openWorldVerdict, openWorldVerdictInput } from '../../core/verdict/open-world';
import type { Verdict } from '../../core/verdict/types';
import { runButton } from '../common/lab/run-button';
import { labSeedList, oneSeed } from '../../core/labs/seeds';
import type { OodRunner, OodRunnerState } from '../../services/ood-runner';
import { downloadBlob, toCsv } from '../common/chart-export';
import { RunnerLab } from '../common/lab/runner-lab';
import type { CurveMetric } from './charts';

export class OpenWorldLab extends RunnerLab<OodRunner> {
  s: OpenWorldSettings = $state(structuredClone(OPEN_WORLD_DEFAULTS));
  classesText = $state('');
  oodText = $state('');
  backend: ExperimentConfig['backend']['train'] = $state('auto');
  st: OodRunnerState = $state.raw(undefined as unknown as OodRunnerState);
  /** the store was read for the settings on screen */
  opened = $state(false);
  // what the charts show
  metric: CurveMetric = $state('auroc');
  curveSet = $state('mean');
  stepPick = $state(0);
  assignSet = $state('');
  picked: { detector: DetectorId; set: string } | null = $state(null);
  /** every seed's finished run of the settings shown, as `cil-lab ood` reports it (seed order) */
  seedReports: OodReport[] = $state.raw([]);
  /** the seed training now (several seeds train one after another) */
  seedNow: number | null = $state(null);

  private readonly unsubscribe: () => void;

  constructor(runner: OodRunner, initial?: OpenWorldSettings) {
    super(runner);
    this.setSettings(initial ?? OPEN_WORLD_DEFAULTS);
    this.unsubscribe = runner.subscribe((v) => (this.st = v));
  }

  private setSettings(x: OpenWorldSettings): void {
    this.s = structuredClone(x);
    this.classesText = x.classes.join(',');
    this.oodText = x.oodSets.join(' ');
  }

  /** the class field read by core's parser (bounded before it expands a range); its message stands in for the settings' */
  readonly classField = $derived(parseOpenWorldClasses(this.classesText, this.s.dataset));
  readonly errors = $derived(this.classField.error ? [this.classField.error] : validateOpenWorldSettings(this.s));
  readonly busy = $derived(this.st.status === 'running' || this.st.status === 'paused');
  /** the settings of the results shown (the run's, else the form's) */
  readonly ran = $derived(this.st.settings ?? this.s);
  readonly complete = $derived(this.st.meta !== null && this.st.steps.length === this.ran.tasks);
  readonly command = $derived(oodCommandLine($state.snapshot(this.s) as OpenWorldSettings));
  readonly runLabel = $derived(
    !this.busy && this.st.storedSteps > 0 && !this.complete
      ? this.st.resumable
        ? `Run ▶ (continue after step ${this.st.storedSteps})`
        : 'Run ▶ (retrain from scratch)'
      : 'Run ▶',
  );
  /** what the store holds of the settings shown, and what the start button (`runButton`: Run ▶, or Play) will do */
  storeLine(teaching: boolean): string {
    const st = this.st;
    const T = this.ran.tasks;
    if (st.resumedFrom !== null) return `Continued after step ${st.resumedFrom} from the stored checkpoint: steps 1–${st.resumedFrom} were not trained again.`;
    if (st.restarted)
      return `No checkpoint to continue from: the model trains from scratch; the ${st.storedSteps} stored steps stay shown and are not stored again.`;
    if (this.busy) return 'Each finished step is stored in this browser at once: a reload continues after the last stored step.';
    if (this.complete) return `All ${T} steps are stored in this browser: shown without training.`;
    if (st.storedSteps > 0)
      return st.resumable
        ? `${st.storedSteps} of ${T} steps are stored in this browser; ${runButton(teaching)} continues after step ${st.storedSteps} from the stored checkpoint.`
        : `${st.storedSteps} of ${T} steps are stored, without a checkpoint to continue from: ${runButton(teaching)} retrains from scratch (the stored steps stay shown).`;
    return '';
  }
  readonly progressText = $derived.by(() => {
    const st = this.st;
    if (st.status === 'running' && st.activity) return `${st.done} / ${st.total} steps · ${st.activity}`;
    if (st.status === 'paused') return `${st.done} / ${st.total} steps · paused`;
    return st.status === 'done' ? `${this.ran.tasks} steps · done` : '';
  });
  /** the seeds the settings train */
  readonly seeds = $derived(labSeedList(this.s.seed, this.s.seeds));
  /** What the runs show, in words (docs/verdicts.md §Open world): the same sentences as `cil-lab ood` over these seeds. */
  readonly verdict: Verdict | null = $derived(this.seedReports.length ? openWorldVerdict(openWorldVerdictInput(this.seedReports, this.seeds.length)) : null);
  /** the step the charts below the curves show */
  readonly shownStep = $derived(this.st.steps.length ? this.st.steps[Math.min(this.stepPick, this.st.steps.length - 1)] : null);

  /** Read every seed's finished run of the settings shown from the store (no training). */
  async loadSeedReports(): Promise<void> {
    const snap = $state.snapshot(this.s) as OpenWorldSettings;
    if (validateOpenWorldSettings(snap).length > 0) return;
    const out: OodReport[] = [];
    for (const seed of labSeedList(snap.seed, snap.seeds)) {
      const one = oneSeed(snap, seed);
      const { steps, meta } = await this.runner.stored(one);
      if (meta && steps.length === one.tasks) out.push(oodExportJson(one, steps, meta));
    }
    if (JSON.stringify(snap) === JSON.stringify($state.snapshot(this.s))) this.seedReports = out;
  }

  /**
   * Train every seed, one after another (each seed's steps stored as they finish; a finished seed is read back), then
   * show the first seed's run again. Stops at the first seed that does not finish.
   */
  async run(): Promise<void> {
    const snap = $state.snapshot(this.s) as OpenWorldSettings;
    const seeds = labSeedList(snap.seed, snap.seeds);
    for (const seed of seeds) {
      this.seedNow = seeds.length > 1 ? seed : null;
      await this.runner.run(seeds.length > 1 ? oneSeed(snap, seed) : snap, this.backend);
      if (this.st.status !== 'done') break;
      await this.loadSeedReports();
    }
    this.seedNow = null;
    if (seeds.length > 1 && this.st.status === 'done') await this.runner.open(snap);
  }
  step(): void {
    this.runner.step($state.snapshot(this.s) as OpenWorldSettings, this.backend);
  }
  // pause, resume and cancel: RunnerLab (../common/lab/runner-lab.ts)

  preset(name: keyof typeof OPEN_WORLD_PRESETS): void {
    this.setSettings(OPEN_WORLD_PRESETS[name]);
  }
  setSeeds(n: number): void {
    if (n === 1) delete this.s.seeds;
    else this.s.seeds = n;
  }
  toggle(d: DetectorId): void {
    this.s.detectors = this.s.detectors.includes(d) ? this.s.detectors.filter((x) => x !== d) : [...this.s.detectors, d];
  }

  /** Several seeds finished: the exports hold every seed's run (as `cil-lab ood --seeds` prints them), not the one shown. */
  private get allSeeds(): OodReport[] | null {
    return this.seedReports.length > 1 ? this.seedReports : null;
  }
  exportJson(): void {
    const st = this.st;
    const all = this.allSeeds;
    if (all) return downloadBlob(JSON.stringify(oodSeedsExportJson(all), null, 2), 'open-world-results.json', 'application/json');
    if (!st.meta || !st.settings) return;
    downloadBlob(JSON.stringify(oodExportJson(st.settings, st.steps, st.meta), null, 2), 'open-world-results.json', 'application/json');
  }
  exportCsv(): void {
    if (!this.st.settings) return;
    const all = this.allSeeds;
    const table = all ? oodSeedsResultsTable(this.st.settings, all) : oodResultsTable(this.st.settings, this.st.steps);
    downloadBlob(toCsv(table), 'open-world-results.csv', 'text/csv');
  }

  /**
   * Wire the effects to the page (call while it initialises): the typed lists into the settings, the store's
   * results for the settings on screen, and the charts following the run as steps arrive. (The lab kit saves every
   * valid change into the experiment.)
   */
  attach(): void {
    $effect(() => {
      this.s.classes = this.classField.classes;
      this.s.oodSets = this.oodText.split(/\s+/).filter(Boolean);
    });
    $effect(() => {
      if (this.errors.length > 0 || untrack(() => this.runner.active)) return;
      const snap = $state.snapshot(this.s) as OpenWorldSettings;
      void this.runner.open(snap).then(() => (this.opened = true));
      void this.loadSeedReports();
    });
    $effect(() => {
      if (this.st.steps.length) this.stepPick = this.st.steps.length - 1;
    });
    $effect(() => {
      const sets = this.ran.oodSets;
      if (!sets.includes(this.assignSet)) this.assignSet = sets[0] ?? '';
    });
  }

  dispose(): void {
    this.unsubscribe();
    this.runner.dispose();
  }
}
