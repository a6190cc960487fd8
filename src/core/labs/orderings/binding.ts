/**
 * The Orderings lab's binding (its entry's `view` and `apply`, ./orderings.ts): the lab's controls ⇄ the experiment
 * config (src/core/config/schema.ts), both ways, pure (tested in tests/unit/core/labs/orderings-binding.test.ts).
 * `view` gives the controls their starting values from a config (a share link); `apply` folds the controls' current,
 * resolved inputs into a config and leaves everything the lab does not show as it was (other labs' settings, WordNet
 * pins, a referenced upload that is not loaded, prompt details the CLIP panel does not edit). The lab's own section
 * `protocols` travels whole, as its table's fields (`settings`, ./settings.ts): a field without a control goes back
 * as `view` gave it, so a new row needs no line here. An input that is invalid right now (a bad task size, a duplicate class name) is null
 * and does not reach the config: the last valid value stays, so the link always opens.
 */
import { getClassList } from '../../classes/builtin';
import { datasetClassListId } from '../../config/defaults';
import { experimentClassNames } from '../../config/derived';
import { settingsValue, settingsView } from '../../config/settings-table';
import type { BuiltinDatasetRef, ExperimentConfig, FileRef } from '../../config/types';
import { PROTOCOL_IDS, type ProtocolId } from '../../protocols/types';
import { clipInitialOf, type ClipInitial, type ClipSettingsOut } from '../../similarity/clip-panel';
import type { PromptSpec } from '../../similarity/prompts';
import { PROTOCOLS_SETTINGS, type ProtocolsSettings } from './settings';

/**
 * The lab's similarity sources. 'prototypes' (the prototypes of the config's feature source) is the config's
 * similarity kind 'features', so a share link keeps it.
 */
export type SourceKind = 'wordnet' | 'clip' | 'upload' | 'prototypes';

/** The lab's controls, as a config sets them (`view`). */
export interface OrderingsInputs {
  /** A built-in class list id, or 'custom'. */
  datasetId: string;
  selected: number[];
  customText: string;
  tasks: number;
  sizesText: string;
  sourceKind: SourceKind;
  enabled: Record<ProtocolId, boolean>;
  seedsText: string;
  /**
   * The lab's section `protocols` whole, every field of its table (./settings.ts), as its controls hold them: a
   * control without a form of its own binds to its field here. The protocols and the RS seeds are read from their own
   * forms above (the checkboxes, the seeds being typed).
   */
  settings: Required<ProtocolsSettings>;
  /** The CLIP panel's start (null: its own remembered settings). */
  clip: ClipInitial | null;
  /** The uploaded similarity file the experiment refers to (null: none). */
  uploadRef: FileRef | null;
}

/** The custom names the controls show for a config on a built-in list. */
const DEFAULT_CUSTOM_TEXT = 'apple\nbicycle\ntiger\nlion\ntruck\norange';

/** The lab's controls for a config (the entry's `view`). */
function orderingsView(config: ExperimentConfig): OrderingsInputs {
  const custom = config.dataset.id === 'custom';
  const sizes = config.taskSizes;
  const equal = sizes.length > 0 && sizes.every((m) => m === sizes[0]);
  const enabled = Object.fromEntries(PROTOCOL_IDS.map((p) => [p, config.protocols.enabled.includes(p)])) as Record<ProtocolId, boolean>;
  const sim = config.similarity;
  return {
    datasetId: custom ? 'custom' : datasetClassListId(config.dataset.id as BuiltinDatasetRef),
    selected: custom ? [0, 1, 2, 3, 4, 5] : config.classes.slice(),
    customText: custom ? experimentClassNames(config).join('\n') : DEFAULT_CUSTOM_TEXT,
    tasks: Math.max(1, sizes.length),
    sizesText: equal ? '' : sizes.join(','),
    // the prototypes of the feature source (the pixels' for a config without a features section)
    sourceKind: sim.kind === 'features' ? 'prototypes' : sim.kind,
    enabled,
    seedsText: config.protocols.rsSeeds.join(', '),
    settings: settingsView(PROTOCOLS_SETTINGS, config.protocols),
    clip: sim.kind === 'clip' ? clipInitialOf(sim, config.backend.embed) : null,
    uploadRef: sim.kind === 'upload' ? { ...sim.file } : null,
  };
}

/** What the lab's controls hand back to `apply`: their current inputs, resolved; null = invalid right now (the config keeps what it had). */
export interface OrderingsState {
  datasetId: string;
  /** Selected class indices of a built-in list. */
  selected: number[];
  /** Validated custom class names (datasetId 'custom'), else null. */
  customNames: string[] | null;
  taskSizes: number[] | null;
  /** False when the class list is invalid (then dataset, classes and task sizes all stay as they were). */
  classesOk: boolean;
  sourceKind: SourceKind;
  clip: ClipSettingsOut | null;
  /** The loaded upload's name and content hash, when a file is loaded. */
  upload: FileRef | null;
  protocols: ProtocolId[];
  rsSeeds: number[] | null;
  /** The section `protocols` as the controls hold it (`OrderingsInputs.settings`); the two fields above replace its own. */
  settings: ProtocolsSettings;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A hub model id as the schema accepts it ("org/name"; the schema's HUB_MODEL rule): half-typed ids are not written. */
const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

/** The previous prompt when the panel's prompt says the same (so details the panel does not edit survive). */
function mergePrompt(prev: PromptSpec | undefined, next: PromptSpec): PromptSpec {
  if (!prev || prev.kind !== next.kind) return next;
  if (prev.kind === 'bare') return prev;
  if (prev.kind === 'template' && next.kind === 'template') return prev.template === next.template.trim() ? prev : next;
  if (prev.kind === 'descriptions' && next.kind === 'descriptions') {
    const alike = Object.entries(next.descriptions).every(([k, v]) => (prev.descriptions[k] ?? '') === v);
    if (alike) return prev;
    // a new description: keep the other classes' ones and the template/underscore rule
    return { ...prev, descriptions: { ...prev.descriptions, ...next.descriptions } };
  }
  return next;
}

/**
 * The config with the controls' inputs folded in (the entry's `apply`; not validated: the store validates, and keeps
 * the old config when the result is invalid). Everything the lab does not edit is carried over unchanged.
 */
function applyOrderings(config: ExperimentConfig, s: OrderingsState): ExperimentConfig {
  const next: ExperimentConfig = structuredClone(config);

  // dataset, classes and task sizes move together, and only when all three are valid
  if (s.classesOk && s.taskSizes && s.taskSizes.length > 0) {
    if (s.datasetId === 'custom') {
      if (s.customNames && s.customNames.length >= 2) {
        next.dataset = { id: 'custom', classNames: s.customNames.slice(), images: config.dataset.id === 'custom' ? config.dataset.images : null };
        next.classes = s.customNames.map((_, i) => i);
        next.taskSizes = s.taskSizes.slice();
      }
    } else {
      let list: string[] | null = null;
      try {
        list = getClassList(s.datasetId).classes;
      } catch {
        list = null;
      }
      if (list) {
        // 'digits' (the 8×8 images) is named by the MNIST list: a config on 'digits' stays on 'digits'
        const keep = config.dataset.id !== 'custom' && datasetClassListId(config.dataset.id) === s.datasetId;
        next.dataset = { id: keep ? config.dataset.id : (s.datasetId as BuiltinDatasetRef) } as ExperimentConfig['dataset'];
        next.classes = [...new Set(s.selected)].sort((a, b) => a - b);
        next.taskSizes = s.taskSizes.slice();
      }
    }
  }

  // similarity
  const prev = config.similarity;
  if (s.sourceKind === 'wordnet') {
    next.similarity = { kind: 'wordnet', pins: prev.kind === 'wordnet' ? { ...prev.pins } : {} };
  } else if (s.sourceKind === 'clip' && s.clip) {
    const pc = prev.kind === 'clip' ? prev : null;
    next.similarity = {
      kind: 'clip',
      model: MODEL_ID.test(s.clip.model.trim()) ? s.clip.model.trim() : (pc?.model ?? 'Xenova/clip-vit-base-patch32'),
      dtype: s.clip.dtype,
      prompt: s.clip.prompt ? mergePrompt(pc?.prompt, s.clip.prompt) : (pc?.prompt ?? { kind: 'bare' }),
      weights: s.clip.weights ?? pc?.weights ?? { kind: 'hub' },
    };
    next.backend = { ...config.backend, embed: s.clip.device === 'wasm' ? 'wasm' : config.backend.embed === 'webgpu' ? 'webgpu' : 'auto' };
  } else if (s.sourceKind === 'upload' && s.upload) {
    next.similarity = { kind: 'upload', file: { ...s.upload } };
  } else if (s.sourceKind === 'prototypes') {
    // the prototypes of the config's feature source (the pixels' unless the features section says otherwise)
    next.similarity = { kind: 'features' };
  }
  // (upload chosen but no file loaded: the config keeps its source — a referenced file stays referenced)

  // the section whole, in its table's order (a field at its `absent` value left out), with the protocols and the RS
  // seeds from their own forms
  next.protocols = settingsValue(PROTOCOLS_SETTINGS, {
    ...s.settings,
    enabled: PROTOCOL_IDS.filter((p) => s.protocols.includes(p)),
    rsSeeds: s.rsSeeds ? s.rsSeeds.slice() : config.protocols.rsSeeds.slice(),
  });

  // a selected ordering that no longer fits the classes or tasks is dropped
  if (!same([next.dataset, next.classes, next.taskSizes], [config.dataset, config.classes, config.taskSizes])) {
    next.ui = { ...next.ui, selectedOrdering: null };
  }
  return next;
}

/** The lab entry's binding (./lab.ts `view`, `apply`). */
export const orderingsBinding = { view: orderingsView, apply: applyOrderings };
