/**
 * Resolving and validating task sizes m_1..m_K (docs/science.md §1: equal sizes M = N/K unless the user sets sizes).
 * Every problem becomes an `OrderingError` whose message says what is wrong and how to fix it.
 */
import type { TaskSizes } from './types';

export class OrderingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrderingError';
  }
}

export interface TaskSpec {
  /** Number of tasks K (equal sizes N/K). */
  tasks?: number;
  /** Explicit sizes m_1..m_K; wins over `tasks`. */
  taskSizes?: number[];
}

/** Equal task sizes for N classes in K tasks; throws when K does not divide N or K is out of range. */
export function equalTaskSizes(classCount: number, taskCount: number): TaskSizes {
  if (!Number.isInteger(classCount) || classCount < 1) {
    throw new OrderingError(`The number of classes must be a positive integer; got ${classCount}.`);
  }
  if (!Number.isInteger(taskCount) || taskCount < 1) {
    throw new OrderingError(`The number of tasks must be a positive integer; got ${taskCount}.`);
  }
  if (taskCount > classCount) {
    throw new OrderingError(
      `${taskCount} tasks cannot be made from ${classCount} class${classCount === 1 ? '' : 'es'}: every task needs at least one class (K ≤ N).`,
    );
  }
  if (classCount % taskCount !== 0) {
    const m = Math.floor(classCount / taskCount);
    const r = classCount % taskCount;
    const example = [...Array(taskCount)].map((_, i) => (i < r ? m + 1 : m)).join(',');
    throw new OrderingError(`${classCount} classes do not split into ${taskCount} equal tasks; give the task sizes instead (for example ${example}).`);
  }
  return Array(taskCount).fill(classCount / taskCount);
}

/** Check explicit sizes: positive integers summing to N. */
export function validateTaskSizes(classCount: number, sizes: number[]): TaskSizes {
  if (sizes.length === 0) throw new OrderingError('Task sizes are empty: give at least one task size.');
  sizes.forEach((m, i) => {
    if (!Number.isInteger(m) || m < 1) {
      throw new OrderingError(`Task ${i + 1} has size ${m}; every task size must be a positive integer.`);
    }
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total !== classCount) {
    throw new OrderingError(`Task sizes ${sizes.join(',')} sum to ${total}, but there are ${classCount} classes: they must sum to ${classCount}.`);
  }
  return sizes.slice();
}

/** Sizes from a spec: explicit `taskSizes` if given, else equal sizes from `tasks`. */
export function resolveTaskSizes(classCount: number, spec: TaskSpec): TaskSizes {
  if (spec.taskSizes && spec.taskSizes.length > 0) return validateTaskSizes(classCount, spec.taskSizes);
  if (spec.tasks === undefined) throw new OrderingError('Give the number of tasks or the task sizes.');
  return equalTaskSizes(classCount, spec.tasks);
}

/** Parse "2,2,2" (commas or spaces) into numbers; non-numbers are reported. */
export function parseTaskSizes(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((s) => s.length > 0);
  return parts.map((p) => {
    if (!/^\d+$/.test(p)) throw new OrderingError(`Task size "${p}" is not a positive whole number.`);
    return Number(p);
  });
}
