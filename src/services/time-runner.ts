/**
 * The Time lab's runner (docs/science.md §7): the worker client (src/workers/time.worker.ts), and a small
 * IndexedDB store "cil-lab-time" that keeps, per (settings, protocol), the finished result and — while a run is
 * under way — its checkpoint after every bucket. Running the same settings again reads finished protocols from the
 * store and continues an interrupted one from its last finished bucket (after a reload too). Where IndexedDB is
 * missing or refuses to open, everything is kept in memory and `notice` says so.
 */
import * as Comlink from 'comlink';
import { openDB, type IDBPDatabase } from 'idb';
import { validateTimeLabConfig, type TimeLabConfig } from '../core/stream/config';
import type { StreamProtocol } from '../core/stream/metrics';
import type { BackendInfo, BackendName } from '../engine/index';
import type { StreamPreview } from '../engine/stream/lab';
import type { StreamCheckpoint, StreamProgress, StreamRunResult, StreamStepEnd } from '../engine/stream/train';
import type { SweepEntry, TimeWorkerApi } from '../workers/time.worker';

export type { StreamPreview, StreamProgress, StreamRunResult, StreamStepEnd, SweepEntry };

export const TIME_DB = 'cil-lab-time';

/** The key of a (settings, protocol) pair: the canonical JSON of the validated settings. */
export function timeRunKey(c: TimeLabConfig, protocol: StreamProtocol): string {
  return `${JSON.stringify(validateTimeLabConfig(c).value ?? c)}|${protocol}`;
}

interface KV {
  get<T>(store: 'results' | 'checkpoints', key: string): Promise<T | undefined>;
  put(store: 'results' | 'checkpoints', key: string, value: unknown): Promise<void>;
  delete(store: 'results' | 'checkpoints', key: string): Promise<void>;
}

function memoryKv(): KV {
  const m = new Map<string, unknown>();
  return {
    async get<T>(s: string, k: string) {
      return m.get(`${s}:${k}`) as T | undefined;
    },
    async put(s, k, v) {
      m.set(`${s}:${k}`, v);
    },
    async delete(s, k) {
      m.delete(`${s}:${k}`);
    },
  };
}

async function openKv(): Promise<{ kv: KV; notice: string | null }> {
  const fallback = (why: string) => ({ kv: memoryKv(), notice: `Results are kept in memory only (${why}): a reload will lose them.` });
  if (typeof (globalThis as { indexedDB?: IDBFactory }).indexedDB === 'undefined') return fallback('IndexedDB is not available here');
  try {
    const db: IDBPDatabase = await Promise.race([
      openDB(TIME_DB, 1, {
        upgrade(d) {
          d.createObjectStore('results');
          d.createObjectStore('checkpoints');
        },
        blocking(_c, _n, event) {
          (event.target as IDBDatabase).close();
        },
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('IndexedDB did not open within 5 s')), 5000)),
    ]);
    return {
      notice: null,
      kv: {
        get: async <T>(s: 'results' | 'checkpoints', k: string) => (await db.get(s, k)) as T | undefined,
        put: async (s, k, v) => void (await db.put(s, v, k)),
        delete: async (s, k) => void (await db.delete(s, k)),
      },
    };
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  }
}

export interface TimeRunHandlers {
  onStep?: (protocol: StreamProtocol, e: StreamStepEnd) => void;
  onProgress?: (protocol: StreamProtocol, e: StreamProgress) => void;
  /** a protocol finished (or was found finished in the store: `stored`) */
  onResult?: (protocol: StreamProtocol, r: StreamRunResult, stored: boolean) => void;
  /** a protocol continues from a stored checkpoint after bucket `nextStep − 1` */
  onResume?: (protocol: StreamProtocol, nextStep: number, matrix: number[][]) => void;
}

export function createTimeRunner() {
  const worker = new Worker(new URL('../workers/time.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<TimeWorkerApi>(worker);
  const opened = openKv();
  return {
    /** null when results persist across reloads, else why not */
    async notice(): Promise<string | null> {
      return (await opened).notice;
    },
    selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo> {
      return remote.selectBackend(preferred);
    },
    prepare(c: TimeLabConfig): Promise<StreamPreview> {
      return remote.prepare(c);
    },
    /** Finished results of these settings in the store. */
    async stored(c: TimeLabConfig): Promise<Partial<Record<StreamProtocol, StreamRunResult>>> {
      const { kv } = await opened;
      const out: Partial<Record<StreamProtocol, StreamRunResult>> = {};
      for (const p of c.protocols) {
        const r = await kv.get<StreamRunResult>('results', timeRunKey(c, p));
        if (r) out[p] = r;
      }
      return out;
    },
    /** Every protocol of the settings, one after another: stored ones read back, interrupted ones continued. */
    async run(c: TimeLabConfig, h: TimeRunHandlers = {}): Promise<Partial<Record<StreamProtocol, StreamRunResult>>> {
      const { kv } = await opened;
      const out: Partial<Record<StreamProtocol, StreamRunResult>> = {};
      for (const p of c.protocols) {
        const key = timeRunKey(c, p);
        const done = await kv.get<StreamRunResult>('results', key);
        if (done) {
          out[p] = done;
          h.onResult?.(p, done, true);
          continue;
        }
        const cp = (await kv.get<StreamCheckpoint>('checkpoints', key)) ?? null;
        if (cp) h.onResume?.(p, cp.nextStep, cp.matrix);
        const r = await remote.run(
          c,
          p,
          Comlink.proxy((e: StreamStepEnd) => h.onStep?.(p, e)),
          Comlink.proxy((e: StreamProgress) => h.onProgress?.(p, e)),
          Comlink.proxy((x: StreamCheckpoint) => void kv.put('checkpoints', key, x)),
          cp,
        );
        await kv.put('results', key, r);
        await kv.delete('checkpoints', key);
        out[p] = r;
        h.onResult?.(p, r, false);
      }
      return out;
    },
    sweep(sizes: number[], k: number, trials: number, seed: number): Promise<SweepEntry[]> {
      return remote.sweep(sizes, k, trials, seed);
    },
    pause: () => remote.pause(),
    resume: () => remote.resume(),
    cancel: () => remote.cancel(),
    dispose(): void {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

export type TimeRunner = ReturnType<typeof createTimeRunner>;
