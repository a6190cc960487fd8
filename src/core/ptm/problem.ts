/**
 * One class-incremental problem on frozen features (docs/science.md §9): the experiment's classes, taken from a
 * feature set (src/core/features/feature-set.ts), as float64 rows grouped by class. Class `p` here is position p
 * of `classes` (the feature set's label ids, in the experiment's order); every method and the ground truth work on
 * positions and report label ids.
 *
 * `trainPerClass` / `testPerClass` keep the first n rows of each class in file order, as the image datasets' data
 * subset does (src/engine/dataset.ts subsetPerClass).
 */
import { rowsOf, type FeatureSet } from '../features/feature-set';

/** A problem that cannot be set up; the message says what to change. */
export class PtmInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PtmInputError';
  }
}

/** The rows of one split, grouped by class position. */
export interface RowBlock {
  /** n × d, row-major: the rows of class 0, then class 1, … (file order within a class) */
  x: Float64Array;
  n: number;
  /** class position of each row */
  y: Int32Array;
  /** rows of class p are start[p] … start[p+1] − 1 */
  start: Int32Array;
}

export interface PtmProblem {
  /** the feature set's label ids of the experiment's classes; position p ↔ classes[p] */
  classes: number[];
  classNames: string[];
  /** number of classes */
  C: number;
  /** feature dimensions */
  d: number;
  train: RowBlock;
  test: RowBlock;
}

export interface ProblemOptions {
  trainPerClass?: number;
  testPerClass?: number;
}

function block(set: FeatureSet, split: 0 | 1, classes: readonly number[], perClass: number | undefined): RowBlock {
  const { d } = set;
  const groups = classes.map((c) => {
    const rows = rowsOf(set, split, [c]);
    return perClass === undefined ? rows : rows.subarray(0, perClass);
  });
  return rowBlock(
    groups.map((g) => g.length),
    d,
    (p, x, at) => {
      let r = at;
      for (const i of groups[p]) {
        for (let t = 0; t < d; t++) x[r * d + t] = set.features[i * d + t];
        r++;
      }
    },
  );
}

/**
 * A block of C classes' rows, class by class: class p's `counts[p]` rows (d features each) written by `write(p, x, at)`
 * into `x` from row `at` on, labelled p.
 */
export function rowBlock(counts: readonly number[], d: number, write: (p: number, x: Float64Array, at: number) => void): RowBlock {
  const n = counts.reduce((s, m) => s + m, 0);
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  const start = new Int32Array(counts.length + 1);
  let r = 0;
  counts.forEach((m, p) => {
    start[p] = r;
    write(p, x, r);
    y.fill(p, r, r + m);
    r += m;
  });
  start[counts.length] = n;
  return { x, n, y, start };
}

/**
 * The problem of `classes` (label ids of `set`, distinct). Every class needs at least two training rows (a class
 * mean and a covariance need them; RanPAC holds one out) and one test row.
 */
export function ptmProblem(set: FeatureSet, classes: readonly number[], options: ProblemOptions = {}): PtmProblem {
  if (classes.length < 1) throw new PtmInputError('Choose at least one class.');
  if (new Set(classes).size !== classes.length) throw new PtmInputError('A class is listed twice.');
  for (const c of classes) {
    if (!Number.isInteger(c) || c < 0 || c >= set.classNames.length) {
      throw new PtmInputError(`Class ${c} is not in the feature set, whose labels are 0–${set.classNames.length - 1}.`);
    }
  }
  for (const [k, v] of Object.entries(options)) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new PtmInputError(`${k} must be a whole number ≥ 1; got ${v}.`);
  }
  const train = block(set, 0, classes, options.trainPerClass);
  const test = block(set, 1, classes, options.testPerClass);
  classes.forEach((c, p) => {
    const name = set.classNames[c];
    const nTrain = train.start[p + 1] - train.start[p];
    const nTest = test.start[p + 1] - test.start[p];
    if (nTrain < 2) throw new PtmInputError(`Class ${c} (${name}) has ${nTrain} training row${nTrain === 1 ? '' : 's'}; every class needs at least 2.`);
    if (nTest < 1) throw new PtmInputError(`Class ${c} (${name}) has no test rows (split = 1); every class needs at least one to be evaluated.`);
  });
  return { classes: classes.slice(), classNames: classes.map((c) => set.classNames[c]), C: classes.length, d: set.d, train, test };
}

/** Rows per class position of a block. */
export function countsOf(b: RowBlock): number[] {
  return Array.from({ length: b.start.length - 1 }, (_, p) => b.start[p + 1] - b.start[p]);
}
