/**
 * The Ground-truth lab's results store (docs/architecture.md: "Results are stored per (config hash, ordering key,
 * strategy, seed) as soon as each run finishes, so a reload or a crash loses at most the run in flight, and
 * finished runs are never trained twice").
 *
 * IndexedDB (through idb), database "cil-lab-results", one object store "runs" whose key is the array
 * [configHash, orderingKey, strategy, seed] (a compound key path over the run's own fields). Every query of one
 * config is a key range over that first element ([hash] … [hash, []]: in IndexedDB's key order a shorter array
 * sorts first and arrays sort after strings and numbers), so no extra index is needed. `put` writes one run in its own transaction and resolves when it is
 * committed.
 *
 * Where IndexedDB is missing or refuses to open (Node, some private-browsing modes, a blocked upgrade) the store
 * keeps the runs in memory instead and says so in `notice`: the lab still works, a reload loses the results.
 *
 * `finalAccuracy` and `aia` of a stored run are the sample-weighted accuracies over the classes seen (docs/science.md
 * §2: `finalAccuracyWeighted` / `aiaWeighted` with the run's test counts), computed once by `storedRunOf`.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { aiaWeighted, finalAccuracyWeighted } from '../core/metrics/accuracy-matrix';
import type { StoredRun } from '../core/ground-truth/stored-run';

export type { StoredRun };

export type StoredRunKey = [configHash: string, orderingKey: string, strategy: string, seed: number];

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
const DB_VERSION = 1;
const STORE = 'runs';
const KEY_PATH = ['configHash', 'orderingKey', 'strategy', 'seed'] as const;

interface ResultsDb extends DBSchema {
  runs: { key: StoredRunKey; value: StoredRun };
}

export function storedRunKey(run: Pick<StoredRun, 'configHash' | 'orderingKey' | 'strategy' | 'seed'>): StoredRunKey {
  return [run.configHash, run.orderingKey, run.strategy, run.seed];
}

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

/** Key order of IndexedDB for our keys (string, string, string, number), so both stores list runs alike. */
function compareKeys(a: StoredRunKey, b: StoredRunKey): number {
  for (let i = 0; i < 3; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a[3] - b[3];
}

/** The in-memory store (the fallback, and what the unit tests use). */
export function createMemoryResultsStore(notice: string | null = null): ResultsStore {
  const runs = new Map<string, StoredRun>();
  const id = (k: StoredRunKey): string => JSON.stringify(k);
  const clone = (r: StoredRun): StoredRun => structuredClone(r);
  const ofConfig = (hash: string): StoredRun[] =>
    [...runs.values()].filter((r) => r.configHash === hash).sort((a, b) => compareKeys(storedRunKey(a), storedRunKey(b)));
  return {
    persistent: false,
    notice,
    async put(run) {
      const plain = plainRun(run);
      runs.set(id(storedRunKey(plain)), plain);
    },
    async getAll(hash) {
      return ofConfig(hash).map(clone);
    },
    async has(hash, orderingKey, strategy, seed) {
      return runs.has(id([hash, orderingKey, strategy, seed]));
    },
    async delete(hash) {
      for (const r of ofConfig(hash)) runs.delete(id(storedRunKey(r)));
    },
    async count(hash) {
      return ofConfig(hash).length;
    },
    close() {},
  };
}

function configRange(hash: string): IDBKeyRange {
  return IDBKeyRange.bound([hash], [hash, []]);
}

function idbStore(db: IDBPDatabase<ResultsDb>): ResultsStore {
  return {
    persistent: true,
    notice: null,
    async put(run) {
      const plain = plainRun(run);
      const tx = db.transaction(STORE, 'readwrite');
      await Promise.all([tx.store.put(plain), tx.done]);
    },
    async getAll(hash) {
      return db.getAll(STORE, configRange(hash) as IDBKeyRange);
    },
    async has(hash, orderingKey, strategy, seed) {
      return (await db.count(STORE, [hash, orderingKey, strategy, seed])) > 0;
    },
    async delete(hash) {
      const tx = db.transaction(STORE, 'readwrite');
      await Promise.all([tx.store.delete(configRange(hash)), tx.done]);
    },
    async count(hash) {
      return db.count(STORE, configRange(hash));
    },
    close() {
      db.close();
    },
  };
}

export interface OpenResultsStoreOptions {
  /** database name (tests use their own) */
  name?: string;
  /** give up opening after this many ms (an upgrade blocked by another tab), default 5000 */
  timeoutMs?: number;
}

/**
 * Open the results store: IndexedDB when it works here, else the in-memory fallback with a notice that says why
 * (never throws).
 */
export async function openResultsStore(options: OpenResultsStoreOptions = {}): Promise<ResultsStore> {
  const fallback = (why: string): ResultsStore => createMemoryResultsStore(`Results are kept in memory only (${why}): a reload will lose them.`);
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  const timeoutMs = options.timeoutMs ?? 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const opening = openDB<ResultsDb>(options.name ?? RESULTS_DB_NAME, DB_VERSION, {
      upgrade(db) {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: [...KEY_PATH] });
      },
      // a newer build in another tab wants to upgrade: let it (this tab's later writes then fail with a notice)
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
      },
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`IndexedDB did not open within ${timeoutMs / 1000} s; is the app open in another tab?`)), timeoutMs);
    });
    // a late open (after the timeout) is closed again so it cannot block a later upgrade
    let timedOut = false;
    timeout.catch(() => (timedOut = true));
    opening.then(
      (db) => timedOut && db.close(),
      () => {},
    );
    return idbStore(await Promise.race([opening, timeout]));
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
