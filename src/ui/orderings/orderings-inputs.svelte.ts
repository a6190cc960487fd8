/**
 * The Orderings page's inputs (its controls' state) and what they resolve to: the class list, the task sizes and the
 * RS seeds, each with the message shown next to its control when it is invalid. They start from the experiment config
 * (a share link, read through the lab entry's `view`) and take a link opened over the page (`follow`). Tested in tests/unit/ui/orderings-inputs.test.ts.
 */
import { BUILTIN_CLASS_LISTS } from '../../core/classes/builtin';
import type { ExperimentConfig, FileRef } from '../../core/config/schema';
import type { ProtocolId } from '../../core/protocols/types';
import { orderingsLab } from '../../core/labs/orderings';
import type { OrderingsInputs, SourceKind } from '../../core/labs/orderings-binding';
import type { ClipInitial } from '../../core/similarity/clip-panel';
import { defaultPick, resolveClasses, resolveSeeds, resolveSizes } from './page-inputs';

const inputsKey = (config: ExperimentConfig) => JSON.stringify(orderingsLab.view(config));
/** The config's WordNet pins as a string (unrelated config changes then do not recompute the orderings). */
export const pinsKeyOf = (config: ExperimentConfig) => JSON.stringify(config.similarity.kind === 'wordnet' ? config.similarity.pins : {});

/** The props of each group of the Orderings page's fields (classes, protocols, similarity): the inputs' state, and
 * which controls teaching mode hides. */
export interface OrderingsFieldsProps {
  inputs: OrderingsInputsState;
  /** A control hidden by teaching mode, by its id (dataset, classes, tasks, protocols, seeds, …). */
  hide: (id: string) => boolean;
}

export class OrderingsInputsState {
  datasetId = $state('');
  selected = $state<number[]>([]);
  customText = $state('');
  tasks = $state(1);
  sizesText = $state('');
  sourceKind = $state<SourceKind>('wordnet');
  enabled = $state({} as Record<ProtocolId, boolean>);
  seedsText = $state('');
  /** The uploaded file the experiment refers to (a link never carries a file's contents). */
  uploadRef = $state.raw<FileRef | null>(null);
  /** The CLIP panel's start; `clipKey` changes when a link brings other CLIP settings (the panel starts again). */
  clipInitial = $state.raw<ClipInitial | null>(null);
  clipKey = $state(0);
  /** WordNet pins of the config (pinsKeyOf). */
  pinsKey = $state('{}');

  readonly list = $derived(BUILTIN_CLASS_LISTS.find((l) => l.id === this.datasetId));
  readonly classes = $derived(resolveClasses(this.list, this.selected, this.customText, JSON.parse(this.pinsKey) as Record<string, string>));
  readonly sizes = $derived(resolveSizes(this.classes.names.length, this.tasks, this.sizesText));
  readonly seeds = $derived(resolveSeeds(!!this.enabled.rs, this.seedsText));
  /** Selected indices of a built-in list, sorted ([] for custom names). */
  readonly indices = $derived(this.list ? [...this.selected].sort((a, b) => a - b) : []);

  #seenRevision: number;
  #seenKey: string;

  constructor(config: ExperimentConfig, revision: number) {
    this.apply(orderingsLab.view(config));
    this.pinsKey = pinsKeyOf(config);
    this.#seenRevision = revision;
    this.#seenKey = inputsKey(config);
  }

  apply(i: OrderingsInputs): void {
    this.datasetId = i.datasetId;
    this.selected = i.selected;
    this.customText = i.customText;
    this.tasks = i.tasks;
    this.sizesText = i.sizesText;
    this.sourceKind = i.sourceKind;
    this.enabled = i.enabled;
    this.seedsText = i.seedsText;
    this.uploadRef = i.uploadRef;
    if (JSON.stringify(i.clip) !== JSON.stringify(this.clipInitial)) {
      this.clipInitial = i.clip;
      this.clipKey++;
    }
  }

  /**
   * A link opened over the page (pasted into the address bar, `revision` moved), or another lab changing the classes
   * or tasks of the app's one experiment: its inputs replace the page's. The page's own writes do not count (`wrote`).
   */
  follow(config: ExperimentConfig, revision: number): boolean {
    const key = inputsKey(config);
    if (revision === this.#seenRevision && key === this.#seenKey) return false;
    this.#seenRevision = revision;
    this.#seenKey = key;
    this.apply(orderingsLab.view(config));
    return true;
  }

  /** The page wrote its inputs into the config: that config is not news to `follow`. */
  wrote(config: ExperimentConfig): void {
    this.#seenKey = inputsKey(config);
  }

  toggle(i: number): void {
    this.selected = this.selected.includes(i) ? this.selected.filter((x) => x !== i) : [...this.selected, i];
  }

  /** A dataset picked in the menu starts with all its classes in tasks that split them (page-inputs.ts defaultPick). */
  pickDataset(id: string): void {
    this.datasetId = id;
    const l = BUILTIN_CLASS_LISTS.find((x) => x.id === id);
    if (!l) return;
    const pick = defaultPick(l.classes.length, Number(this.tasks));
    this.selected = pick.selected;
    this.tasks = pick.tasks;
    this.sizesText = '';
  }
}

/** Is this upload the file the config refers to? */
export function sameFile(a: FileRef | null, b: FileRef | null): boolean {
  return !!a && !!b && a.contentHash === b.contentHash;
}
