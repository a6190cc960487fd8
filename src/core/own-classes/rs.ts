/**
 * RS beside EDGE on the visitor's own classes (docs/science.md §10, §1 "RS"): the experiment's RS seeds
 * (`protocols.rsSeeds`) drawn as the Ground-truth lab draws them (`rsClassOrder`, numpy's legacy permutation), one
 * class per task; and which of the two protocols' orderings estimates the truth's range of final accuracy better.
 */
import { rsClassOrder } from '../protocols/rs';

export interface OwnRsOrder {
  seed: number;
  /** a class order (class k = the k-th taught) */
  order: number[];
}

/** RS's orderings of C classes, one per seed (several seeds may draw the same order: each is listed). */
export function ownRsOrders(seeds: readonly number[], C: number): OwnRsOrder[] {
  return seeds.map((seed) => ({ seed, order: rsClassOrder(seed, C) }));
}

/** A protocol's estimate of the truth's range: the lowest and highest final accuracy of its orderings. */
export interface RangeEstimate {
  min: number;
  max: number;
}

/** How far an estimated range is from the truth's: the gap at the bottom plus the gap at the top (0–2). */
export function rangeError(estimate: RangeEstimate, truth: RangeEstimate): number {
  return Math.abs(estimate.min - truth.min) + Math.abs(estimate.max - truth.max);
}

/** Below this difference of range errors (one test image in 10 is 0.1) the two estimates are called equally close. */
export const CLOSER_BY = 0.005;

/** Which protocol's range is closer to the truth's: 'edge', 'rs' or 'tie'. */
export function closerToTruth(
  edge: RangeEstimate,
  rs: RangeEstimate,
  truth: RangeEstimate,
): { closer: 'edge' | 'rs' | 'tie'; edgeError: number; rsError: number } {
  const edgeError = rangeError(edge, truth);
  const rsError = rangeError(rs, truth);
  const closer = Math.abs(edgeError - rsError) < CLOSER_BY ? 'tie' : edgeError < rsError ? 'edge' : 'rs';
  return { closer, edgeError, rsError };
}
