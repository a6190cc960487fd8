/**
 * `auto` by measurement on the pool's side (src/services/lab-kit/backend-choice.ts): the worker's measurement chooses
 * the backend, helpers follow the chosen one, and the result is kept per device and workload so the probe runs once;
 * a kept choice whose backend fails now is not claimed.
 */
import { describe, expect, it } from 'vitest';
import { choiceKey, localChoiceCache, measuredBackend } from '../../../../src/services/lab-kit/backend-choice';
import { createWorkerPool, type PoolWorker } from '../../../../src/services/lab-kit/train-pool';
import type { BackendInfo, BackendName, GpuAdapterInfo, MeasuredChoice, ProbeWorkload } from '../../../../src/engine/index';

const workload: ProbeWorkload = {
  spec: { kind: 'mlp', inputShape: [28, 28, 1], outputs: 6, hidden: [256, 128] },
  batchSize: 64,
  models: 90,
  plain: true,
  bytes: true,
};
const swiftshader: GpuAdapterInfo = { vendor: 'google', architecture: 'swiftshader', device: '', description: 'SwiftShader', software: true };

const measured = (choice: BackendName): MeasuredChoice => ({
  choice,
  adapter: swiftshader,
  timings: [
    { backend: 'webgpu', kernels: 'level', msPerStep: 900, models: 90, workers: 1, msPerModelStep: 10 },
    { backend: 'wasm', kernels: 'fused', msPerStep: 1.8, models: 1, workers: 2, msPerModelStep: 0.9 },
  ],
  reason: `${choice} runs`,
});

class Worker implements PoolWorker {
  calls: string[] = [];
  constructor(
    private choice: BackendName,
    private failing: BackendName | null = null,
  ) {}
  async selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo> {
    this.calls.push(`select:${preferred}`);
    const name = preferred === 'auto' ? 'webgpu' : preferred === this.failing ? 'wasm' : preferred;
    return { name, probeMs: 1, tried: [] } as BackendInfo;
  }
  async gpuAdapter() {
    return swiftshader;
  }
  async measureBackends(w: ProbeWorkload, cpuWorkers: number) {
    this.calls.push(`measure:${w.models}:${cpuWorkers}`);
    return measured(this.choice);
  }
  async loadDataset() {
    return {};
  }
  dispose() {}
}

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), size: () => m.size };
}

describe('auto by measurement', () => {
  it('measures once per device and workload, keeps it, and says when a choice was kept', async () => {
    const storage = memoryStorage();
    const cache = localChoiceCache(storage, () => Date.parse('2026-12-07T10:00:00Z'));
    const w = new Worker('wasm');
    const first = await measuredBackend(w, workload, 2, cache, () => new Date('2026-12-07T09:00:00Z'));
    expect(first.name).toBe('wasm');
    expect(first.measured).toMatchObject({ choice: 'wasm', cached: false, at: '2026-12-07T09:00:00.000Z', reason: 'wasm runs' });
    expect(w.calls).toEqual(['measure:90:2', 'select:wasm']);
    const again = await measuredBackend(w, workload, 2, cache);
    expect(again.measured?.cached).toBe(true);
    expect(w.calls).toEqual(['measure:90:2', 'select:wasm', 'select:wasm']);
    // another workload or another number of cores is measured anew
    await measuredBackend(w, { ...workload, models: 15 }, 2, cache);
    await measuredBackend(w, workload, 4, cache);
    expect(w.calls.filter((c) => c.startsWith('measure'))).toEqual(['measure:90:2', 'measure:15:2', 'measure:90:4']);
    expect(storage.size()).toBe(3);
  });

  it('a kept choice older than 30 days, or unreadable, is measured again; a kept backend that fails now is not claimed', async () => {
    const storage = memoryStorage();
    let now = Date.parse('2026-12-07T00:00:00Z');
    const cache = localChoiceCache(storage, () => now);
    const w = new Worker('webgpu', 'webgpu');
    await measuredBackend(w, workload, 2, cache, () => new Date(now));
    now += 31 * 24 * 3600 * 1000;
    expect(cache.get(choiceKey(swiftshader, 2, workload))).toBeNull();
    storage.setItem(`cil-lab.backend-choice.v1:${choiceKey(swiftshader, 2, workload)}`, '{not json');
    expect(cache.get(choiceKey(swiftshader, 2, workload))).toBeNull();
    // measured webgpu, but webgpu fails its probe now: wasm runs and the measurement is not shown as the reason
    const info = await measuredBackend(w, workload, 2, cache, () => new Date(now));
    expect(info.name).toBe('wasm');
    expect(info.measured).toBeUndefined();
  });

  it('the pool measures for an auto lease with a workload, and its helpers take the chosen backend', async () => {
    const workers: Worker[] = [];
    const storage = memoryStorage();
    const pool = createWorkerPool({ create: () => (workers.push(new Worker('wasm')), workers.at(-1)!), cores: 2, choiceCache: localChoiceCache(storage) });
    const lease = await pool.lease({ backend: 'auto', helpers: true, workload });
    expect(lease.backend.name).toBe('wasm');
    expect(lease.backend.measured?.choice).toBe('wasm');
    expect(lease.helpers).toHaveLength(1);
    expect(workers[0].calls).toEqual(['measure:90:2', 'select:wasm']);
    expect(workers[1].calls).toEqual(['select:wasm']);
    lease.release();
    // without a workload, auto keeps its order (no measurement)
    const plain = await pool.lease({ backend: 'auto' });
    expect(plain.backend.name).toBe('webgpu');
    expect(plain.backend.measured).toBeUndefined();
    pool.dispose();
  });
});
