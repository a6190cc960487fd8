/**
 * Agreement between two similarity sources for the same classes (docs/science.md §6 "Agreement between two sources"; EDGE paper
 * App. E.3.1 "MAE" and "CSG", App. E.3.2 Spearman's ρ):
 *
 * - **MAE** = mean |a_ij − b_ij| over the off-diagonal pairs i < j only. (Both diagonals are 1, so including them
 *   would only shrink the number by (N−1)/N; the paper does not say, we exclude them — the pairs are what differ.)
 * - **Spearman ρ** over the same N(N−1)/2 pairs: Pearson correlation of the ranks, ties given their average rank
 *   (exactly `scipy.stats.spearmanr`). NaN when undefined (fewer than two pairs, or either side constant);
 *   JSON writes that as null.
 * - **CSG** (consistency of sequence generation) = share of classes that land in the same task when EDGE runs on
 *   each matrix. EDGE (edge.ts) builds a hard and an easy ordering from each matrix; the K tasks of the ordering
 *   from `a` are matched one-to-one to the K tasks of the ordering from `b` so that the total overlap (classes in
 *   common) is maximal, and CSG = that total / N. The matching ignores where the tasks sit in the sequence (the
 *   paper asks whether classes stay *together*). The optimal matching is found with the Hungarian algorithm
 *   (Kuhn–Munkres, O(K³), exact for every K — brute force over K! matchings would stop at K ≈ 8, and CIFAR-100 is
 *   commonly split into 10, 20 or 50 tasks). Several matchings can reach the same total; the share is the same
 *   for all of them, and the one returned is deterministic.
 *   `csg` is the hard-ordering CSG (EDGE's main product); `csgEasy` is reported beside it.
 */
import type { Ordering, SquareMatrix, TaskSizes } from '../orderings/types';
import { edgeOrderings, type EdgeOptions } from '../protocols/edge';
import { spearmanRho } from '../stats/spearman';
import { SimilarityError } from './validate';

export interface SimilarityPair {
  i: number;
  j: number;
  a: number;
  b: number;
}

export interface TaskAgreement {
  /** Share of classes in matched tasks, in [0, 1]. */
  share: number;
  /** Classes in matched tasks (share · N). */
  matched: number;
  /** match[s] = the task of the second ordering matched to task s of the first. */
  match: number[];
}

export interface EdgeAgreement extends TaskAgreement {
  /** EDGE's ordering from matrix a (tasks in sequence order). */
  a: Ordering;
  /** EDGE's ordering from matrix b. */
  b: Ordering;
}

export interface SimilarityComparison {
  n: number;
  /** N(N−1)/2. */
  pairCount: number;
  /** Mean absolute difference over pairs i < j. */
  mae: number;
  /** Spearman ρ over pairs i < j (NaN when undefined). */
  spearman: number;
  /** = csgHard. */
  csg: number;
  csgHard: number;
  csgEasy: number;
  /** Every pair i < j with both similarities (for a scatter plot), row by row. */
  pairs: SimilarityPair[];
  hard: EdgeAgreement;
  easy: EdgeAgreement;
}

function checkPair(a: SquareMatrix, b: SquareMatrix): number {
  for (const [m, name] of [
    [a, 'first'],
    [b, 'second'],
  ] as const) {
    if (!m || !Number.isInteger(m.n) || m.n < 1 || m.data.length !== m.n * m.n) {
      throw new SimilarityError(`The ${name} similarity matrix is not square (n = ${m?.n}, ${m?.data?.length} entries).`);
    }
  }
  if (a.n !== b.n) {
    throw new SimilarityError(`The two similarity matrices cover different numbers of classes: ${a.n} and ${b.n}.`);
  }
  const n = a.n;
  for (const [m, name] of [
    [a, 'first'],
    [b, 'second'],
  ] as const) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const x = m.data[i * n + j];
        if (!Number.isFinite(x)) throw new SimilarityError(`Entry (${i}, ${j}) of the ${name} similarity matrix is ${x}.`, { row: i, column: j });
      }
    }
  }
  return n;
}

/** The off-diagonal upper-triangle values (i < j), row by row. */
export function upperTriangle(m: SquareMatrix): Float64Array {
  const n = m.n;
  const out = new Float64Array((n * (n - 1)) / 2);
  let p = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[p++] = m.data[i * n + j];
  return out;
}

/** MAE over pairs i < j. */
export function offDiagonalMae(a: SquareMatrix, b: SquareMatrix): number {
  checkPair(a, b);
  const x = upperTriangle(a);
  const y = upperTriangle(b);
  if (x.length === 0) return NaN;
  let s = 0;
  for (let k = 0; k < x.length; k++) s += Math.abs(x[k] - y[k]);
  return s / x.length;
}

// Ranks and Spearman's ρ live in the statistics core (src/core/stats); re-exported for existing callers.
export { averageRanks } from '../stats/rank';
export { spearmanRho };

/**
 * Maximum-weight perfect matching of a square K×K weight matrix (Hungarian algorithm on the costs max − w).
 * Returns match[row] = column and the total weight.
 */
export function maxWeightMatching(weights: readonly (readonly number[])[]): { match: number[]; total: number } {
  const n = weights.length;
  if (n === 0) return { match: [], total: 0 };
  let max = -Infinity;
  for (const row of weights) {
    if (row.length !== n) throw new RangeError('maxWeightMatching needs a square matrix.');
    for (const w of row) max = Math.max(max, w);
  }
  // e-maxx formulation, 1-based, minimising cost = max − w.
  const cost = (i: number, j: number) => max - weights[i - 1][j - 1];
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[j] = row matched to column j
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0, j) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const match = new Array<number>(n);
  for (let j = 1; j <= n; j++) match[p[j] - 1] = j - 1;
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i][match[i]];
  return { match, total };
}

/**
 * The CSG step on two orderings of the same classes: tasks matched one-to-one by maximum total overlap,
 * share = classes in matched tasks / N.
 */
export function taskAgreement(a: Ordering, b: Ordering): TaskAgreement {
  if (a.length !== b.length) throw new SimilarityError(`The two orderings have ${a.length} and ${b.length} tasks; CSG needs the same number.`);
  const k = a.length;
  const taskOf = new Map<number, number>();
  a.forEach((t, s) => t.forEach((c) => taskOf.set(c, s)));
  const n = taskOf.size;
  let seen = 0;
  const overlap = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  b.forEach((t, s) =>
    t.forEach((c) => {
      const sa = taskOf.get(c);
      if (sa === undefined) throw new SimilarityError(`Class ${c} is in the second ordering but not in the first.`);
      overlap[sa][s]++;
      seen++;
    }),
  );
  if (seen !== n) throw new SimilarityError(`The orderings hold ${n} and ${seen} classes; CSG needs the same classes in both.`);
  const { match, total } = maxWeightMatching(overlap);
  return { share: n === 0 ? NaN : total / n, matched: total, match };
}

/** MAE, Spearman ρ and CSG (hard and easy) of two similarity matrices for the same classes. */
export function compareSimilarities(a: SquareMatrix, b: SquareMatrix, taskSizes: TaskSizes, options: EdgeOptions = {}): SimilarityComparison {
  const n = checkPair(a, b);
  const x = upperTriangle(a);
  const y = upperTriangle(b);
  const pairs: SimilarityPair[] = [];
  let p = 0;
  let abs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      pairs.push({ i, j, a: x[p], b: y[p] });
      abs += Math.abs(x[p] - y[p]);
      p++;
    }
  }
  const ea = edgeOrderings(a, taskSizes, options);
  const eb = edgeOrderings(b, taskSizes, options);
  const hard = { ...taskAgreement(ea.hard.tasks, eb.hard.tasks), a: ea.hard.tasks, b: eb.hard.tasks };
  const easy = { ...taskAgreement(ea.easy.tasks, eb.easy.tasks), a: ea.easy.tasks, b: eb.easy.tasks };
  return {
    n,
    pairCount: x.length,
    mae: x.length ? abs / x.length : NaN,
    spearman: spearmanRho(x, y),
    csg: hard.share,
    csgHard: hard.share,
    csgEasy: easy.share,
    pairs,
    hard,
    easy,
  };
}
