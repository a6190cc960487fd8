/**
 * A feature set: one feature vector per image, with its class and split — what a frozen backbone (an image encoder
 * run in the browser or in Node, the embedded backbone, or a researcher's own export) gives the pre-trained CIL
 * methods and the `head` model. The same layout as the `.npz` a researcher opens with `np.load`
 * (src/data/features/npz.ts): `features` (n × d), `labels`, `split`, `class_names`.
 *
 * Pure: the type, its bounds and one checker that every source and upload passes through.
 */
import { CONFIG_LIMITS, grouped } from '../config/limits';

export interface FeatureSet {
  /** n × d, row-major. */
  features: Float32Array;
  n: number;
  d: number;
  /** The dataset's class index of each row (0 ≤ label < classNames.length). */
  labels: Int32Array;
  /** 0 = train, 1 = test, per row. */
  split: Uint8Array;
  /** Name of class k at index k. */
  classNames: string[];
}

/** What one feature set may ask of a tab or a Node process (float32: 100 M values are 400 MB). */
export const FEATURE_LIMITS = {
  values: 100_000_000,
  dims: 16_384,
  rows: 2_000_000,
  classes: CONFIG_LIMITS.classes,
  classNameLength: CONFIG_LIMITS.classNameLength,
} as const;

export class FeatureSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeatureSetError';
  }
}

/** Throws a FeatureSetError naming the bound when n × d features cannot be held; call before allocating. */
export function checkFeatureShape(n: number, d: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw new FeatureSetError(`A feature set needs at least one row; it has ${n}.`);
  if (!Number.isSafeInteger(d) || d < 1) throw new FeatureSetError(`A feature vector needs at least one dimension; it has ${d}.`);
  if (n > FEATURE_LIMITS.rows)
    throw new FeatureSetError(`${grouped(n)} rows of features are more than the ${grouped(FEATURE_LIMITS.rows)} a feature set may hold.`);
  if (d > FEATURE_LIMITS.dims)
    throw new FeatureSetError(`Feature vectors of ${grouped(d)} dimensions are more than the ${grouped(FEATURE_LIMITS.dims)} allowed.`);
  if (n * d > FEATURE_LIMITS.values)
    throw new FeatureSetError(
      `${grouped(n)} × ${grouped(d)} = ${grouped(n * d)} feature values are more than the ${grouped(FEATURE_LIMITS.values)} (400 MB as float32) a feature set may hold.`,
    );
}

/**
 * Checks a feature set whole: shapes agree, labels within the class names, split 0 or 1, every class name non-empty,
 * trimmed and unique (checkFeatureRows), then every value finite. Returns the set; throws a FeatureSetError with one
 * sentence otherwise.
 */
export function checkFeatureSet(set: FeatureSet): FeatureSet {
  const { n, d, features } = set;
  checkFeatureShape(n, d);
  if (features.length !== n * d)
    throw new FeatureSetError(`The features hold ${grouped(features.length)} values, not ${grouped(n)} rows × ${grouped(d)} = ${grouped(n * d)}.`);
  checkFeatureRows(set);
  const bad = firstNonFinite(features);
  if (bad >= 0) throw nonFiniteError(bad, d, features[bad]);
  return set;
}

/**
 * Everything of a feature set but its values: the shape's bounds, one label and one split entry per row, the class
 * names, every label a class and every split 0 or 1. A reader checks these (small) first, before it inflates the
 * (large) values.
 */
export function checkFeatureRows(set: Omit<FeatureSet, 'features'>): void {
  const { n, d, labels, split, classNames } = set;
  checkFeatureShape(n, d);
  if (labels.length !== n) throw new FeatureSetError(`There are ${grouped(labels.length)} labels for ${grouped(n)} rows of features.`);
  if (split.length !== n) throw new FeatureSetError(`There are ${grouped(split.length)} split entries for ${grouped(n)} rows of features.`);
  if (classNames.length < 1) throw new FeatureSetError('A feature set needs the names of its classes.');
  if (classNames.length > FEATURE_LIMITS.classes)
    throw new FeatureSetError(`${grouped(classNames.length)} classes are more than the ${grouped(FEATURE_LIMITS.classes)} allowed.`);
  const seen = new Set<string>();
  classNames.forEach((name, k) => {
    if (typeof name !== 'string' || name.trim() === '') throw new FeatureSetError(`Class ${k} has an empty name.`);
    if (name.length > FEATURE_LIMITS.classNameLength)
      throw new FeatureSetError(`Class ${k}'s name is longer than ${FEATURE_LIMITS.classNameLength} characters.`);
    if (seen.has(name)) throw new FeatureSetError(`The class name ${JSON.stringify(name)} appears twice.`);
    seen.add(name);
  });
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (y < 0 || y >= classNames.length)
      throw new FeatureSetError(`Row ${i} has label ${y}, outside the ${classNames.length} classes (0–${classNames.length - 1}).`);
    if (split[i] !== 0 && split[i] !== 1) throw new FeatureSetError(`Row ${i} has split ${split[i]}; use 0 for train and 1 for test.`);
  }
}

/** The index of the first value that is not finite, or -1. */
export function firstNonFinite(values: ArrayLike<number>, from = 0, to = values.length): number {
  for (let i = from; i < to; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}

/** The refusal of value `i` (row-major, `d` per row) that is not finite. */
export function nonFiniteError(i: number, d: number, value: number): FeatureSetError {
  const row = Math.floor(i / d);
  return new FeatureSetError(`Row ${row}, dimension ${i - row * d} of the features is ${value}; every value must be a finite number.`);
}

/** How many rows of each class in each split: counts[split][class]. */
export function featureCounts(set: FeatureSet): [number[], number[]] {
  const counts: [number[], number[]] = [new Array(set.classNames.length).fill(0), new Array(set.classNames.length).fill(0)];
  for (let i = 0; i < set.n; i++) counts[set.split[i]][set.labels[i]]++;
  return counts;
}

/** The rows of `split` whose label is in `classes`, in file order (indices into the set). */
export function rowsOf(set: FeatureSet, split: 0 | 1, classes: readonly number[]): Int32Array {
  const wanted = new Uint8Array(set.classNames.length);
  for (const c of classes) wanted[c] = 1;
  const out: number[] = [];
  for (let i = 0; i < set.n; i++) if (set.split[i] === split && wanted[set.labels[i]]) out.push(i);
  return Int32Array.from(out);
}

/**
 * A set relabelled to a class list by name: an uploaded file names its own classes, and an experiment's classes are
 * the indices of its dataset's list, so each row's label becomes its class name's index in `names` (exact match, as
 * the CLI and the prototypes of the feature source match them). Rows of classes the list does not have are left out;
 * the set itself is returned when its classes are the list already.
 */
export function relabelToClassList(set: FeatureSet, names: readonly string[]): FeatureSet {
  if (set.classNames.length === names.length && set.classNames.every((n, k) => n === names[k])) return set;
  const index = new Map(names.map((n, k) => [n, k]));
  const to = set.classNames.map((n) => index.get(n) ?? -1);
  const kept: number[] = [];
  for (let i = 0; i < set.n; i++) if (to[set.labels[i]] >= 0) kept.push(i);
  const features = new Float32Array(kept.length * set.d);
  const labels = new Int32Array(kept.length);
  const split = new Uint8Array(kept.length);
  kept.forEach((r, k) => {
    features.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d);
    labels[k] = to[set.labels[r]];
    split[k] = set.split[r];
  });
  return { features, n: kept.length, d: set.d, labels, split, classNames: names.slice() };
}
