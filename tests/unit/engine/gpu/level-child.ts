/**
 * Run by level-train.test.ts in a child process (Node finds the Vulkan loader only through the library path it
 * started with): the level-batched WebGPU path against the fused wasm path on the same draws, and what it cost.
 * Prints one JSON line; `{ "skip": reason }` where WebGPU has no adapter.
 */
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { selectBackend } from '../../../../src/engine/backend';
import { takeGpuCounters, levelGpuDevice } from '../../../../src/engine/gpu/device';
import { LevelMlp } from '../../../../src/engine/gpu/level-mlp';
import { FusedMlp } from '../../../../src/engine/kernels/fused-mlp';
import { initWeights, type NetworkSpec } from '../../../../src/engine/models';
import { trainShared } from '../../../../src/engine/shared-train';
import type { TrainRunConfig } from '../../../../src/engine/types';
import { syntheticDataset } from '../synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 24, testPerClass: 10 });
// classes 0–3 in two tasks of two (6 orderings, a trie of 6 + 6 prefixes) of the six-class dataset
const orderings = Array.from(enumerateOrderings([2, 2]), (o) => o.map((t) => [...t]));
const base = { seed: 3, model: { kind: 'mlp', hidden: [16, 8] }, epochs: 2, batchSize: 10, head: 'all' } as const;
const configs = (strategy: string): TrainRunConfig[] =>
  orderings.map((tasks) => ({ ...base, tasks, strategy, ...(strategy === 'replay' ? { strategyOptions: { memory: 12 } } : {}) }) as unknown as TrainRunConfig);
const finals = (rs: { matrix: number[][] }[]) => rs.map((r) => r.matrix[r.matrix.length - 1].reduce((a, b) => a + b, 0) / r.matrix.length);

try {
  await selectBackend('webgpu', { strict: true });
} catch (e) {
  console.log(JSON.stringify({ skip: (e as Error).message }));
  process.exit(0);
}
const out: Record<string, unknown> = {};
for (const strategy of ['finetune', 'replay']) {
  await selectBackend('webgpu', { strict: true });
  takeGpuCounters(true);
  let kernels = '';
  let steps = 0;
  const gpu = await trainShared(ds, configs(strategy), {}, { onProgress: (p) => ((kernels = p.kernels ?? ''), (steps = p.stepsDone)) });
  const cost = takeGpuCounters(true);
  await selectBackend('wasm', { strict: true });
  const cpu = await trainShared(ds, configs(strategy));
  out[strategy] = { kernels, steps, cost, gpu: finals(gpu), wasm: finals(cpu), backend: gpu[0].backend };
}

// one chunk of models against the fused step, weights after the same Adam steps (a partial last batch included)
await selectBackend('webgpu', { strict: true });
const spec: NetworkSpec = { kind: 'mlp', inputShape: [6, 6, 1], outputs: 6, hidden: [16, 8] };
const device = (await levelGpuDevice())!;
const mlp = await LevelMlp.create(device, spec, { train: ds.train.images, test: ds.test.images, size: 36 }, 3, 64);
const block = mlp.newBlock(3);
const w0 = initWeights(spec, 5);
const order = (m: number) => Int32Array.from({ length: 25 }, (_, i) => (i * 7 + m * 11) % ds.train.labels.length);
for (let m = 0; m < 3; m++) mlp.setWeights(block, m, w0);
const opt = { kind: 'adam' as const, lr: 1e-2, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 };
await mlp.train(
  block,
  [0, 1, 2].map((m) => ({ order: () => order(m), unitOf: (e: number) => ds.train.labels[e] })),
  25,
  { epochs: 2, batchSize: 10, head: 6, optimizer: opt },
);
const diffs: number[] = [];
for (let m = 0; m < 3; m++) {
  const f = (await FusedMlp.create(spec, 10))!;
  f.setWeights(w0);
  f.resetOptimizer(opt);
  for (let e = 0; e < 2; e++)
    for (let s = 0; s < 25; s += 10) {
      const idx = order(m).slice(s, s + 10);
      f.setBatch(
        ds.train.images,
        36,
        idx,
        Int32Array.from(idx, (x) => ds.train.labels[x]),
      );
      f.step(idx.length, 6);
    }
  const a = f.weights();
  const b = await mlp.readWeights(block, m);
  let worst = 0;
  a.forEach((arr, i) => {
    let scale = 1e-12;
    for (const v of arr) scale = Math.max(scale, Math.abs(v));
    for (let k = 0; k < arr.length; k++) worst = Math.max(worst, Math.abs(arr[k] - b[i][k]) / scale);
  });
  diffs.push(worst);
}
out.weights = diffs;
console.log(JSON.stringify(out));
process.exit(0);
