/**
 * The sections that say what is learned: the lab the link opens, the dataset, the selected classes and the task
 * sizes. Each reads the one before it (the classes are checked against the dataset's class list, the task sizes
 * against the number of classes).
 */
import { getClassList } from '../../classes/builtin';
import { validateClassNames } from '../../classes/validate';
import { Checker, fileRef, isPlainObject, join, list, reuploadWarning, show, suggestion } from '../checker';
import { BUILTIN_DATASET_REFS, V1_FILL, datasetClassListId, datasetHasImages } from '../defaults';
import { CONFIG_LIMITS } from '../limits';
import type { BuiltinDatasetRef, DatasetConfig, FileRef } from '../types';
import type { Checked, ConfigSection } from './section';

function datasetOf(c: Checker, v: unknown): { dataset: DatasetConfig; names: string[] | undefined } {
  const fill = (): { dataset: DatasetConfig; names: string[] } => {
    const d = V1_FILL.dataset as { id: BuiltinDatasetRef };
    return { dataset: { id: d.id }, names: getClassList(datasetClassListId(d.id)).classes };
  };
  if (v === undefined) return fill();
  const o = c.object(v, 'dataset', ['id', 'classNames', 'images']);
  if (!isPlainObject(v)) return { ...fill(), names: undefined };
  const ids = [...BUILTIN_DATASET_REFS, 'custom'] as const;
  const id = o.id === undefined ? (V1_FILL.dataset.id as string) : o.id;
  if (typeof id !== 'string' || !(ids as readonly string[]).includes(id)) {
    c.error(
      'dataset.id',
      `Must be a built-in dataset (${list(BUILTIN_DATASET_REFS)}) or "custom"; got ${show(id)}.${typeof id === 'string' ? suggestion(id, ids) : ''}`,
    );
    return { ...fill(), names: undefined };
  }
  if (id !== 'custom') {
    for (const k of ['classNames', 'images'] as const) {
      if (o[k] !== undefined) c.error(join('dataset', k), `Only a custom dataset has "${k}"; "${id}" is built in.`);
    }
    return { dataset: { id: id as BuiltinDatasetRef }, names: getClassList(datasetClassListId(id as BuiltinDatasetRef)).classes };
  }
  let names: string[] | undefined;
  if (o.classNames === undefined) c.error('dataset.classNames', 'Missing: a custom dataset lists its class names.');
  else {
    const arr = c.array(o.classNames, 'dataset.classNames', 2, CONFIG_LIMITS.classes);
    if (arr) {
      const bad = arr.findIndex((n) => typeof n !== 'string' || n.length > CONFIG_LIMITS.classNameLength);
      if (bad >= 0)
        c.error(`dataset.classNames[${bad}]`, `A class name must be text of at most ${CONFIG_LIMITS.classNameLength} characters; got ${show(arr[bad])}.`);
      else {
        try {
          names = validateClassNames(arr as string[]);
        } catch (e) {
          c.error('dataset.classNames', (e as Error).message);
        }
      }
    }
  }
  let images: FileRef | null = null;
  if (o.images !== undefined && o.images !== null) {
    const ref = fileRef(c, o.images, 'dataset.images');
    if (ref) {
      images = ref;
      reuploadWarning(c, 'dataset.images', ref, 'image dataset');
    }
  }
  return { dataset: { id: 'custom', classNames: names ?? [], images }, names };
}

function classesOf(c: Checker, v: unknown, names: string[] | undefined, custom: boolean): number[] {
  const n = names?.length ?? 0;
  const fill = names ? [...Array(custom ? n : Math.min(V1_FILL.classesPerDataset, n)).keys()] : [];
  if (v === undefined) return fill;
  const arr = c.array(v, 'classes', 2, CONFIG_LIMITS.classes);
  if (!arr) return fill;
  const before = c.errors.length;
  const seen = new Set<number>();
  arr.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0)
      c.error(`classes[${i}]`, `A class is its index in the dataset's class list (0, 1, …); got ${show(x)}.`);
    else if (names && x >= n) c.error(`classes[${i}]`, `Class ${x} does not exist: the dataset has classes 0..${n - 1}.`);
    else if (seen.has(x)) c.error(`classes[${i}]`, `Class ${x} is selected twice.`);
    else seen.add(x);
  });
  return c.errors.length === before ? (arr as number[]).slice().sort((a, b) => a - b) : fill;
}

function taskSizesOf(c: Checker, v: unknown, classCount: number, classesOk: boolean): number[] {
  if (v === undefined) {
    const k = V1_FILL.tasks;
    if (classCount >= k && classCount % k === 0) return Array(k).fill(classCount / k);
    if (classesOk && classCount > 0)
      c.error('taskSizes', `Missing: ${classCount} classes do not split into ${k} equal tasks, so give the task sizes (they sum to ${classCount}).`);
    return classCount > 0 ? [classCount] : [];
  }
  const arr = c.array(v, 'taskSizes', 1, CONFIG_LIMITS.classes);
  if (!arr) return [classCount];
  const before = c.errors.length;
  arr.forEach((m, i) => {
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 1)
      c.error(`taskSizes[${i}]`, `Task ${i + 1} has size ${show(m)}; every task size must be a whole number ≥ 1.`);
  });
  if (c.errors.length > before) return [classCount];
  const sizes = arr as number[];
  const total = sizes.reduce((a, b) => a + b, 0);
  if (classesOk && total !== classCount) {
    c.error('taskSizes', `Task sizes ${sizes.join(',')} sum to ${total}, but ${classCount} classes are selected: they must sum to ${classCount}.`);
    return [classCount];
  }
  return sizes.slice();
}

export const labSection: ConfigSection<'lab'> = {
  check: (c, v, before) => c.choice(v, 'lab', before.labs.ids, V1_FILL.lab),
};

/** The class names of the checked dataset, or undefined when it had errors. */
function datasetNames(before: Checked): string[] | undefined {
  const dataset = before.config.dataset;
  if (!dataset || !before.clean('dataset')) return undefined;
  return dataset.id === 'custom' ? dataset.classNames : getClassList(datasetClassListId(dataset.id)).classes;
}

export const datasetSection: ConfigSection<'dataset'> = {
  check: (c, v) => datasetOf(c, v).dataset,
  /**
   * A lab that trains needs images, or feature vectors that stand for them: an uploaded file's, or an image encoder's
   * (for a built-in list of names, from the images the user loads in the Data tab; the features section checks it).
   */
  crossCheck(c, { lab, dataset, features }, checked) {
    if (!checked.labs.training.includes(lab) || !checked.clean('dataset') || features?.source === 'upload' || features?.source === 'encoder') return;
    const trainable = dataset.id === 'custom' ? dataset.images !== null : datasetHasImages(dataset.id);
    if (trainable) return;
    const labName = checked.labs.names[lab];
    c.error(
      'dataset',
      dataset.id === 'custom'
        ? `The ${labName} lab trains models, so it needs images: add an uploaded image dataset (dataset.images) or choose ${list(BUILTIN_DATASET_REFS.filter(datasetHasImages))}.`
        : `"${dataset.id}" has class names only; the ${labName} lab trains models and needs images: choose ${list(BUILTIN_DATASET_REFS.filter(datasetHasImages))}, or a custom dataset with images.`,
    );
  },
};

export const classesSection: ConfigSection<'classes'> = {
  check: (c, v, before) => classesOf(c, v, datasetNames(before), before.config.dataset?.id === 'custom'),
};

export const taskSizesSection: ConfigSection<'taskSizes'> = {
  check: (c, v, before) => taskSizesOf(c, v, before.config.classes?.length ?? 0, before.clean('dataset') && before.clean('classes')),
};
