/**
 * Feature sets (src/core/features/feature-set.ts) as the engine's training data: a FeatureDataset of shape [1, 1, d]
 * whose labels stay the feature set's class indices (the dataset's), so orderings, `--classes` and results name the
 * same classes as on pixels. The `head` model trains on it (dataset.ts `checkModelFitsData`).
 */
import { checkFeatureSet, rowsOf, type FeatureSet } from '../../core/features/feature-set';
import type { FeatureDataset, FeatureSplit } from '../types';

/** The rows of one split (of the wanted classes, or all), in file order. */
function splitOf(set: FeatureSet, split: 0 | 1, classes: readonly number[]): FeatureSplit {
  const rows = rowsOf(set, split, classes);
  const images = new Float32Array(rows.length * set.d);
  const labels = new Int32Array(rows.length);
  rows.forEach((r, k) => {
    images.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d);
    labels[k] = set.labels[r];
  });
  return { images, labels };
}

/**
 * The engine's dataset of a feature set (checked first): its train rows (split 0) and test rows (split 1), of
 * `classes` only when given (the other classes keep their names and indices but have no rows).
 */
export function featureDatasetOf(set: FeatureSet, classes?: readonly number[]): FeatureDataset {
  checkFeatureSet(set);
  const wanted = classes ?? set.classNames.map((_, k) => k);
  return { shape: [1, 1, set.d], classNames: set.classNames.slice(), train: splitOf(set, 0, wanted), test: splitOf(set, 1, wanted) };
}
