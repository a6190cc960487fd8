/**
 * Every lab runs through the pool and the run session: two tabs on one setup never both train (the lab kit's
 * coordinator), and a lab page opened and closed again and again leaves no worker behind (its runner leases from the
 * pool and gives the worker back). The Time, Open-world and Curriculum labs, each with a fake worker.
 */
import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_PRESETS } from '../../../src/core/labs/open-world/settings';
import { defaultTimeLabConfig } from '../../../src/core/labs/time/settings';
import { streamMetrics } from '../../../src/core/stream/metrics';
import { createCurriculumRunner, memoryStore as memoryCurriculumStore } from '../../../src/services/curriculum-runner';
import { createWorkerPool } from '../../../src/services/lab-kit/train-pool';
import { createOodRunner } from '../../../src/services/ood-runner';
import { createMemoryOodStore } from '../../../src/services/ood-store';
import { createTimeRunner, memoryTimeStore } from '../../../src/services/time-runner';
import type { BackendName, TrainClient } from '../../../src/services/train-client';
import { CurriculumLab, QUICK_INPUTS } from '../../../src/ui/curriculum/curriculum-lab.svelte';
import { fakeTabs } from './lab-kit/fake-tabs';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A training worker whose jobs answer at once (after a turn of the event loop), counting them by kind. */
function fakeWorker(jobs: string[]) {
  const R = [
    [0.9, 0.5],
    [0.8, 0.9],
  ];
  const worker = {
    disposed: false,
    selectBackend: async () => ({ name: 'cpu', probeMs: 0, tried: [] }),
    loadDataset: async () => ({}),
    async job(kind: string, input: Record<string, unknown>, onEvent?: (e: unknown) => void): Promise<unknown> {
      jobs.push(kind);
      await tick();
      if (kind === 'curriculum-preview') return { shape: [28, 28, 1], rows: [], trainCounts: [], testCounts: [] };
      if (kind === 'curriculum-isolated') return 0.5;
      if (kind === 'curriculum-order') return { order: input.order, strategy: input.strategy, seed: 0, cil: R, til: R, backend: 'cpu', seconds: 0 };
      if (kind === 'stream-preview') return { shape: [2, 2, 1], classNames: [], sizes: [], levels: [], rows: [] };
      if (kind === 'stream') return { matrix: R, metrics: streamMetrics(R, 'iid'), compositions: [], protocol: input.protocol, backend: 'cpu' };
      if (kind === 'ood') {
        const T = (input.settings as { tasks: number }).tasks;
        for (let t = 0; t < T; t++) onEvent?.({ kind: 'step', step: { step: t, steps: T, results: [] }, checkpoint: { nextTask: t + 1 } });
        return { steps: [], oodSets: [], seconds: { total: 0, detectors: {} }, train: { tasks: [], matrix: R, backend: 'cpu', seconds: 0, config: {} } };
      }
      throw new Error(`no job ${kind}`);
    },
    pause: async () => {},
    resume: async () => {},
    cancel: async () => {},
    dispose() {
      worker.disposed = true;
    },
  };
  return worker;
}

/** A pool of fake workers; `made` counts the workers it ever started. */
function fakePool(jobs: string[]) {
  const made: ReturnType<typeof fakeWorker>[] = [];
  const pool = createWorkerPool({
    create: () => {
      const w = fakeWorker(jobs);
      made.push(w);
      return w as unknown as TrainClient & { disposed: boolean };
    },
    cores: 1,
  });
  return { pool, made, lease: (backend: BackendName | 'auto') => pool.lease({ backend }) };
}

describe('two tabs on one setup: one trains, the other follows', () => {
  it('Time: each protocol is trained once', async () => {
    const jobs: string[] = [];
    const { lease } = fakePool(jobs);
    const tabs = fakeTabs();
    const store = Promise.resolve(memoryTimeStore());
    const a = createTimeRunner({ lease, store, coordinator: tabs(1) });
    const b = createTimeRunner({ lease, store, coordinator: tabs(2) });
    const c = { ...defaultTimeLabConfig(), buckets: 2 };
    let followed = false;
    b.subscribe((s) => (followed ||= s.following));
    await Promise.all([a.run(c), b.run(c)]);
    expect(jobs.filter((k) => k === 'stream')).toHaveLength(2); // iid and streaming, once each
    expect(followed).toBe(true);
    expect(b.state.status).toBe('done');
    expect(b.state.runs.map((r) => r.protocol).sort()).toEqual(['iid', 'streaming']);
  });

  it('Open world: the settings are trained once', async () => {
    const jobs: string[] = [];
    const { lease } = fakePool(jobs);
    const tabs = fakeTabs();
    const store = createMemoryOodStore();
    const a = createOodRunner({ store, lease, coordinator: tabs(1) });
    const b = createOodRunner({ store, lease, coordinator: tabs(2) });
    const s = OPEN_WORLD_PRESETS.quick;
    let followed = false;
    b.subscribe((st) => (followed ||= st.following));
    await Promise.all([a.run(s), b.run(s)]);
    expect(jobs.filter((k) => k === 'ood')).toHaveLength(1);
    expect(followed).toBe(true);
    expect(b.state.steps).toHaveLength(s.tasks);
  });

  it('Curriculum: every model is trained once', async () => {
    const jobs: string[] = [];
    const { lease } = fakePool(jobs);
    const tabs = fakeTabs();
    const store = memoryCurriculumStore();
    const labA = new CurriculumLab(createCurriculumRunner({ lease, store: async () => store, coordinator: tabs(1) }));
    const labB = new CurriculumLab(createCurriculumRunner({ lease, store: async () => store, coordinator: tabs(2) }));
    labA.inputs = structuredClone(QUICK_INPUTS);
    labB.inputs = structuredClone(QUICK_INPUTS);
    await Promise.all([labA.run(), labB.run()]);
    const trained = jobs.filter((k) => k !== 'curriculum-preview');
    expect(trained).toHaveLength(3 + 6); // a_j of 3 datasets, then 3! orders
    expect(labB.status).toBe('done');
    expect(labB.points.length).toBe(labA.points.length);
  });
});

describe('a lab page opened again and again leaves no worker behind', () => {
  it('30 Curriculum pages (each shows its data, every third trains) use the pool’s workers only', async () => {
    const jobs: string[] = [];
    const { pool, made, lease } = fakePool(jobs);
    for (let i = 0; i < 30; i++) {
      const lab = new CurriculumLab(createCurriculumRunner({ lease, store: async () => memoryCurriculumStore() }));
      lab.inputs = structuredClone(QUICK_INPUTS);
      await lab.loadPreview();
      if (i % 3 === 0) void lab.run();
      await tick();
      lab.dispose(); // the page unmounts (a new link): a run in flight is cancelled
      await tick();
    }
    for (let i = 0; i < 20; i++) await tick();
    expect(made.length).toBeLessThanOrEqual(2);
    expect(pool.busy).toBe(0);
    expect(made.every((w) => !w.disposed)).toBe(true); // kept idle in the pool, ready for the next lab
  });

  it('30 Time and Open-world runners likewise', async () => {
    const jobs: string[] = [];
    const { pool, made, lease } = fakePool(jobs);
    for (let i = 0; i < 30; i++) {
      const t = createTimeRunner({ lease, store: Promise.resolve(memoryTimeStore()) });
      await t.prepare({ ...defaultTimeLabConfig(), buckets: 2 });
      const o = createOodRunner({ store: createMemoryOodStore(), lease });
      if (i % 3 === 0) void t.run({ ...defaultTimeLabConfig(), buckets: 2 });
      if (i % 3 === 1) void o.run(OPEN_WORLD_PRESETS.quick);
      await tick();
      t.dispose();
      o.dispose();
    }
    for (let i = 0; i < 20; i++) await tick();
    expect(made.length).toBeLessThanOrEqual(2);
    expect(pool.busy).toBe(0);
  });
});
