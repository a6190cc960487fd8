/**
 * EDGE's hard and easy orderings (paper Alg. 1 and Alg. 2): one agglomerative clustering of 1 − Sim, cut at each
 * granularity of G = {K, 2K, 5K, 10K, 20K}; a hard and an easy partition of the clusters into tasks; the tasks
 * ordered greedily by inter-task similarity in two variants ('last', the paper's text; 'sum', its pseudo-code); and
 * of every candidate, the lowest S (hard) and the highest (easy). docs/science.md §1 "EDGE" states each step, the
 * tie rules, unequal task sizes and the authors' code defects we do not copy. The random ("median") ordering is
 * edge-median.ts.
 */
import { createCutter } from '../clustering/fcluster';
import { linkage, type LinkageMatrix, type LinkageMethod } from '../clustering/linkage';
import { canonicalOrdering } from '../orderings/key';
import { dissimilarity } from '../orderings/matrix';
import { similarityScore } from '../orderings/score';
import { OrderingError, validateTaskSizes } from '../orderings/task-sizes';
import type { Ordering, Sequence, SquareMatrix, TaskSizes } from '../orderings/types';
import { toSequence } from './sequence';

/** Which extreme an ordering aims at: hard = min S, easy = max S. */
export type EdgeAim = 'hard' | 'easy';
/** Greedy task-order variant: against the last appended task (paper text) or the sum over all (pseudo-code). */
export type EdgeVariant = 'last' | 'sum';
export const EDGE_VARIANTS: readonly EdgeVariant[] = ['last', 'sum'];
/** The paper's granularities as multiples of K: {K, 2K, 5K, 10K, 20K}. */
export const EDGE_GRANULARITY_MULTIPLES: readonly number[] = [1, 2, 5, 10, 20];

export interface EdgeCandidate {
  aim: EdgeAim;
  /** Requested number of clusters g. */
  granularity: number;
  /** Number of clusters the cut actually gave (fewer than g only with tied merge distances). */
  clusterCount: number;
  variant: EdgeVariant;
  /** Tasks in sequence order, each sorted ascending. */
  tasks: Ordering;
  /** S(O), paper Eq. 5. */
  score: number;
}

export interface EdgeResult {
  tasks: Ordering;
  score: number;
  /** The granularity and variant of the winning candidate. */
  granularity: number;
  clusterCount: number;
  variant: EdgeVariant;
}

export interface EdgeOutput {
  hard: EdgeResult;
  easy: EdgeResult;
  /** Every candidate, in evaluation order: for each g, hard-last, hard-sum, easy-last, easy-sum. */
  candidates: EdgeCandidate[];
}

export interface EdgeOptions {
  /** Explicit granularities (cluster counts); default {K, 2K, 5K, 10K, 20K}. Capped at N and deduplicated. */
  granularities?: number[];
  /** Linkage method; default 'complete' (the paper's). */
  linkage?: LinkageMethod;
  /**
   * A linkage matrix already computed for this similarity matrix with `edgeLinkage(sim, method)` (so the Orderings
   * page's dendrogram and EDGE share one clustering). Its size is checked; it must come from the same matrix.
   */
  dendrogram?: LinkageMatrix;
}

/** EDGE's one clustering: `linkage(1 − Sim, method)` (complete by default), scipy-compatible. */
export function edgeLinkage(sim: SquareMatrix, method: LinkageMethod = 'complete'): LinkageMatrix {
  return linkage(dissimilarity(sim), method);
}

/** G = {K, 2K, 5K, 10K, 20K} (or the given list), each capped at N, duplicates removed, order kept. */
export function edgeGranularities(classCount: number, taskCount: number, requested?: readonly number[]): number[] {
  const raw = requested ?? EDGE_GRANULARITY_MULTIPLES.map((m) => m * taskCount);
  const out: number[] = [];
  for (const g of raw) {
    if (!Number.isInteger(g) || g < 1) throw new OrderingError(`Granularity ${g} is not a positive whole number of clusters.`);
    const c = Math.min(g, classCount);
    if (!out.includes(c)) out.push(c);
  }
  if (out.length === 0) throw new OrderingError('EDGE needs at least one granularity (number of clusters).');
  return out;
}

/**
 * Clusters from 1-based cluster labels: members in dendrogram leaf order, clusters largest first
 * (ties: lower smallest member index first).
 */
export function orderedClusters(labels: ArrayLike<number>, leafOrder: ArrayLike<number>): number[][] {
  const byLabel = new Map<number, number[]>();
  for (let p = 0; p < leafOrder.length; p++) {
    const c = leafOrder[p];
    const l = labels[c];
    let list = byLabel.get(l);
    if (!list) byLabel.set(l, (list = []));
    list.push(c);
  }
  const clusters = [...byLabel.values()];
  const minMember = new Map(clusters.map((cl) => [cl, Math.min(...cl)]));
  clusters.sort((a, b) => b.length - a.length || minMember.get(a)! - minMember.get(b)!);
  return clusters;
}

/**
 * Hard partition (Alg. 1 step "merge clusters into K tasks", keeping similar classes together): clusters
 * largest first; repeatedly put as many of the cluster's remaining members as fit into the currently emptiest
 * task. A cluster larger than a task is thereby cut into task-sized chunks, each to the emptiest task, and a
 * cluster that does not fit the emptiest task overflows into the next emptiest one.
 * Returns K unordered task slots; slot t has size `sizes[t]`.
 */
export function hardPartition(clusters: number[][], sizes: TaskSizes): Ordering {
  const k = sizes.length;
  const free = sizes.slice();
  const tasks: Ordering = Array.from({ length: k }, () => []);
  for (const cluster of clusters) {
    let p = 0;
    while (p < cluster.length) {
      let t = 0;
      for (let j = 1; j < k; j++) if (free[j] > free[t]) t = j;
      if (free[t] === 0) throw new OrderingError('The clusters hold more classes than the tasks can take.');
      const take = Math.min(free[t], cluster.length - p);
      for (let q = 0; q < take; q++) tasks[t].push(cluster[p + q]);
      free[t] -= take;
      p += take;
    }
  }
  return tasks;
}

/**
 * Easy partition (Alg. 2, spreading similar classes across tasks): clusters largest first, each cluster's
 * members (leaf order) dealt round-robin over the tasks. The dealing pointer continues from one cluster to the
 * next (so the load stays balanced) and skips tasks that are full.
 */
export function easyPartition(clusters: number[][], sizes: TaskSizes): Ordering {
  const k = sizes.length;
  const free = sizes.slice();
  const tasks: Ordering = Array.from({ length: k }, () => []);
  let ptr = 0;
  for (const cluster of clusters) {
    for (const c of cluster) {
      let guard = 0;
      while (free[ptr] === 0) {
        ptr = (ptr + 1) % k;
        if (++guard > k) throw new OrderingError('The clusters hold more classes than the tasks can take.');
      }
      tasks[ptr].push(c);
      free[ptr]--;
      ptr = (ptr + 1) % k;
    }
  }
  return tasks;
}

/** ITS (K×K, row-major): ITS_ab = mean Sim(c, c') over c ∈ a, c' ∈ b for a ≠ b; the diagonal is 0. */
export function interTaskSimilarity(tasks: Ordering, sim: SquareMatrix): Float64Array {
  const k = tasks.length;
  const { n, data } = sim;
  const label = new Int32Array(n).fill(-1);
  tasks.forEach((t, i) => t.forEach((c) => (label[c] = i)));
  const sums = new Float64Array(k * k);
  const members = tasks.map((t) => Int32Array.from(t));
  for (let c = 0; c < n; c++) {
    const base = label[c] * k;
    if (base < 0) continue;
    const row = c * n;
    for (let b = 0; b < k; b++) {
      const mb = members[b];
      let s = 0;
      for (let q = 0; q < mb.length; q++) s += data[row + mb[q]];
      sums[base + b] += s;
    }
  }
  const its = new Float64Array(k * k);
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      if (a !== b) its[a * k + b] = sums[a * k + b] / (tasks[a].length * tasks[b].length);
    }
  }
  return its;
}

/**
 * Greedy task order from ITS (Alg. 1/2 steps 10–16). Position i may only take a task of size `sizes[i]`.
 * Start: lowest (hard) / highest (easy) Σ_{j≠k} ITS_kj. Next: lowest / highest ITS to the last appended task
 * ('last') or Σ over all appended tasks ('sum', accumulated in append order). Ties: lowest task index.
 * Returns the task slots in sequence order.
 */
export function greedyTaskOrder(its: Float64Array, slotSizes: readonly number[], sizes: TaskSizes, aim: EdgeAim, variant: EdgeVariant): number[] {
  const k = slotSizes.length;
  const better = aim === 'hard' ? (x: number, y: number) => x < y : (x: number, y: number) => x > y;
  const used = new Uint8Array(k);
  const order: number[] = [];
  const key = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    let s = 0;
    for (let b = 0; b < k; b++) if (b !== a) s += its[a * k + b];
    key[a] = s;
  }
  const acc = new Float64Array(k);
  for (let pos = 0; pos < k; pos++) {
    const value = (t: number): number => (pos === 0 ? key[t] : variant === 'last' ? its[order[pos - 1] * k + t] : acc[t]);
    let pick = -1;
    let pickValue = 0;
    for (let t = 0; t < k; t++) {
      if (used[t] || slotSizes[t] !== sizes[pos]) continue;
      const v = value(t);
      if (pick === -1 || better(v, pickValue)) {
        pick = t;
        pickValue = v;
      }
    }
    if (pick === -1) throw new OrderingError('No task of the required size is left (task sizes do not match).');
    used[pick] = 1;
    order.push(pick);
    for (let t = 0; t < k; t++) acc[t] += its[pick * k + t];
  }
  return order;
}

/** Improvement test shared by candidate selection: strictly better by more than 1e-12·max(1, |best|). */
export function clearlyBetter(aim: EdgeAim, score: number, best: number): boolean {
  const tol = 1e-12 * Math.max(1, Math.abs(best));
  return aim === 'hard' ? score < best - tol : score > best + tol;
}

function checkInputs(sim: SquareMatrix, sizes: TaskSizes): TaskSizes {
  const valid = validateTaskSizes(sim.n, sizes);
  if (sim.data.length !== sim.n * sim.n) {
    throw new OrderingError(`The similarity matrix must be ${sim.n}×${sim.n}; it has ${sim.data.length} entries.`);
  }
  return valid;
}

/** EDGE hard and easy orderings with every candidate (see the module comment for all rules). */
export function edgeOrderings(sim: SquareMatrix, sizes: TaskSizes, options: EdgeOptions = {}): EdgeOutput {
  const valid = checkInputs(sim, sizes);
  const n = sim.n;
  const k = valid.length;
  const gs = edgeGranularities(n, k, options.granularities);
  if (options.dendrogram && options.dendrogram.length !== 4 * (n - 1)) {
    throw new OrderingError(`The given linkage matrix has ${options.dendrogram.length / 4} rows; ${n} classes need ${n - 1}.`);
  }
  const z = options.dendrogram ?? edgeLinkage(sim, options.linkage ?? 'complete');
  const cutter = createCutter(z, n);
  const leaves = cutter.leafOrder();
  const candidates: EdgeCandidate[] = [];
  for (const g of gs) {
    const labels = cutter.maxclust(g);
    const clusters = orderedClusters(labels, leaves);
    for (const aim of ['hard', 'easy'] as const) {
      const slots = aim === 'hard' ? hardPartition(clusters, valid) : easyPartition(clusters, valid);
      const its = interTaskSimilarity(slots, sim);
      for (const variant of EDGE_VARIANTS) {
        const order = greedyTaskOrder(its, valid, valid, aim, variant);
        const tasks = canonicalOrdering(order.map((t) => slots[t]));
        candidates.push({ aim, granularity: g, clusterCount: clusters.length, variant, tasks, score: similarityScore(tasks, sim) });
      }
    }
  }
  const pick = (aim: EdgeAim): EdgeResult => {
    let best: EdgeCandidate | null = null;
    for (const c of candidates) {
      if (c.aim !== aim) continue;
      if (!best || clearlyBetter(aim, c.score, best.score)) best = c;
    }
    const { tasks, score, granularity, clusterCount, variant } = best!;
    return { tasks, score, granularity, clusterCount, variant };
  };
  return { hard: pick('hard'), easy: pick('easy'), candidates };
}

/** The public Sequence of an EDGE result: protocol 'edge', label 'EDGE hard' / 'EDGE easy'. */
export function edgeSequence(result: EdgeResult, aim: EdgeAim, sim: SquareMatrix): Sequence {
  return toSequence('edge', `EDGE ${aim}`, result.tasks, sim);
}

/** Both EDGE sequences, hard first. */
export function edgeSequences(out: EdgeOutput, sim: SquareMatrix): Sequence[] {
  return [edgeSequence(out.hard, 'hard', sim), edgeSequence(out.easy, 'easy', sim)];
}
