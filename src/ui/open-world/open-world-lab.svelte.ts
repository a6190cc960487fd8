/**
 * The Open-world lab's state and effects (docs/science.md §5): the settings on screen (the experiment's `openWorld`
 * section), the runner's state (src/services/ood-runner.ts on the lab kit's run session: stored steps, resume),
 * the lines the page shows about the store, the exports, and the choices of the charts. The page only composes
 * OpenWorldControls and OpenWorldResults around one `OpenWorldLab`.
 */
import { untrack } from 'svelte';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS, parseOpenWorldClasses, validateOpenWorldSettings, type OpenWorldSettings } from '../../core/ood/config';
import type { DetectorId } from '../../core/ood/detectors';
import type { ExperimentConfig } from '../../core/config/schema';
import { oodCommandLine, oodExportJson, oodResultsTable } from '../../services/ood-export';
import type { OodRunner, OodRunnerState } from '../../services/ood-runner';
import { downloadBlob, toCsv } from '../common/chart-export';
import type { CurveMetric } from './charts';

export class OpenWorldLab {
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

  private readonly runner: OodRunner;
  private readonly unsubscribe: () => void;

  constructor(runner: OodRunner, initial?: OpenWorldSettings) {
    this.runner = runner;
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
  readonly storeLine = $derived.by(() => {
    const st = this.st;
    const T = this.ran.tasks;
    if (st.resumedFrom !== null) return `Continued after step ${st.resumedFrom} from the stored checkpoint: steps 1–${st.resumedFrom} were not trained again.`;
    if (st.restarted)
      return `No checkpoint to continue from: the model trains from scratch; the ${st.storedSteps} stored steps stay shown and are not stored again.`;
    if (this.busy) return 'Each finished step is stored in this browser at once: a reload continues after the last stored step.';
    if (this.complete) return `All ${T} steps are stored in this browser: shown without training.`;
    if (st.storedSteps > 0)
      return st.resumable
        ? `${st.storedSteps} of ${T} steps are stored in this browser; Run ▶ continues after step ${st.storedSteps} from the stored checkpoint.`
        : `${st.storedSteps} of ${T} steps are stored, without a checkpoint to continue from: Run ▶ retrains from scratch (the stored steps stay shown).`;
    return '';
  });
  readonly progressText = $derived.by(() => {
    const st = this.st;
    if (st.status === 'running' && st.activity) return `${st.done} / ${st.total} steps · ${st.activity}`;
    if (st.status === 'paused') return `${st.done} / ${st.total} steps · paused`;
    return st.status === 'done' ? `${this.ran.tasks} steps · done` : '';
  });
  /** the step the charts below the curves show */
  readonly shownStep = $derived(this.st.steps.length ? this.st.steps[Math.min(this.stepPick, this.st.steps.length - 1)] : null);

  run(): Promise<void> {
    return this.runner.run($state.snapshot(this.s) as OpenWorldSettings, this.backend);
  }
  step(): void {
    this.runner.step($state.snapshot(this.s) as OpenWorldSettings, this.backend);
  }
  play(): void {
    if (this.st.status === 'paused') this.runner.resume();
    else void this.run();
  }
  pause(): void {
    this.runner.pause();
  }
  resume(): void {
    this.runner.resume();
  }
  cancel(): void {
    this.runner.cancel();
  }

  preset(name: keyof typeof OPEN_WORLD_PRESETS): void {
    this.setSettings(OPEN_WORLD_PRESETS[name]);
  }
  toggle(d: DetectorId): void {
    this.s.detectors = this.s.detectors.includes(d) ? this.s.detectors.filter((x) => x !== d) : [...this.s.detectors, d];
  }

  exportJson(): void {
    const st = this.st;
    if (!st.meta || !st.settings) return;
    downloadBlob(JSON.stringify(oodExportJson(st.settings, st.steps, st.meta), null, 2), 'open-world-results.json', 'application/json');
  }
  exportCsv(): void {
    if (!this.st.settings) return;
    downloadBlob(toCsv(oodResultsTable(this.st.settings, this.st.steps)), 'open-world-results.csv', 'text/csv');
  }

  /**
   * Wire the effects to the page (call while it initialises): the typed lists into the settings, every valid
   * change to `save` (the share link), the store's results for the settings on screen, and the charts following
   * the run as steps arrive.
   */
  attach(save: (s: OpenWorldSettings) => void): void {
    $effect(() => {
      this.s.classes = this.classField.classes;
      this.s.oodSets = this.oodText.split(/\s+/).filter(Boolean);
    });
    $effect(() => {
      if (this.errors.length === 0) save($state.snapshot(this.s) as OpenWorldSettings);
    });
    $effect(() => {
      if (this.errors.length > 0 || untrack(() => this.runner.active)) return;
      const snap = $state.snapshot(this.s) as OpenWorldSettings;
      void this.runner.open(snap).then(() => (this.opened = true));
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
