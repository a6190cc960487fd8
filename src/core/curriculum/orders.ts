/**
 * Training orders of whole datasets (docs/science.md §8). Orders are lists of positions into the curriculum.
 * - M2I: easy → hard, by the isolated accuracy a_j descending (an easy dataset is one the model learns well alone);
 *   ties keep the curriculum's order.
 * - I2M: hard → easy, the exact reverse of M2I.
 * - a hand order: the datasets named in the order wanted.
 * - all: every one of the K! orders, lexicographic in positions, for K ≤ MAX_ALL_ORDERS_K.
 */
import { CurriculumError } from './catalogue';

export const MAX_ALL_ORDERS_K = 6;

function checkIsolated(isolated: readonly number[]): void {
  isolated.forEach((a, j) => {
    if (!(Number.isFinite(a) && a >= 0 && a <= 1)) throw new CurriculumError(`Isolated accuracy ${j} must be in [0, 1]; got ${a}.`);
  });
}

/** Easy → hard: positions sorted by a_j descending, ties by position. */
export function m2iOrder(isolated: readonly number[]): number[] {
  checkIsolated(isolated);
  return isolated.map((_, j) => j).sort((x, y) => isolated[y] - isolated[x] || x - y);
}

/** Hard → easy: the reverse of M2I. */
export function i2mOrder(isolated: readonly number[]): number[] {
  return m2iOrder(isolated).reverse();
}

/** A hand order given by dataset ids: each of the curriculum's datasets exactly once. */
export function handOrder(ids: readonly string[], curriculum: readonly string[]): number[] {
  if (ids.length !== curriculum.length || new Set(ids).size !== ids.length || ids.some((id) => !curriculum.includes(id))) {
    throw new CurriculumError(`An order must list each dataset of the curriculum once (${curriculum.join(',')}); got ${ids.join(',')}.`);
  }
  return ids.map((id) => curriculum.indexOf(id));
}

/** Every permutation of 0..K−1 in lexicographic order (K ≤ 6). */
export function allOrders(K: number): number[][] {
  if (!Number.isInteger(K) || K < 1 || K > MAX_ALL_ORDERS_K)
    throw new CurriculumError(`Every order is trained only for 1 to ${MAX_ALL_ORDERS_K} datasets (${MAX_ALL_ORDERS_K}! = 720 orders); got ${K}.`);
  const out: number[][] = [];
  const walk = (prefix: number[], rest: number[]): void => {
    if (rest.length === 0) {
      out.push(prefix);
      return;
    }
    rest.forEach((x, i) => walk([...prefix, x], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  walk(
    [],
    Array.from({ length: K }, (_, i) => i),
  );
  return out;
}

/** The key of an order, e.g. "2-0-1" (stored results and chart keys). */
export function orderKey(order: readonly number[]): string {
  return order.join('-');
}

export function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
