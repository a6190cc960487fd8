/** Building the public `Sequence` record (ARCHITECTURE.md contracts) from tasks and a similarity matrix. */
import { canonicalOrdering } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import type { Ordering, Sequence, SquareMatrix } from '../orderings/types';

export function toSequence(protocol: string, label: string, tasks: Ordering, sim: SquareMatrix): Sequence {
  const canon = canonicalOrdering(tasks);
  return { protocol, label, tasks: canon, order: canon.flat(), score: similarityScore(canon, sim) };
}
