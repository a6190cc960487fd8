/**
 * EDGE+ (ours, beyond the paper; docs/science.md §1 "EDGE+ and exact extremes"): best-improvement local search on S
 * (paper Eq. 5) from a start ordering, usually an EDGE result, towards lower S (hard, `'min'`) or higher S (easy,
 * `'max'`), with science.md's neighbourhood (swap, reverse, relocate; every move keeps task i at size m_i), tie
 * rules and tolerance. The result is a local optimum of that neighbourhood.
 */
import { canonicalOrdering } from '../orderings/key';
import { similarityScore } from '../orderings/score';
import { orderingToLabels } from '../orderings/enumerate';
import { OrderingError } from '../orderings/task-sizes';
import type { Ordering, Sequence, SquareMatrix } from '../orderings/types';
import type { EdgeAim, EdgeOutput } from './edge';
import { toSequence } from './sequence';

export type SearchDirection = 'min' | 'max';

export interface LocalSearchOptions {
  /** Stop after this many applied moves (default 100 000; a safety net, never reached in practice). */
  maxMoves?: number;
}

export interface LocalSearchResult {
  /** The local optimum, tasks in sequence order, each sorted. */
  tasks: Ordering;
  /** S of the result (≤ start for 'min', ≥ start for 'max'). */
  score: number;
  startScore: number;
  /** Applied moves, by kind. */
  moves: { swap: number; reverse: number; relocate: number };
  /** True when no move improves any more (false only if `maxMoves` stopped the search). */
  localOptimum: boolean;
}

const REBUILD_EVERY = 64;

/**
 * Local search on S from `start`. Swaps are evaluated in O(1): with positions p, the raw sum is
 * T = Σ_x Σ_{y ∈ task p(x)+1} Sim(x, y); keep Out[x][p] = Σ_{y ∈ task p} Sim(x, y), In[x][p] = Σ_{y ∈ task p} Sim(y, x)
 * and G[x][p] = Out[x][p+1] + In[x][p−1] (the adjacent mass x would have at position p). Swapping c (at a) and d (at
 * b) changes T by Δ = G[c][b] − G[c][a] + G[d][a] − G[d][b] + [|a−b| = 1]·(Sim(c,d) + Sim(d,c) − Sim(c,c) − Sim(d,d)).
 * A swap updates Out/In and G in O(N); task moves (rare) are evaluated from the K×K task-pair sums and rebuild the
 * tables in O(N²). The tables are rebuilt every REBUILD_EVERY moves against rounding drift, and the reported score
 * is recomputed with `similarityScore`.
 */
export function localSearch(start: Ordering, sim: SquareMatrix, direction: SearchDirection, options: LocalSearchOptions = {}): LocalSearchResult {
  const { n, data } = sim;
  const sizes = start.map((t) => t.length);
  const k = sizes.length;
  const label = orderingToLabels(start, sizes); // validates: every class once, 0..N-1
  if (label.length !== n) throw new OrderingError(`The ordering covers ${label.length} classes; the matrix has ${n}.`);
  const maxMoves = options.maxMoves ?? 100_000;
  const sign = direction === 'min' ? -1 : 1; // improvement = sign·Δ > tol
  const startScore = similarityScore(canonicalOrdering(start), sim);
  const moves = { swap: 0, reverse: 0, relocate: 0 };
  if (k < 2) return { tasks: canonicalOrdering(start), score: startScore, startScore, moves, localOptimum: true };

  let symmetric = true; // then In = Out and only one table is kept
  for (let i = 0; i < n && symmetric; i++) {
    for (let j = i + 1; j < n; j++) {
      if (data[i * n + j] !== data[j * n + i]) {
        symmetric = false;
        break;
      }
    }
  }

  const out = new Float64Array(n * k);
  const inn = symmetric ? out : new Float64Array(n * k);
  const g = new Float64Array(n * k);

  const rebuild = (): void => {
    out.fill(0);
    if (!symmetric) inn.fill(0);
    for (let x = 0; x < n; x++) {
      const row = x * n;
      const bx = x * k;
      for (let y = 0; y < n; y++) out[bx + label[y]] += data[row + y];
      if (!symmetric) for (let y = 0; y < n; y++) inn[bx + label[y]] += data[y * n + x];
    }
    for (let x = 0; x < n; x++) for (let p = 0; p < k; p++) g[x * k + p] = gValue(x, p);
  };
  const gValue = (x: number, p: number): number => (p + 1 < k ? out[x * k + p + 1] : 0) + (p > 0 ? inn[x * k + p - 1] : 0);
  const rawSum = (): number => {
    let t = 0;
    for (let x = 0; x < n; x++) if (label[x] + 1 < k) t += out[x * k + label[x] + 1];
    return t;
  };
  /** K×K task-pair sums X[p][q] = Σ_{x∈p} Out[x][q]. */
  const pairSums = (): Float64Array => {
    const xs = new Float64Array(k * k);
    for (let x = 0; x < n; x++) {
      const base = label[x] * k;
      for (let q = 0; q < k; q++) xs[base + q] += out[x * k + q];
    }
    return xs;
  };
  const sizesMatch = (perm: number[]): boolean => perm.every((p, i) => sizes[p] === sizes[i]);
  const permScore = (xs: Float64Array, perm: number[]): number => {
    let t = 0;
    for (let i = 0; i + 1 < k; i++) t += xs[perm[i] * k + perm[i + 1]];
    return t;
  };

  // candidate task-order permutations (new position i holds old position perm[i]), admissible ones only
  const taskMoves: { kind: 'reverse' | 'relocate'; perm: number[] }[] = [];
  {
    const seen = new Set<string>();
    const rev = Array.from({ length: k }, (_, i) => k - 1 - i);
    if (sizesMatch(rev)) {
      taskMoves.push({ kind: 'reverse', perm: rev });
      seen.add(rev.join(','));
    }
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        const order = Array.from({ length: k }, (_, p) => p).filter((p) => p !== i);
        order.splice(j, 0, i);
        const key = order.join(','); // moving i next to i±1 equals moving the neighbour: keep the first
        if (seen.has(key) || !sizesMatch(order)) continue;
        seen.add(key);
        taskMoves.push({ kind: 'relocate', perm: order });
      }
    }
  }

  rebuild();
  let total = rawSum();
  let sinceRebuild = 0;
  let applied = 0;
  let localOptimum = false;

  while (applied < maxMoves) {
    const tol = 1e-12 * Math.max(1, Math.abs(total));
    let bestGain = tol;
    let bestC = -1;
    let bestD = -1;
    let bestTask = -1;
    // swaps
    for (let c = 0; c < n; c++) {
      const a = label[c];
      const bc = c * k;
      const gca = g[bc + a];
      const scc = data[c * n + c];
      for (let d = c + 1; d < n; d++) {
        const b = label[d];
        if (a === b) continue;
        const bd = d * k;
        let delta = g[bc + b] - gca + g[bd + a] - g[bd + b];
        if (a - b === 1 || b - a === 1) delta += data[c * n + d] + data[d * n + c] - scc - data[d * n + d];
        const gain = sign * delta;
        if (gain > bestGain) {
          bestGain = gain;
          bestC = c;
          bestD = d;
        }
      }
    }
    // task moves
    if (taskMoves.length > 0) {
      const xs = pairSums();
      for (let m = 0; m < taskMoves.length; m++) {
        const gain = sign * (permScore(xs, taskMoves[m].perm) - total);
        if (gain > bestGain) {
          bestGain = gain;
          bestTask = m;
        }
      }
    }
    if (bestTask >= 0) {
      const perm = taskMoves[bestTask].perm;
      const where = new Int32Array(k); // old position → new position
      perm.forEach((old, pos) => (where[old] = pos));
      for (let x = 0; x < n; x++) label[x] = where[label[x]];
      moves[taskMoves[bestTask].kind]++;
      rebuild();
      sinceRebuild = 0;
      total = rawSum();
    } else if (bestC >= 0) {
      const c = bestC;
      const d = bestD;
      const a = label[c];
      const b = label[d];
      label[c] = b;
      label[d] = a;
      for (let x = 0; x < n; x++) {
        const bx = x * k;
        const sxc = data[x * n + c];
        const sxd = data[x * n + d];
        out[bx + a] += sxd - sxc;
        out[bx + b] += sxc - sxd;
        if (!symmetric) {
          const scx = data[c * n + x];
          const sdx = data[d * n + x];
          inn[bx + a] += sdx - scx;
          inn[bx + b] += scx - sdx;
        }
      }
      for (const p of [a - 1, a + 1, b - 1, b + 1]) {
        if (p < 0 || p >= k) continue;
        for (let x = 0; x < n; x++) g[x * k + p] = gValue(x, p);
      }
      moves.swap++;
      if (++sinceRebuild >= REBUILD_EVERY) {
        rebuild();
        sinceRebuild = 0;
        total = rawSum();
      } else {
        total += sign * bestGain;
      }
    } else {
      localOptimum = true;
      break;
    }
    applied++;
  }
  const tasks: Ordering = Array.from({ length: k }, () => []);
  for (let x = 0; x < n; x++) tasks[label[x]].push(x);
  return { tasks, score: similarityScore(tasks, sim), startScore, moves, localOptimum };
}

export interface EdgePlusOutput {
  /** Local search towards min S from EDGE hard. */
  hard: LocalSearchResult;
  /** Local search towards max S from EDGE easy. */
  easy: LocalSearchResult;
}

/** EDGE+: local search from each EDGE result (hard → min S, easy → max S). */
export function edgePlus(edge: Pick<EdgeOutput, 'hard' | 'easy'>, sim: SquareMatrix, options: LocalSearchOptions = {}): EdgePlusOutput {
  return {
    hard: localSearch(edge.hard.tasks, sim, 'min', options),
    easy: localSearch(edge.easy.tasks, sim, 'max', options),
  };
}

/** The public Sequence of an EDGE+ result: protocol 'edge+', label 'EDGE+ hard' / 'EDGE+ easy'. */
export function edgePlusSequence(result: LocalSearchResult, aim: EdgeAim, sim: SquareMatrix): Sequence {
  return toSequence('edge+', `EDGE+ ${aim}`, result.tasks, sim);
}

/** Both EDGE+ sequences, hard first. */
export function edgePlusSequences(out: EdgePlusOutput, sim: SquareMatrix): Sequence[] {
  return [edgePlusSequence(out.hard, 'hard', sim), edgePlusSequence(out.easy, 'easy', sim)];
}
