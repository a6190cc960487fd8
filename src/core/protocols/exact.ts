/**
 * Exact extremes of S over Ω (docs/science.md §1, "EDGE+ … where |Ω| is small enough to enumerate (≤ 10^6
 * orderings), the exact arg-min/arg-max of S"), by enumerating every ordering with `forEachOrdering`.
 *
 * Speed: orderings arrive in lexicographic order of their label vectors, and consecutive label vectors share a
 * prefix. The raw adjacent sum is kept as prefix sums P[j] = the sum over pairs of classes both < j, so a new
 * label vector only re-adds the pairs of the classes from the first changed position on (amortised a few
 * classes per ordering). 10 classes / 5 tasks (113 400 orderings) take a few milliseconds.
 *
 * Ties: the ordering with the lowest rank (first in enumeration order) wins; a later one replaces the current
 * best only when it is better by more than 1e-12·max(1, |best|) in raw-sum units, so rounding differences in the
 * incremental sums never decide between orderings of equal S (e.g. an ordering and its reverse when Sim is
 * symmetric). Reported scores are recomputed with `similarityScore`.
 */
import { countOrderings, formatOmega } from '../orderings/count';
import { forEachOrdering, labelsToOrdering } from '../orderings/enumerate';
import { similarityScore } from '../orderings/score';
import { OrderingError, validateTaskSizes } from '../orderings/task-sizes';
import type { Ordering, Sequence, SquareMatrix, TaskSizes } from '../orderings/types';
import { toSequence } from './sequence';

export const DEFAULT_EXACT_LIMIT = 1_000_000;

export interface ExactExtreme {
  tasks: Ordering;
  score: number;
  /** Lexicographic rank of the ordering in Ω (see orderings/enumerate.ts). */
  rank: number;
}

export interface ExactResult {
  /** arg-min S (the exact hardest ordering by S). */
  min: ExactExtreme;
  /** arg-max S (the exact easiest ordering by S). */
  max: ExactExtreme;
  /** |Ω|, the number of orderings enumerated. */
  count: number;
}

/** Throws the OrderingError that says Ω is too large to enumerate (exported for callers that pre-check). */
export function checkEnumerable(sizes: TaskSizes, limit: number = DEFAULT_EXACT_LIMIT): number {
  const omega = countOrderings(sizes);
  if (omega > BigInt(limit)) {
    throw new OrderingError(
      `There are ${formatOmega(omega)} orderings for these task sizes, more than the ${formatOmega(BigInt(limit))} ` +
        'that can be enumerated: the exact extremes are not computed. Sampling (RS, MS, EDGE, EDGE+) is offered instead.',
    );
  }
  return Number(omega);
}

/** Exact arg-min and arg-max of S over Ω; throws an OrderingError when |Ω| > limit. */
export function exactExtremes(sim: SquareMatrix, sizes: TaskSizes, limit: number = DEFAULT_EXACT_LIMIT): ExactResult {
  const valid = validateTaskSizes(sim.n, sizes);
  const count = checkEnumerable(valid, limit);
  const { n, data } = sim;
  const k = valid.length;
  const prev = new Int32Array(n).fill(-1);
  const prefix = new Float64Array(n + 1);
  let minRaw = Infinity;
  let maxRaw = -Infinity;
  let minRank = 0;
  let maxRank = 0;
  let minLabels = new Int32Array(n);
  let maxLabels = new Int32Array(n);
  forEachOrdering(valid, (labels, rank) => {
    // first position that differs from the previous label vector
    let i = 0;
    while (i < n && labels[i] === prev[i]) i++;
    for (let j = i; j < n; j++) {
      const lj = labels[j];
      prev[j] = lj;
      const rowJ = j * n;
      let s = prefix[j];
      for (let c = 0; c < j; c++) {
        const lc = labels[c];
        if (lj === lc + 1) s += data[c * n + j];
        else if (lc === lj + 1) s += data[rowJ + c];
      }
      prefix[j + 1] = s;
    }
    const t = prefix[n];
    if (t < minRaw - 1e-12 * Math.max(1, Math.abs(minRaw)) || rank === 0) {
      minRaw = t;
      minRank = rank;
      minLabels = labels.slice();
    }
    if (t > maxRaw + 1e-12 * Math.max(1, Math.abs(maxRaw)) || rank === 0) {
      maxRaw = t;
      maxRank = rank;
      maxLabels = labels.slice();
    }
  });
  const minTasks = labelsToOrdering(minLabels, k);
  const maxTasks = labelsToOrdering(maxLabels, k);
  return {
    min: { tasks: minTasks, score: similarityScore(minTasks, sim), rank: minRank },
    max: { tasks: maxTasks, score: similarityScore(maxTasks, sim), rank: maxRank },
    count,
  };
}

/** Exact sequences: protocol 'exact', labels 'Exact hard (min S)' and 'Exact easy (max S)'. */
export function exactSequences(res: ExactResult, sim: SquareMatrix): Sequence[] {
  return [toSequence('exact', 'Exact hard (min S)', res.min.tasks, sim), toSequence('exact', 'Exact easy (max S)', res.max.tasks, sim)];
}
