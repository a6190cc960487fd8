/**
 * The Ground-truth lab's view of the results store (services/results-store.ts) that keys each run by what
 * determines it (src/core/ground-truth/run-keys.ts groundTruthRunKeys): a run is written under its strategy's key
 * (dataset, classes and tasks, model, training, that strategy and its options) with its ordering and seed, not
 * under a key of the whole experiment. So adding a strategy to a finished ground truth, or raising the budget,
 * trains only what is new.
 *
 * The runner, the import dialog and the page keep one handle, the experiment's key: `register(keys)` tells this
 * store the keys behind it, and then
 * - put(run) writes under the run's strategy key (an imported method none of the strategies: the `imported` key);
 * - getAll(experiment) gathers the runs of every strategy key, the imported ones, and the runs stored under the
 *   experiment's key itself (older builds stored every run there: they stay readable; a run stored under several keys
 *   is read once, its strategy's key winning), each carrying the experiment's key as its configHash, in the
 *   store's key order;
 * - delete(experiment) deletes all of those.
 * A key never registered passes through unchanged. Tested in tests/unit/ui/ground-truth-run-store.test.ts.
 */
import type { ResultsStore, StoredRun } from '../../services/results-store';
import type { GroundTruthRunKeys } from '../../core/ground-truth/run-keys';

export interface KeyedRunStore extends ResultsStore {
  /** the keys behind an experiment's key (idempotent; the page registers its current experiment) */
  register(keys: GroundTruthRunKeys): void;
}

const runId = (r: Pick<StoredRun, 'orderingKey' | 'strategy' | 'seed'>) => JSON.stringify([r.orderingKey, r.strategy, r.seed]);

function byKey(a: StoredRun, b: StoredRun): number {
  if (a.orderingKey !== b.orderingKey) return a.orderingKey < b.orderingKey ? -1 : 1;
  if (a.strategy !== b.strategy) return a.strategy < b.strategy ? -1 : 1;
  return a.seed - b.seed;
}

export function keyedRunStore(store: ResultsStore): KeyedRunStore {
  const registry = new Map<string, GroundTruthRunKeys>();
  const keyOf = (keys: GroundTruthRunKeys, strategy: string) => keys.strategies[strategy] ?? keys.imported;
  const sources = (keys: GroundTruthRunKeys) => [...new Set([...Object.values(keys.strategies), keys.imported])];

  async function gather(keys: GroundTruthRunKeys): Promise<StoredRun[]> {
    const found = new Map<string, StoredRun>();
    // the experiment-wide key first (runs stored by older builds), the imported methods', then each strategy's
    // over them (a method imported before it was one of the experiment's strategies stays readable too)
    for (const hash of [keys.experiment, keys.imported, ...Object.values(keys.strategies)]) {
      for (const r of await store.getAll(hash)) found.set(runId(r), r);
    }
    return [...found.values()].map((r) => ({ ...r, configHash: keys.experiment })).sort(byKey);
  }

  return {
    get persistent() {
      return store.persistent;
    },
    get notice() {
      return store.notice;
    },
    register(keys) {
      registry.set(keys.experiment, keys);
    },
    async put(run) {
      const keys = registry.get(run.configHash);
      await store.put(keys ? { ...run, configHash: keyOf(keys, run.strategy) } : run);
    },
    async getAll(hash) {
      const keys = registry.get(hash);
      return keys ? gather(keys) : store.getAll(hash);
    },
    async has(hash, orderingKey, strategy, seed) {
      const keys = registry.get(hash);
      if (!keys) return store.has(hash, orderingKey, strategy, seed);
      return (await store.has(keyOf(keys, strategy), orderingKey, strategy, seed)) || (await store.has(hash, orderingKey, strategy, seed));
    },
    async delete(hash) {
      const keys = registry.get(hash);
      await store.delete(hash);
      if (keys) for (const h of sources(keys)) await store.delete(h);
    },
    async count(hash) {
      return registry.has(hash) ? (await gather(registry.get(hash)!)).length : store.count(hash);
    },
    close() {
      store.close();
    },
  };
}
