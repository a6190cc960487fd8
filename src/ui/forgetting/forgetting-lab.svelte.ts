/**
 * The Forgetting lab's state and effects (docs/science.md §3), outside its components so they are tested
 * without a browser (tests/unit/ui/forgetting-lab.test.ts): the page's controls, the RS / EDGE orderings, the runner
 * (src/services/forgetting-runner.ts, the lab kit's session on a worker leased from the shared pool), the stored runs
 * and what is selected. The page (./ForgettingPage.svelte) only composes ./ForgettingControls.svelte and
 * ./ForgettingResults.svelte; `attach()` wires the effects.
 *
 * The experiment (src/services/share-link.svelte.ts) and this tab ("a tab may show its own setup,
 * never overwrite the experiment the user made"):
 * - Showing the tab changes nothing in the experiment. The tab reads its setup from the experiment only when that is a
 *   Forgetting experiment (a link made on this tab, or pasted later); otherwise it shows its own setup.
 * - The tab's setup becomes the experiment when the user acts on this tab (edits a setting, α or the score, runs one
 *   run or a preset), as a new history entry, so the browser's Back gives the experiment before it. From then on its
 *   edits are folded in (`pushToLink`), until an experiment of another lab is opened (a pasted link, or Back).
 * - A run trains the experiment the controls describe (`forgettingConfigOf`: never a setting other than the one
 *   shown), from the config, as the CLI and the other labs do (src/engine/run-config.ts).
 */
import { untrack } from 'svelte';
import { getClassList } from '../../core/classes/builtin';
import type { ScoreName } from '../../core/conformal/scores';
import { defaultConfig, type ExperimentConfig } from '../../core/config/schema';
import { FORGETTING_CLASSES, forgettingJobsOf } from '../../core/forgetting/from-config';
import {
  PRESETS,
  PRESET_SUBSETS,
  baseJob,
  lrText,
  orderingText,
  paperTaskSizes,
  paperTasks,
  parseOrdering,
  type ForgettingDataset,
  type ForgettingJob,
  type PresetId,
} from '../../core/forgetting/setup';
import { BUILTIN_DATASETS } from '../../data/registry';
import { duration } from '../common/format';
import type { ForgettingRun, ForgettingStore } from '../../services/forgetting-store';
import type { ForgettingRunner, ForgettingRunnerState } from '../../services/forgetting-runner';
import { idleSessionState } from '../../services/lab-kit/run-session';
import type { ShareLinkStore } from '../../services/share-link.svelte';
import {
  canonicalTasks,
  defaultForgettingInputs,
  findStoredRuns,
  foldForgettingInputs,
  forgettingConfigOf,
  inputsFromConfig,
  orderingKindOf,
  presetDataset,
  type ForgettingInputs,
  type OrderingKind,
} from './page-config';
import { createReportCache, forgettingVerdictOf, groupRuns, summariesOf } from './results';

/** What the lab needs of the orderings worker (services/orderings-client.ts; a fake in the tests). */
export interface LabOrderings {
  compute(req: {
    classes: string[];
    taskSizes: number[];
    similarity: { kind: 'wordnet'; pins: string[] };
    options: { protocols: ('rs' | 'edge')[]; rsSeeds: number[] };
  }): Promise<{ sequences: { protocol: string; aim?: string; tasks: number[][]; score: number }[] }>;
  dispose(): void;
}

export interface ForgettingLabDeps {
  link: ShareLinkStore;
  /** the runner on the opened store (services/forgetting-runner.ts with the shared worker pool; a fake pool in the tests) */
  createRunner: (store: ForgettingStore) => ForgettingRunner;
  orderings: LabOrderings;
  openStore: () => Promise<ForgettingStore>;
}

type ProtocolOrderings = { key: string; rs: number[][]; hard: number[][]; easy: number[][]; flat: boolean };

const INPUT_KEYS = Object.keys(defaultForgettingInputs()) as (keyof ForgettingInputs)[];

export class ForgettingLab {
  // --- the controls (ForgettingInputs, one rune each) ---
  datasetId = $state<ForgettingDataset>('digits');
  orderingKind = $state<OrderingKind>('paper');
  manualText = $state('');
  strategy = $state<'finetune' | 'ewc'>('finetune');
  ewcMode = $state<'single' | 'multi'>('single');
  ewcLambda = $state(1000);
  calibrationRatio = $state(0.1);
  alpha = $state(0.1);
  score = $state<ScoreName>('aps');
  firstTaskEpochs = $state(8);
  epochs = $state(3);
  lr = $state(2e-5);
  head = $state<'all' | 'seen'>('all');
  trainPerClass = $state<number | null>(null);
  testPerClass = $state<number | null>(null);
  backendPref = $state<ForgettingInputs['backendPref']>('auto');
  seed = $state(0);
  /** runs of the one-run setup (seed, seed + 1, …) */
  seeds = $state(1);
  /** the preset whose runs are shown and shared; editing a setting of "One run" makes it one run again */
  preset = $state<PresetId | null>(null);
  presetLr = $state(2e-5);

  // --- orderings, runs, selection ---
  protocolOrderings = $state.raw<ProtocolOrderings | null>(null);
  orderingError = $state('');
  store = $state.raw<ForgettingStore | null>(null);
  storedRuns = $state.raw<ForgettingRun[]>([]);
  selectedGroup = $state<string | null>(null);
  selectedRunId = $state<string | null>(null);
  linkNotice = $state('');
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
  /** the experiment is this tab's: its edits are folded in (see the top of this file) */
  owns = $state(false);

  readonly link: ShareLinkStore;
  /** null until the store is open (mount) */
  runner: ForgettingRunner | null = null;
  private readonly createRunner: (store: ForgettingStore) => ForgettingRunner;
  private readonly orderings: LabOrderings;
  private readonly openStore: () => Promise<ForgettingStore>;
  private seenRevision: number;
  private fromLink: boolean;
  private startedAt = 0;
  private lastCurrent = '';
  private lastGroup = '';
  private readonly reportOf = createReportCache();
  /** the tab is shown (attach's argument; shown until attached, as in the tests) */
  private shown: () => boolean = () => true;

  constructor(deps: ForgettingLabDeps) {
    this.link = deps.link;
    this.createRunner = deps.createRunner;
    this.orderings = deps.orderings;
    this.openStore = deps.openStore;
    const config = untrack(() => this.link.config);
    this.seenRevision = untrack(() => this.link.revision);
    this.fromLink = this.link.openedLab === 'forgetting' && config.lab === 'forgetting';
    this.applyInputs(this.fromLink ? inputsFromConfig(config, defaultForgettingInputs()) : defaultForgettingInputs());
    this.owns = this.fromLink;
  }

  currentInputs(): ForgettingInputs {
    return Object.fromEntries(INPUT_KEYS.map((k) => [k, this[k]])) as unknown as ForgettingInputs;
  }
  applyInputs(i: ForgettingInputs): void {
    for (const k of INPUT_KEYS) (this as unknown as Record<string, unknown>)[k] = i[k];
  }

  readonly dataset = $derived(BUILTIN_DATASETS.find((d) => d.id === this.datasetId) ?? BUILTIN_DATASETS[0]);
  readonly classNames = $derived(getClassList(this.dataset.classListId).classes.slice(0, 10));
  private readonly synsets = $derived(getClassList(this.dataset.classListId).synsets.slice(0, 10));

  pickDataset(id: string): void {
    this.datasetId = id as ForgettingDataset;
    this.trainPerClass = PRESET_SUBSETS[this.datasetId].trainPerClass;
    this.testPerClass = PRESET_SUBSETS[this.datasetId].testPerClass;
  }

  /** RS / EDGE orderings of the 10 class names (WordNet similarity, sizes 5,1,1,1,1,1), computed once per dataset. */
  async ensureProtocolOrderings(): Promise<ProtocolOrderings> {
    const key = this.dataset.classListId;
    if (this.protocolOrderings?.key === key) return this.protocolOrderings;
    const v = await this.orderings.compute({
      classes: [...this.classNames],
      taskSizes: paperTaskSizes(10),
      similarity: { kind: 'wordnet', pins: this.synsets.slice() },
      options: { protocols: ['rs', 'edge'], rsSeeds: [0] },
    });
    const rs = v.sequences.find((s) => s.protocol === 'rs');
    const hard = v.sequences.find((s) => s.protocol === 'edge' && s.aim === 'hard');
    const easy = v.sequences.find((s) => s.protocol === 'edge' && s.aim === 'easy');
    if (!rs || !hard || !easy) throw new Error('the orderings worker returned no RS / EDGE orderings.');
    const scores = v.sequences.map((s) => s.score);
    const o = { key, rs: rs.tasks, hard: hard.tasks, easy: easy.tasks, flat: Math.max(...scores) - Math.min(...scores) < 1e-12 };
    this.protocolOrderings = o;
    return o;
  }

  readonly orderingInput = $derived.by((): { tasks: number[][] | null; label: string; error: string } => {
    try {
      if (this.orderingKind === 'paper')
        return { tasks: paperTasks([...FORGETTING_CLASSES]), label: 'paper: base task 0–4, then one class per task', error: '' };
      if (this.orderingKind === 'manual') return { tasks: canonicalTasks(parseOrdering(this.manualText, 10)), label: 'hand-made', error: '' };
      const o = this.protocolOrderings;
      if (!o || o.key !== this.dataset.classListId) return { tasks: null, label: '', error: this.orderingError };
      const k = this.orderingKind;
      return {
        tasks: canonicalTasks(k === 'rs' ? o.rs : k === 'edge-hard' ? o.hard : o.easy),
        label: k === 'rs' ? 'RS seed 0' : k === 'edge-hard' ? 'EDGE hard' : 'EDGE easy',
        error: '',
      };
    } catch (e) {
      return { tasks: null, label: '', error: (e as Error).message };
    }
  });

  /** The experiment of the controls (the link's other parts kept when this tab owns it), or why there is none. */
  experiment(): ReturnType<typeof forgettingConfigOf> {
    const base = this.owns ? untrack(() => this.link.config) : defaultConfig();
    return forgettingConfigOf(base, this.currentInputs(), this.orderingInput.tasks);
  }

  /** The one run the controls describe (for finding its stored run), or null while the ordering is invalid. */
  currentJob(): ForgettingJob | null {
    const e = this.experiment();
    if (!e.config) return null;
    return forgettingJobsOf({ ...e.config, forgetting: { preset: null } }, { label: this.runLabel(), orderingLabel: this.orderingInput.label })[0];
  }
  private runLabel(): string {
    return `${this.strategy === 'ewc' ? `EWC ${this.ewcMode}` : 'MLP'} · ${this.orderingInput.label} · lr ${lrText(this.lr)}`;
  }

  // --- lifecycle ---
  async mount(): Promise<void> {
    // a link's hand-made ordering is named (RS / EDGE) while the store opens
    if (this.fromLink && this.orderingKind === 'manual') this.nameLinkedOrdering();
    const s = await this.openStore();
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
    this.link.showTabSetup('forgetting', null);
    this.runner?.dispose();
    this.store?.close();
    this.orderings.dispose();
  }

  private onRunner(s: ForgettingRunnerState): void {
    this.runnerState = s;
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

  // --- the experiment ⇄ this tab ---
  /** Show the stored runs of the setup the link gave (none stored in this browser: say so, select nothing). */
  showLinkedRuns(): void {
    const p = this.preset;
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
      this.linkNotice = '';
      return;
    }
    this.selectedGroup = null;
    this.selectedRunId = null;
    const what = p ? `the preset “${PRESETS.find((x) => x.id === p)?.name ?? p}”` : 'this run';
    this.linkNotice = `The link's runs are not stored in this browser yet: press ${p ? 'that preset' : 'Run ▶'} to train ${what} with the same settings and seed.`;
  }

  /** A link gives an ordering, not its name: call it RS / EDGE when it is the protocol's ordering of these classes. */
  nameLinkedOrdering(): void {
    const text = this.manualText;
    void this.ensureProtocolOrderings().then(
      (o) => {
        if (this.orderingKind !== 'manual' || this.manualText !== text) return;
        try {
          const kind = orderingKindOf(parseOrdering(text, 10), o);
          if (kind !== 'manual') this.orderingKind = kind;
        } catch {
          // an invalid hand-made ordering stays as it is (its message is shown)
        }
      },
      () => {},
    );
  }

  /** An experiment opened from outside (a pasted link, Back): a Forgetting one replaces the setup; another lab's frees the tab. */
  syncFromLink(): void {
    const revision = untrack(() => this.link.revision);
    if (revision === this.seenRevision) return;
    this.seenRevision = revision;
    const config = untrack(() => this.link.config);
    if (config.lab !== 'forgetting') {
      this.owns = false;
      return;
    }
    untrack(() => {
      this.applyInputs(inputsFromConfig(config, this.currentInputs()));
      this.owns = true;
      this.fromLink = true;
      if (this.store) this.showLinkedRuns();
      if (this.orderingKind === 'manual') this.nameLinkedOrdering();
    });
  }

  /** The user acted on this tab: its setup becomes the experiment (a new history entry when it takes one over). */
  claim(): void {
    // a hidden tab takes nothing over (an input losing focus as the tab is hidden still sends "change")
    if (!this.shown()) return;
    const take = !this.owns;
    this.owns = true;
    this.fold(take ? 'push' : 'replace');
  }

  /** While this tab owns the experiment, its setup is folded in (invalid parts stay as they were). */
  pushToLink(): void {
    if (this.owns) this.fold('replace');
  }

  private fold(history: 'push' | 'replace'): void {
    const inputs = this.currentInputs();
    const tasks = this.orderingInput.tasks;
    this.link.update((c) => foldForgettingInputs(c, inputs, tasks), { history });
  }

  /** A setting of "One run" edited by hand: one run again (not the preset shown), and this tab's experiment. */
  editedByHand(target: EventTarget | null): void {
    if ((target as HTMLElement | null)?.dataset?.testid !== 'fg-backend') this.preset = null;
    this.claim();
  }

  /** Show a stored group, and put its setup in the controls (so the link is what is shown). */
  selectGroup(groupId: string, runId: string | null = null): void {
    this.selectedGroup = groupId;
    this.selectedRunId = runId;
    this.linkNotice = '';
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
    this.preset = p;
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
    this.linkNotice = '';
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
    this.preset = null;
    return this.train();
  }

  /** A preset is the setup now (and the link's): its fixed settings go into the controls, then its runs train. */
  async runPreset(id: PresetId, lrOverride?: number): Promise<void> {
    if (lrOverride !== undefined) this.presetLr = lrOverride;
    this.preset = id;
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
          { label: 'EDGE hard', tasks: canonicalTasks(o.hard) },
          { label: 'EDGE easy', tasks: canonicalTasks(o.easy) },
          { label: 'RS seed 0', tasks: canonicalTasks(o.rs) },
        ];
      } catch (e) {
        this.startError = e instanceof Error ? e.message : String(e);
        return;
      }
    }
    await this.train({ edgeOrderings });
  }

  /** The clock of the progress line (the page calls it every half second while active). */
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
  /** Every run: stored, then the runner's (a run stored while this page runs it), then the one in training. */
  get allRuns(): ForgettingRun[] {
    return [...this.storedRuns, ...this.runnerState.runs, ...(this.liveRun ? [this.liveRun] : [])];
  }
  readonly groups = $derived(groupRuns(this.allRuns));
  readonly group = $derived(this.groups.find((g) => g.id === this.selectedGroup) ?? null);
  readonly run = $derived(this.group?.runs.find((r) => r.id === this.selectedRunId) ?? this.group?.runs[this.group.runs.length - 1] ?? null);
  /** Tasks finished of a run still training, or null for a finished run. */
  liveTasks(r: ForgettingRun): number | null {
    const c = this.runnerState.current;
    return c && r.id === c.id ? c.live.matrix.length : null;
  }
  /** CPCF_j starts at task 2: a run in training before that has nothing to draw yet (not an error). */
  readonly waiting = $derived(this.run !== null && this.liveTasks(this.run) !== null && this.run.matrix.length < 2);
  readonly report = $derived(this.run && !this.waiting ? this.reportOf(this.run, this.alpha, this.score) : null);
  readonly summaries = $derived(summariesOf(this.group?.runs ?? [], this.alpha, this.score, this.reportOf));
  /** What the selected group's finished runs show, in words (`cil-lab cpcf`'s sentences); provisional while it trains. */
  readonly verdict = $derived.by(() => {
    const g = this.group;
    if (!g) return null;
    const models = new Set(g.runs.map((r) => r.job.strategy)).size;
    const perModel = Math.max(...[...new Set(g.runs.map((r) => r.job.strategy))].map((m) => g.runs.filter((r) => r.job.strategy === m).length));
    const training = this.active && this.runnerState.group === g.id ? Math.ceil(this.runnerState.total / models) : 0;
    return forgettingVerdictOf(g, this.finishedSummaries(), { alpha: this.alpha, planned: Math.max(perModel, training) });
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

  /** Wire the effects (the page calls this once, in its script). */
  attach(shown: () => boolean): void {
    this.shown = shown;
    $effect(() => {
      void this.link.revision;
      this.syncFromLink();
    });
    $effect(() => {
      if (!shown()) return;
      void this.currentInputs();
      void this.orderingInput.tasks;
      untrack(() => this.pushToLink());
    });
    $effect(() => {
      if (shown())
        this.link.reportBackend('Forgetting lab training', this.runnerState.backendInfo ? `${this.runnerState.backendInfo.name} (Web Worker)` : null);
    });
    // while the tab shows its own setup (not the experiment), "What exactly ran" shows that setup: what Run would train
    $effect(() => {
      const own = shown() && !this.owns ? this.experiment().config : null;
      untrack(() => this.link.showTabSetup('forgetting', own));
    });
    $effect(() => {
      const k = this.orderingKind;
      if (k !== 'rs' && k !== 'edge-hard' && k !== 'edge-easy') return;
      void this.dataset.classListId;
      this.ensureProtocolOrderings().then(
        () => (this.orderingError = ''),
        (e: unknown) => (this.orderingError = e instanceof Error ? e.message : String(e)),
      );
    });
    $effect(() => {
      if (!this.active) return;
      const timer = setInterval(() => this.tick(), 500);
      return () => clearInterval(timer);
    });
  }
}
