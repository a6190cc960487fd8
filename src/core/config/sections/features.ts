/**
 * The features section: where each image's feature vector comes from (docs/science.md "Features as a data
 * source") — the pixels (every build before the section), the embedded stand-in backbone trained on the dataset's other
 * classes, an image encoder run through transformers.js, or an uploaded feature file (referenced, never carried).
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before it trained on pixels, so a config without
 * it means `{ source: 'pixels' }`, and that value is checked to `undefined`: compactConfig and configHash of every
 * config that does not use features stay as they were. Read it with `featuresOf(config)`.
 *
 * Rules across sections (crossCheck): a feature source other than pixels trains the `head` model and the head trains
 * on features only; the backbone needs the dataset's images and at least one class the experiment does not use
 * (it is pre-trained on those); an encoder needs images: a built-in image dataset's, a custom dataset's upload, or
 * for a built-in list of names (CIFAR-100, …) the files the user loads in the Data tab.
 */
import { getClassList } from '../../classes/builtin';
import { backboneClasses } from '../../features/source';
import { isPtmStrategyId } from '../../ptm/defaults';
import { Checker, fileRef, isPlainObject, join, list, reuploadWarning, show } from '../checker';
import { equalTaskSizes } from '../../orderings/task-sizes';
import { BUILTIN_DATASET_REFS, DEFAULT_CLIP_MODEL, V1_FILL, datasetClassListId, datasetHasImages } from '../defaults';
import { CONFIG_LIMITS } from '../limits';
import type { BuiltinDatasetRef, ExperimentConfig, FeaturePrecision, FeaturesConfig, FileRef } from '../types';
import { weightsOf } from './similarity';
import type { Checked, ConfigSection } from './section';

export const FEATURE_SOURCES = ['pixels', 'backbone', 'encoder', 'upload'] as const;
export const FEATURE_PRECISIONS: readonly FeaturePrecision[] = ['q8', 'fp16', 'fp32'];

/** The v1 fill-ins (frozen once released): pixels; the backbone's seed; an encoder's model, revision and precision. */
export const FEATURES_FILL = Object.freeze({
  source: 'pixels' as const,
  backboneSeed: 0,
  encoder: Object.freeze({ model: DEFAULT_CLIP_MODEL, revision: 'main', precision: 'q8' as FeaturePrecision }),
});

/** A model id as transformers.js takes it: "org/name" on a hub, or a folder name under a self-hosted path. */
const MODEL_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;
/** A branch, tag or commit of a hub repository. */
const REVISION = /^[A-Za-z0-9][\w./-]*$/;

/** The feature source of a config: its own, or pixels. */
export function featuresOf(config: { features?: FeaturesConfig }): FeaturesConfig {
  return structuredClone(config.features ?? { source: 'pixels' });
}

function featuresSectionOf(c: Checker, v: unknown): FeaturesConfig | undefined {
  const path = 'features';
  if (v === undefined) return undefined;
  if (!isPlainObject(v)) {
    c.error(path, `Must be a feature source ({"source": ${list(FEATURE_SOURCES).replaceAll(', ', ' | ')}, …}); got ${show(v)}.`);
    return undefined;
  }
  const source = c.choice(v.source, 'features.source', FEATURE_SOURCES, FEATURES_FILL.source);
  switch (source) {
    case 'pixels':
      c.object(v, path, ['source']);
      return undefined;
    case 'backbone':
      c.object(v, path, ['source', 'seed']);
      return { source, seed: c.seed(v.seed, 'features.seed', FEATURES_FILL.backboneSeed) };
    case 'encoder': {
      c.object(v, path, ['source', 'model', 'revision', 'precision', 'weights']);
      const fill = FEATURES_FILL.encoder;
      let model: string = fill.model;
      if (v.model !== undefined) {
        if (typeof v.model !== 'string' || !MODEL_ID.test(v.model) || v.model.length > CONFIG_LIMITS.modelIdLength)
          c.error('features.model', `Must be a model id like "${DEFAULT_CLIP_MODEL}" (or a folder name of a self-hosted source); got ${show(v.model)}.`);
        else model = v.model;
      }
      let revision: string = fill.revision;
      if (v.revision !== undefined) {
        if (typeof v.revision !== 'string' || !REVISION.test(v.revision) || v.revision.length > CONFIG_LIMITS.modelIdLength)
          c.error('features.revision', `Must be a branch, tag or commit of the model's repository (e.g. "main"); got ${show(v.revision)}.`);
        else revision = v.revision;
      }
      return {
        source,
        model,
        revision,
        precision: c.choice(v.precision, 'features.precision', FEATURE_PRECISIONS, fill.precision),
        weights: weightsOf(c, v.weights, join(path, 'weights')),
      };
    }
    case 'upload': {
      c.object(v, path, ['source', 'file']);
      const ref = fileRef(c, v.file, 'features.file');
      if (!ref) return undefined;
      reuploadWarning(c, 'features.file', ref, 'feature file');
      return { source, file: ref };
    }
  }
}

/** The source needs the model to be a head, and the head needs features; the backbone and encoders need images. */
function crossCheckFeatures(c: Checker, config: ExperimentConfig, checked: Checked): void {
  if (!checked.clean('features') || !checked.clean('model')) return;
  const f = featuresOf(config);
  if (f.source !== 'pixels' && config.model.kind !== 'head') {
    c.error(
      'model',
      `Feature vectors (features.source "${f.source}") are trained with the head model: {"kind": "head", "hidden": []} (linear) or {"kind": "head", "hidden": [width]}; got "${config.model.kind}", which trains on pixels.`,
    );
  }
  if (f.source === 'pixels' && config.model.kind === 'head') {
    c.error(
      'model',
      'The head model trains on feature vectors, and this experiment uses the pixels: choose a feature source (features.source "backbone", "encoder" or "upload") or an MLP or CNN.',
    );
  }
  // the pre-trained methods classify frozen feature vectors (docs/science.md §9): pixels are no pre-trained features,
  // and only the Ground-truth lab runs them (the other labs need a trained network's outputs); the Orderings lab and
  // the CLI's config files may carry them for later
  if (checked.clean('strategies') && checked.labs.training.includes(config.lab)) {
    const ptm = config.strategies.filter((s) => isPtmStrategyId(s.id)).map((s) => s.id);
    if (ptm.length > 0 && config.lab !== 'ground-truth') {
      c.error(
        'strategies',
        `${list(ptm)} ${ptm.length === 1 ? 'is a pre-trained method' : 'are pre-trained methods'} on frozen features, which only the Ground-truth lab runs.`,
      );
    } else if (ptm.length > 0 && f.source === 'pixels') {
      c.error(
        'strategies',
        `${list(ptm)} ${ptm.length === 1 ? 'is a pre-trained method' : 'are pre-trained methods'}: ${ptm.length === 1 ? 'it classifies' : 'they classify'} frozen feature vectors of a pre-trained backbone, and pixels are none: choose a feature source (features.source "backbone", "encoder" or "upload").`,
      );
    }
  }
  if ((f.source !== 'backbone' && f.source !== 'encoder') || !checked.clean('dataset') || !checked.clean('classes')) return;
  const { dataset } = config;
  // an encoder reads a built-in list's images from the Data tab (the user's own files, e.g. the CIFAR-100 archive):
  // whether the tab holds them is checked when the features are extracted, by the list's class names
  const hasImages = dataset.id === 'custom' ? dataset.images !== null : datasetHasImages(dataset.id) || f.source === 'encoder';
  const name = dataset.id === 'custom' ? 'the custom dataset' : `"${dataset.id}"`;
  if (!hasImages) {
    c.error(
      'features.source',
      `The ${f.source === 'backbone' ? 'embedded backbone' : 'image encoder'} computes features from images, and ${name} has none: choose an image dataset, or upload features (features.source "upload").`,
    );
    return;
  }
  if (f.source === 'backbone') {
    const total = dataset.id === 'custom' ? dataset.classNames.length : getClassList(datasetClassListId(dataset.id)).classes.length;
    const others = backboneClasses(total, config.classes);
    if (others.length === 0) {
      c.error(
        'features.source',
        `The embedded backbone is pre-trained on the dataset's other classes, and this experiment uses every class of ${name}, so none are left to pre-train on: select fewer classes, or choose an image encoder (features.source "encoder") or uploaded features (features.source "upload").`,
      );
    }
  }
}

export const featuresSection: ConfigSection<'features'> = { check: featuresSectionOf, crossCheck: crossCheckFeatures };

/**
 * The trained head's settings for a fresh experiment on features (docs/science.md §9 "The trained head's settings"):
 * 20 epochs at learning rate 10⁻², where the MLP's fill-ins (3 epochs at 10⁻³) give a linear head about 30 Adam steps
 * per task and leave it below what SimpleCIL reads off the same features. Chosen so that the same head trained jointly
 * reaches at least SimpleCIL's accuracy: on the stand-in backbone's Fashion-MNIST 0–5 features (300/100 per class)
 * 85.3 % against SimpleCIL's 76.8 % (3 epochs at 10⁻³: 63.0 %), on the pre-trained-methods fixture 55.2 % against
 * 47.9 % (scripts/head-bar.ts). Not a fill-in: a config holds its epochs and learning rate, so a link made before keeps
 * its 3 epochs at 10⁻³; these are written into the config when the experiment switches to features.
 */
export const HEAD_TRAINING = Object.freeze({ epochs: 20, lr: 1e-2 });

/** The training with the head's settings in, when it still has the MLP's fill-ins (a choice of the user's stays). */
function withTrainingFor(t: ExperimentConfig['training'], to: 'head' | 'mlp'): ExperimentConfig['training'] {
  const [from, into] = to === 'head' ? [V1_FILL.training, HEAD_TRAINING] : [HEAD_TRAINING, V1_FILL.training];
  if (t.epochs !== from.epochs || t.lr !== from.lr || t.firstTaskEpochs !== t.epochs) return t;
  return { ...t, epochs: into.epochs, firstTaskEpochs: into.epochs, lr: into.lr };
}

/**
 * The experiment trained on feature source `f`: the model follows it (the linear head on features, the fill-in's MLP
 * on pixels), and so do the epochs and learning rate while they are the other model's defaults (HEAD_TRAINING); the
 * pre-trained methods, which need features, leave with them (fine-tuning stays when none is left). One rule for every
 * place that switches the source (the Ground-truth panel, the Data tab's "Train on these").
 */
export function withFeatureSource(c: ExperimentConfig, f: FeaturesConfig): ExperimentConfig {
  const { features: _old, ...rest } = c;
  const next: ExperimentConfig = f.source === 'pixels' ? rest : { ...rest, features: structuredClone(f) };
  if (f.source !== 'pixels' && c.model.kind !== 'head') {
    next.model = { kind: 'head', hidden: [] };
    next.training = withTrainingFor(c.training, 'head');
  }
  if (f.source === 'pixels') {
    if (c.model.kind === 'head') {
      next.model = structuredClone(V1_FILL.model);
      next.training = withTrainingFor(c.training, 'mlp');
    }
    const kept = c.strategies.filter((x) => !isPtmStrategyId(x.id));
    next.strategies = kept.length > 0 ? kept : [{ id: 'finetune', options: {} }];
  }
  return next;
}

/** Every class name of a config's dataset (index = class). */
function classNamesOf(d: ExperimentConfig['dataset']): readonly string[] {
  return d.id === 'custom' ? d.classNames : getClassList(datasetClassListId(d.id)).classes;
}

/**
 * The experiment trained on an uploaded feature file (`ref`) whose classes are named `uploadNames` (the file's
 * `class_names`): what the Data tab's "Train on these" writes for an upload. An upload names its own classes, and the
 * experiment's classes are found in it by name (exactly, as the CLI and the prototypes of the feature source do), so:
 * - when every class of the experiment is in the file, only the feature source changes;
 * - otherwise the dataset becomes the built-in list that holds every class of the file (the experiment's own first,
 *   then the built-in lists in order: features of CIFAR-100 classes open as CIFAR-100), or else a custom list of the
 *   file's names, with its first (up to) 6 classes in as many tasks as before where they divide, else one per task.
 */
export function withUploadedFeatures(c: ExperimentConfig, ref: FileRef, uploadNames: readonly string[]): ExperimentConfig {
  const next = withFeatureSource(c, { source: 'upload', file: { name: ref.name, contentHash: ref.contentHash } });
  const have = new Set(uploadNames);
  const current = classNamesOf(c.dataset);
  if (c.classes.every((k) => have.has(current[k]))) return next;
  const refs: BuiltinDatasetRef[] =
    c.dataset.id === 'custom' ? [...BUILTIN_DATASET_REFS] : [c.dataset.id, ...BUILTIN_DATASET_REFS.filter((r) => r !== c.dataset.id)];
  const list = refs.find((r) => {
    const names = new Set(getClassList(datasetClassListId(r)).classes);
    return uploadNames.every((n) => names.has(n));
  });
  const dataset: ExperimentConfig['dataset'] = list ? { id: list } : { id: 'custom', classNames: [...uploadNames], images: null };
  const names = classNamesOf(dataset);
  const classes = [...new Set(uploadNames.map((n) => names.indexOf(n)))].sort((a, b) => a - b).slice(0, 6);
  const k = c.taskSizes.length;
  let taskSizes: number[];
  try {
    taskSizes = equalTaskSizes(classes.length, k);
  } catch {
    taskSizes = classes.map(() => 1);
  }
  return { ...next, dataset, classes, taskSizes, ui: { ...next.ui, selectedOrdering: null } };
}
