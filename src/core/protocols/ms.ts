/**
 * MS baseline (paper §E.4, docs/science.md §1): draw `samples` (default 200) random orderings from one seeded
 * numpy `default_rng(seed)` (successive `permutation(N)` calls) and keep the min-S (hard) and max-S (easy) one.
 * Ties keep the earliest draw.
 */
import { splitIntoTasks } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import type { Ordering, SquareMatrix, TaskSizes } from '../orderings/types';
import { createDefaultRng } from '../random/default-rng';

export interface MsResult {
  hard: Ordering;
  easy: Ordering;
  hardScore: number;
  easyScore: number;
}

export function msOrderings(sim: SquareMatrix, sizes: TaskSizes, samples = 200, seed = 0): MsResult {
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`MS needs at least one sample; got ${samples}.`);
  const rng = createDefaultRng(seed);
  let best: MsResult | null = null;
  for (let s = 0; s < samples; s++) {
    const o = splitIntoTasks(rng.permutation(sim.n), sizes);
    const score = similarityScore(o, sim);
    if (!best) best = { hard: o, easy: o, hardScore: score, easyScore: score };
    else {
      if (score < best.hardScore) Object.assign(best, { hard: o, hardScore: score });
      if (score > best.easyScore) Object.assign(best, { easy: o, easyScore: score });
    }
  }
  return best!;
}
