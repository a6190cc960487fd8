/**
 * `auto` by measurement, on the pool's side (docs/architecture.md "Choosing the backend by measuring it"): the worker
 * times the lab's workload on each candidate backend (engine/gpu/measure.ts) and the fastest runs; the result is kept
 * per device in this browser (localStorage, keyed by the WebGPU adapter, the cores and the workload), so the probe
 * runs once per device and workload, not at every Run. Where nothing can be measured (no workload given) `auto`
 * keeps its order (engine/backend.ts).
 */
import type { BackendInfo, BackendName, GpuAdapterInfo, MeasuredChoice, ProbeWorkload } from '../../engine/index';

/** What the choice needs of a worker (train-client.ts). */
export interface MeasuringWorker {
  selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo>;
  gpuAdapter?(): Promise<GpuAdapterInfo | null>;
  measureBackends?(workload: ProbeWorkload, cpuWorkers: number): Promise<MeasuredChoice>;
}

/** Where measured choices are kept. */
export interface ChoiceCache {
  get(key: string): (MeasuredChoice & { at: string }) | null;
  set(key: string, value: MeasuredChoice & { at: string }): void;
}

const PREFIX = 'cil-lab.backend-choice.v1:';
/** A measurement older than this is taken again (drivers and browsers change). */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** The browser's localStorage as the cache (nothing kept where it is missing or refuses). */
export function localChoiceCache(storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null, now = () => Date.now()): ChoiceCache {
  return {
    get(key) {
      try {
        const raw = storage?.getItem(PREFIX + key);
        if (!raw) return null;
        const v = JSON.parse(raw) as MeasuredChoice & { at: string };
        return now() - Date.parse(v.at) <= MAX_AGE_MS ? v : null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        storage?.setItem(PREFIX + key, JSON.stringify(value));
      } catch {
        // private mode or full storage: measured again next time
      }
    },
  };
}

/** The cache key: the device (adapter and cores) and the workload's shape. */
export function choiceKey(adapter: GpuAdapterInfo | null, cores: number, w: ProbeWorkload): string {
  const a = adapter ? [adapter.vendor, adapter.architecture, adapter.device, adapter.description, adapter.software] : null;
  const s = w.spec;
  return JSON.stringify({ a, cores, net: [s.kind, s.inputShape, s.hidden ?? null, s.outputs], b: w.batchSize, m: w.models, p: w.plain, x: w.bytes });
}

/**
 * Select the backend a worker trains `workload` on by measurement (or by an earlier measurement of this device and
 * workload from `cache`); workers that cannot measure select `auto` as before.
 */
export async function measuredBackend(
  worker: MeasuringWorker,
  workload: ProbeWorkload,
  cores: number,
  cache: ChoiceCache,
  now = () => new Date(),
): Promise<BackendInfo> {
  if (!worker.measureBackends || !worker.gpuAdapter) return worker.selectBackend('auto');
  const adapter = await worker.gpuAdapter();
  const key = choiceKey(adapter, cores, workload);
  const cached = cache.get(key);
  if (cached) {
    const info = await worker.selectBackend(cached.choice);
    // the measured backend fails now (a lost GPU): the one that runs says why, not the old measurement
    return info.name === cached.choice ? { ...info, measured: { ...cached, cached: true } } : info;
  }
  const measured = await worker.measureBackends(workload, cores);
  const at = now().toISOString();
  cache.set(key, { ...measured, at });
  const info = await worker.selectBackend(measured.choice);
  return info.name === measured.choice ? { ...info, measured: { ...measured, cached: false, at } } : info;
}
