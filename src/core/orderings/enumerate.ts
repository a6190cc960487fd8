/**
 * Lazy enumeration of Ω and rank ↔ unrank (docs/science.md §1, "Counting").
 *
 * An ordering is coded by its label vector: labels[c] = the task (0..K-1) of class c. Ω is exactly the set of
 * distinct permutations of the multiset {0^m_1, 1^m_2, …}, so enumeration is "next multiset permutation" in
 * lexicographic order (amortised O(1) per ordering, no allocation in `forEachOrdering`), and the rank of an
 * ordering is the lexicographic rank of its label vector. Rank/unrank use BigInt so they work for any |Ω|
 * (100 classes in 10 tasks has |Ω| ≈ 2.4e92), which is what uniform sampling without enumeration needs.
 */
import { countOrderings } from './count';
import { OrderingError } from './task-sizes';
import type { Ordering, TaskSizes } from './types';

/** The first label vector in lexicographic order: 0…0 1…1 … (task 1 = the first m_1 classes). */
export function firstLabels(sizes: TaskSizes): Int32Array {
  const n = sizes.reduce((a, b) => a + b, 0);
  const labels = new Int32Array(n);
  let p = 0;
  sizes.forEach((m, t) => {
    labels.fill(t, p, p + m);
    p += m;
  });
  return labels;
}

/** Advance `labels` to the next multiset permutation in place; false when it was the last one. */
export function nextLabels(labels: Int32Array): boolean {
  const n = labels.length;
  let i = n - 2;
  while (i >= 0 && labels[i] >= labels[i + 1]) i--;
  if (i < 0) return false;
  let j = n - 1;
  while (labels[j] <= labels[i]) j--;
  let tmp = labels[i];
  labels[i] = labels[j];
  labels[j] = tmp;
  for (let a = i + 1, b = n - 1; a < b; a++, b--) {
    tmp = labels[a];
    labels[a] = labels[b];
    labels[b] = tmp;
  }
  return true;
}

/** Label vector → tasks (each task's classes ascending). */
export function labelsToOrdering(labels: ArrayLike<number>, taskCount: number): Ordering {
  const tasks: Ordering = Array.from({ length: taskCount }, () => []);
  for (let c = 0; c < labels.length; c++) tasks[labels[c]].push(c);
  return tasks;
}

/** Tasks → label vector, checking that the ordering fits the task sizes and covers every class once. */
export function orderingToLabels(tasks: Ordering, sizes: TaskSizes): Int32Array {
  const n = sizes.reduce((a, b) => a + b, 0);
  if (tasks.length !== sizes.length) {
    throw new OrderingError(`The ordering has ${tasks.length} tasks; the task sizes ask for ${sizes.length}.`);
  }
  const labels = new Int32Array(n).fill(-1);
  tasks.forEach((task, t) => {
    if (task.length !== sizes[t]) {
      throw new OrderingError(`Task ${t + 1} has ${task.length} classes; its size is ${sizes[t]}.`);
    }
    for (const c of task) {
      if (!Number.isInteger(c) || c < 0 || c >= n) {
        throw new OrderingError(`Class index ${c} is out of range 0..${n - 1}.`);
      }
      if (labels[c] !== -1) throw new OrderingError(`Class ${c} appears twice in the ordering.`);
      labels[c] = t;
    }
  });
  return labels;
}

/**
 * Visit every ordering in rank order with a reused label vector (do not keep it: copy if needed).
 * `visit` may return false to stop early. Returns the number visited.
 */
export function forEachOrdering(sizes: TaskSizes, visit: (labels: Int32Array, rank: number) => boolean | void): number {
  const labels = firstLabels(sizes);
  let rank = 0;
  do {
    if (visit(labels, rank) === false) return rank + 1;
    rank++;
  } while (nextLabels(labels));
  return rank;
}

/** A lazy generator of every ordering (fresh arrays), in rank order. */
export function* enumerateOrderings(sizes: TaskSizes): Generator<Ordering> {
  const labels = firstLabels(sizes);
  do {
    yield labelsToOrdering(labels, sizes.length);
  } while (nextLabels(labels));
}

/** Lexicographic rank of an ordering in Ω (0-based). */
export function rankOrdering(tasks: Ordering, sizes: TaskSizes): bigint {
  const labels = orderingToLabels(tasks, sizes);
  const remaining = sizes.slice();
  let n = labels.length;
  // multinomial of what remains; the number of completions that put label t next is M·rem_t / n.
  let m = countOrderings(sizes);
  let rank = 0n;
  for (let c = 0; c < labels.length; c++) {
    const l = labels[c];
    const bn = BigInt(n);
    for (let t = 0; t < l; t++) if (remaining[t] > 0) rank += (m * BigInt(remaining[t])) / bn;
    m = (m * BigInt(remaining[l])) / bn;
    remaining[l]--;
    n--;
  }
  return rank;
}

/** The ordering with the given rank (0 ≤ rank < |Ω|). */
export function unrankOrdering(rank: bigint, sizes: TaskSizes): Ordering {
  let m = countOrderings(sizes);
  if (rank < 0n || rank >= m) {
    throw new OrderingError(`Rank ${rank} is out of range: there are ${m} orderings (ranks 0..${m - 1n}).`);
  }
  const remaining = sizes.slice();
  let n = remaining.reduce((a, b) => a + b, 0);
  const labels = new Int32Array(n);
  let r = rank;
  for (let c = 0; c < labels.length; c++) {
    const bn = BigInt(n);
    for (let t = 0; t < remaining.length; t++) {
      if (remaining[t] === 0) continue;
      const block = (m * BigInt(remaining[t])) / bn;
      if (r < block) {
        labels[c] = t;
        m = block;
        remaining[t]--;
        break;
      }
      r -= block;
    }
    n--;
  }
  return labelsToOrdering(labels, sizes.length);
}

/** Every permutation of 0..n−1 (Heap's algorithm), given to `visit` (the array is reused: copy to keep). */
export function forEachPermutation(n: number, visit: (p: Int32Array) => void): void {
  const p = Int32Array.from({ length: n }, (_, i) => i);
  const c = new Int32Array(n);
  visit(p);
  let i = 0;
  while (i < n) {
    if (c[i] < i) {
      const k = i % 2 === 0 ? 0 : c[i];
      const t = p[k];
      p[k] = p[i];
      p[i] = t;
      visit(p);
      c[i]++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
}
