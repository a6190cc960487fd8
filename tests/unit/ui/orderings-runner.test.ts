import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderingsRequest, OrderingsView } from '../../../src/core/protocols/orderings-view';
import { OrderingsRunner, PrototypesRunner } from '../../../src/ui/orderings/orderings-runner.svelte';
import type { ResultInputs } from '../../../src/ui/orderings/result-status';

const req = (n: number): OrderingsRequest => ({
  classes: Array.from({ length: n }, (_, i) => `c${i}`),
  taskSizes: [n],
  similarity: { kind: 'wordnet' },
  options: { protocols: [] },
});
const made = (name: string): ResultInputs => ({ datasetId: name, datasetName: name, selected: [], seeds: [], protocols: [], source: 'WordNet' });
const viewOf = (r: OrderingsRequest) => ({ classes: r.classes, omega: '1' }) as unknown as OrderingsView;

/** A worker whose answers the test releases one by one. */
function fakeWorker() {
  const calls: { req: OrderingsRequest; resolve: (v: OrderingsView) => void; reject: (e: Error) => void }[] = [];
  const compute = (r: OrderingsRequest) => new Promise<OrderingsView>((resolve, reject) => calls.push({ req: r, resolve, reject }));
  return { calls, compute };
}

describe('OrderingsRunner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits a moment before computing; a newer request cancels the pause of the older; the same one again changes nothing', async () => {
    const w = fakeWorker();
    const r = new OrderingsRunner(w.compute, 120);
    r.request(req(2), 'k2', made('a'));
    expect(r.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    r.request(req(3), 'k3', made('b'));
    await vi.advanceTimersByTimeAsync(100);
    r.request(req(3), 'k3', made('b')); // e.g. the page's inputs re-derived to the same request: the pause goes on
    await vi.advanceTimersByTimeAsync(19);
    expect(w.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(120);
    expect(w.calls.map((c) => c.req.classes.length)).toEqual([3]);
    w.calls[0].resolve(viewOf(w.calls[0].req));
    await vi.runAllTimersAsync();
    expect(r.view?.classes).toHaveLength(3);
    expect(r.resultKey).toBe('k3');
    expect(r.inputs?.datasetId).toBe('b');
    expect(r.busy).toBe(false);
  });

  it('an answer to an older request is dropped; an error keeps the last good result', async () => {
    const w = fakeWorker();
    const r = new OrderingsRunner(w.compute, 0);
    r.request(req(2), 'k2', made('a'));
    await vi.advanceTimersByTimeAsync(0);
    r.request(req(4), 'k4', made('b'));
    await vi.advanceTimersByTimeAsync(0);
    w.calls[1].resolve(viewOf(w.calls[1].req));
    await vi.advanceTimersByTimeAsync(0);
    w.calls[0].resolve(viewOf(w.calls[0].req)); // late answer to the first request
    await vi.advanceTimersByTimeAsync(0);
    expect(r.resultKey).toBe('k4');
    r.request(req(5), 'k5', made('c'));
    await vi.advanceTimersByTimeAsync(0);
    w.calls[2].reject(new Error('bad upload'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.error).toBe('bad upload');
    expect(r.resultKey).toBe('k4');
    expect(r.busy).toBe(false);
  });

  it('idle: inputs that cannot be computed end "computing…" and drop what was on its way', async () => {
    const w = fakeWorker();
    const r = new OrderingsRunner(w.compute, 0);
    r.request(req(2), 'k2', made('a'));
    await vi.advanceTimersByTimeAsync(0);
    r.idle();
    expect(r.busy).toBe(false);
    w.calls[0].resolve(viewOf(w.calls[0].req));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.view).toBeNull();
    r.request(req(3), 'k3', made('b'));
    r.dispose(); // the page closed during the pause
    await vi.advanceTimersByTimeAsync(10);
    expect(w.calls).toHaveLength(1);
  });
});

describe('PrototypesRunner', () => {
  it('reads once per key, reports progress, and keeps only the latest answer', async () => {
    const pending: ((v: { rows: Float32Array[]; datasetName: string; counts: number[] }) => void)[] = [];
    let progress: ((p: { file: string; loaded?: number; total?: number }) => void) | undefined;
    const load = vi.fn((_id: string, _idx: number[], onProgress: typeof progress) => {
      progress = onProgress;
      return new Promise<{ rows: Float32Array[]; datasetName: string; counts: number[] }>((res) => pending.push(res));
    });
    const p = new PrototypesRunner(load, (name, counts) => `${name} (${counts.join('/')})`);
    const ds = { id: 'fashion-mnist', name: 'Fashion-MNIST' };
    p.want(ds, [0, 1], 'k01');
    expect(p.status).toBe('loading');
    progress!({ file: 'train.gz', loaded: 5, total: 10 });
    expect(p.message).toBe('Reading the Fashion-MNIST training images: train.gz 50 %');
    p.want(ds, [0, 2], 'k02');
    pending[1]({ rows: [new Float32Array(2)], datasetName: 'Fashion-MNIST', counts: [6, 6] });
    pending[0]({ rows: [], datasetName: 'old', counts: [1] });
    await Promise.resolve();
    await Promise.resolve();
    expect(p.source?.key).toBe('k02');
    expect(p.source?.label).toBe('Fashion-MNIST (6/6)');
    expect(p.rowsFor('k02')?.rows).toHaveLength(1);
    expect(p.rowsFor('k01')).toBeNull();
    p.want(ds, [0, 2], 'k02'); // already at hand
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('says why the prototypes could not be read', async () => {
    const p = new PrototypesRunner(
      () => Promise.reject(new Error('no network')),
      (n) => n,
    );
    p.want({ id: 'emoji', name: 'Emoji' }, [0, 1], 'k');
    await Promise.resolve();
    await Promise.resolve();
    expect(p.status).toBe('error');
    expect(p.message).toBe('no network');
  });
});
