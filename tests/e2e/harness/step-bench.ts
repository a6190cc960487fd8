/**
 * Milliseconds per training step of the CPCF paper's MLP (784-256-128-10, ReLU; docs/science.md §3), batch 64, Adam:
 * forward + backward + update on one batch with the loss read back (what the trainer does when it reports progress
 * every step), on the backend already selected. Random inputs from a seeded generator; the numbers do not affect
 * the timing. Shared by the Node half (scripts/bench-train.ts) and the browser half (bench.worker.ts) of
 * `npm run bench:train`, so both time exactly the same step.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { ensureGradients } from '../../../src/engine/gradients';
import { crossEntropy } from '../../../src/engine/losses';
import { FusedMlp } from '../../../src/engine/kernels/fused-mlp';
import { createNetwork, initWeights, type NetworkSpec } from '../../../src/engine/models';

export const STEP_BATCH = 64;
const spec: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 10, hidden: [256, 128] };

export async function timeTrainingStep(opts: { warmup?: number; minSteps?: number; minMs?: number } = {}): Promise<{ msPerStep: number; steps: number }> {
  const { warmup = 5, minSteps = 20, minMs = 3000 } = opts;
  await ensureGradients();
  const rng = createDefaultRng(0);
  const xs = new Float32Array(STEP_BATCH * 784).map(() => rng.random());
  const ys = Int32Array.from({ length: STEP_BATCH }, () => rng.integers(0, 10));
  const net = createNetwork(spec, initWeights(spec, 0));
  const opt = tf.train.adam(1e-3);
  const x = tf.tensor4d(xs, [STEP_BATCH, 28, 28, 1]);
  const y = tf.tensor1d(ys, 'int32');
  const step = async (): Promise<void> => {
    const { value, grads } = tf.variableGrads(() => crossEntropy(net.logits(x), y), net.variables);
    opt.applyGradients(grads as Parameters<typeof opt.applyGradients>[0]);
    await value.data();
    value.dispose();
    tf.dispose(grads);
  };
  try {
    for (let i = 0; i < warmup; i++) await step();
    let steps = 0;
    const t0 = performance.now();
    while (steps < minSteps || performance.now() - t0 < minMs) {
      await step();
      steps++;
    }
    return { msPerStep: (performance.now() - t0) / steps, steps };
  } finally {
    x.dispose();
    y.dispose();
    opt.dispose();
    net.dispose();
  }
}

/**
 * The same step (MLP 784-256-128-10, batch 64, Adam, loss read back) on the fused kernels of
 * src/engine/kernels/fused-mlp.ts, which the trainer uses on the wasm backend. The inputs are seeded uint8 images
 * with half their pixels zero, the density of the built-in Fashion-MNIST (0.50 of its pixels are nonzero): the
 * fused step skips zeros, so uniform noise would time more work than the app does.
 */
export async function timeFusedStep(opts: { warmup?: number; minSteps?: number; minMs?: number } = {}): Promise<{ msPerStep: number; steps: number }> {
  const { warmup = 20, minSteps = 50, minMs = 3000 } = opts;
  const fused = await FusedMlp.create(spec, STEP_BATCH);
  if (!fused) throw new Error('WebAssembly SIMD is not available here.');
  const rng = createDefaultRng(0);
  const images = Uint8Array.from({ length: STEP_BATCH * 784 }, () => (rng.random() < 0.5 ? 0 : rng.integers(1, 256)));
  const idx = Int32Array.from({ length: STEP_BATCH }, (_, i) => i);
  const units = Int32Array.from({ length: STEP_BATCH }, () => rng.integers(0, 10));
  fused.setWeights(initWeights(spec, 0));
  fused.resetOptimizer({ kind: 'adam', lr: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-7 });
  const step = (): void => {
    fused.setBatch(images, 784, idx, units);
    fused.step(STEP_BATCH, 10);
  };
  for (let i = 0; i < warmup; i++) step();
  let steps = 0;
  const t0 = performance.now();
  while (steps < minSteps || performance.now() - t0 < minMs) {
    step();
    steps++;
  }
  return { msPerStep: (performance.now() - t0) / steps, steps };
}
