/**
 * Methods whose classifier scores every class on its own (docs/science.md §9): SimpleCIL's cosine to the class
 * mean, NCM's distance to it, FeCAM's Mahalanobis distance. A class's score of a test row depends only on that
 * class's training rows, so after any step the prediction is the best-scoring class among those seen, and a row of
 * class y is right exactly when no class that outscores y has been seen. Those classes are the row's "beaters"; with
 * them as a bit mask, the correct count of every class of every set S is one AND per row and word, whatever the
 * ordering that led to S.
 *
 * Ties (equal scores, which continuous features almost never give) go to the smaller class position, so a prediction
 * never depends on the order of the output units; the papers' code (argmax over units in arrival order) can differ
 * from this only on exact ties.
 */
import { masksIntersect, maskWords } from './class-set';
import type { PtmProblem } from './problem';

/** Per test row, the bit mask of the classes that beat its own class. */
export interface Beaters {
  words: number;
  /** n_test × words */
  masks: Uint32Array;
}

/** Beaters from a score matrix (n_test × C, row-major); `higherIsBetter` false for distances. */
export function beatersOf(problem: PtmProblem, scores: Float64Array, higherIsBetter: boolean): Beaters {
  const { C, test } = problem;
  const words = maskWords(C);
  const masks = new Uint32Array(test.n * words);
  for (let i = 0; i < test.n; i++) {
    const y = test.y[i];
    const so = i * C;
    const own = scores[so + y];
    for (let c = 0; c < C; c++) {
      if (c === y) continue;
      const s = scores[so + c];
      const beats = higherIsBetter ? s > own || (s === own && c < y) : s < own || (s === own && c < y);
      if (beats) masks[i * words + (c >>> 5)] |= 1 << (c & 31);
    }
  }
  return { words, masks };
}

/** Correct test rows per class position after seeing `mask` (whose members are `members`); 0 off the set. */
export function correctCountsFromBeaters(problem: PtmProblem, beaters: Beaters, mask: Uint32Array, members: readonly number[]): Int32Array {
  const { test, C } = problem;
  const { words, masks } = beaters;
  const out = new Int32Array(C);
  for (const p of members) {
    let n = 0;
    for (let i = test.start[p]; i < test.start[p + 1]; i++) if (!masksIntersect(masks, i * words, mask, words)) n++;
    out[p] = n;
  }
  return out;
}

/** The predicted class position of test row i among `members` by its scores (the same tie rule). */
export function predictAmong(scores: Float64Array, C: number, i: number, members: readonly number[], higherIsBetter: boolean): number {
  let best = -1;
  let bestScore = 0;
  for (const c of members) {
    const s = scores[i * C + c];
    if (best < 0 || (higherIsBetter ? s > bestScore : s < bestScore) || (s === bestScore && c < best)) {
      best = c;
      bestScore = s;
    }
  }
  return best;
}
