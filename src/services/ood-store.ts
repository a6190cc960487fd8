/**
 * The Open-world lab's store (issue 13, "stored, resumable"; docs/architecture.md "Results are stored … as soon as
 * each run finishes, so a reload or a crash loses at most the run in flight"): IndexedDB "cil-lab-open-world" with
 * three object stores, all under the run's key `openWorldKey(settings)` (src/core/ood/config.ts):
 *
 * - "steps": each finished step (`OpenWorldStep`: its metrics, accuracy, chart data and score samples), key
 *   [runKey, step], written the moment the step is evaluated;
 * - "checkpoints": the trainer's checkpoint after the last stored step (weights + strategy state + R so far), key
 *   runKey: what a reload continues from (runOpenWorld `resumeFrom`); deleted once the run has finished;
 * - "runs": the rest of a finished run's result (`OodRunMeta`: the OOD sets' sizes, R, the train config, backend,
 *   seconds), key runKey: with the steps it is exactly what `cil-lab ood` prints (src/engine/ood/report.ts).
 *
 * Where IndexedDB is missing or refuses to open (Node, some private modes) everything is kept in memory
 * (`createMemoryOodStore`, also the unit tests' store) and `notice` says so.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { OodRunMeta } from '../engine/ood/report';
import type { OpenWorldStep } from '../engine/ood/run';
import type { RunCheckpoint } from '../engine/types';

export const OOD_DB = 'cil-lab-open-world';

/** One stored step of a run. */
export interface StoredOodStep {
  key: string;
  step: number;
  data: OpenWorldStep;
}

export interface OodStore {
  /** why the store is in memory only (a reload loses the runs); null when persistent */
  readonly notice: string | null;
  /** the stored steps of a run, by step */
  steps(key: string): Promise<StoredOodStep[]>;
  putStep(s: StoredOodStep): Promise<void>;
  checkpoint(key: string): Promise<RunCheckpoint | undefined>;
  putCheckpoint(key: string, c: RunCheckpoint): Promise<void>;
  deleteCheckpoint(key: string): Promise<void>;
  run(key: string): Promise<OodRunMeta | undefined>;
  putRun(key: string, meta: OodRunMeta): Promise<void>;
}

const byStep = (a: StoredOodStep, b: StoredOodStep): number => a.step - b.step;

export function createMemoryOodStore(notice: string | null = null): OodStore {
  const steps = new Map<string, StoredOodStep>();
  const checkpoints = new Map<string, RunCheckpoint>();
  const runs = new Map<string, OodRunMeta>();
  return {
    notice,
    async steps(key) {
      return [...steps.values()]
        .filter((s) => s.key === key)
        .sort(byStep)
        .map((s) => structuredClone(s));
    },
    async putStep(s) {
      steps.set(JSON.stringify([s.key, s.step]), structuredClone(s));
    },
    async checkpoint(key) {
      const c = checkpoints.get(key);
      return c && structuredClone(c);
    },
    async putCheckpoint(key, c) {
      checkpoints.set(key, structuredClone(c));
    },
    async deleteCheckpoint(key) {
      checkpoints.delete(key);
    },
    async run(key) {
      const r = runs.get(key);
      return r && structuredClone(r);
    },
    async putRun(key, meta) {
      runs.set(key, structuredClone(meta));
    },
  };
}

/** The browser's store (IndexedDB), or the memory store with a notice where IndexedDB cannot be used. */
export async function openOodStore(options: { name?: string; timeoutMs?: number } = {}): Promise<OodStore> {
  const fallback = (why: string): OodStore => createMemoryOodStore(`Open-world results are kept in memory only (${why}): a reload will lose them.`);
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const db: IDBPDatabase = await Promise.race([
      openDB(options.name ?? OOD_DB, 1, {
        upgrade(d) {
          d.createObjectStore('steps');
          d.createObjectStore('checkpoints');
          d.createObjectStore('runs');
        },
        blocking(_c, _n, event) {
          (event.target as IDBDatabase).close();
        },
      }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('IndexedDB did not open within 5 s')), options.timeoutMs ?? 5000))),
    ]);
    clearTimeout(timer);
    return {
      notice: null,
      async steps(key) {
        // [key, step] keys: every step of `key` lies between [key] and [key, Infinity]
        const all = (await db.getAll('steps', IDBKeyRange.bound([key], [key, Infinity]))) as StoredOodStep[];
        return all.sort(byStep);
      },
      putStep: async (s) => void (await db.put('steps', s, [s.key, s.step])),
      checkpoint: async (key) => (await db.get('checkpoints', key)) as RunCheckpoint | undefined,
      putCheckpoint: async (key, c) => void (await db.put('checkpoints', c, key)),
      deleteCheckpoint: async (key) => void (await db.delete('checkpoints', key)),
      run: async (key) => (await db.get('runs', key)) as OodRunMeta | undefined,
      putRun: async (key, meta) => void (await db.put('runs', meta, key)),
    };
  } catch (e) {
    clearTimeout(timer);
    return fallback(e instanceof Error ? e.message : String(e));
  }
}
