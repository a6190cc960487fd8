/// <reference lib="webworker" />
/**
 * Milliseconds per training step in a browser worker (scripts/bench-train-browser.mjs): the CPCF paper's MLP
 * 784-256-128-10 (ReLU), batch 64, Adam — forward, backward and update on one batch with the loss read back,
 * exactly as scripts/bench-train.ts measures it in Node. Random inputs from a seeded generator. Runs in a worker
 * because the app trains in one (webgl then draws on an OffscreenCanvas, as in the app).
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { selectBackend, setWasmBase, type BackendName } from '../../../src/engine/backend';
import { ensureGradients } from '../../../src/engine/gradients';
import { crossEntropy } from '../../../src/engine/losses';
import { createNetwork, initWeights, type NetworkSpec } from '../../../src/engine/models';
import { fromDecodedDataset } from '../../../src/engine/dataset';
import type { ImageDataset } from '../../../src/engine/types';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { benchDataset, benchMode, type BenchMode, type BenchModeResult } from './groundtruth-bench';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

const BATCH = 64;
const spec: NetworkSpec = { kind: 'mlp', inputShape: [28, 28, 1], outputs: 10, hidden: [256, 128] };

const api = {
  async msPerStep(backend: string, opts: { warmup?: number; minSteps?: number; minMs?: number } = {}): Promise<{ backend: string; msPerStep: number; steps: number }> {
    const { warmup = 5, minSteps = 20, minMs = 3000 } = opts;
    const info = await selectBackend(backend as BackendName, { strict: true });
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
      for (let i = 0; i < warmup; i++) await step();
      let steps = 0;
      const t0 = performance.now();
      while (steps < minSteps || performance.now() - t0 < minMs) {
        await step();
        steps++;
      }
      return { backend: info.name, msPerStep: (performance.now() - t0) / steps, steps };
    } finally {
      x.dispose();
      y.dispose();
      opt.dispose();
      net.dispose();
    }
  },
  /** The ground-truth benchmark (groundtruth-bench.ts): one way of training, on one backend, in this worker. */
  async groundTruth(backend: string, mode: BenchMode, orderings: 'all' | 'subset', population = 8): Promise<BenchModeResult & { backend: string }> {
    const info = await selectBackend(backend as BackendName, { strict: true });
    await ensureGradients();
    gtDataset ??= benchDataset(fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', fetchBytes)));
    return { ...(await benchMode(gtDataset, mode, orderings, population)), backend: info.name };
  },
};

let gtDataset: ImageDataset | null = null;

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(import.meta.env.BASE_URL + path);
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} for ${path}`);
  return new Uint8Array(await res.arrayBuffer());
}

export type BenchWorkerApi = typeof api;
Comlink.expose(api);
