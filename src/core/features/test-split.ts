/**
 * A feature set without a test split (a file saved without `split`, where every row is train) gets one, as the CLI
 * does for image files without one: 20 % of each class's rows, `round(0.2 · n_c)`, drawn with numpy's
 * `default_rng(0).permutation(n_c)` per class in class order (the first round(0.2 · n_c) positions of the permutation
 * are test). Every strategy then evaluates on the same held-out rows — the trained head and the pre-trained methods
 * alike — and the caller says so in a note (`HELD_OUT_NOTE`).
 */
import { createDefaultRng } from '../random/default-rng';
import type { FeatureSet } from './feature-set';

export const HELD_OUT_NOTE = 'the feature file has no test split: 20% of each class (numpy default_rng(0)) is held out as test data';

/** The set itself when any row is test; else the set with 20 % of each class held out (heldOut: true). */
export function withTestSplit(set: FeatureSet): { set: FeatureSet; heldOut: boolean } {
  if (set.split.some((s) => s === 1)) return { set, heldOut: false };
  const rng = createDefaultRng(0);
  const split = new Uint8Array(set.n);
  const byClass: number[][] = set.classNames.map(() => []);
  for (let i = 0; i < set.n; i++) byClass[set.labels[i]].push(i);
  for (const idx of byClass) {
    const perm = rng.permutation(idx.length);
    const nTest = Math.round(0.2 * idx.length);
    for (let k = 0; k < nTest; k++) split[idx[perm[k]]] = 1;
  }
  return { set: { ...set, split }, heldOut: true };
}

/** The classes that have at least one row, in index order (a file may name classes it has no rows of). */
export function classesWithRows(set: Pick<FeatureSet, 'n' | 'labels' | 'classNames'>): number[] {
  const seen = new Uint8Array(set.classNames.length);
  for (let i = 0; i < set.n; i++) seen[set.labels[i]] = 1;
  return set.classNames.map((_, k) => k).filter((k) => seen[k] === 1);
}
