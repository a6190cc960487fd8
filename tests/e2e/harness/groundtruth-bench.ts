/**
 * The ground-truth benchmark's one fixed config and its three ways of training it, shared by the Node
 * half (scripts/bench-groundtruth.ts) and the Chromium half (bench.worker.ts, driven by
 * scripts/bench-groundtruth-browser.mjs):
 *
 * Fashion-MNIST classes 0–5 in 3 tasks of 2 (all 90 orderings), the first 300 training and 100 test images of each
 * class, MLP 784-256-128-6, Adam lr 1e-3, batch 64, 3 epochs per task, finetune, seed 0 — what a researcher runs
 * today in PyTorch, each ordering from scratch (about 153 s on this 2-core machine's CPU).
 *
 * - naive: `trainRun` for each ordering, one after another (the engine's normal path; what the app did before);
 * - prefix: `trainShared` with population 1 (each shared task prefix once, depth-first);
 * - population: `trainShared` with P models in lockstep (P = `population`, default 8, so the figure shows what
 *   population training does on this backend even where the app's 'auto' would choose 1).
 *
 * `orderings: 'subset'` trains only the 6 orderings whose first task is {0, 1}: one of the 15 identical subtrees of
 * the trie (1 + 6 + 6 = 13 of the 195 prefix tasks, 18 of the 270 naive ones — the same 0.72 ratio), and the
 * seconds are scaled by 15 to the full 90 (`extrapolated: true`). Used where training all 90 three ways would take
 * most of an hour (the cpu backend, SwiftShader's WebGL/WebGPU).
 */
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { subsetPerClass, takeSplit } from '../../../src/engine/dataset';
import { installWasmMatMulGradient, restoreStockMatMulGradient } from '../../../src/engine/gradients';
import { trainShared } from '../../../src/engine/shared-train';
import { trainRun } from '../../../src/engine/trainer';
import type { ImageDataset, TrainRunConfig, TrainRunResult } from '../../../src/engine/types';

/** 'naive-stock': the naive path with tfjs's stock matMul gradient (the engine before its own wasm gradient; wasm only). */
export type BenchMode = 'naive' | 'prefix' | 'population' | 'naive-stock';

export interface BenchModeResult {
  mode: BenchMode;
  /** seconds for all 90 orderings (measured, or scaled from the subset) */
  seconds: number;
  measuredSeconds: number;
  orderings: number;
  extrapolated: boolean;
  population: number;
  /** mean of the final accuracies (a check that every mode trained the same thing) */
  meanFinalAccuracy: number;
}

export function benchDataset(fashion: ImageDataset): ImageDataset {
  return subsetPerClass(
    { shape: fashion.shape, classNames: fashion.classNames.slice(0, 6), train: keepClasses(fashion.train, 6), test: keepClasses(fashion.test, 6) },
    { trainPerClass: 300, testPerClass: 100 },
  );
}

/** The examples of classes 0..n−1 of a split. */
export function keepClasses(s: ImageDataset['train'], n: number): ImageDataset['train'] {
  const keep: number[] = [];
  for (let i = 0; i < s.labels.length; i++) if (s.labels[i] < n) keep.push(i);
  return takeSplit(s, Int32Array.from(keep), s.images.length / s.labels.length);
}

export function benchConfigs(orderings: 'all' | 'subset'): TrainRunConfig[] {
  const all = Array.from(enumerateOrderings([2, 2, 2]), (o) => o.map((t) => [...t]));
  const chosen = orderings === 'all' ? all : all.filter((o) => o[0][0] === 0 && o[0][1] === 1);
  return chosen.map(
    (tasks) =>
      ({
        tasks,
        seed: 0,
        strategy: 'finetune',
        model: { kind: 'mlp', hidden: [256, 128] },
        lr: 1e-3,
        batchSize: 64,
        epochs: 3,
        optimizer: 'adam',
      }) as TrainRunConfig,
  );
}

/** A run's final accuracy, sample-weighted over every task's test examples (as `cil-lab run` reports it). */
export const finalAccuracy = (r: TrainRunResult): number => {
  const last = r.matrix[r.matrix.length - 1];
  const n = r.testCounts.reduce((a, b) => a + b, 0);
  return last.reduce((a, v, j) => a + v * r.testCounts[j], 0) / n;
};

export async function benchMode(ds: ImageDataset, mode: BenchMode, orderings: 'all' | 'subset', population = 8): Promise<BenchModeResult> {
  const configs = benchConfigs(orderings);
  const t0 = performance.now();
  let results: TrainRunResult[];
  let P = 1;
  if (mode === 'naive' || mode === 'naive-stock') {
    results = [];
    if (mode === 'naive-stock') restoreStockMatMulGradient();
    try {
      for (const c of configs) results.push(await trainRun(ds, c));
    } finally {
      installWasmMatMulGradient();
    }
  } else {
    // the largest population that actually trained together
    results = await trainShared(ds, configs, { population: mode === 'prefix' ? 1 : population }, { onProgress: (p) => (P = Math.max(P, p.population)) });
  }
  const measured = (performance.now() - t0) / 1000;
  const scale = orderings === 'all' ? 1 : 90 / configs.length;
  return {
    mode,
    seconds: measured * scale,
    measuredSeconds: measured,
    orderings: configs.length,
    extrapolated: orderings !== 'all',
    population: P,
    meanFinalAccuracy: results.reduce((a, r) => a + finalAccuracy(r), 0) / results.length,
  };
}
