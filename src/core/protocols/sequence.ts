/** Building the public `Sequence` record (docs/architecture.md contracts) from tasks and a similarity matrix. */
import { canonicalOrdering } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import type { Ordering, Sequence, SquareMatrix } from '../orderings/types';

/**
 * @param drawn the class order exactly as the protocol drew it, when that order is what users' own runs use: RS is
 *   numpy's `permutation(N)`, and PyCIL maps `class_order[i]` to label i, so its export must be that very list, not
 *   the tasks re-sorted. `tasks` stays canonical (each task sorted: tasks compare as sets); the
 *   drawn order must split into the same tasks, else it is refused.
 */
export function toSequence(protocol: string, label: string, tasks: Ordering, sim: SquareMatrix, drawn?: readonly number[]): Sequence {
  const canon = canonicalOrdering(tasks);
  let order = canon.flat();
  if (drawn) {
    let at = 0;
    for (const t of canon) {
      const part = drawn
        .slice(at, at + t.length)
        .slice()
        .sort((a, b) => a - b);
      if (part.length !== t.length || part.some((c, i) => c !== t[i])) {
        throw new Error(`${label}: the drawn class order does not split into the ordering's tasks.`);
      }
      at += t.length;
    }
    if (at !== drawn.length) throw new Error(`${label}: the drawn class order has ${drawn.length} classes; the ordering has ${at}.`);
    order = drawn.slice();
  }
  return { protocol, label, tasks: canon, order, score: similarityScore(canon, sim) };
}
