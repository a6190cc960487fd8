/**
 * The Ground-truth lab's results store (docs/architecture.md: "Results are stored per (config hash, ordering key,
 * strategy, seed) as soon as each run finishes, so a reload or a crash loses at most the run in flight, and
 * finished runs are never trained twice").
 *
 * Database "cil-lab-results" of the app's store (./store.ts), one table "runs" keyed by [configHash, orderingKey,
 * strategy, seed] (a compound key path over the run's own fields): every query of one config is a key prefix.
 *
 * `finalAccuracy` and `aia` of a stored run are the sample-weighted accuracies over the classes seen (docs/science.md
 * §2: `finalAccuracyWeighted` / `aiaWeighted` with the run's test counts), computed once by `storedRunOf`.
 */
import { aiaWeighted, finalAccuracyWeighted } from '../core/metrics/accuracy-matrix';
import type { StoredRun } from '../core/ground-truth/stored-run';
import { memoryStore, openStore, type DbSpec, type OpenStoreOptions, type Store } from './store';

export type { StoredRun };

export interface ResultsStore {
  /** true when the runs survive a reload (IndexedDB), false for the in-memory fallback */
  readonly persistent: boolean;
  /** why the store is in memory only, for the app's notice; null when persistent */
  readonly notice: string | null;
  /** store (or replace) one run; resolves once it is committed */
  put(run: StoredRun): Promise<void>;
  /** every run of one config, in key order (ordering key, strategy, seed) */
  getAll(configHash: string): Promise<StoredRun[]>;
  has(configHash: string, orderingKey: string, strategy: string, seed: number): Promise<boolean>;
  /** delete every run of one config */
  delete(configHash: string): Promise<void>;
  count(configHash: string): Promise<number>;
  close(): void;
}

export const RESULTS_DB_NAME = 'cil-lab-results';
const STORE = 'runs';
const KEY_PATH = ['configHash', 'orderingKey', 'strategy', 'seed'] as const;

/**
 * A plain copy of a run with only StoredRun's fields, checked: what is written. (A caller's object may be a UI
 * state proxy, which neither IndexedDB nor structuredClone can clone, and a bad key would throw a DataError.)
 */
function plainRun(run: StoredRun): StoredRun {
  if (typeof run.configHash !== 'string' || typeof run.orderingKey !== 'string' || typeof run.strategy !== 'string' || !Number.isFinite(run.seed)) {
    throw new TypeError('A stored run needs a configHash, an orderingKey, a strategy and a numeric seed.');
  }
  const rows = (m: number[][]): number[][] => Array.from(m, (r) => Array.from(r, Number));
  const list = (v: number[]): number[] => Array.from(v, Number);
  return {
    configHash: run.configHash,
    orderingKey: run.orderingKey,
    tasks: rows(run.tasks),
    strategy: run.strategy,
    seed: run.seed,
    matrix: rows(run.matrix),
    untrained: list(run.untrained),
    testCounts: list(run.testCounts),
    finalAccuracy: run.finalAccuracy,
    aia: run.aia,
    backend: run.backend,
    ...(run.backends ? { backends: Array.from(run.backends, String) } : {}),
    seconds: run.seconds,
    ...(run.imported !== undefined ? { imported: run.imported } : {}),
    createdAt: run.createdAt,
  };
}

/**
 * The StoredRun of one finished run: R and its counts as the engine returned them, A(O) computed here.
 * `result` is structurally the engine's TrainRunResult (src/engine/types.ts); only these fields are read.
 */
export function storedRunOf(
  configHash: string,
  job: { orderingKey: string; tasks: number[][]; strategy: string; seed: number },
  result: { matrix: number[][]; untrained: number[]; testCounts: number[]; backend: string; backends?: string[]; seconds: number },
  createdAt: number = Date.now(),
): StoredRun {
  return {
    configHash,
    orderingKey: job.orderingKey,
    tasks: job.tasks.map((t) => t.slice()),
    strategy: job.strategy,
    seed: job.seed,
    matrix: result.matrix.map((r) => r.slice()),
    untrained: result.untrained.slice(),
    testCounts: result.testCounts.slice(),
    finalAccuracy: finalAccuracyWeighted(result.matrix, result.testCounts),
    aia: aiaWeighted(result.matrix, result.testCounts),
    backend: result.backend,
    ...(result.backends ? { backends: result.backends.slice() } : {}),
    seconds: result.seconds,
    createdAt,
  };
}

const SPEC: DbSpec = { name: RESULTS_DB_NAME, version: 1, tables: [{ name: STORE, keyPath: KEY_PATH }] };

function resultsStore(db: Store): ResultsStore {
  const ofConfig = (hash: string) => ({ prefix: [hash] });
  return {
    persistent: db.persistent,
    notice: db.notice,
    put: async (run) => db.put(STORE, plainRun(run)),
    getAll: (hash) => db.getAll<StoredRun>(STORE, ofConfig(hash)),
    has: async (hash, orderingKey, strategy, seed) => (await db.count(STORE, [hash, orderingKey, strategy, seed])) > 0,
    delete: (hash) => db.delete(STORE, ofConfig(hash)),
    count: (hash) => db.count(STORE, ofConfig(hash)),
    close: () => db.close(),
  };
}

/** The in-memory store (the fallback, and what the unit tests use). */
export function createMemoryResultsStore(notice: string | null = null): ResultsStore {
  return resultsStore(memoryStore(SPEC, notice));
}

/**
 * Open the results store: IndexedDB when it works here, else the in-memory fallback with a notice that says why
 * (never throws). `name`: another database (tests); `timeoutMs`: give up opening after it (default 5000).
 */
export async function openResultsStore(options: OpenStoreOptions = {}): Promise<ResultsStore> {
  return resultsStore(await openStore(SPEC, options));
}
