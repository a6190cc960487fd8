/**
 * One class order as a person writes it — "3 1 0 2 5 4", "[3, 1, 0, 2, 5, 4]", "3 1 | 0 2 | 5 4", names — read
 * against the experiment's classes and task sizes, for placing it in a distribution (the Ground-truth lab's "Place
 * an order", `cil-lab analyze --order`). Indices are positions in the experiment's class list, as in every import
 * (./parse-order.ts); a flat order is cut into the task sizes, the first m_1 classes forming task 1 (PyCIL's rule).
 */
import { splitIntoTasks } from '../orderings/key';
import type { Ordering } from '../orderings/types';
import { nameIndex, parseOrderText, resolveToken } from './parse-order';

export interface ClassOrder {
  /** the flat order as written, class positions */
  order: number[];
  /** cut into the task sizes, each task as written */
  tasks: Ordering;
}

/** Reads one class order; throws an Error whose message says what is wrong (one sentence). */
export function readClassOrder(text: string, classNames: readonly string[], taskSizes: readonly number[]): ClassOrder {
  const raw = parseOrderText(text, classNames);
  const byName = nameIndex(classNames);
  const tokens = raw.kind === 'flat' ? raw.tokens : raw.tasks.flat();
  if (raw.kind === 'tasks') {
    const sizes = raw.tasks.map((t) => t.length);
    if (sizes.join(',') !== taskSizes.join(','))
      throw new Error(`the order has tasks of ${sizes.join(', ')} classes; the experiment's tasks have ${taskSizes.join(', ')}`);
  }
  const order: number[] = [];
  for (const t of tokens) {
    const p = resolveToken(t, classNames, byName);
    if (typeof p === 'string') throw new Error(p);
    if (order.includes(p)) throw new Error(`"${classNames[p]}" (index ${p}) appears twice`);
    order.push(p);
  }
  if (order.length !== classNames.length) {
    const missing = classNames.map((_, p) => p).filter((p) => !order.includes(p));
    throw new Error(
      `the order has ${order.length} classes; the experiment has ${classNames.length}${
        missing.length
          ? ` (missing: ${missing
              .slice(0, 6)
              .map((p) => `${p} ${classNames[p]}`)
              .join(', ')}${missing.length > 6 ? ', …' : ''})`
          : ''
      }`,
    );
  }
  return { order, tasks: splitIntoTasks(order, [...taskSizes]) };
}
