/**
 * Class prototypes of a feature set (docs/science.md §6 "Prototypes of a feature source"): each wanted class's mean
 * L2-normalised training feature vector (core/similarity/prototypes.ts), in the order asked — the embeddings whose
 * cosine is the similarity `--similarity features` and the Orderings lab's "prototypes of the feature source" use.
 * Pure.
 */
import { classMeanPrototypes } from '../similarity/prototypes';
import type { FeatureSet } from './feature-set';

/** The prototypes of classes `classIndices` (the set's class indices) from its training rows; a class without any is an error. */
export function featurePrototypeRows(set: FeatureSet, classIndices: readonly number[]): { rows: Float32Array[]; counts: number[] } {
  const trainRows: number[] = [];
  for (let i = 0; i < set.n; i++) if (set.split[i] === 0) trainRows.push(i);
  const x = new Float32Array(trainRows.length * set.d);
  trainRows.forEach((r, k) => x.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d));
  const protos = classMeanPrototypes(
    x,
    trainRows.map((r) => set.labels[r]),
    set.d,
    set.classNames.length,
  );
  const empty = classIndices.find((k) => !(k >= 0 && k < set.classNames.length) || protos.counts[k] === 0);
  if (empty !== undefined)
    throw new RangeError(`Class ${JSON.stringify(set.classNames[empty] ?? String(empty))} has no training features (all zero, or none): it has no prototype.`);
  return { rows: classIndices.map((k) => protos.rows[k]), counts: classIndices.map((k) => protos.counts[k]) };
}
