/**
 * Finished runs of the Forgetting lab, kept across reloads: IndexedDB database "cil-lab-forgetting", object store
 * "runs" keyed by the run's id. The Ground-truth lab's results store (src/services/results-store.ts) keys runs by
 * (config hash, ordering, strategy, seed) and keeps no softmax outputs, so it does not fit: CPCF at another α or
 * score needs the recorded outputs, which are stored here with the run (a few hundred kB per run on the bounded
 * presets). Where IndexedDB is missing or refuses to open, runs are kept in memory and `notice` says so.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { ForgettingJob } from '../core/forgetting/setup';
import type { ProbsRecord } from '../engine/index';

/** One recorded softmax-output cell: the engine's ProbsRecord, stored as it comes. */
export type StoredProbs = ProbsRecord;

export interface ForgettingRun {
  id: string;
  /** runs of one preset click share a group id; a single run has its own */
  group: string;
  /** the preset that made it, or null */
  preset: string | null;
  job: ForgettingJob;
  matrix: number[][];
  testCounts: number[];
  trainCounts: number[];
  calibrationCounts: number[];
  classOrder: number[];
  probs: StoredProbs[];
  backend: string;
  seconds: number;
  createdAt: number;
}

export interface ForgettingStore {
  readonly persistent: boolean;
  readonly notice: string | null;
  put(run: ForgettingRun): Promise<void>;
  /** every run, oldest first */
  all(): Promise<ForgettingRun[]>;
  deleteGroup(group: string): Promise<void>;
  close(): void;
}

export const FORGETTING_DB = 'cil-lab-forgetting';

export function memoryForgettingStore(notice: string | null = null): ForgettingStore {
  const runs = new Map<string, ForgettingRun>();
  return {
    persistent: false,
    notice,
    async put(run) {
      runs.set(run.id, run);
    },
    async all() {
      return [...runs.values()].sort((a, b) => a.createdAt - b.createdAt);
    },
    async deleteGroup(group) {
      for (const [k, r] of runs) if (r.group === group) runs.delete(k);
    },
    close() {},
  };
}

export async function openForgettingStore(name = FORGETTING_DB, timeoutMs = 5000): Promise<ForgettingStore> {
  const fallback = (why: string) => memoryForgettingStore(`Runs are kept in memory only (${why}): a reload will lose them.`);
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const opening = openDB(name, 1, {
      upgrade(db) {
        if (!db.objectStoreNames.contains('runs')) db.createObjectStore('runs', { keyPath: 'id' });
      },
      blocking(_c, _n, event) {
        (event.target as IDBDatabase).close();
      },
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`IndexedDB did not open within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const db: IDBPDatabase = await Promise.race([opening, timeout]);
    return {
      persistent: true,
      notice: null,
      async put(run) {
        await db.put('runs', run);
      },
      async all() {
        const runs = (await db.getAll('runs')) as ForgettingRun[];
        return runs.sort((a, b) => a.createdAt - b.createdAt);
      },
      async deleteGroup(group) {
        const tx = db.transaction('runs', 'readwrite');
        let cursor = await tx.store.openCursor();
        while (cursor) {
          if ((cursor.value as ForgettingRun).group === group) await cursor.delete();
          cursor = await cursor.continue();
        }
        await tx.done;
      },
      close() {
        db.close();
      },
    };
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
