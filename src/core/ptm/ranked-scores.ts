/**
 * Methods whose classifier scores every class on its own (docs/science.md §9): SimpleCIL's cosine to the class
 * mean, NCM's distance to it, FeCAM's Mahalanobis distance. A class's score of a test row depends only on that
 * class's training rows, so after any step the prediction is the best-scoring class among those seen, and a row of
 * class y is right exactly when no class that outscores y has been seen. Those classes are the row's "beaters"; with
 * them as a bit mask, the correct count of every class of every set S is one AND per row and word, whatever the
 * ordering that led to S; rows no class beats (most of them, with good features) are counted once and skipped.
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
  /** per class position, its test rows that no class beats: right whatever the set */
  unbeaten: Int32Array;
  /** the other rows, grouped by class: rows hard[hardStart[p]] … hard[hardStart[p+1] − 1] are class p's */
  hard: Int32Array;
  hardStart: Int32Array;
}

/** Beaters from a score matrix (n_test × C, row-major); `higherIsBetter` false for distances. */
export function beatersOf(problem: PtmProblem, scores: Float64Array, higherIsBetter: boolean): Beaters {
  const { C, test } = problem;
  const words = maskWords(C);
  const masks = new Uint32Array(test.n * words);
  const unbeaten = new Int32Array(C);
  const hard: number[] = [];
  const hardStart = new Int32Array(C + 1);
  for (let p = 0; p < C; p++) {
    hardStart[p] = hard.length;
    for (let i = test.start[p]; i < test.start[p + 1]; i++) {
      const so = i * C;
      const own = scores[so + p];
      let beaten = false;
      for (let c = 0; c < C; c++) {
        if (c === p) continue;
        const s = scores[so + c];
        const beats = higherIsBetter ? s > own || (s === own && c < p) : s < own || (s === own && c < p);
        if (beats) {
          masks[i * words + (c >>> 5)] |= 1 << (c & 31);
          beaten = true;
        }
      }
      if (beaten) hard.push(i);
      else unbeaten[p]++;
    }
  }
  hardStart[C] = hard.length;
  return { words, masks, unbeaten, hard: Int32Array.from(hard), hardStart };
}

/** Correct test rows per class position after seeing `mask` (whose members are `members`); 0 off the set. */
export function correctCountsFromBeaters(problem: PtmProblem, beaters: Beaters, mask: Uint32Array, members: readonly number[]): Int32Array {
  const { words, masks, unbeaten, hard, hardStart } = beaters;
  const out = new Int32Array(problem.C);
  for (const p of members) {
    let n = unbeaten[p];
    for (let k = hardStart[p]; k < hardStart[p + 1]; k++) if (!masksIntersect(masks, hard[k] * words, mask, words)) n++;
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
