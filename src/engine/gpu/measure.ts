/**
 * `auto` by measurement (docs/architecture.md "Choosing the backend by measuring it"): a short probe of the real
 * workload on each candidate backend, and the fastest wins. For the ground truth's plain workload (an MLP trained by
 * the plain loss, level-train.ts `levelRefusal`), WebGPU runs a level-step of our kernels over as many models as one
 * level of the trie has and wasm the fused step, one model per worker; otherwise tfjs's step of one model on each.
 * The figure compared is milliseconds per model-step as the lab would train: a level-step over its models on WebGPU,
 * a fused step over the workers the CPU backend gets (one per core). So a machine with a GPU never gets a slower path
 * than its CPU gives, and a software adapter (SwiftShader) loses to wasm by measurement, not by rule.
 *
 * Each probe is bounded: a few warm-up steps, then steps until `windowMs`; a GPU probe that has not finished its first
 * step (compiling the kernels included) within `gpuDeadlineMs` counts as slower than that deadline. Synthetic
 * batches of the workload's shape (half zeros, as images are) stand in for the data: timing, not numbers.
 */
import * as tf from '@tensorflow/tfjs-core';
import { candidateBackends, isSoftwareGpu, probeBackend, type BackendName, type BackendTiming, type MeasuredChoice } from '../backend';
import { acquireFusedMlp, releaseFusedMlp } from '../kernels/fused-mlp';
import { crossEntropy } from '../losses';
import { createNetwork, initWeights, type NetworkSpec } from '../models';
import { gpuAdapterInfo, levelGpuDevice, type GpuAdapterInfo } from './device';
import { LevelMlp } from './level-mlp';

/** What the lab will train: the network, the batch, how many models one level holds, and whether the step is plain. */
export interface ProbeWorkload {
  spec: NetworkSpec;
  batchSize: number;
  /** models trained at once on WebGPU (the trie's widest level) */
  models: number;
  /** the plain loss on an MLP (the level kernels on WebGPU, the fused step on wasm); false: tfjs's step */
  plain: boolean;
  /** images as bytes (true) or feature vectors as floats */
  bytes: boolean;
}

export type { BackendTiming, MeasuredChoice } from '../backend';

export interface MeasureOptions {
  /** workers a CPU backend trains with (the pool's: one per core) */
  cpuWorkers: number;
  /** timing window per backend, ms (default 300) */
  windowMs?: number;
  /** a GPU probe's first step must finish within this, ms (default 4000) */
  gpuDeadlineMs?: number;
  /** candidates (default: webgpu where an adapter exists, else a hardware webgl, and wasm) */
  candidates?: BackendName[];
}

/** A synthetic batch: `rows` inputs of `size` values, about half zeros (as images are), and output units. */
function syntheticBatch(rows: number, size: number, outputs: number, bytes: boolean): { x: Uint8Array | Float32Array; units: Int32Array } {
  let s = 12345;
  const next = (): number => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
  const x = bytes ? new Uint8Array(rows * size) : new Float32Array(rows * size);
  for (let i = 0; i < x.length; i++) x[i] = next() < 0.5 ? 0 : bytes ? Math.floor(next() * 256) : next();
  return { x, units: Int32Array.from({ length: rows }, (_, i) => i % outputs) };
}

const size = (spec: NetworkSpec): number => spec.inputShape[0] * spec.inputShape[1] * spec.inputShape[2];

/** Thrown into a probe whose deadline passed, so it stops instead of computing on unseen. */
class ProbeLate extends Error {}

/** Steps of `step` until `windowMs` (after `warmup` untimed): ms per step. Stops (throws) once `late()`. */
async function timeSteps(step: () => Promise<void> | void, warmup: number, windowMs: number, late: () => boolean = () => false): Promise<number> {
  const one = async (): Promise<void> => {
    if (late()) throw new ProbeLate();
    await step();
  };
  for (let i = 0; i < warmup; i++) await one();
  let n = 0;
  const t0 = performance.now();
  while (n < 3 || performance.now() - t0 < windowMs) {
    await one();
    n++;
  }
  return (performance.now() - t0) / n;
}

/** wasm: the fused step (plain) or tfjs's step of one model. */
async function timeWasm(w: ProbeWorkload, windowMs: number): Promise<{ ms: number; kernels: 'fused' | 'tfjs' }> {
  await probeBackend('wasm');
  const mlp = w.plain && w.spec.kind === 'mlp' ? await acquireFusedMlp(w.spec, w.batchSize) : null;
  if (mlp) {
    try {
      const { x, units } = syntheticBatch(w.batchSize, size(w.spec), w.spec.outputs, w.bytes);
      const idx = Int32Array.from({ length: w.batchSize }, (_, i) => i);
      mlp.setWeights(initWeights(w.spec, 1));
      mlp.resetOptimizer({ kind: 'adam', lr: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 });
      const ms = await timeSteps(
        () => {
          mlp.setBatch(x, size(w.spec), idx, units);
          mlp.step(w.batchSize, w.spec.outputs);
        },
        3,
        windowMs,
      );
      return { ms, kernels: 'fused' };
    } finally {
      releaseFusedMlp(mlp);
    }
  }
  return { ms: await timeTfjsStep(w, windowMs), kernels: 'tfjs' };
}

/** tfjs's training step of one model on the active backend (a batch, the loss, its gradients, Adam). */
async function timeTfjsStep(w: ProbeWorkload, windowMs: number): Promise<number> {
  const net = createNetwork(w.spec, initWeights(w.spec, 1));
  const opt = tf.train.adam(1e-3);
  const { x, units } = syntheticBatch(w.batchSize, size(w.spec), w.spec.outputs, w.bytes);
  const xs = tf.tidy(() => tf.div(tf.tensor4d(Float32Array.from(x), [w.batchSize, ...w.spec.inputShape]), w.bytes ? 255 : 1) as tf.Tensor4D);
  const ys = tf.tensor1d(units, 'int32');
  try {
    return await timeSteps(
      async () => {
        const loss = opt.minimize(() => crossEntropy(net.logits(xs), ys), true, net.variables) as tf.Scalar;
        await loss.data();
        loss.dispose();
      },
      2,
      windowMs,
    );
  } finally {
    opt.dispose();
    tf.dispose([xs, ys]);
    net.dispose();
  }
}

/** WebGPU: a level-step of `models` models in our kernels (plain), or tfjs's step of one model; null past the deadline. */
async function timeWebGpu(w: ProbeWorkload, windowMs: number, deadlineMs: number): Promise<{ ms: number | null; kernels: 'level' | 'tfjs'; models: number }> {
  await probeBackend('webgpu');
  if (!w.plain || w.spec.kind !== 'mlp') {
    const ms = await withDeadline(timeTfjsStep(w, windowMs), deadlineMs);
    return { ms, kernels: 'tfjs', models: 1 };
  }
  const gpu = await levelGpuDevice();
  if (!gpu) return { ms: null, kernels: 'level', models: w.models };
  const rows = Math.max(w.batchSize, 256);
  const models = Math.max(1, Math.min(w.models, Math.floor(gpu.device.limits.maxStorageBufferBindingSize / (LevelMlp.paramFloats(w.spec) * 4))));
  const { x, units } = syntheticBatch(w.batchSize, size(w.spec), w.spec.outputs, w.bytes);
  let late = false;
  const run = (async () => {
    const mlp = await LevelMlp.create(gpu, w.spec, { train: x, test: x.slice(0, size(w.spec)), size: size(w.spec) }, models, rows);
    const block = mlp.newBlock(models);
    try {
      const weights = initWeights(w.spec, 1);
      for (let m = 0; m < models; m++) mlp.setWeights(block, m, weights);
      const order = Int32Array.from({ length: w.batchSize }, (_, i) => i);
      const members = Array.from({ length: models }, () => ({ order: () => order, unitOf: (e: number) => units[e] }));
      const opts = {
        epochs: 1,
        batchSize: w.batchSize,
        head: w.spec.outputs,
        optimizer: { kind: 'adam' as const, lr: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 },
      };
      // one level-step each: the call waits until the GPU has done it
      return await timeSteps(
        () => mlp.train(block, members, w.batchSize, opts),
        1,
        windowMs,
        () => late,
      );
    } finally {
      mlp.freeBlock(block);
      mlp.destroy();
    }
  })();
  const ms = await withDeadline(run, deadlineMs);
  // past the deadline the probe stops at its next step (its kernels may still be compiling: they are kept for later)
  late = true;
  return { ms, kernels: 'level', models };
}

/** The promise's value, or null when it has not settled within `ms` (it goes on; its result is dropped). */
async function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([p.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toPrecision(2));

/** The sentence `MeasuredChoice.reason`: the winner's figure against each other's. */
export function choiceReason(choice: BackendName, timings: BackendTiming[]): string {
  const describe = (t: BackendTiming): string => {
    if (t.msPerStep === null) return `${t.backend}: ${t.note ?? 'not measured in time'}`;
    const per = `${fmt(t.msPerModelStep)} ms a model-step`;
    if (t.kernels === 'level') return `${t.backend} ${per} (a level-step of ${t.models} models in ${fmt(t.msPerStep)} ms${t.note ? `; ${t.note}` : ''})`;
    return `${t.backend} ${per} (${t.kernels === 'fused' ? 'fused step' : 'tfjs step'} ${fmt(t.msPerStep)} ms${t.workers > 1 ? ` on each of ${t.workers} workers` : ''}${t.note ? `; ${t.note}` : ''})`;
  };
  const win = timings.find((t) => t.backend === choice);
  const rest = timings.filter((t) => t.backend !== choice);
  return `${choice} runs, the fastest measured: ${win ? describe(win) : choice}${rest.length ? ` against ${rest.map(describe).join(', ')}` : ''}.`;
}

/**
 * Measure the candidates (WebGPU where an adapter exists, and wasm) on the workload and choose the fastest per
 * model-step. Leaves tfjs on the chosen backend.
 */
export async function measureBackends(w: ProbeWorkload, options: MeasureOptions): Promise<MeasuredChoice> {
  const windowMs = options.windowMs ?? 300;
  const deadline = options.gpuDeadlineMs ?? 4000;
  const adapter = await gpuAdapterInfo();
  const here = candidateBackends();
  const webgl = !adapter && here.includes('webgl') && !(await isSoftwareGpu('webgl'));
  const candidates: BackendName[] = options.candidates ?? [
    ...(adapter && here.includes('webgpu') ? (['webgpu'] as const) : []),
    ...(webgl ? (['webgl'] as const) : []),
    'wasm',
  ];
  const timings: BackendTiming[] = [];
  for (const backend of candidates) {
    try {
      if (backend === 'wasm' || backend === 'cpu') {
        const { ms, kernels } = await timeWasm(w, windowMs);
        const workers = Math.max(1, options.cpuWorkers);
        timings.push({ backend: 'wasm', kernels, msPerStep: ms, models: 1, workers, msPerModelStep: ms / workers });
      } else if (backend === 'webgl') {
        await probeBackend('webgl');
        const ms = await withDeadline(timeTfjsStep(w, windowMs), options.gpuDeadlineMs ?? 4000);
        timings.push({
          backend,
          kernels: 'tfjs',
          msPerStep: ms,
          models: 1,
          workers: 1,
          msPerModelStep: ms ?? Infinity,
          ...(ms === null ? { note: 'no step in time' } : {}),
        });
      } else if (backend === 'webgpu') {
        const { ms, kernels, models } = await timeWebGpu(w, windowMs, deadline);
        const note = adapter?.software ? 'a software adapter: WebGPU emulated on the CPU' : undefined;
        timings.push({
          backend,
          kernels,
          msPerStep: ms,
          models,
          workers: 1,
          msPerModelStep: ms === null ? Infinity : ms / models,
          note:
            ms === null
              ? `no ${kernels === 'level' ? 'level-' : ''}step within ${(deadline / 1000).toFixed(0)} s (compiling its kernels included)${note ? `; ${note}` : ''}`
              : note,
        });
      }
    } catch (e) {
      timings.push({ backend, kernels: 'tfjs', msPerStep: null, models: 1, workers: 1, msPerModelStep: Infinity, note: `failed (${(e as Error).message})` });
    }
  }
  const best = timings.filter((t) => Number.isFinite(t.msPerModelStep)).sort((a, b) => a.msPerModelStep - b.msPerModelStep)[0];
  const choice: BackendName = best?.backend ?? 'wasm';
  await probeBackend(choice);
  return { choice, timings, adapter, reason: choiceReason(choice, timings) };
}
