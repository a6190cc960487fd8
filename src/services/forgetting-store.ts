/**
 * Finished runs of the Forgetting lab, kept across reloads: database "cil-lab-forgetting" of the app's store
 * (./store.ts), table "runs" keyed by the run's id. The Ground-truth lab's results store (src/services/results-store.ts) keys runs by
 * (config hash, ordering, strategy, seed) and keeps no softmax outputs, so it does not fit: CPCF at another α or
 * score needs the recorded outputs, which are stored here with the run (a few hundred kB per run on the bounded
 * presets).
 */
import type { ForgettingJob } from '../core/forgetting/setup';
import type { ProbsRecord } from '../engine/index';
import { memoryStore, openStore, type DbSpec, type Store } from './store';

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

const SPEC: DbSpec = { name: FORGETTING_DB, version: 1, tables: [{ name: 'runs', keyPath: 'id' }] };

function forgettingStore(db: Store): ForgettingStore {
  return {
    persistent: db.persistent,
    notice: db.notice,
    put: (run) => db.put('runs', run),
    all: async () => (await db.getAll<ForgettingRun>('runs')).sort((a, b) => a.createdAt - b.createdAt),
    async deleteGroup(group) {
      for (const r of await db.getAll<ForgettingRun>('runs')) if (r.group === group) await db.delete('runs', r.id);
    },
    close: () => db.close(),
  };
}

export function memoryForgettingStore(notice: string | null = null): ForgettingStore {
  return forgettingStore(memoryStore(SPEC, notice));
}

export async function openForgettingStore(name = FORGETTING_DB, timeoutMs = 5000): Promise<ForgettingStore> {
  return forgettingStore(await openStore(SPEC, { name, timeoutMs, what: 'Runs' }));
}
