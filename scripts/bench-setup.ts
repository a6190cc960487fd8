/**
 * `npm run bench:setup`: what a training worker computes before the Ground-truth default's first step (the
 * first result ≤ 1 s after Run): the 90 orderings' configs resolved, their data plans (src/engine/plan.ts planRun),
 * the test labels as output units (evaluate.ts unitsOf) and the initial weights (models.ts initWeights), on the
 * lab's data (Fashion-MNIST, classes 0–5, the first 300/100 images per class). Every worker of the pool does this
 * at the start of a run. Prints the median of 7 repeats of each part in ms, then a JSON line. Speed is printed,
 * never asserted.
 */
import { join } from 'node:path';
import { planRunCommand } from '../src/cli/run';
import { resolveTrainConfig } from '../src/engine/config';
import { unitsOf } from '../src/engine/evaluate';
import { initWeights } from '../src/engine/models';
import { planRun } from '../src/engine/plan';
import { initialWeightsSeed, networkSpec } from '../src/engine/trainer';

const values: Record<string, string> = {
  dataset: 'fashion-mnist',
  classes: '0-5',
  tasks: '3',
  'train-per-class': '300',
  'test-per-class': '100',
  epochs: '3',
  orderings: 'all',
  backend: 'cpu',
  init: 'pytorch',
};
const p = await planRunCommand(values, { root: join(import.meta.dirname, '..') });
const parts: Record<string, number[]> = { resolve: [], planRun: [], unitsOf: [], initWeights: [] };
const time = (name: string, f: () => unknown): unknown => {
  const t = performance.now();
  const out = f();
  parts[name].push(performance.now() - t);
  return out;
};
for (let rep = 0; rep < 7; rep++) {
  const cfgs = time('resolve', () => p.configs.map(resolveTrainConfig)) as ReturnType<typeof resolveTrainConfig>[];
  const plans = time('planRun', () => cfgs.map((c) => planRun(p.ds, c))) as ReturnType<typeof planRun>[];
  time('unitsOf', () => plans.map((plan) => plan.tasks.map((tp) => unitsOf(p.ds.test, tp.test, plan.unitOfClass))));
  time('initWeights', () => initWeights(networkSpec(p.ds, cfgs[0], plans[0].outputs), initialWeightsSeed(cfgs[0].seed)));
}
const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];
const out = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
console.log(`bench:setup (${p.configs.length} orderings, ${p.ds.train.labels.length} training / ${p.ds.test.labels.length} test images), median of 7, ms:`);
for (const [k, v] of Object.entries(out)) console.log(`  ${k.padEnd(12)} ${v}`);
console.log(JSON.stringify(out));
