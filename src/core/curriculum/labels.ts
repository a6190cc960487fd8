/**
 * Label offsets (docs/science.md §8): the curriculum's datasets are joined into one labelled set whose dataset at
 * position p of the curriculum (the list of datasets, not the training order) holds labels 10p … 10p+9. A training
 * order is then an ordering of the engine's kind: task t = the 10 labels of the t-th dataset trained.
 */
import { CLASSES_PER_DATASET } from './catalogue';

/** The first label of the dataset at position `p` of the curriculum. */
export function labelOffset(p: number): number {
  return p * CLASSES_PER_DATASET;
}

/** The engine's tasks for an order (positions into the curriculum): tasks[t] = labels of dataset order[t]. */
export function orderTasks(order: readonly number[]): number[][] {
  return order.map((p) => Array.from({ length: CLASSES_PER_DATASET }, (_, c) => labelOffset(p) + c));
}
