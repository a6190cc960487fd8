/**
 * EDGE on the visitor's own classes (docs/science.md §10, §1 "EDGE"), one class per task, on either of two
 * similarities: the cosine of the classes' image prototypes (the mean training feature of each class, §6 "Image
 * prototypes"; no download), or the cosine of CLIP's text embeddings of the class names (the paper's own choice, §6
 * "CLIP"). EDGE's hard and easy orderings come out as class orders, to be found among every ordering's results.
 */
import type { FeatureSet } from '../features/feature-set';
import { edgeOrderings } from '../protocols/edge';
import { cosineSimilarity } from '../similarity/cosine';
import { classMeanPrototypes } from '../similarity/prototypes';

/** What EDGE's similarity was: the samples' image features, or CLIP's text embeddings of the names. */
export type OwnEdgeBasis = 'images' | 'names';

export interface OwnEdge {
  /** class orders (class k = the k-th taught) */
  hard: number[];
  easy: number[];
}

/** EDGE's two orderings of one class per task, on the cosine similarity of one vector per class. */
function edgeOfVectors(vectors: ArrayLike<number>[], classNames: readonly string[]): OwnEdge {
  const out = edgeOrderings(cosineSimilarity(vectors, classNames), new Array<number>(classNames.length).fill(1));
  return { hard: out.hard.tasks.map((t) => t[0]), easy: out.easy.tasks.map((t) => t[0]) };
}

/** EDGE on the image prototypes: the mean training feature of each class. */
export function ownEdge(set: FeatureSet): OwnEdge {
  const C = set.classNames.length;
  const train: number[] = [];
  for (let i = 0; i < set.n; i++) if (set.split[i] === 0) train.push(i);
  const x = new Float32Array(train.length * set.d);
  const y = new Int32Array(train.length);
  train.forEach((i, r) => {
    x.set(set.features.subarray(i * set.d, (i + 1) * set.d), r * set.d);
    y[r] = set.labels[i];
  });
  return edgeOfVectors(classMeanPrototypes(x, y, set.d, C).rows, set.classNames);
}

/** EDGE on the class names: one text embedding per class (CLIP's, in teaching order). */
export function ownNamesEdge(vectors: readonly ArrayLike<number>[], classNames: readonly string[]): OwnEdge {
  if (vectors.length !== classNames.length) throw new RangeError(`${vectors.length} name embeddings for ${classNames.length} classes.`);
  return edgeOfVectors([...vectors], classNames);
}
