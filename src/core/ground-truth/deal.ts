/**
 * Dealing one completion order (./schedule.ts) to several workers so that no task prefix is trained twice (the
 * Ground-truth lab's pull mode, src/services/ground-truth-runner.ts, and the benchmarks' pool; docs/architecture.md
 * "Ground-truth scheduling"). Checkpoints are opaque here (the engine's SharedCheckpoint). Pure TS, tested in
 * tests/unit/core/ground-truth/deal.test.ts with simulated workers.
 */
import { planPrefixes, type PrefixNode } from './prefix-plan';
import { orderingPaths } from './schedule';

/** One deal: the ordering to train (null: none left), orderings dealt elsewhere since the last deal, and where to start. */
export interface Deal<C> {
  index: number | null;
  taken: number[];
  /** the checkpoint of the ordering's deepest prefix trained elsewhere (absent: start from the worker's own nearest prefix) */
  from?: C;
}

export interface DealerStats {
  /** orderings dealt */
  dealt: number;
  /** deals that came with another worker's checkpoint */
  imports: number;
  /** deals that had to wait for that checkpoint, and the time they waited (ms, by the `now` given) */
  waits: number;
  waitedMs: number;
  /** checkpoints held now, and the most held at once */
  kept: number;
  keptPeak: number;
}

export interface Dealer<C> {
  /** The next ordering for `worker` (0-based), after everything it was dealt before is finished. */
  next(worker: number): Promise<Deal<C>>;
  /** `worker` trained the prefix `key` (PrefixNode.key): its checkpoint, for the other workers. */
  publish(worker: number, key: string, checkpoint: C): void;
  /** No more deals: waiting and later calls get `index: null` (a cancel, or a worker that failed). */
  stop(): void;
  readonly stats: DealerStats;
  /** Tasks the workers train in all: the trie's nodes. */
  readonly tasksPlanned: number;
}

/**
 * A dealer of `order` (indices into `orderings`, each a list of tasks) to `workers` workers. `now`: a clock in ms for
 * `stats.waitedMs` (default: none, 0).
 * - The order is kept: orderings are dealt one at a time, in order, to whichever worker asks, and a worker asks only
 *   when all it was dealt is finished, so the finished orderings are the first n of the order within workers − 1.
 * - Every node once: each prefix-trie node belongs to the worker dealt the first ordering through it, which trains
 *   it; a worker dealt an ordering whose deepest owned node is another's gets that node's checkpoint with the deal
 *   (`from`: weights, strategy state, the rows of R so far; ≈ 1 MB for the default MLP), published by the owner once
 *   trained. A deal waits for a node still training (at most one of the owner's tasks, and rare).
 * - A checkpoint is kept until every ordering through its node is dealt (the default: at most 15, ≈ 15 MB).
 */
export function createDealer<C>(orderings: number[][][], order: readonly number[], workers: number, now: () => number = () => 0): Dealer<C> {
  const trie = planPrefixes(orderings);
  const pathOf = orderingPaths(trie);
  const byKey = new Map(trie.nodes.map((n) => [n.key, n]));
  const owner = new Map<PrefixNode, number>();
  const holders = new Map<PrefixNode, Set<number>>();
  /** orderings through a node not dealt yet: its checkpoint is kept while some are left */
  const undealt = new Map<PrefixNode, number>(trie.nodes.map((n) => [n, n.orderings.length]));
  const published = new Map<PrefixNode, C>();
  const waiting = new Map<PrefixNode, ((c: C | null) => void)[]>();
  const takenSince: number[][] = Array.from({ length: Math.max(1, workers) }, () => []);
  const stats: DealerStats = { dealt: 0, imports: 0, waits: 0, waitedMs: 0, kept: 0, keptPeak: 0 };
  let cursor = 0;
  let stopped = false;

  const hold = (n: PrefixNode, k: number): void => {
    const s = holders.get(n) ?? new Set<number>();
    s.add(k);
    holders.set(n, s);
  };
  const keep = (n: PrefixNode, c: C): void => {
    if (!published.has(n)) stats.kept++;
    published.set(n, c);
    stats.keptPeak = Math.max(stats.keptPeak, stats.kept);
  };
  const drop = (n: PrefixNode): void => {
    if (published.delete(n)) stats.kept--;
  };
  /** A checkpoint no deal can still ask for is let go. */
  const maybeDrop = (n: PrefixNode): void => {
    if ((undealt.get(n) as number) === 0 && !waiting.has(n)) drop(n);
  };

  return {
    stats,
    tasksPlanned: trie.sharedTasks,

    async next(k: number): Promise<Deal<C>> {
      if (!Number.isInteger(k) || k < 0 || k >= takenSince.length) throw new RangeError(`No worker ${k}: the dealer has ${takenSince.length}.`);
      const taken = takenSince[k];
      takenSince[k] = [];
      if (stopped || cursor >= order.length) return { index: null, taken };
      const index = order[cursor++];
      const path = pathOf[index];
      if (!path) throw new RangeError(`Ordering ${index} is not among the ${orderings.length} to deal.`);
      stats.dealt++;
      takenSince.forEach((l, j) => j !== k && l.push(index));
      for (const n of path) undealt.set(n, (undealt.get(n) as number) - 1);
      // the deepest prefix someone owns (trained or training); the rest of the path is this worker's to train
      let deepest: PrefixNode | null = null;
      for (const n of path) if (owner.has(n)) deepest = n;
      for (const n of path.slice(deepest ? deepest.depth + 1 : 0)) (owner.set(n, k), hold(n, k));
      const importing = deepest !== null && !holders.get(deepest)?.has(k);
      let from: C | null = importing ? (published.get(deepest as PrefixNode) ?? null) : null;
      for (const n of path) maybeDrop(n);
      if (!importing) return { index, taken };
      const source = deepest as PrefixNode;
      hold(source, k);
      stats.imports++;
      if (from === null) {
        // still training on its owner: wait for it (a stop resolves with null)
        stats.waits++;
        const t0 = now();
        from = await new Promise<C | null>((resolve) => waiting.set(source, [...(waiting.get(source) ?? []), resolve]));
        stats.waitedMs += now() - t0;
      }
      return from === null ? { index: null, taken } : { index, taken, from };
    },

    publish(_k: number, key: string, checkpoint: C): void {
      const n = byKey.get(key);
      if (!n) throw new RangeError(`No prefix "${key}" among the orderings dealt.`);
      const waiters = waiting.get(n) ?? [];
      waiting.delete(n);
      if ((undealt.get(n) as number) > 0) keep(n, checkpoint);
      for (const w of waiters) w(checkpoint);
    },

    stop(): void {
      stopped = true;
      for (const ws of waiting.values()) for (const w of ws) w(null);
      waiting.clear();
      for (const n of [...published.keys()]) drop(n);
    },
  };
}
