/**
 * `npx tsx scripts/bench-train.ts`: milliseconds per training step of the CPCF paper's MLP (784-256-128-10, ReLU;
 * SCIENCE.md §3) with batch 64 and Adam, on every TensorFlow.js backend available in Node (wasm, cpu). A step is
 * forward + backward + Adam update on one batch, with the loss read back (what the trainer does when it reports
 * progress every step). Random inputs from a seeded generator; the numbers do not affect the timing.
 *
 * Prints one line per backend and, as the last line, `{"results": [{"backend", "where": "node", "msPerStep"}]}`.
 * (The browser half of `npm run bench:train` — webgpu, webgl, wasm, cpu in Chromium — is a separate harness.)
 */
import * as tf from '@tensorflow/tfjs-core';
import { candidateBackends, selectBackend } from '../src/engine/backend';
import { ensureGradients } from '../src/engine/gradients';
import { crossEntropy } from '../src/engine/losses';
import { createNetwork, initWeights, type NetworkSpec } from '../src/engine/models';
import { createDefaultRng } from '../src/core/random/default-rng';

const BATCH = 64;
const WARMUP = 5;
const MIN_STEPS = 20;
const MIN_MS = 3000;

const spec: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 10, hidden: [256, 128] };

async function benchBackend(name: 'wasm' | 'cpu'): Promise<number> {
  await selectBackend(name, { strict: true });
  await ensureGradients();
  const rng = createDefaultRng(0);
  const xs = new Float32Array(BATCH * 784).map(() => rng.random());
  const ys = Int32Array.from({ length: BATCH }, () => rng.integers(0, 10));
  const net = createNetwork(spec, initWeights(spec, 0));
  const opt = tf.train.adam(1e-3);
  const x = tf.tensor4d(xs, [BATCH, 28, 28, 1]);
  const y = tf.tensor1d(ys, 'int32');
  const step = async (): Promise<void> => {
    const { value, grads } = tf.variableGrads(() => crossEntropy(net.logits(x), y), net.variables);
    opt.applyGradients(grads as Parameters<typeof opt.applyGradients>[0]);
    await value.data();
    value.dispose();
    tf.dispose(grads);
  };
  try {
    for (let i = 0; i < WARMUP; i++) await step();
    let steps = 0;
    const t0 = performance.now();
    while (steps < MIN_STEPS || performance.now() - t0 < MIN_MS) {
      await step();
      steps++;
    }
    return (performance.now() - t0) / steps;
  } finally {
    x.dispose();
    y.dispose();
    opt.dispose();
    net.dispose();
  }
}

const results: { backend: string; where: 'node'; msPerStep: number }[] = [];
for (const name of candidateBackends() as ('wasm' | 'cpu')[]) {
  try {
    const ms = await benchBackend(name);
    results.push({ backend: name, where: 'node', msPerStep: Math.round(ms * 100) / 100 });
    console.log(`node ${name}: ${ms.toFixed(2)} ms/step (MLP 784-256-128-10, batch ${BATCH}, Adam)`);
  } catch (e) {
    console.log(`node ${name}: unavailable (${(e as Error).message})`);
  }
}
console.log(JSON.stringify({ results }));
