/**
 * `npx tsx scripts/bench-step-parts.ts [wasm|cpu]`: where one training step of the CPCF/ground-truth MLP
 * (784-256-128-10, ReLU, batch 64, Adam; the step `npm run bench:train` times) spends its time in Node: forward and
 * loss alone, forward + backward (tf.variableGrads), tfjs's Adam update alone, and Adam on the same numbers held in
 * one flat variable (what fusing the six parameter tensors into one would save), then tfjs's own kernel profile of a
 * whole step (tf.profile: kernel count and time per kernel name). Random inputs; the numbers do not affect the
 * timing. It says where the remaining time of a step goes.
 */
import * as tf from '@tensorflow/tfjs-core';
import { selectBackend } from '../src/engine/backend';
import { ensureGradients } from '../src/engine/gradients';
import { crossEntropy } from '../src/engine/losses';
import { createNetwork, initWeights, type NetworkSpec } from '../src/engine/models';

const backend = (process.argv[2] ?? 'wasm') as 'wasm' | 'cpu';
await selectBackend(backend, { strict: true });
await ensureGradients();
const spec: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 10, hidden: [256, 128] };
const net = createNetwork(spec, initWeights(spec, 0));
const x = tf.randomUniform([64, 28, 28, 1], 0, 1, 'float32', 1) as tf.Tensor4D;
const y = tf.tensor1d(
  Array.from({ length: 64 }, (_, i) => i % 10),
  'int32',
);

async function time(name: string, f: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 3; i++) await f();
  const t0 = performance.now();
  let n = 0;
  while (n < 5 || performance.now() - t0 < 2000) {
    await f();
    n++;
  }
  const ms = (performance.now() - t0) / n;
  console.log(`${name.padEnd(44)} ${ms.toFixed(2).padStart(7)} ms`);
  return ms;
}

const loss = () => crossEntropy(net.logits(x), y);
await time('forward + loss', async () => {
  const v = tf.tidy(loss);
  await v.data();
  v.dispose();
});
await time('forward + backward (variableGrads)', async () => {
  const { value, grads } = tf.variableGrads(loss, net.variables);
  await value.data();
  value.dispose();
  tf.dispose(grads);
});
const { value, grads } = tf.variableGrads(loss, net.variables);
value.dispose();
const adam = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
await time(`Adam update, ${net.variables.length} parameter tensors`, async () => {
  adam.applyGradients(grads as Parameters<typeof adam.applyGradients>[0]);
  await net.variables[0].data();
});
const total = net.variables.reduce((a, v) => a + v.size, 0);
const flat = tf.variable(tf.zeros([total]), true, 'flat-params');
const flatGrad = { 'flat-params': tf.randomUniform([total]) };
const adamFlat = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
await time(`Adam update, one flat tensor of ${total}`, async () => {
  adamFlat.applyGradients(flatGrad as unknown as Parameters<typeof adamFlat.applyGradients>[0]);
  await flat.data();
});
const stepAdam = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
const step = async () => {
  const r = tf.variableGrads(loss, net.variables);
  stepAdam.applyGradients(r.grads as Parameters<typeof stepAdam.applyGradients>[0]);
  await r.value.data();
  r.value.dispose();
  tf.dispose(r.grads);
};
await time('whole step', step);
const prof = await tf.profile(step);
const byName = new Map<string, { ms: number; n: number }>();
for (const k of prof.kernels) {
  const e = byName.get(k.name) ?? { ms: 0, n: 0 };
  e.ms += Number(k.kernelTimeMs) || 0;
  e.n++;
  byName.set(k.name, e);
}
console.log(`tf.profile of one step on ${backend}: ${prof.kernels.length} kernels`);
for (const [name, e] of [...byName].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
  console.log(`  ${name.padEnd(20)} ×${String(e.n).padEnd(4)} ${e.ms.toFixed(2)} ms`);
