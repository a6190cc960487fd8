/**
 * The Ground-truth lab's inputs and their place in the app's experiment (docs/science.md §2): what the page's
 * controls hold, what they resolve to (task sizes, seeds, widths, the checked config and its errors), and the
 * two-way sync with the share link (the lab entry's `view` and `apply`, src/core/labs/ground-truth/binding.ts). The first layer of `GroundTruthLab` (./lab-state.svelte.ts):
 * ./lab-plan.svelte.ts adds the similarity and the plan, ./lab-runs.svelte.ts the workers, the store and the runs.
 *
 * Runes outside a component: inputs are `$state`, what follows from them `$derived`; the side effects are methods
 * the unit tests call directly and `attach()` wires to `$effect`s.
 */
import { untrack } from 'svelte';
import { getClassList } from '../../core/classes/builtin';
import { isPtmStrategyId } from '../../core/ptm/defaults';
import {
  CONFIG_STRATEGY_IDS,
  datasetClassListId,
  validateConfig,
  type BuiltinDatasetRef,
  type ConfigIssue,
  type ExperimentConfig,
  type FeaturesConfig,
} from '../../core/config/schema';
import { featureSourceLabel } from '../../core/features/source';
import { edgeTable1Preset, type Table1Dataset } from '../../core/ground-truth/edge-table-1';
import type { AccuracyVariable } from '../../core/ground-truth/derive';
import { parseTaskSizes, resolveTaskSizes } from '../../core/orderings/task-sizes';
import { BUILTIN_DATASETS, type BuiltinDatasetId } from '../../data/registry';
import type { ShareLinkStore } from '../../services/share-link.svelte';
import { taskColours } from '../common/palette';
import { parseSeeds } from '../orderings/page-inputs';
import { foldValidSteps } from '../../core/config/fold-valid';
import { wordnetPinsOf } from '../../core/config/wordnet-pins';
import { groundTruthRunHash } from '../../core/ground-truth/run-keys';
import { GROUND_TRUTH_SETTINGS, type GroundTruthSettings } from '../../core/labs/ground-truth/settings';
import { settingsView } from '../../core/config/settings-table';
import { groundTruthLab } from '../../core/labs/ground-truth';
import { firstClassesOf, groundTruthSteps, type GroundTruthInputs, type GroundTruthState } from '../../core/labs/ground-truth/binding';
import { parseTrainingSeeds, parseWidths } from './page-inputs';

/** A fingerprint of what the controls show of a config: they re-read it when another lab changes it. */
const inputsKey = (config: ExperimentConfig) => JSON.stringify(groundTruthLab.view(config));

/** The app's experiment and its share link, as the lab reads and writes them (`openedLab`: the lab of the link the page
 * was opened with, for the notice that its runs are not stored here). */
export type LabLink = Pick<ShareLinkStore, 'config' | 'update' | 'teaching'> & Partial<Pick<ShareLinkStore, 'reportBackend' | 'openedLab'>>;

type Selection = { key: string; strategy: string } | null;

export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class GroundTruthInputsState {
  readonly link: LabLink;
  private seenKey: string;

  // --- the experiment's inputs (editable while nothing runs) ---
  datasetId = $state<BuiltinDatasetRef>('fashion-mnist');
  /** The experiment's dataset when this lab cannot train on it (names only, from the Orderings lab); null when it can. */
  foreignDataset = $state<string | null>(null);
  selected = $state<number[]>([]);
  tasks = $state(3);
  sizesText = $state('');
  chosen = $state<Record<string, boolean>>({});
  /** where the feature vectors come from (pixels, or a pre-trained backbone's features) */
  features = $state.raw<FeaturesConfig>({ source: 'pixels' });
  /** SimpleCIL's and RanPAC's first-session layer width (0: no adaptation) */
  firstSession = $state(0);
  /** the lab's own settings, every field of its table (src/core/labs/ground-truth/settings.ts), as its controls hold them */
  own = $state<Required<GroundTruthSettings>>(settingsView(GROUND_TRUTH_SETTINGS, {}));
  seedsText = $state('0');
  rsSeedsText = $state('0');
  /** null: the experiment's model is a CNN (from a config file; it stays as it is); "" a linear head. */
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
  /** prefix sharing + population (a speed choice: the numbers are the same, so it is not in the link) */
  fastPath = $state(true);

  /** the budget by name, as the lab state has always had it */
  get budget(): number {
    return this.own.budget;
  }
  set budget(v: number) {
    this.own.budget = v;
  }

  constructor(link: LabLink) {
    this.link = link;
    this.applyInputs(groundTruthLab.view(this.link.config));
    this.seenKey = inputsKey(this.link.config);
  }

  // ---------------------------------------------------------------- inputs ⇄ the experiment

  protected selectionOf(key: string | null): Selection {
    const first = this.strategyIds[0];
    return key && first ? { key, strategy: first } : null;
  }

  applyInputs(i: GroundTruthInputs): void {
    this.datasetId = i.datasetId;
    this.foreignDataset = i.foreignDataset;
    this.selected = i.selected;
    this.tasks = i.tasks;
    this.sizesText = i.sizesText;
    this.chosen = i.chosen;
    this.features = i.features;
    this.firstSession = i.firstSession;
    this.own = settingsView(GROUND_TRUTH_SETTINGS, i);
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
    untrack(() => this.applyInputs(groundTruthLab.view(this.link.config)));
  }

  /**
   * EDGE's Table 1 preset (core/ground-truth/edge-table-1.ts): the paper's classes and tasks on the papers' ViT (or the
   * encoder already in use), its pre-trained methods beside a trained head with the head's settings.
   */
  applyEdgeTable1(dataset: Table1Dataset): void {
    this.link.update((c) => edgeTable1Preset(c, dataset));
    this.syncFromLink();
  }

  /** Fold the page's inputs (the valid parts) into the experiment, so the share link and the Orderings lab follow. */
  pushToLink(): void {
    const s = this.gtState;
    this.link.update((c) => foldValidSteps(c, groundTruthSteps(s)));
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

  /** the dataset's class list; its images are the built-in dataset's, or none (its features come from the cache) */
  readonly classList = $derived(getClassList(datasetClassListId(this.datasetId)));
  /** a built-in list of names whose features come from the feature cache (the Data tab's encoder or an upload) */
  readonly namesOnly = $derived(!BUILTIN_DATASETS.some((d) => d.id === this.datasetId));
  readonly datasetName = $derived(BUILTIN_DATASETS.find((d) => d.id === this.datasetId)?.name ?? this.classList.name);
  readonly classIdx = $derived([...this.selected].sort((a, b) => a - b));
  /** the strategies chosen, the pre-trained methods only while the source is features (they classify features) */
  readonly strategyIds = $derived(CONFIG_STRATEGY_IDS.filter((id) => this.chosen[id] && (this.onFeatures || !isPtmStrategyId(id))));
  readonly onFeatures = $derived(this.features.source !== 'pixels');
  /** "stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)", "pixels", … */
  readonly featuresLabel = $derived(featureSourceLabel(this.features, this.classList.classes, this.classIdx));
  /** the chosen pre-trained methods (computed by class set, not trained) */
  readonly ptmIds = $derived(this.strategyIds.filter(isPtmStrategyId));

  /** Train on the pixels or on the embedded backbone's features; the model follows (MLP ⇄ linear head). */
  setFeatureSource(source: 'pixels' | 'backbone'): void {
    if (source === this.features.source) return;
    this.features = source === 'pixels' ? { source: 'pixels' } : { source: 'backbone', seed: 0 };
    if (this.hiddenText !== null) this.hiddenText = source === 'pixels' ? '256, 128' : '';
  }

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
    features: this.features,
    firstSession: Number.isInteger(this.firstSession) && this.firstSession >= 0 ? this.firstSession : null,
    ...this.own,
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
    const v = validateConfig(groundTruthLab.apply(this.link.config, this.gtState));
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
        // the key of the stored runs: what this lab trains (other labs' settings aside), core/ground-truth/run-keys.ts
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
  readonly colours = $derived(taskColours(this.sizesInput.sizes.length));
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

  readonly stem = $derived(`ground-truth-${this.datasetId}-${this.classIdx.length}c-${this.sizesInput.sizes.length}t-${this.variable}`);
}
