/**
 * The Forgetting lab's runs (docs/science.md §3): the store of runs this browser keeps (IndexedDB,
 * src/services/forgetting-store.ts), the runner (src/services/forgetting-runner.ts, the lab kit's session on a worker
 * leased from the shared pool), which stored group and run are shown, and what is shown of them (the run in training,
 * its report, the group's summaries, verdict and progress line). The second layer of `ForgettingLab`
 * (./forgetting-lab.svelte.ts), over the inputs (./lab-inputs.svelte.ts).
 */
import { canonicalOrdering } from '../../core/orderings/key';
import { presetDataset } from '../../core/forgetting/from-config';
import { PRESETS, baseJob, orderingText, type PresetId } from '../../core/forgetting/setup';
import { findStoredRuns } from '../../core/forgetting/stored-runs';
import { orderingKindOf, type OrderingKind } from '../../core/labs/forgetting/binding';
import type { ForgettingRun, ForgettingStore } from '../../services/forgetting-store';
import type { ForgettingRunner, ForgettingRunnerState } from '../../services/forgetting-runner';
import { idleSessionState } from '../../services/lab-kit/run-session';
import { duration } from '../common/format';
import { ForgettingInputsState, type ForgettingLabDeps } from './lab-inputs.svelte';
import { createReportCache, forgettingVerdictOf, groupRuns, summariesOf } from './results';

export class ForgettingRunsState extends ForgettingInputsState {
  store = $state.raw<ForgettingStore | null>(null);
  storedRuns = $state.raw<ForgettingRun[]>([]);
  selectedGroup = $state<string | null>(null);
  selectedRunId = $state<string | null>(null);
  /** the link's runs that are not stored here (what to train, and whether a preset trains them), or null */
  linkMissing = $state<{ what: string; preset: boolean } | null>(null);
  runnerState = $state.raw<ForgettingRunnerState>({
    ...idleSessionState(),
    group: null,
    preset: null,
    preparing: '',
    backendInfo: null,
  });
  startError = $state('');
  /** seconds since Run was pressed (while active), then the last start's total */
  elapsed = $state(0);
  lastTotalSeconds = $state<number | null>(null);

  /** null until the store is open (mount) */
  runner: ForgettingRunner | null = null;
  private readonly createRunner: (store: ForgettingStore) => ForgettingRunner;
  private readonly openStore: () => Promise<ForgettingStore>;
  private startedAt = 0;
  private lastCurrent = '';
  private lastGroup = '';
  private readonly reportOf = createReportCache();
  /** teaching mode's Step from idle: the start's first run is stepped once it runs */
  private stepping = false;
  private disposed = false;

  constructor(deps: ForgettingLabDeps) {
    super(deps);
    this.createRunner = deps.createRunner;
    this.openStore = deps.openStore;
  }

  // --- lifecycle ---
  async mount(): Promise<void> {
    // a link's hand-made ordering is named (RS / EDGE) while the store opens
    if (this.fromLink && this.orderingKind === 'manual') this.nameLinkedOrdering();
    const s = await this.openStore();
    if (this.disposed) {
      s.close();
      return;
    }
    this.store = s;
    this.runner = this.createRunner(s);
    this.runner.subscribe((st) => this.onRunner(st));
    this.storedRuns = await s.all();
    if (this.fromLink) this.showLinkedRuns();
    else if (this.storedRuns.length && !this.selectedGroup) {
      const last = this.storedRuns[this.storedRuns.length - 1];
      this.selectGroup(last.group, last.id);
    }
  }
  destroy(): void {
    this.disposed = true;
    this.link.showTabSetup('forgetting', null);
    this.runner?.dispose();
    this.store?.close();
    this.orderings.dispose();
  }

  private onRunner(s: ForgettingRunnerState): void {
    this.runnerState = s;
    if (this.stepping && s.status === 'running') {
      this.stepping = false;
      this.runner?.step();
    }
    const cur = s.current;
    if (cur && cur.id !== this.lastCurrent) {
      this.lastCurrent = cur.id;
      this.selectedGroup = cur.group;
      this.selectedRunId = cur.id;
    }
    // the group of a start (or, while following another tab, of the runs it stores) is shown once known
    const g = s.group ?? s.runs.at(-1)?.group ?? null;
    if (g && g !== this.lastGroup && (s.status === 'running' || s.status === 'paused')) {
      this.lastGroup = g;
      if (!cur) this.selectedGroup = g;
    }
  }

  // --- which stored runs are shown ---
  /** Show the stored runs of the setup the link gave (none stored in this browser: say so, select nothing). */
  showLinkedRuns(): void {
    const p = this.forgetting.preset;
    const found = findStoredRuns(this.allRuns, {
      preset: p,
      presetLr: this.presetLr,
      job: p
        ? baseJob(presetDataset(p, this.datasetId), { seed: this.seed, trainPerClass: this.trainPerClass, testPerClass: this.testPerClass })
        : this.currentJob(),
    });
    if (found) {
      this.selectedGroup = found.group;
      this.selectedRunId = found.runId;
      this.linkMissing = null;
      return;
    }
    this.selectedGroup = null;
    this.selectedRunId = null;
    const what = p ? `the preset “${PRESETS.find((x) => x.id === p)?.name ?? p}”` : 'this run';
    this.linkMissing = { what, preset: p !== null && p !== undefined };
  }

  /** Show a stored group, and put its setup in the controls (so the link is what is shown). */
  selectGroup(groupId: string, runId: string | null = null): void {
    this.selectedGroup = groupId;
    this.selectedRunId = runId;
    this.linkMissing = null;
    const first = this.allRuns.find((r) => r.group === groupId);
    if (!first) return;
    const j = first.job;
    const p = (first.preset as PresetId | null) ?? null;
    this.datasetId = j.dataset;
    this.trainPerClass = j.trainPerClass;
    this.testPerClass = j.testPerClass;
    this.seed = j.seed;
    this.head = j.head;
    this.firstTaskEpochs = j.firstTaskEpochs;
    this.epochs = j.epochs;
    this.forgetting.preset = p;
    if (p) {
      if (p !== 'lr') this.presetLr = j.lr;
      return;
    }
    this.lr = j.lr;
    this.calibrationRatio = j.calibrationRatio;
    this.strategy = j.strategy;
    this.ewcMode = j.ewcMode;
    this.ewcLambda = j.ewcLambda;
    const byLabel: Record<string, OrderingKind> = { 'RS seed 0': 'rs', 'EDGE hard': 'edge-hard', 'EDGE easy': 'edge-easy' };
    const kind = orderingKindOf(j.tasks, null) === 'paper' ? 'paper' : (byLabel[j.orderingLabel] ?? 'manual');
    this.orderingKind = kind;
    if (kind === 'manual') this.manualText = orderingText(j.tasks);
  }

  // --- running ---
  readonly status = $derived(this.runnerState.status);
  readonly active = $derived(this.runnerState.status === 'running' || this.runnerState.status === 'paused');

  /** Train the experiment the controls describe (one run, or the preset set). */
  async train(o: { edgeOrderings?: { label: string; tasks: number[][] }[] } = {}): Promise<void> {
    this.startError = '';
    this.linkMissing = null;
    const e = this.experiment();
    if (!e.config || !this.runner) {
      this.startError = e.error ?? 'The store of runs is not open yet.';
      return;
    }
    this.claim();
    this.lastGroup = '';
    this.startedAt = performance.now();
    this.elapsed = 0;
    this.lastTotalSeconds = null;
    try {
      await this.runner.start(e.config, { ...o, label: this.runLabel(), orderingLabel: this.orderingInput.label });
    } catch (err) {
      this.startError = err instanceof Error ? err.message : String(err);
    }
    this.tick();
    this.lastTotalSeconds = this.elapsed;
    if (this.store) this.storedRuns = await this.store.all();
  }

  runSingle(): Promise<void> {
    this.forgetting.preset = null;
    return this.train();
  }

  /** Teaching mode's Step with nothing started: start the one-run setup and pause after its first run. */
  protected async stepFromIdle(): Promise<void> {
    this.stepping = true;
    try {
      await this.runSingle();
    } finally {
      this.stepping = false;
    }
  }

  /** Run can start: the ordering resolves, the store is open and nothing runs. */
  get canRun(): boolean {
    return !!this.orderingInput.tasks && !!this.store && !this.active;
  }
  /** why Run cannot start ('' when it can, or while a run is in progress) */
  get runRefusal(): string {
    return this.orderingInput.error || (this.store ? '' : 'Opening the store of runs…');
  }

  /** A preset is the setup now (and the link's): its fixed settings go into the controls, then its runs train. */
  async runPreset(id: PresetId, lrOverride?: number): Promise<void> {
    if (lrOverride !== undefined) this.presetLr = lrOverride;
    this.forgetting.preset = id;
    const base = baseJob(this.datasetId);
    const regime = PRESETS.find((x) => x.id === id)?.regime;
    this.firstTaskEpochs = regime?.firstTaskEpochs ?? base.firstTaskEpochs;
    this.epochs = regime?.epochs ?? base.epochs;
    this.head = base.head;
    this.calibrationRatio = base.calibrationRatio;
    this.strategy = base.strategy;
    this.orderingKind = 'paper';
    if (id !== 'lr') this.lr = this.presetLr;
    if (regime) this.pickDataset(presetDataset(id, this.datasetId));
    let edgeOrderings: { label: string; tasks: number[][] }[] | undefined;
    if (id === 'edge') {
      try {
        const o = await this.ensureProtocolOrderings();
        edgeOrderings = [
          { label: 'EDGE hard', tasks: canonicalOrdering(o.hard) },
          { label: 'EDGE easy', tasks: canonicalOrdering(o.easy) },
          { label: 'RS seed 0', tasks: canonicalOrdering(o.rs) },
        ];
      } catch (e) {
        this.startError = e instanceof Error ? e.message : String(e);
        return;
      }
    }
    await this.train({ edgeOrderings });
  }

  /** The clock of the progress line (an effect of `attach()` calls it every half second while active). */
  tick(): void {
    this.elapsed = (performance.now() - this.startedAt) / 1000;
  }

  async deleteGroup(): Promise<void> {
    const g = this.group;
    if (!this.store || !g) return;
    await this.store.deleteGroup(g.id);
    this.storedRuns = await this.store.all();
    this.runnerState = { ...this.runnerState, runs: this.runnerState.runs.filter((r) => r.group !== g.id) };
    this.selectedGroup = this.storedRuns.length ? this.storedRuns[this.storedRuns.length - 1].group : null;
    this.selectedRunId = null;
  }

  // --- what is shown ---
  /** The run in training as a (partial) run: R and the outputs of the tasks finished so far. */
  readonly liveRun = $derived.by((): ForgettingRun | null => {
    const c = this.runnerState.current;
    if (!c) return null;
    return {
      id: c.id,
      group: c.group,
      preset: c.preset,
      job: c.job,
      matrix: c.live.matrix,
      testCounts: c.live.testCounts,
      trainCounts: [],
      calibrationCounts: [],
      classOrder: [],
      probs: c.live.probs,
      backend: this.runnerState.backend,
      seconds: this.elapsed,
      createdAt: c.createdAt,
    };
  });
  /** Every run: stored, then the runner's (a run stored while this tab runs it), then the one in training. */
  get allRuns(): ForgettingRun[] {
    return [...this.storedRuns, ...this.runnerState.runs, ...(this.liveRun ? [this.liveRun] : [])];
  }
  readonly groups = $derived(groupRuns(this.allRuns));
  readonly group = $derived(this.groups.find((g) => g.id === this.selectedGroup) ?? null);
  /** the run shown (the one picked of the group, else its last) */
  readonly shownRun = $derived(this.group?.runs.find((r) => r.id === this.selectedRunId) ?? this.group?.runs[this.group.runs.length - 1] ?? null);
  /** Tasks finished of a run still training, or null for a finished run. */
  liveTasks(r: ForgettingRun): number | null {
    const c = this.runnerState.current;
    return c && r.id === c.id ? c.live.matrix.length : null;
  }
  /** CPCF_j starts at task 2: a run in training before that has nothing to draw yet (not an error). */
  readonly waiting = $derived(this.shownRun !== null && this.liveTasks(this.shownRun) !== null && this.shownRun.matrix.length < 2);
  readonly report = $derived(this.shownRun && !this.waiting ? this.reportOf(this.shownRun, this.reportSettings()) : null);
  readonly summaries = $derived(summariesOf(this.group?.runs ?? [], this.reportSettings(), this.reportOf));
  /** What the selected group's finished runs show, in words (`cil-lab cpcf`'s sentences); provisional while it trains. */
  readonly verdict = $derived.by(() => {
    const g = this.group;
    if (!g) return null;
    const models = new Set(g.runs.map((r) => r.job.strategy)).size;
    const perModel = Math.max(...[...new Set(g.runs.map((r) => r.job.strategy))].map((m) => g.runs.filter((r) => r.job.strategy === m).length));
    const training = this.active && this.runnerState.group === g.id ? Math.ceil(this.runnerState.total / models) : 0;
    return forgettingVerdictOf(g, this.finishedSummaries(), { alpha: this.conformal.alpha, planned: Math.max(perModel, training) });
  });
  /** Finished runs only (exports). */
  finishedSummaries() {
    return this.summaries.filter((s) => this.liveTasks(s.run) === null);
  }

  /** The progress line (e2e tests read it: "run 1 / 2", "done: 2 runs"). */
  readonly progressText = $derived.by((): string => {
    const s = this.runnerState;
    if (s.status === 'running' || s.status === 'paused') {
      const label = s.current?.job.label ?? '';
      const head = s.preparing || `run ${Math.min(s.done + 1, s.total)} / ${s.total}${label ? `: ${label}` : ''}`;
      return `${head} · ${duration(this.elapsed)}${s.etaSeconds !== null && s.status === 'running' ? ` · ${duration(s.etaSeconds)} left` : ''}${s.status === 'paused' ? ' · paused' : ''}`;
    }
    if (s.status === 'done') return `done: ${s.total} run${s.total === 1 ? '' : 's'} in ${duration(this.lastTotalSeconds)}`;
    if (s.status === 'cancelled') return 'cancelled (finished runs are kept)';
    return '';
  });
}
