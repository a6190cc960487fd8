import { describe, expect, it } from 'vitest';
import { createWorkerPool, helperCount, MAX_TRAIN_WORKERS, type PoolWorker } from '../../../../src/services/lab-kit/train-pool';
import type { BackendInfo, BackendName } from '../../../../src/engine/index';
import type { DatasetSpec } from '../../../../src/workers/train-api';

let made = 0;
class FakeWorker implements PoolWorker {
  n = ++made;
  calls: string[] = [];
  disposed = false;
  constructor(
    private backend: BackendName,
    private failLoad = false,
  ) {}
  async selectBackend(preferred: BackendName | 'auto'): Promise<BackendInfo> {
    this.calls.push(`backend:${preferred}`);
    return { name: preferred === 'auto' ? this.backend : preferred } as BackendInfo;
  }
  async loadDataset(spec: DatasetSpec) {
    this.calls.push(`load:${spec.kind === 'builtin' ? spec.id : 'data'}`);
    if (this.failLoad) throw new Error('no images');
    return {};
  }
  dispose() {
    this.disposed = true;
  }
}

const digits: DatasetSpec = { kind: 'builtin', id: 'digits', trainPerClass: 10 };

describe('training worker pool', () => {
  it('reuses an idle worker without probing or loading again; a leased worker is never leased twice', async () => {
    const workers: FakeWorker[] = [];
    const pool = createWorkerPool({ create: () => (workers.push(new FakeWorker('webgl')), workers.at(-1)!), cores: 4 });
    const a = await pool.lease({ backend: 'auto', dataset: digits });
    expect(a.backend.name).toBe('webgl');
    expect(a.helpers).toEqual([]); // a GPU backend gets no helpers
    const b = await pool.lease({ backend: 'auto', dataset: digits });
    expect(b.main).not.toBe(a.main);
    expect(pool.size).toBe(2);
    a.release();
    a.release();
    expect(pool.busy).toBe(1);
    const c = await pool.lease({ backend: 'auto', dataset: digits });
    expect(c.main).toBe(a.main);
    expect((c.main as FakeWorker).calls).toEqual(['backend:auto', 'load:digits']);
    // another dataset loads; another backend probes and loads again
    c.release();
    const d = await pool.lease({ backend: 'wasm', dataset: { kind: 'builtin', id: 'emoji' } });
    expect((d.main as FakeWorker).calls).toEqual(['backend:auto', 'load:digits', 'backend:wasm', 'load:emoji']);
    // the Data tab's dataset is handed over every time
    d.release();
    const e = await pool.lease({ backend: 'wasm', dataset: { kind: 'data-worker' } });
    e.release();
    const f = await pool.lease({ backend: 'wasm', dataset: { kind: 'data-worker' } });
    expect((f.main as FakeWorker).calls.filter((x) => x === 'load:data')).toHaveLength(2);
    pool.dispose();
    expect(workers.every((w) => w.disposed)).toBe(true);
    expect(pool.size).toBe(0);
  });

  it('helpers on CPU backends only, one per further core, on the main worker’s backend; a failing helper is dropped', async () => {
    expect(helperCount('wasm', 4)).toBe(3);
    // every core the browser reports, up to the memory bound
    expect(helperCount('cpu', 6)).toBe(5);
    expect(helperCount('cpu', 64)).toBe(MAX_TRAIN_WORKERS - 1);
    expect(helperCount('webgpu', 8)).toBe(0);
    expect(helperCount('wasm', 1)).toBe(0);
    let k = 0;
    const pool = createWorkerPool({ create: () => new FakeWorker('wasm', ++k === 3), cores: 3 });
    const lease = await pool.lease({ backend: 'auto', dataset: digits, helpers: true });
    expect(lease.helpers).toHaveLength(1); // 2 asked, the second failed to load
    expect((lease.helpers[0] as FakeWorker).calls).toEqual(['backend:wasm', 'load:digits']);
    expect(pool.size).toBe(2);
    lease.release();
    expect(pool.busy).toBe(0);
  });

  it('a main worker that fails to prepare is disposed and the lease rejects', async () => {
    const w = new FakeWorker('wasm', true);
    const pool = createWorkerPool({ create: () => w, cores: 1 });
    await expect(pool.lease({ backend: 'auto', dataset: digits })).rejects.toThrow(/no images/);
    expect(w.disposed).toBe(true);
    expect(pool.size).toBe(0);
  });

  it('warm prepares a lease’s workers and leaves them idle; a lease during a warm-up waits for it and makes no more', async () => {
    const workers: FakeWorker[] = [];
    const pool = createWorkerPool({ create: () => (workers.push(new FakeWorker('wasm')), workers.at(-1)!), cores: 3 });
    const warming = pool.warm({ backend: 'auto', dataset: digits, helpers: true });
    const lease = pool.lease({ backend: 'auto', dataset: digits, helpers: true });
    expect(await warming).toMatchObject({ backend: { name: 'wasm' }, workers: 3 });
    const l = await lease;
    expect(workers).toHaveLength(3);
    expect(l.helpers).toHaveLength(2);
    // prepared once, by the warm-up
    for (const w of workers) expect(w.calls.filter((c) => c.startsWith('load:'))).toEqual(['load:digits']);
    l.release();
    // a failing warm-up does not reject
    const bad = createWorkerPool({ create: () => new FakeWorker('wasm', true), cores: 1 });
    await expect(bad.warm({ backend: 'auto', dataset: digits })).resolves.toBeNull();
  });

  it('a warm-up still queued when a newer warm-up or a lease is asked is skipped: only the latest experiment is prepared', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    class SlowWorker extends FakeWorker {
      override async loadDataset(spec: DatasetSpec) {
        if (spec.kind === 'builtin' && spec.id === 'digits') await gate;
        return super.loadDataset(spec);
      }
    }
    const workers: SlowWorker[] = [];
    const pool = createWorkerPool({ create: () => (workers.push(new SlowWorker('wasm')), workers.at(-1)!), cores: 1 });
    const spec = (id: string): DatasetSpec => ({ kind: 'builtin', id, trainPerClass: 10 }) as DatasetSpec;
    // the first is in flight (held on its dataset); two more are asked while it runs
    const first = pool.warm({ backend: 'wasm', dataset: spec('digits') });
    const second = pool.warm({ backend: 'wasm', dataset: spec('emoji') });
    const third = pool.warm({ backend: 'wasm', dataset: spec('fashion-mnist') });
    open();
    expect(await first).toMatchObject({ backend: { name: 'wasm' } });
    expect(await second).toBeNull();
    expect(await third).toMatchObject({ backend: { name: 'wasm' } });
    expect(workers[0].calls.filter((c) => c.startsWith('load:'))).toEqual(['load:digits', 'load:fashion-mnist']);
    // a lease asked while a warm-up waits its turn: the queued one is skipped, the lease prepares what it asks
    const gate2 = pool.warm({ backend: 'wasm', dataset: spec('emoji') });
    const queued = pool.warm({ backend: 'wasm', dataset: spec('digits') });
    const lease = pool.lease({ backend: 'wasm', dataset: spec('fashion-mnist') });
    expect(await gate2).not.toBeNull();
    expect(await queued).toBeNull();
    (await lease).release();
    expect(workers[0].calls.filter((c) => c.startsWith('load:'))).toEqual(['load:digits', 'load:fashion-mnist', 'load:emoji', 'load:fashion-mnist']);
  });
});

describe('warming up on the workload', () => {
  const workload = {
    spec: { kind: 'mlp' as const, inputShape: [8, 8, 1] as [number, number, number], outputs: 6, hidden: [16] },
    batchSize: 64,
    models: 90,
    plain: true,
    bytes: true,
  };
  class Warming extends FakeWorker {
    warmed: string[] = [];
    async warmUp(w: typeof workload) {
      this.warmed.push(`${w.spec.outputs}/${w.batchSize}`);
      return 12;
    }
  }

  it('each worker warms up once per workload, backend and dataset, helpers included; a new dataset or workload warms again', async () => {
    const workers: Warming[] = [];
    const pool = createWorkerPool({ create: () => (workers.push(new Warming('wasm')), workers.at(-1)!), cores: 2 });
    await pool.warm({ backend: 'wasm', dataset: digits, helpers: true, workload });
    expect(workers.map((w) => w.warmed)).toEqual([['6/64'], ['6/64']]);
    const a = await pool.lease({ backend: 'wasm', dataset: digits, helpers: true, workload });
    a.release();
    expect(workers.map((w) => w.warmed)).toEqual([['6/64'], ['6/64']]);
    const b = await pool.lease({ backend: 'wasm', dataset: digits, workload: { ...workload, batchSize: 32 } });
    b.release();
    const c = await pool.lease({ backend: 'wasm', dataset: { kind: 'builtin', id: 'emoji' }, workload: { ...workload, batchSize: 32 } });
    c.release();
    expect(workers[0].warmed).toEqual(['6/64', '6/32', '6/32']);
    // without a workload nothing is warmed
    const d = await pool.lease({ backend: 'wasm', dataset: digits });
    d.release();
    expect(workers[0].warmed).toHaveLength(3);
    pool.dispose();
  });
});
