/**
 * The Ground-truth lab's state (docs/science.md §2; EDGE paper §5): the lab kit mounts the lab (./index.ts) and
 * everything its parts show (GroundTruthControls, GroundTruthRunDetails, GroundTruthTools, GroundTruthResults) is
 * read from one `GroundTruthLab`, built in layers, each a file:
 * - ./lab-inputs.svelte.ts: the inputs, checked, and their two-way sync with the share link;
 * - ./lab-plan.svelte.ts: the similarity of the classes, the plan and the sample order;
 * - ./lab-runs.svelte.ts: the workers of the shared pool, the store, the runner and the statistics;
 * - this file: teaching mode's Play / Step, the chosen ordering, the exports, whether a link's runs are stored here,
 *   and the page's effects (`attach`).
 * Unit-tested without a browser (tests/unit/ui/ground-truth-lab-state.test.ts).
 */
import { onMount, untrack } from 'svelte';
import type { ConfigStrategyId } from '../../core/config/schema';
import { statisticsJson, statisticsTable } from '../../core/ground-truth/stats-export';
import { downloadBlob, exportFileName, toCsv } from '../common/chart-export';
import { GroundTruthRunsState } from './lab-runs.svelte';
import { orderingProgress } from '../../core/ground-truth/progress';
import { runsTable } from './page-inputs';
import { WholeDistributionState } from './whole-distribution.svelte';

export type { GroundTruthLabDeps, LabTrainClient } from './lab-runs.svelte';
export type { LabOrderingsClient } from './lab-plan.svelte';

/** Every strategy's name in the pickers: the trained ones, then the pre-trained methods on frozen features. */
export const STRATEGY_NAMES: Record<ConfigStrategyId, string> = {
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
  simplecil: 'SimpleCIL',
  ranpac: 'RanPAC',
  fecam: 'FeCAM',
};

export class GroundTruthLab extends GroundTruthRunsState {
  /** the "Every ordering, exactly" panel: a pre-trained method's whole distribution (./whole-distribution.svelte.ts) */
  readonly whole: WholeDistributionState = new WholeDistributionState(this);

  // ---------------------------------------------------------------- teaching mode's Play / Pause / Step

  readonly byOrdering = $derived(this.plan ? orderingProgress(this.plan.jobs, this.runs) : null);
  readonly canStart = $derived(!!this.plan && !!this.checked.hash && !!this.runner && this.preparing === '' && this.checked.errors.length === 0);
  /** Play and Step are enabled (the lab kit's Play bar: Play resumes a paused run, else runs) */
  readonly canPlay = $derived(this.status === 'paused' ? true : this.canStart && !!this.byOrdering?.next);
  /** Train exactly one more ordering (all its runs: one per strategy and seed), then pause. */
  step(): void {
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
  // ---------------------------------------------------------------- exports

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

  /** The page goes away: the whole distribution's computation stops too (its worker goes back to the pool). */
  override dispose(): void {
    this.whole.cancel();
    super.dispose();
  }

  // ---------------------------------------------------------------- a link whose runs are not stored here

  /** the page was opened with a link made on this lab (a link opened from outside mounts the page afresh) */
  private readonly fromLink = $derived.by(() => this.link.openedLab === 'ground-truth' && this.link.config.lab === 'ground-truth');
  /** the link's experiment (its key once the inputs are checked), and how many of its runs this browser stores */
  private linkedKey = $state<string | null>(null);
  private linkedStored = $state<number | null>(null);
  /** A link made on this lab, opened where its runs are not stored, says so until the inputs change or a run starts. */
  readonly linkNotStored = $derived(
    this.fromLink && this.linkedStored === 0 && this.runKeys?.experiment === this.linkedKey && this.runs.length === 0 && !this.active,
  );
  /** Count the stored runs of the link's experiment (`linkNotStored`); an effect of the page. */
  private countLinkedRuns(): (() => void) | void {
    const keys = this.runKeys;
    const store = this.store;
    if (!this.fromLink || !keys || !store) return;
    if (this.linkedKey === null) this.linkedKey = keys.experiment;
    if (keys.experiment !== this.linkedKey) return;
    let live = true;
    store.register(keys);
    void store.count(keys.experiment).then(
      (n) => live && (this.linkedStored = n),
      () => {},
    );
    return () => (live = false);
  }

  /** Warm the training workers up on the first idle moment, and again when the backend or the data change. */
  private warmUpWhenIdle(): () => void {
    void this.backendPref;
    void this.datasetId;
    void this.trainPerClass;
    void this.testPerClass;
    void this.fastPath;
    // a new workload (model, classes, strategies): the workers warm up on it, and with backend auto it is measured
    void JSON.stringify(this.workload ?? null);
    const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (h: number) => void };
    if (w.requestIdleCallback) {
      const h = w.requestIdleCallback(() => void this.warmUp(), { timeout: 1500 });
      return () => w.cancelIdleCallback?.(h);
    }
    const t = setTimeout(() => void this.warmUp(), 300);
    return () => clearTimeout(t);
  }

  // ---------------------------------------------------------------- the page's effects

  /**
   * Wire the side effects to the page (the lab kit calls it while the page initialises): the store and the runner once
   * mounted, inputs ⇄ the link (the lab follows a change made on another tab, such as the Orderings lab's classes, in
   * place, and folds the valid parts of its own in: ./lab-inputs.svelte.ts), the similarity of the current classes
   * (debounced), the stored runs of the current experiment, the workers' warm-up, whether the link's runs are stored.
   */
  attach(): void {
    onMount(() => void this.mount());
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
    $effect(() => this.countLinkedRuns());
    $effect(() => this.warmUpWhenIdle());
    // "What exactly ran": the backend that trains this lab's runs and why (measured, auto's order, or chosen)
    $effect(() => {
      const info = this.backendInfo;
      const why = this.backendWhy;
      const workers = Math.max(this.workersInUse, this.warm.workers);
      untrack(() =>
        this.link.reportBackend?.(
          'Ground-truth training',
          info ? `${this.inUse || info.name} (${workers > 1 ? `${workers} Web Workers` : 'a Web Worker'}) — ${why}` : null,
        ),
      );
    });
  }
}
