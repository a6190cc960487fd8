/**
 * The 'pytorch' initialisation on every path that builds models: one run at a time (trainRun), prefix
 * sharing and population training (trainShared, population.ts stacks the members' own initial weights) give the
 * same accuracy matrices on the cpu backend, and the option really changes the run (its matrices differ from the
 * default scheme's). The initial weights come from the experiment seed: two runs of the same config agree exactly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { selectBackend } from '../../../src/engine/backend';
import { trainShared } from '../../../src/engine/shared-train';
import { trainRun } from '../../../src/engine/trainer';
import type { TrainRunConfig, TrainRunResult } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 24, testPerClass: 10 });

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});

function configs(init: 'pytorch' | undefined, strategy: string): TrainRunConfig[] {
  const all = Array.from(enumerateOrderings([2, 2, 2]), (o) => o.map((t) => [...t]));
  return [...all.slice(0, 4), all[89]].map(
    (tasks) =>
      ({
        tasks,
        seed: 5,
        strategy,
        model: { kind: 'mlp', hidden: [16] },
        epochs: 2,
        batchSize: 16,
        lr: 0.01,
        head: 'all',
        ...(init ? { init } : {}),
      }) as TrainRunConfig,
  );
}

function maxDiff(a: TrainRunResult[], b: TrainRunResult[]): number {
  let d = 0;
  a.forEach((r, o) => r.matrix.forEach((row, i) => row.forEach((v, j) => (d = Math.max(d, Math.abs(v - b[o].matrix[i][j]))))));
  a.forEach((r, o) => r.untrained.forEach((v, j) => (d = Math.max(d, Math.abs(v - b[o].untrained[j])))));
  return d;
}

describe("init 'pytorch' on every training path", () => {
  for (const strategy of ['finetune', 'ewc']) {
    it(`${strategy}: trainRun = prefix sharing = population (P = 3), and differs from the default init`, async () => {
      const cs = configs('pytorch', strategy);
      const naive: TrainRunResult[] = [];
      for (const c of cs) naive.push(await trainRun(ds, c));
      expect(naive[0].config.init).toBe('pytorch');
      const prefix = await trainShared(ds, cs, { population: 1 });
      const pop = await trainShared(ds, cs, { population: 3 });
      expect(maxDiff(prefix, naive)).toBeLessThanOrEqual(1e-5);
      expect(maxDiff(pop, naive)).toBeLessThanOrEqual(1e-5);
      const again = await trainRun(ds, cs[0]);
      expect(again.matrix).toEqual(naive[0].matrix);
      const plain: TrainRunResult[] = [];
      for (const c of configs(undefined, strategy)) plain.push(await trainRun(ds, c));
      expect('init' in plain[0].config).toBe(false);
      // the untrained model's accuracies already differ: other initial weights
      expect(maxDiff(plain, naive)).toBeGreaterThan(0.01);
    }, 600_000);
  }
});
