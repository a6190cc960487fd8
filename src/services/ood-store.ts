/**
 * The Open-world lab's store ("stored, resumable"; docs/architecture.md "Results are stored … as soon as
 * each run finishes, so a reload or a crash loses at most the run in flight"): database "cil-lab-open-world" of the
 * app's store (./store.ts) with three tables, all under the run's key `openWorldKey(settings)` (src/core/labs/open-world/settings.ts):
 *
 * - "steps": each finished step (`OpenWorldStep`: its metrics, accuracy, chart data and score samples), key
 *   [runKey, step], written the moment the step is evaluated;
 * - "checkpoints": the trainer's checkpoint after the last stored step (weights + strategy state + R so far), key
 *   runKey: what a reload continues from (runOpenWorld `resumeFrom`); deleted once the run has finished;
 * - "runs": the rest of a finished run's result (`OodRunMeta`: the OOD sets' sizes, R, the train config, backend,
 *   seconds), key runKey: with the steps it is exactly what `cil-lab ood` prints (src/engine/ood/report.ts).
 */
import type { OodRunMeta } from '../engine/ood/report';
import type { OpenWorldStep } from '../engine/ood/run';
import type { RunCheckpoint } from '../engine/types';
import { memoryStore, openStore, type DbSpec, type Store } from './store';

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

const SPEC: DbSpec = { name: OOD_DB, version: 1, tables: [{ name: 'steps' }, { name: 'checkpoints' }, { name: 'runs' }] };

function oodStore(db: Store): OodStore {
  return {
    notice: db.notice,
    // [key, step] keys: every step of `key` starts with [key]
    steps: (key) => db.getAll<StoredOodStep>('steps', { prefix: [key] }),
    putStep: (s) => db.put('steps', s, [s.key, s.step]),
    checkpoint: (key) => db.get<RunCheckpoint>('checkpoints', key),
    putCheckpoint: (key, c) => db.put('checkpoints', c, key),
    deleteCheckpoint: (key) => db.delete('checkpoints', key),
    run: (key) => db.get<OodRunMeta>('runs', key),
    putRun: (key, meta) => db.put('runs', meta, key),
  };
}

export function createMemoryOodStore(notice: string | null = null): OodStore {
  return oodStore(memoryStore(SPEC, notice));
}

/** The browser's store (IndexedDB), or the memory store with a notice where IndexedDB cannot be used. */
export async function openOodStore(options: { name?: string; timeoutMs?: number } = {}): Promise<OodStore> {
  return oodStore(await openStore(SPEC, { ...options, what: 'Open-world results' }));
}
