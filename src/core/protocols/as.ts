/**
 * AS baseline, "Adversarial Sampling" (paper §E.4; docs/science.md §1 "Other baselines"): the class sequence is
 * built greedily — each next class is the one least similar (hard) / most similar (easy) to ALL classes chosen
 * so far — and then split into tasks of the given sizes (the first m_1 classes form task 1, and so on).
 *
 * Rules (ours where the paper is silent):
 * - "similarity to all chosen classes" = Σ_{s chosen} A(s, c) with A = (Sim + Simᵀ)/2 (= Sim when Sim is
 *   symmetric, as cosine similarities are);
 * - first class: hard → the class with the LOWEST total similarity to all others, Σ_{d≠c} A(c, d) (the most
 *   isolated class); easy → the HIGHEST (the most central class);
 * - ties (first class and every next class): the lowest class index.
 * Note that AS's "hard" makes classes inside a task mutually dissimilar, which does not by itself make S low:
 * AS is a baseline to compare against, not an optimiser of S.
 */
import { splitIntoTasks } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import { validateTaskSizes } from '../orderings/task-sizes';
import type { Ordering, Sequence, SquareMatrix, TaskSizes } from '../orderings/types';
import type { EdgeAim } from './edge';
import { toSequence } from './sequence';

export interface AsResult {
  /** The greedy class sequence (before splitting into tasks). */
  sequence: number[];
  /** Tasks in order, each sorted ascending. */
  tasks: Ordering;
  score: number;
}

/** The greedy AS class sequence for one aim. O(N²). */
export function asClassSequence(sim: SquareMatrix, aim: EdgeAim): number[] {
  const { n, data } = sim;
  const a = (i: number, j: number): number => (data[i * n + j] + data[j * n + i]) / 2;
  const better = aim === 'hard' ? (x: number, y: number) => x < y : (x: number, y: number) => x > y;
  let first = -1;
  let firstTotal = 0;
  for (let c = 0; c < n; c++) {
    let t = 0;
    for (let d = 0; d < n; d++) if (d !== c) t += a(c, d);
    if (first === -1 || better(t, firstTotal)) {
      first = c;
      firstTotal = t;
    }
  }
  const chosen = new Uint8Array(n);
  const acc = new Float64Array(n);
  const seq: number[] = [];
  let next = first;
  while (next !== -1) {
    seq.push(next);
    chosen[next] = 1;
    for (let c = 0; c < n; c++) acc[c] += a(next, c);
    next = -1;
    for (let c = 0; c < n; c++) {
      if (chosen[c]) continue;
      if (next === -1 || better(acc[c], acc[next])) next = c;
    }
  }
  return seq;
}

/** AS for one aim: the greedy sequence split into tasks of the given sizes. */
export function asOrdering(sim: SquareMatrix, sizes: TaskSizes, aim: EdgeAim): AsResult {
  const valid = validateTaskSizes(sim.n, sizes);
  const sequence = asClassSequence(sim, aim);
  const tasks = splitIntoTasks(sequence, valid).map((t) => t.slice().sort((x, y) => x - y));
  return { sequence, tasks, score: similarityScore(tasks, sim) };
}

/** AS hard and easy. */
export function asOrderings(sim: SquareMatrix, sizes: TaskSizes): { hard: AsResult; easy: AsResult } {
  return { hard: asOrdering(sim, sizes, 'hard'), easy: asOrdering(sim, sizes, 'easy') };
}

/** The public Sequence of an AS result: protocol 'as', label 'AS hard' / 'AS easy'. */
export function asSequence(result: AsResult, aim: EdgeAim, sim: SquareMatrix): Sequence {
  return toSequence('as', `AS ${aim}`, result.tasks, sim);
}
