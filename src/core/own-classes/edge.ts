/**
 * EDGE on the visitor's own classes (docs/science.md §10, §1 "EDGE"): the similarity is the cosine of their classes'
 * image prototypes (the mean training feature of each class, §6 "Image prototypes"), one class per task; EDGE's hard
 * and easy orderings come out as class orders, to be found among every ordering's results.
 */
import type { FeatureSet } from '../features/feature-set';
import { edgeOrderings } from '../protocols/edge';
import { cosineSimilarity } from '../similarity/cosine';
import { classMeanPrototypes } from '../similarity/prototypes';

export interface OwnEdge {
  /** class orders (class k = the k-th taught) */
  hard: number[];
  easy: number[];
}

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
  const protos = classMeanPrototypes(x, y, set.d, C);
  const out = edgeOrderings(cosineSimilarity(protos.rows, set.classNames), new Array<number>(C).fill(1));
  return { hard: out.hard.tasks.map((t) => t[0]), easy: out.easy.tasks.map((t) => t[0]) };
}

/** Final accuracy of an order among every ordering's runs. */
export function finalOf(runs: readonly { order: readonly number[]; finalAccuracy: number }[], order: readonly number[]): number {
  const key = order.join(',');
  const r = runs.find((x) => x.order.join(',') === key);
  if (!r) throw new RangeError(`The ordering ${key} is not among the runs.`);
  return r.finalAccuracy;
}
