/**
 * The strategies behave as the literature says on real data: on digits and Fashion-MNIST with 5 tasks of 2 classes, finetune forgets (early tasks'
 * final accuracy near 0), joint is the upper bound, replay and iCaRL sit between. Small real runs on the wasm
 * backend, the browser's (its fused MLP step; the cpu backend took five times as long for the same ordering), with
 * subsets of Fashion-MNIST; skipped when `npm run prepare-data` has not been run.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { selectBackend } from '../../../src/engine/backend';
import { fromDecodedDataset, subsetPerClass } from '../../../src/engine/dataset';
import type { StrategyId } from '../../../src/engine/defaults';
import { trainRun } from '../../../src/engine/trainer';
import type { ImageDataset, TrainRunConfig } from '../../../src/engine/types';

const TASKS = [
  [0, 1],
  [2, 3],
  [4, 5],
  [6, 7],
  [8, 9],
];
const have = (id: string): boolean => existsSync(join('public', 'data', id, 'meta.json'));
const load = async (id: string): Promise<ImageDataset> =>
  fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(await readFile(join('public', p)))));
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

async function finalRows(ds: ImageDataset, base: Omit<TrainRunConfig, 'strategy' | 'tasks' | 'seed'>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const strategy of ['finetune', 'joint', 'replay', 'icarl'] as StrategyId[]) {
    const cfg = {
      ...base,
      tasks: TASKS,
      seed: 1,
      strategy,
      ...(strategy === 'replay' || strategy === 'icarl' ? { strategyOptions: { memory: 200 } } : {}),
    } as TrainRunConfig;
    let maxBytes = 0;
    const r = await trainRun(ds, cfg, { onTaskEnd: (e) => (maxBytes = Math.max(maxBytes, e.numBytes)) });
    out[strategy] = r.matrix[TASKS.length - 1];
    // tensors plus the dataset stay under 300 MB (here far under: the data is held as bytes, not tensors)
    expect(maxBytes + ds.train.images.length + ds.test.images.length).toBeLessThan(300e6);
  }
  return out;
}

function expectOrdering(rows: Record<string, number[]>): void {
  // finetune forgets: every earlier task's final accuracy is near 0, the last task is learnt
  for (const a of rows.finetune.slice(0, -1)) expect(a).toBeLessThanOrEqual(0.05);
  expect(rows.finetune[TASKS.length - 1]).toBeGreaterThan(0.8);
  const acc = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, mean(v)]));
  expect(acc.replay).toBeGreaterThan(acc.finetune + 0.2);
  expect(acc.icarl).toBeGreaterThan(acc.finetune + 0.2);
  expect(acc.joint).toBeGreaterThan(acc.replay);
  expect(acc.joint).toBeGreaterThan(acc.icarl);
}

beforeAll(async () => {
  await selectBackend('wasm', { strict: true });
});

describe('class-incremental learning on real data (5 tasks of 2 classes)', () => {
  it.skipIf(!have('digits'))('digits: finetune forgets, joint is the upper bound, replay and iCaRL sit between', async () => {
    const rows = await finalRows(await load('digits'), { model: { kind: 'mlp', hidden: [64] }, epochs: 5, batchSize: 32 });
    expectOrdering(rows);
  });

  it.skipIf(!have('fashion-mnist'))(
    'Fashion-MNIST (200 training / 100 test images per class): the same ordering',
    async () => {
      const ds = subsetPerClass(await load('fashion-mnist'), { trainPerClass: 200, testPerClass: 100 });
      const rows = await finalRows(ds, { model: { kind: 'mlp', hidden: [64] }, epochs: 3, batchSize: 32 });
      expectOrdering(rows);
    },
    300_000,
  ); // ~5 s on wasm (~40–75 s on the cpu backend): the limit leaves room for a loaded machine
});
