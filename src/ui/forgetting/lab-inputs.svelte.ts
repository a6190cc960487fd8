/**
 * The Forgetting lab's inputs and their place in the app's experiment (docs/science.md §3): what the tab's controls
 * hold (one rune per setting of the lab entry's `ForgettingSettings`), the RS / EDGE orderings of the dataset's classes
 * (computed by the orderings worker), the ordering the controls resolve, the experiment they describe and how an edit
 * made on this tab is written to the share link (the entry's `apply`, src/core/labs/forgetting/binding.ts). The first
 * layer of `ForgettingLab` (./forgetting-lab.svelte.ts): ./lab-runs.svelte.ts adds the store, the runner and the runs.
 *
 * The experiment (src/services/share-link.svelte.ts) and this tab ("a tab may show its own setup, never overwrite the
 * experiment the user made"):
 * - Showing the tab changes nothing in the experiment. The tab reads its setup from the experiment only when that is a
 *   Forgetting experiment (a link made on this tab, or pasted later); otherwise it shows its own setup.
 * - The tab's setup becomes the experiment when the user acts on this tab (edits a setting, α or the score, runs one
 *   run or a preset), as a new history entry, so the browser's Back gives the experiment before it. From then on its
 *   edits are applied (`pushToLink`: a part invalid right now is left as it was, src/core/config/fold-valid.ts),
 *   until an experiment of another lab is opened (a pasted link, or Back).
 * - A run trains the experiment the controls describe (`experiment()`: never a setting other than the one shown),
 *   from the config, as the CLI and the other labs do (src/engine/run-config.ts).
 */
import { untrack } from 'svelte';
import { getClassList } from '../../core/classes/builtin';
import { defaultConfig } from '../../core/config/schema';
import { foldValidSteps } from '../../core/config/fold-valid';
import { forgettingExperimentOf, forgettingJobsOf } from '../../core/forgetting/from-config';
import { PRESET_SUBSETS, lrText, paperTaskSizes, parseOrdering, type ForgettingDataset, type ForgettingJob, type PresetId } from '../../core/forgetting/setup';
import { forgettingLab } from '../../core/labs/forgetting';
import {
  OWN_SETTING_KEYS,
  conformalShown,
  forgettingChange,
  forgettingSteps,
  forgettingTabStart,
  orderingKindOf,
  resolveOrdering,
  type ConformalShown,
  type ForgettingSettings,
  type OrderingKind,
  type ProtocolTasks,
} from '../../core/labs/forgetting/binding';
import { settingsView } from '../../core/config/settings-table';
import { CONFORMAL_FILL, FORGETTING_SETTINGS, reportSettingsOf, type ForgettingRuns, type ReportSettings } from '../../core/labs/forgetting/settings';
import { BUILTIN_DATASETS } from '../../data/registry';
import type { ForgettingRunner } from '../../services/forgetting-runner';
import type { ForgettingStore } from '../../services/forgetting-store';
import type { ShareLinkStore } from '../../services/share-link.svelte';

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

/** The RS / EDGE orderings of one class list (`key`), and whether WordNet rates every pair alike (`flat`). */
export type ProtocolOrderings = ProtocolTasks & { key: string; flat: boolean };

/** the controls' settings but the lab's own tables' (those are `conformal` and `runs`, whole) */
const INPUT_KEYS = Object.keys(forgettingTabStart()).filter((k) => !OWN_SETTING_KEYS.includes(k)) as Exclude<
  keyof ForgettingSettings,
  keyof ConformalShown | keyof ForgettingRuns
>[];
const PROTOCOL_KINDS: readonly OrderingKind[] = ['rs', 'edge-hard', 'edge-easy'];

export class ForgettingInputsState {
  // --- the controls (ForgettingSettings, one rune each) ---
  datasetId = $state<ForgettingDataset>('digits');
  orderingKind = $state<OrderingKind>('paper');
  manualText = $state('');
  strategy = $state<'finetune' | 'ewc'>('finetune');
  ewcMode = $state<'single' | 'multi'>('single');
  ewcLambda = $state(1000);
  firstTaskEpochs = $state(8);
  epochs = $state(3);
  lr = $state(2e-5);
  head = $state<'all' | 'seen'>('all');
  trainPerClass = $state<number | null>(null);
  testPerClass = $state<number | null>(null);
  backendPref = $state<ForgettingSettings['backendPref']>('auto');
  seed = $state(0);
  presetLr = $state(2e-5);
  /**
   * The lab's own settings, every field of its tables (src/core/labs/forgetting/settings.ts) as the controls hold them: the
   * conformal ones it sets (α, calibration ratio, score, …), and its runs (`forgetting`: the preset whose runs are shown and shared,
   * editing a setting of "One run" makes it one run again; the runs of the one-run setup, seed, seed + 1, …).
   */
  conformal = $state<ConformalShown>(conformalShown(forgettingTabStart()));
  forgetting = $state<Required<ForgettingRuns>>(settingsView(FORGETTING_SETTINGS, forgettingTabStart()));

  get calibrationRatio(): number {
    return this.conformal.calibrationRatio;
  }
  set calibrationRatio(v: number) {
    this.conformal.calibrationRatio = v;
  }
  get seeds(): number {
    return this.forgetting.seeds;
  }
  set seeds(v: number) {
    this.forgetting.seeds = v;
  }

  // --- the orderings worker's RS / EDGE orderings ---
  protocolOrderings = $state.raw<ProtocolOrderings | null>(null);
  orderingError = $state('');
  /** the experiment is this tab's: its edits are applied to it (see the top of this file) */
  owns = $state(false);

  readonly link: ShareLinkStore;
  protected readonly orderings: LabOrderings;
  /** the experiment was opened from a link made on this tab (its runs are looked up, its ordering named) */
  protected fromLink: boolean;
  /** the tab is shown (attach's argument; shown until attached, as in the tests) */
  protected shown: () => boolean = () => true;

  /** the link's revision this state started on */
  private readonly revision: number;

  constructor(deps: ForgettingLabDeps) {
    this.link = deps.link;
    this.revision = untrack(() => this.link.revision);
    this.orderings = deps.orderings;
    const config = untrack(() => this.link.config);
    this.fromLink = this.link.openedLab === 'forgetting' && config.lab === 'forgetting';
    this.applyInputs(this.fromLink ? forgettingLab.view(config) : forgettingTabStart());
    this.owns = this.fromLink;
  }

  currentInputs(): ForgettingSettings {
    return { ...(Object.fromEntries(INPUT_KEYS.map((k) => [k, this[k]])) as unknown as ForgettingSettings), ...this.conformal, ...this.forgetting };
  }
  applyInputs(i: ForgettingSettings): void {
    for (const k of INPUT_KEYS) (this as unknown as Record<string, unknown>)[k] = i[k];
    this.conformal = conformalShown(i);
    this.forgetting = settingsView(FORGETTING_SETTINGS, i);
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

  /** The ordering the controls describe (RS / EDGE once computed for this dataset; until then the worker's error, if any). */
  readonly orderingInput = $derived.by((): { tasks: number[][] | null; label: string; error: string } => {
    const kind = this.orderingKind;
    if (!PROTOCOL_KINDS.includes(kind)) return resolveOrdering(kind, kind === 'manual' ? this.manualText : '', null);
    const o = this.protocolOrderings;
    if (!o || o.key !== this.dataset.classListId) return { tasks: null, label: '', error: this.orderingError };
    return resolveOrdering(kind, '', o);
  });

  /** The experiment of the controls (the link's other parts kept when this tab owns it), or why there is none. */
  experiment(): ReturnType<typeof forgettingExperimentOf> {
    const base = this.owns ? untrack(() => this.link.config) : defaultConfig();
    return forgettingExperimentOf(base, forgettingChange(this.currentInputs(), this.orderingInput.tasks));
  }

  /**
   * What a run's CPCF report reads: the experiment's conformal settings with the controls' over them, as `apply`
   * writes them (so a link's RAPS λ and k_reg, which no control shows, are the report's too).
   */
  reportSettings(): ReportSettings {
    // (not the owned experiment: the section's fill-in, without validating a whole default config on each change)
    const section = this.owns ? untrack(() => this.link.config.conformal) : CONFORMAL_FILL;
    return reportSettingsOf({ ...section, ...this.conformal });
  }

  /** The one run the controls describe (for finding its stored run), or null while the ordering is invalid. */
  currentJob(): ForgettingJob | null {
    const e = this.experiment();
    if (!e.config) return null;
    return forgettingJobsOf({ ...e.config, forgetting: { preset: null } }, { label: this.runLabel(), orderingLabel: this.orderingInput.label })[0];
  }
  protected runLabel(): string {
    return `${this.strategy === 'ewc' ? `EWC ${this.ewcMode}` : 'MLP'} · ${this.orderingInput.label} · lr ${lrText(this.lr)}`;
  }

  // --- this tab ⇄ the experiment ---
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

  /** The user acted on this tab: its setup becomes the experiment (a new history entry when it takes one over). */
  claim(): void {
    // a hidden tab takes nothing over (an input losing focus as the tab is hidden still sends "change")
    if (!this.shown()) return;
    const take = !this.owns;
    this.owns = true;
    this.write(take ? 'push' : 'replace');
  }

  /** While this tab owns the experiment, its setup is applied to it (invalid parts stay as they were). */
  pushToLink(): void {
    if (this.owns) this.write('replace');
  }

  private write(history: 'push' | 'replace'): void {
    // a link opened since this state started (a pasted link, Back): the kit mounts the lab afresh on it, and this
    // state, about to go, writes nothing (its focused input still sends "change" as the page is taken down)
    if (untrack(() => this.link.revision) !== this.revision) return;
    const change = forgettingChange(this.currentInputs(), this.orderingInput.tasks);
    this.link.update((c) => foldValidSteps(c, forgettingSteps(change)), { history });
  }

  /** A setting of "One run" edited by hand: one run again (not the preset shown), and this tab's experiment. */
  editedByHand(target: EventTarget | null): void {
    if ((target as HTMLElement | null)?.dataset?.testid !== 'fg-backend') this.forgetting.preset = null;
    this.claim();
  }
}
