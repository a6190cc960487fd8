/**
 * The order in which the fast path (src/engine/shared-train.ts) completes a ground truth's orderings, so that partial
 * results are honest, and what that order costs in memory (docs/architecture.md "Ground-truth scheduling"). Training
 * in that order trains, for each ordering, only the prefix-trie nodes (./prefix-plan.ts) not trained yet, and keeps a
 * trained node's weights and strategy state while some ordering through it is unfinished (`keptPeak`): for 3 tasks
 * only first-task nodes (≤ 15 for the default's 90 orderings). With more tasks the random order keeps hundreds, so
 * above `maxKept` the schedule falls back to a randomised depth-first walk (`mode: 'depth-first'`, every node's
 * children in seeded random order): one copy per depth, but its finished orderings are not a uniform sample, and the
 * UI says so. Pure TS; tested in tests/unit/core/ground-truth/schedule.test.ts.
 */
import { createDefaultRng } from '../random/default-rng';
import { planPrefixes, type PrefixNode, type PrefixPlan } from './prefix-plan';

/** The seed of the sample order: a stream apart from the sample's `default_rng(sampleSeed)` and the job order's. */
export function sampleOrderSeed(sampleSeed: number): number {
  return (sampleSeed ^ 0x2545f491) >>> 0;
}

/**
 * Weight + strategy-state copies the sample order may keep at once before falling back to depth-first. A copy of
 * the default MLP (784-256-128-K, 235k parameters) is 0.94 MB of weights, and a strategy's state (EWC: Fisher +
 * old weights, replay: its memory) can double or triple it: 64 copies ≈ 60–180 MB per worker, well inside one tab's
 * ≈ 4 GB (src/core/config/limits.ts) with several workers.
 */
export const MAX_KEPT_NODES = 64;

/** What the runner needs of a plan (src/core/ground-truth/plan.ts GroundTruthPlan). */
export interface SchedulePlanInput {
  orderings: { key: string; tasks: number[][]; roles: readonly string[] }[];
}

/**
 * Ordering keys in sample order: the protocol orderings not in the truth first (a sampled truth set: they feed only
 * their estimate), then the truth orderings in plan order permuted by numpy
 * `default_rng(sampleOrderSeed(sampleSeed)).permutation(truthCount)`. Finished in this order, the finished truth
 * orderings are at every moment the first n of a uniform permutation: a seeded uniform sample without replacement,
 * so partial statistics do not drift as the trie is walked. The price: RS/EDGE orderings come where it puts them.
 */
export function sampleOrder(plan: SchedulePlanInput, sampleSeed: number): string[] {
  const truth = plan.orderings.filter((o) => o.roles.includes('truth'));
  const others = plan.orderings.filter((o) => !o.roles.includes('truth'));
  const perm = createDefaultRng(sampleOrderSeed(sampleSeed)).permutation(truth.length);
  return [...others.map((o) => o.key), ...perm.map((i) => truth[i].key)];
}

/**
 * Completing `order` (indices into the trie's orderings) one after another: the most trained nodes kept at once
 * (a node's copy is kept from its training until each of its children has trained).
 */
export function keptPeak(trie: PrefixPlan, order: readonly number[]): number {
  const pathOf = orderingPaths(trie);
  const trained = new Set<PrefixNode>();
  let kept = 0;
  let peak = 0;
  for (const o of order) {
    for (const node of pathOf[o] ?? []) {
      if (trained.has(node)) continue;
      trained.add(node);
      if (node.children.length > 0) kept++;
      peak = Math.max(peak, kept);
      // the engine lets a copy go once every child has trained (shared-train.ts `maybeFree`)
      if (node.parent && node.parent.children.every((c) => trained.has(c))) kept--;
    }
  }
  return peak;
}

/** Each ordering's path in the trie, root first (index = the ordering's index in the trie's input). */
export function orderingPaths(trie: Pick<PrefixPlan, 'nodes'>): PrefixNode[][] {
  const paths: PrefixNode[][] = [];
  for (const n of trie.nodes) {
    if (n.children.length > 0) continue;
    const path: PrefixNode[] = [];
    for (let x: PrefixNode | null = n; x; x = x.parent) path.unshift(x);
    for (const o of n.orderings) paths[o] = path;
  }
  return paths;
}

/** The randomised depth-first order: leaves of the trie walked depth-first, each node's children shuffled (seeded). */
export function randomisedDepthFirst(trie: PrefixPlan, seed: number): number[] {
  const rng = createDefaultRng(sampleOrderSeed(seed));
  const out: number[] = [];
  const walk = (nodes: PrefixNode[]): void => {
    for (const i of rng.permutation(nodes.length)) {
      const n = nodes[i];
      if (n.children.length === 0) out.push(...n.orderings);
      else walk(n.children);
    }
  };
  walk(trie.roots);
  return out;
}

export interface Schedule {
  /** 'sample': `order` is the seeded uniform permutation; 'depth-first': the memory fallback (not a uniform sample) */
  mode: 'sample' | 'depth-first';
  /** indices into the orderings given, in the order they are to finish */
  order: number[];
  /** copies kept at most by `order` (trained alone, one worker) */
  keptPeak: number;
}

/**
 * The completion order of `orderings` (each a list of tasks), given their sample ranks (`rankOf(i)`: position in
 * `sampleOrder`; lower first): the sample order when its kept copies stay within `maxKept`, else the randomised
 * depth-first walk.
 */
export function scheduleOrderings(orderings: number[][][], rankOf: (i: number) => number, seed: number, maxKept = MAX_KEPT_NODES): Schedule {
  const trie = planPrefixes(orderings);
  const order = orderings.map((_, i) => i).sort((a, b) => rankOf(a) - rankOf(b) || a - b);
  const peak = keptPeak(trie, order);
  if (peak <= maxKept) return { mode: 'sample', order, keptPeak: peak };
  const df = randomisedDepthFirst(trie, seed);
  return { mode: 'depth-first', order: df, keptPeak: keptPeak(trie, df) };
}
