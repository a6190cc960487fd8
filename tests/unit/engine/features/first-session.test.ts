/**
 * First-session adaptation (src/engine/features/first-session.ts): the adapted layer is deterministic from the seed
 * and depends on the first task; the ground truth grouped by first task equals a direct step-by-step run of every
 * ordering (adapt on its first task, then the plain method on the adapted features: core/ptm/direct-run.ts); records
 * come back with their index; final accuracy is one number per first task for SimpleCIL.
 */
import { describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';
import { directRunner } from '../../../../src/core/ptm/direct-run';
import type { PtmRunRecord } from '../../../../src/core/ptm/ground-truth';
import { ptmProblem } from '../../../../src/core/ptm/problem';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';
import { adaptOnFirstTask, runPtmTruth } from '../../../../src/engine/features/first-session';

// 7 classes of 12 dimensions; the experiment takes 6 of them (label ids, not in order) and 12 / 6 rows of each
const set = syntheticFeatures({ classes: 7, dims: 12, trainPerClass: 16, testPerClass: 8, separation: 0.6, seed: 5 });
const classes = [6, 1, 3, 0, 4, 2];
const sizes = [2, 2, 2];
const training = { epochs: 3, lr: 3e-3, batchSize: 8, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 };
const orderings = [...enumerateOrderings(sizes)];

async function truth(strategy: PtmStrategy): Promise<PtmRunRecord[]> {
  const records: PtmRunRecord[] = [];
  const r = await runPtmTruth(
    { set, classes, strategy, seed: 11, trainPerClass: 12, testPerClass: 6, taskSizes: sizes, orderings, total: orderings.length, training },
    { onRecord: (rec, k) => (records[k] = rec) },
  );
  expect(r.adaptations).toBe(15);
  expect(r.summary.orderings).toBe(90);
  expect(r.summary.path).toMatch(/^exact by first task and class set: \d+ states for 90 orderings \(a 16-unit layer adapted on each of 15 first tasks\)$/);
  return records;
}

/** The direct run of one ordering: the experiment's rows, adapted on its first task, then the plain method step by step. */
async function direct(strategy: PtmStrategy, plain: PtmStrategy, o: number[][]): Promise<number[][]> {
  const problem0 = ptmProblem(set, classes, { trainPerClass: 12, testPerClass: 6 });
  // the experiment's rows as a feature set (the first 12 / 6 of each class, in file order), as runPtmTruth picks them
  const rows: number[] = [];
  for (const split of [0, 1])
    for (const c of classes) {
      let taken = 0;
      for (let i = 0; i < set.n && taken < (split === 0 ? 12 : 6); i++) if (set.split[i] === split && set.labels[i] === c) (rows.push(i), taken++);
    }
  const picked = {
    features: Float32Array.from(rows.flatMap((r) => [...set.features.subarray(r * set.d, (r + 1) * set.d)])),
    n: rows.length,
    d: set.d,
    labels: Int32Array.from(rows.map((r) => set.labels[r])),
    split: Uint8Array.from(rows.map((r) => set.split[r])),
    classNames: set.classNames,
  };
  expect(problem0.train.n).toBe(72);
  const width = (strategy.options as { firstSession?: number }).firstSession!;
  const adapted = await adaptOnFirstTask(
    picked,
    o[0].map((p) => classes[p]),
    width,
    training,
    11,
  );
  return directRunner(ptmProblem(adapted, classes), plain, 11)(o).matrix;
}

describe('first-session adaptation', () => {
  it('the adapted layer is the same from the same seed, and another first task gives other features', async () => {
    const a = await adaptOnFirstTask(set, [0, 1], 16, training, 3);
    const b = await adaptOnFirstTask(set, [1, 0], 16, training, 3);
    expect(a.d).toBe(16);
    expect(a.n).toBe(set.n);
    expect(Buffer.from(a.features.buffer).equals(Buffer.from(b.features.buffer))).toBe(true);
    const c = await adaptOnFirstTask(set, [2, 5], 16, training, 3);
    expect(Buffer.from(a.features.buffer).equals(Buffer.from(c.features.buffer))).toBe(false);
    expect(Array.from(a.labels)).toEqual(Array.from(set.labels));
    expect(a.features.every((v) => v >= 0)).toBe(true); // ReLU outputs
  });

  it('SimpleCIL: every ordering equals its direct run; final accuracy is one number per first task', async () => {
    const strategy: PtmStrategy = { id: 'simplecil', options: { metric: 'cosine', firstSession: 16 } };
    const plain: PtmStrategy = { id: 'simplecil', options: { metric: 'cosine' } };
    const records = await truth(strategy);
    for (const k of [0, 7, 33, 58, 89]) {
      const o = orderings[k];
      expect(records[k].tasks).toEqual(o.map((t) => t.map((p) => classes[p]).sort((x, y) => x - y)));
      const m = await direct(strategy, plain, o);
      records[k].matrix.forEach((row, t) => row.forEach((v, j) => expect(v).toBeCloseTo(m[t][j], 12)));
    }
    const byFirst = new Map<string, Set<number>>();
    records.forEach((r, k) => {
      const key = [...orderings[k][0]].sort().join(',');
      byFirst.set(key, (byFirst.get(key) ?? new Set()).add(Math.round(r.finalAccuracy * 1e9)));
    });
    for (const finals of byFirst.values()) expect(finals.size).toBe(1);
    expect(new Set([...byFirst.values()].map((s) => [...s][0])).size).toBeGreaterThan(1);
  });

  it('RanPAC (M = 32): every ordering equals its direct run', async () => {
    const strategy: PtmStrategy = { id: 'ranpac', options: { projection: 32, lambdaFrom: 'task', firstSession: 16 } };
    const plain: PtmStrategy = { id: 'ranpac', options: { projection: 32, lambdaFrom: 'task' } };
    const records = await truth(strategy);
    for (const k of [3, 41, 88]) {
      const m = await direct(strategy, plain, orderings[k]);
      records[k].matrix.forEach((row, t) => row.forEach((v, j) => expect(v).toBeCloseTo(m[t][j], 9)));
    }
  });

  it('without adaptation it is the ground truth by class set, as before', async () => {
    const records: PtmRunRecord[] = [];
    const r = await runPtmTruth(
      {
        set,
        classes,
        strategy: { id: 'simplecil', options: { metric: 'cosine' } },
        seed: 0,
        taskSizes: sizes,
        orderings,
        training,
      },
      { onRecord: (rec, k) => (records[k] = rec) },
    );
    expect(r.adaptations).toBe(0);
    expect(r.summary.path).toBe('exact by class set: 31 states for 90 orderings');
    expect(new Set(records.map((x) => x.finalAccuracy)).size).toBe(1);
  });
});
