import { describe, expect, it } from 'vitest';
import { createCurriculumRunner, curriculumHash, memoryStore, orderJobs, type CurriculumWorker } from '../../../src/services/curriculum-runner';
import { CurriculumLab, inputsProblem, QUICK_INPUTS, settingsOf } from '../../../src/ui/curriculum/curriculum-lab.svelte';

/** A fake worker: a_j from a table, R from the order (easy first scores higher), TIL = CIL + 0.1 on the lower triangle. */
function fakeWorker(log: string[]): CurriculumWorker {
  const a = [0.9, 0.6, 0.3];
  const job = async (kind: string, input: never): Promise<unknown> => {
    if (kind === 'curriculum-preview') return { shape: [28, 28, 1], rows: [], trainCounts: [], testCounts: [] };
    if (kind === 'curriculum-isolated') {
      const p = (input as { position: number }).position;
      log.push(`iso ${p}`);
      return a[p];
    }
    const j = input as { order: number[]; strategy: string; seed: number };
    log.push(`order ${j.order.join('')}`);
    const cil = j.order.map((_, i) => j.order.map((q, k) => (k <= i ? a[q] - 0.1 * (i - k) : 0)));
    return {
      order: j.order,
      strategy: j.strategy,
      seed: j.seed,
      cil,
      til: cil.map((r, i) => r.map((v, k) => (k <= i ? v + 0.05 : 0.1))),
      backend: 'cpu',
      seconds: 0,
    };
  };
  return { job: job as CurriculumWorker['job'], pause: async () => {}, resume: async () => {}, cancel: async () => {} };
}

/** A pool of one fake worker: counts the leases given back. */
function fakeLease(log: string[], released = { n: 0 }) {
  const main = fakeWorker(log);
  return async () => ({ main, backend: { name: 'cpu' }, release: () => void released.n++ });
}

describe('curriculum runner and lab state', () => {
  it('trains a_j first, then every order; a second run trains nothing (stored); the models planned and done', async () => {
    const log: string[] = [];
    const store = memoryStore();
    const runner = createCurriculumRunner({ lease: fakeLease(log), store: async () => store });
    const lab = new CurriculumLab(runner);
    lab.inputs = structuredClone(QUICK_INPUTS);
    // known before Run: 3 datasets alone + 6 orders × 1 strategy, at one seed
    expect(lab.modelsPlanned).toBe(9);
    expect(lab.modelsDone).toBe(0);
    const start = new CurriculumLab(runner);
    start.preset('start');
    // the lab's start: 4 datasets alone + M2I and I2M × 2 strategies, at 3 seeds
    expect(start.modelsPlanned).toBe(3 * (4 + 2 * 2));
    start.dispose();
    await lab.run();
    expect(log.slice(0, 3)).toEqual(['iso 0', 'iso 1', 'iso 2']);
    await lab.loadSeedResults();
    expect(lab.modelsDone).toBe(9);
    expect(log.filter((l) => l.startsWith('order'))).toHaveLength(6);
    expect(lab.status).toBe('done');
    expect(lab.isolated).toEqual([0.9, 0.6, 0.3]);
    expect(lab.points).toHaveLength(12);
    expect(lab.leads.map((r) => r.scenario)).toEqual(['cil', 'til']);
    expect(lab.leads[0].deltaAcc).toBeGreaterThan(0);
    expect(lab.heatPoint?.m2i).toBe(true);
    expect(JSON.parse(lab.exportJson()).runs).toHaveLength(12);
    log.length = 0;
    await lab.run();
    expect(log).toEqual([]);
    expect(lab.state.skipped).toBe(9);
    lab.dispose();
  });

  it('with several seeds the JSON export holds every seed’s isolated accuracies and runs, and the verdict', async () => {
    const store = memoryStore();
    const runner = createCurriculumRunner({ lease: fakeLease([]), store: async () => store });
    const lab = new CurriculumLab(runner);
    lab.inputs = { ...structuredClone(QUICK_INPUTS), seeds: 2 };
    await lab.run();
    const out = JSON.parse(lab.exportJson());
    expect(out.seeds.map((x: { seed: number }) => x.seed)).toEqual(lab.seeds);
    expect(lab.seeds).toHaveLength(2);
    for (const x of out.seeds) {
      expect(x.runs).toHaveLength(12);
      expect(Object.keys(x.isolated)).toEqual(lab.datasets);
    }
    expect(out.verdict.length).toBeGreaterThan(0);
    // one seed: no per-seed block (the runs shown are all there is)
    lab.inputs = structuredClone(QUICK_INPUTS);
    expect(JSON.parse(lab.exportJson()).seeds).toBeUndefined();
  });

  it('m2i mode trains M2I and I2M once the a_j are known; inputs are checked', () => {
    const s = settingsOf({ ...QUICK_INPUTS, order: 'm2i' });
    expect(orderJobs(s, null)).toEqual([]);
    expect(orderJobs(s, [0.2, 0.9, 0.5]).map((j) => (j.kind === 'order' ? j.order : []))).toEqual([
      [1, 2, 0],
      [0, 2, 1],
    ]);
    expect(curriculumHash(s)).toBe(curriculumHash(settingsOf({ ...QUICK_INPUTS, order: 'all' })));
    expect(inputsProblem({ ...QUICK_INPUTS, datasets: ['digits'] })).toMatch(/at least 2/);
    expect(inputsProblem({ ...QUICK_INPUTS, strategies: [] })).toMatch(/strategy/);
    expect(inputsProblem(QUICK_INPUTS)).toBeNull();
  });
});

describe('curriculum lab: the share link section', () => {
  it('starts from the experiment section and gives it back without the backend', async () => {
    const { createCurriculumRunner, memoryStore } = await import('../../../src/services/curriculum-runner');
    const runner = createCurriculumRunner({ lease: fakeLease([]), store: async () => memoryStore() });
    const { backend: _b, ...section } = { ...QUICK_INPUTS, scenario: 'til' as const };
    const lab = new CurriculumLab(runner, section);
    expect(lab.inputs.scenario).toBe('til');
    expect(lab.inputs.backend).toBe('auto');
    expect(lab.section).toEqual(section);
    lab.dispose();
  });
});
