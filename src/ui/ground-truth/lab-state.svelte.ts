/**
 * The Ground-truth lab's state (docs/science.md §2; EDGE paper §5): GroundTruthPage.svelte only composes (the lab
 * kit, GroundTruthControls, GroundTruthRun, GroundTruthResults), and everything it shows is read from one
 * `GroundTruthLab`, built in layers, each a file:
 * - ./lab-inputs.svelte.ts: the inputs, checked, and their two-way sync with the share link;
 * - ./lab-plan.svelte.ts: the similarity of the classes, the plan and the sample order;
 * - ./lab-runs.svelte.ts: the workers of the shared pool, the store, the runner and the statistics;
 * - this file: teaching mode's Play / Step, the chosen ordering, the exports and the page's effects.
 * Unit-tested without a browser (tests/unit/ui/ground-truth-lab-state.test.ts).
 */
import { untrack } from 'svelte';
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
  override destroy(): void {
    this.whole.cancel();
    super.destroy();
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
