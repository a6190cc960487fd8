/**
 * "What if you had taught them in another order?" (docs/science.md §10): the final accuracy and the average
 * incremental accuracy (AIA) of every ordering of the visitor's classes, one class per task, for a closed-form head,
 * from the states after each step.
 *
 * A closed-form head's state after a step depends only on the set S of classes seen (RanPAC: and the λ its newest
 * class chose), never on the order they came in (§9). So with a(S) = the sample-weighted accuracy of that state over
 * the test images of S, an ordering o has AIA(o) = (1/C) Σ_t a({o_0 … o_t}) and final accuracy a(all classes): the
 * same in every ordering, which is why the lab asks about AIA. Each state is computed once (2^C sets for C classes:
 * 256 for 8 classes, whose 8! = 40 320 orderings are then sums along chains of sets). Above OWN_LIMITS.exactClasses
 * the orderings are a seeded uniform sample (`sampleOrderingsByShuffle`), each state still computed once while the
 * cache holds it. The enumeration is the lab's own; the Ground-truth lab's `runPtmGroundTruth` assembles full R
 * matrices for tasks of any size from the same kind of cache.
 */
import type { SetEvaluator } from '../ptm/evaluator';
import { addToMask, maskKey, maskWords } from '../ptm/class-set';
import type { PtmProblem } from '../ptm/problem';
import { beatersOf, correctCountsFromBeaters } from '../ptm/ranked-scores';
import { forEachOrdering, rankOrdering } from '../orderings/enumerate';
import { sampleOrderingsByShuffle } from '../orderings/sample';
import { OWN_CLASSES_LIMITS as OWN_LIMITS } from '../config/limits';

/** What the enumeration needs of a method: the key of a state and its correct test images per class. */
export interface StateScorer {
  /** the key of the state after a step with seen set `mask` whose newest class is `last` */
  key(mask: Uint32Array, last: number): string | number;
  /** correct test images per class position of that state (`members`: the set's classes, ascending) */
  correct(mask: Uint32Array, members: readonly number[], last: number): Int32Array;
}

/** The Ground-truth lab's evaluator as a scorer (one class per task: the last task is the newest class). */
export function scorerOfEvaluator(ev: SetEvaluator): StateScorer {
  return { key: (mask, last) => ev.stateKey(mask, [last]), correct: (mask, members, last) => ev.correctCounts(mask, members, [last]) };
}

/**
 * A per-class method's scorer from its score matrix (n_test × C, test images class by class as `testStart` says,
 * higher is better): a test image is right in a set S exactly when none of the classes that outscore its own is in S
 * (src/core/ptm/ranked-scores.ts), so the state is the set alone.
 */
export function scorerOfScores(scores: Float64Array, testStart: Int32Array): StateScorer {
  const C = testStart.length - 1;
  const problem = { C, test: { n: testStart[C], start: testStart } } as unknown as PtmProblem;
  const beaters = beatersOf(problem, scores, true);
  return { key: (mask) => maskKey(mask), correct: (mask, members) => correctCountsFromBeaters(problem, beaters, mask, members) };
}

export interface Range {
  min: number;
  max: number;
  mean: number;
}

/** One ordering's numbers. */
export interface OrderingNumbers {
  final: number;
  aia: number;
}

/** Where an ordering lands among the orderings: how many had a strictly higher AIA, and final accuracy. */
export interface Landing extends OrderingNumbers {
  betterAia: number;
  betterFinal: number;
}

export interface OrderingsOverview {
  /** every ordering (true) or a seeded uniform sample of them */
  exact: boolean;
  /** orderings evaluated */
  orderings: number;
  /** all orderings of C classes, C!, as text ("40320", or "9.33e157") */
  omega: string;
  /** states computed (sets of classes, with RanPAC's λ) */
  states: number;
  final: Range;
  aia: Range;
  /** each ordering's numbers: in rank order when exact (the first is the taught order), in draw order when sampled */
  finals: Float64Array;
  aias: Float64Array;
  /** the sampled orderings (class orders), when sampled */
  orders?: number[][];
  /** the taught order (0, 1, …, C − 1) among them */
  taught: Landing;
}

/** C! as text: exact up to 2^53, else in scientific notation. */
export function factorialText(C: number): string {
  let f = 1n;
  for (let k = 2n; k <= BigInt(C); k++) f *= k;
  if (f <= BigInt(Number.MAX_SAFE_INTEGER)) return String(f);
  const s = f.toString();
  return `${s[0]}.${s.slice(1, 3)}e${s.length - 1}`;
}

/** The accuracy of a state over its classes' test images (sample-weighted, as every other run's). */
function stateAccuracy(correct: Int32Array, members: readonly number[], testCounts: readonly number[]): number {
  let num = 0;
  let den = 0;
  for (const p of members) {
    num += correct[p];
    den += testCounts[p];
  }
  return num / den;
}

/** A bounded memo of a(S) by state key (a sample's sets rarely repeat: the oldest go first). */
function stateCache(limit: number) {
  const map = new Map<string | number, number>();
  let computed = 0;
  return {
    get(key: string | number, make: () => number): number {
      const hit = map.get(key);
      if (hit !== undefined) return hit;
      const v = make();
      computed++;
      map.set(key, v);
      if (map.size > limit) map.delete(map.keys().next().value as string | number);
      return v;
    },
    get computed() {
      return computed;
    },
  };
}

type Cache = ReturnType<typeof stateCache>;

/** The numbers of one class order through the cache. */
function numbersOf(order: ArrayLike<number>, C: number, testCounts: readonly number[], scorer: StateScorer, cache: Cache, mask: Uint32Array): OrderingNumbers {
  mask.fill(0);
  const members: number[] = [];
  let sum = 0;
  let a = 0;
  for (let t = 0; t < C; t++) {
    const c = order[t];
    addToMask(mask, [c]);
    members.push(c);
    a = cache.get(scorer.key(mask, c), () => {
      const sorted = [...members].sort((x, y) => x - y);
      return stateAccuracy(scorer.correct(mask, sorted, c), sorted, testCounts);
    });
    sum += a;
  }
  return { final: a, aia: sum / C };
}

function rangeOf(values: Float64Array): Range {
  let min = Infinity;
  let max = -Infinity;
  let total = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    total += v;
  }
  return { min, max, mean: total / values.length };
}

const EPS = 1e-12;

/** How many values are strictly above `x` (beyond rounding). */
export function countAbove(values: ArrayLike<number>, x: number): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > x + EPS) n++;
  return n;
}

export interface OrderingsHooks {
  /** awaited every `checkEvery` orderings: wait while paused, throw to cancel, yield */
  checkpoint?(): Promise<void> | void;
  checkEvery?: number;
  onProgress?(done: number, total: number): void;
}

/** The numbers of the given class orders (EDGE's, RS's, the taught one) with the overview's scorer. */
export function numbersOfOrders(orders: readonly (readonly number[])[], testCounts: readonly number[], scorer: StateScorer): OrderingNumbers[] {
  const C = testCounts.length;
  const cache = stateCache(1 << 16);
  const mask = new Uint32Array(maskWords(C));
  return orders.map((o) => numbersOf(o, C, testCounts, scorer, cache, mask));
}

/**
 * Every ordering of the C classes (C ≤ OWN_LIMITS.exactClasses), in rank order (the first is the taught order), or,
 * with `sample`, that many distinct uniform orderings drawn with `default_rng(sample.seed)` (the taught order is then
 * placed among them, not added to them).
 */
export async function orderingsOverview(
  testCounts: readonly number[],
  scorer: StateScorer,
  sample: { count: number; seed: number } | null,
  hooks: OrderingsHooks = {},
): Promise<OrderingsOverview> {
  const C = testCounts.length;
  if (C < 2) throw new RangeError('Every ordering needs at least 2 classes.');
  if (!sample && C > OWN_LIMITS.exactClasses)
    throw new RangeError(`${C} classes have ${factorialText(C)} orderings; every one is enumerated up to ${OWN_LIMITS.exactClasses} classes: sample them.`);
  const cache = stateCache(sample ? 1 << 18 : 1 << 20);
  const mask = new Uint32Array(maskWords(C));
  const checkEvery = hooks.checkEvery ?? 2048;
  const order = new Int32Array(C);
  const finals: number[] = [];
  const aias: number[] = [];
  let orders: number[][] | undefined;
  const visit = async (o: ArrayLike<number>, total: number): Promise<void> => {
    const n = numbersOf(o, C, testCounts, scorer, cache, mask);
    finals.push(n.final);
    aias.push(n.aia);
    if (finals.length % checkEvery === 0) {
      hooks.onProgress?.(finals.length, total);
      await hooks.checkpoint?.();
    }
  };
  if (sample) {
    orders = sampleOrderingsByShuffle(new Array<number>(C).fill(1), sample.count, sample.seed).map((tasks) => tasks.map((t) => t[0]));
    for (const o of orders) await visit(o, orders.length);
  } else {
    const labels: Int32Array[] = [];
    forEachOrdering(new Array<number>(C).fill(1), (l) => void labels.push(Int32Array.from(l)));
    for (const l of labels) {
      // labels[c] = the step of class c; the class order is its inverse
      for (let c = 0; c < C; c++) order[l[c]] = c;
      await visit(order, labels.length);
    }
  }
  hooks.onProgress?.(finals.length, finals.length);
  const f = Float64Array.from(finals);
  const a = Float64Array.from(aias);
  const taughtNumbers = sample
    ? numbersOf(
        Array.from({ length: C }, (_, k) => k),
        C,
        testCounts,
        scorer,
        cache,
        mask,
      )
    : { final: f[0], aia: a[0] };
  return overview(f, a, taughtNumbers, C, !sample, cache.computed, orders);
}

/** The overview of orderings the head trained one by one (their R matrices' numbers); `taught`: the taught order's. */
export function overviewOfRuns(runs: readonly OrderingNumbers[], taught: OrderingNumbers, C: number, exact: boolean, orders?: number[][]): OrderingsOverview {
  const f = Float64Array.from(runs, (r) => r.final);
  const a = Float64Array.from(runs, (r) => r.aia);
  return overview(f, a, taught, C, exact, 0, orders);
}

/**
 * An overview from every ordering's final accuracy `f` and AIA `a` (in the same order as `orders`, when kept), the
 * taught order's numbers ranked among them; `states`: the closed-form states computed (0 when trained one by one).
 */
function overview(
  f: Float64Array,
  a: Float64Array,
  taught: OrderingNumbers,
  C: number,
  exact: boolean,
  states: number,
  orders: number[][] | undefined,
): OrderingsOverview {
  return {
    exact,
    orderings: f.length,
    omega: factorialText(C),
    states,
    final: rangeOf(f),
    aia: rangeOf(a),
    finals: f,
    aias: a,
    ...(orders ? { orders } : {}),
    taught: { ...taught, betterAia: countAbove(a, taught.aia), betterFinal: countAbove(f, taught.final) },
  };
}

/** The rank of a class order among every ordering of its classes (one class per task), for looking it up when exact. */
export function rankOfOrder(order: readonly number[]): number {
  return Number(
    rankOrdering(
      order.map((c) => [c]),
      new Array<number>(order.length).fill(1),
    ),
  );
}
