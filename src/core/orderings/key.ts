/**
 * Canonical key of an ordering: each task's classes sorted ascending, joined by ",", tasks joined by "|"
 * (e.g. "0,3|1,5|2,4"). Two orderings are the same iff their keys are equal (order inside a task does not matter).
 */
import type { Ordering } from './types';

export function canonicalOrdering(tasks: Ordering): Ordering {
  return tasks.map((t) => t.slice().sort((a, b) => a - b));
}

export function orderingKey(tasks: Ordering): string {
  return canonicalOrdering(tasks)
    .map((t) => t.join(','))
    .join('|');
}

/** Inverse of orderingKey. */
export function parseOrderingKey(key: string): Ordering {
  return key.split('|').map((t) => (t === '' ? [] : t.split(',').map(Number)));
}

/** Flat class order (tasks concatenated, each task sorted): what PyCIL's `class_order` holds. */
export function flatOrder(tasks: Ordering): number[] {
  return canonicalOrdering(tasks).flat();
}

/** Split a flat class order into tasks of the given sizes (the first m_1 classes form task 1, …). */
export function splitIntoTasks(order: number[], sizes: number[]): Ordering {
  const out: Ordering = [];
  let p = 0;
  for (const m of sizes) {
    out.push(order.slice(p, p + m));
    p += m;
  }
  return out;
}
