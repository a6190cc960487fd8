/**
 * The Orderings lab's inputs (its controls' state) and what they resolve to: the class list, the task sizes and the
 * RS seeds, each with the message shown next to its control when it is invalid. They start from the experiment config
 * (a share link, read through the lab entry's `view`), hand the entry's `apply` their change (`change`), and take a
 * change another lab made to the experiment (`follow`). Tested in tests/unit/ui/orderings-inputs.test.ts.
 */
import { BUILTIN_CLASS_LISTS } from '../../core/classes/builtin';
import type { ExperimentConfig, FileRef } from '../../core/config/schema';
import { settingsView } from '../../core/config/settings-table';
import { PROTOCOL_IDS, type ProtocolId } from '../../core/protocols/types';
import { orderingsLab } from '../../core/labs/orderings';
import type { OrderingsInputs, OrderingsState, SourceKind } from '../../core/labs/orderings/binding';
import { PROTOCOLS_SETTINGS, type ProtocolsSettings } from '../../core/labs/orderings/settings';
import type { ClipInitial, ClipSettingsOut } from '../../core/similarity/clip-panel';
import { defaultPick, resolveClasses, resolveSeeds, resolveSizes } from './page-inputs';

const inputsKey = (config: ExperimentConfig) => JSON.stringify(orderingsLab.view(config));
/** The config's WordNet pins as a string (unrelated config changes then do not recompute the orderings). */
export const pinsKeyOf = (config: ExperimentConfig) => JSON.stringify(config.similarity.kind === 'wordnet' ? config.similarity.pins : {});

/** The props of each group of the Orderings lab's fields (classes, protocols, similarity): the inputs' state, and
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
  /**
   * The lab's section `protocols`, every field of its table (src/core/labs/orderings/settings.ts), as its controls
   * hold them (a control without a form of its own binds to its field); the protocols and the RS seeds are the two
   * forms above.
   */
  settings = $state<Required<ProtocolsSettings>>(settingsView(PROTOCOLS_SETTINGS, {}));
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

  /** The protocols switched on, in the protocols' order. */
  readonly protocols = $derived(PROTOCOL_IDS.filter((p) => this.enabled[p]));

  /** `start`: the entry's `view` of the experiment; `pinsKey`: its WordNet pins (pinsKeyOf). */
  constructor(start: OrderingsInputs, pinsKey = '{}') {
    this.apply(start);
    this.pinsKey = pinsKey;
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
    this.settings = settingsView(PROTOCOLS_SETTINGS, i.settings);
    this.uploadRef = i.uploadRef;
    if (JSON.stringify(i.clip) !== JSON.stringify(this.clipInitial)) {
      this.clipInitial = i.clip;
      this.clipKey++;
    }
  }

  /**
   * What the inputs hand the entry's `apply` (their resolved values; null where one is invalid right now, so the
   * config keeps its last valid value), with the CLIP panel's settings and the loaded upload's name and hash.
   */
  change(x: { clip: ClipSettingsOut | null; upload: FileRef | null }): OrderingsState {
    const { classes, sizes, seeds } = this;
    return {
      datasetId: this.datasetId,
      selected: [...this.selected],
      customNames: this.list || classes.error ? null : classes.names.slice(),
      taskSizes: sizes.error || !sizes.sizes.length ? null : sizes.sizes.slice(),
      classesOk: !classes.error && classes.names.length >= 2,
      sourceKind: this.sourceKind,
      clip: x.clip,
      upload: x.upload ? { ...x.upload } : null,
      protocols: this.protocols.slice(),
      rsSeeds: seeds.error ? null : seeds.seeds.slice(),
      settings: $state.snapshot(this.settings),
    };
  }

  /**
   * The experiment changed: a link opened over the page (`opened`: the share link's revision moved) replaces these
   * inputs with its own; another lab's change (its classes or tasks) does where the experiment says something other
   * than these inputs would write into it (`change`). The lab's own writes are no news, and what is being typed (an
   * invalid task size) is not overwritten by the value the config kept.
   */
  follow(config: ExperimentConfig, change: OrderingsState, opened = false): boolean {
    if (!opened && inputsKey(config) === inputsKey(orderingsLab.apply(config, change))) return false;
    this.apply(orderingsLab.view(config));
    return true;
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
