/**
 * The bounds on every size a config can ask for — from a share link, a config file, the UI or a CLI flag — set to
 * what this machine can serve: 24 GB of RAM, and one browser tab (its workers included) that Chromium kills
 * ("Page crashed") a little past 4 GB. validateConfig checks them before any work starts and says the bound in
 * its message, so an oversized request is refused instead of crashing the tab (issue 16).
 *
 * How the memory-bound ones were measured (Node 20, V8 as in Chromium; heap kept after a forced GC):
 * - the distribution sample (src/core/orderings/sample.ts sampleOrderingsByShuffle keeps every drawn ordering and
 *   its key until the histogram is made): `node --expose-gc --import tsx` on a script calling it with N classes in
 *   K equal tasks and L orderings gave 2.09 KB per ordering for 30 classes / 30 tasks (L = 20 000 and 100 000),
 *   0.58 KB for 30/3, 1.48 KB for 100/10, 6.8 KB for 100/100, 8.8 KB for 1000/10 and 66 KB for 1000/1000
 *   (1.33 GB and 72 s for L = 20 000). `sampledOrderingBytes` (256 + 8·N + 64·K bytes) is at or above every
 *   one of these. The link of issue 16 (sampleSize 10^7, CIFAR-100, 30 classes in 30 tasks) needed ≈ 21 GB;
 * - the exact histogram (score-distribution.ts) keeps one float64 per ordering of Ω: exactLimit = 10^8 is 800 MB
 *   (12 classes in 6 tasks, 7.5 · 10^6 orderings: 6.7 µs each on this machine, so 10^8 takes ≈ 11 minutes).
 * Model sizes mirror src/engine/models.ts (float32 weights; training keeps the weights, their gradients and
 * Adam's two moments, plus what a strategy keeps of past tasks and the checkpoints of shared prefixes).
 *
 * Layering: pure TS, imports only src/core.
 */
import type { ModelConfig } from './types';

export const CONFIG_LIMITS = {
  classes: 1000,
  classNameLength: 200,
  textLength: 2000,
  seeds: 100,
  /** A lab's `seeds` (Forgetting, Open world, Time, Curriculum): each seed is one more full run of the lab. */
  labSeeds: 20,
  rsSeeds: 1000,
  hiddenLayers: 8,
  width: 4096,
  /**
   * The head's hidden width (model kind 'head'): over the widest feature vector a feature set may hold (16 384,
   * src/core/features/feature-set.ts) a 1024-unit layer is 16.8 M weights, inside `parameters`.
   */
  headWidth: 1024,
  /** An image encoder's model id and revision (features.model, features.revision). */
  modelIdLength: 200,
  epochs: 1000,
  /** protocols.distribution.sampleSize, whatever the classes (the histogram of S has 40 bins: more adds nothing). */
  distributionSample: 200_000,
  /** Heap the distribution sample may keep (a third of the tab); with many classes and tasks it caps the sample lower. */
  distributionSampleBytes: 1_500_000_000,
  /** protocols.exactLimit: one float64 per enumerated ordering, 800 MB. */
  exactLimit: 100_000_000,
  /** protocols.msSamples: streamed (one ordering at a time), so bounded by time, not memory. */
  msSamples: 1_000_000,
  /** groundTruth.budget: orderings drawn and planned (each kept like a distribution sample). */
  groundTruthBudget: 100_000,
  /** Training runs of a ground truth: budget × strategies × seeds, each keeping a run record in the tab. */
  groundTruthRuns: 200_000,
  /** training.batchSize */
  batchSize: 65_536,
  /** Weights of the model (float32: 100 MB; training holds several copies). */
  parameters: 25_000_000,
  /** Activations of one training batch, batchSize × values per example (float32: 200 MB, and as much again for their gradients). */
  batchActivations: 50_000_000,
  /** data.trainPerClass / testPerClass (the built-in datasets have fewer; the first n of each class are used). */
  perClass: 1_000_000,
  /** Strategy options counted in examples (memory, fisherSamples, A-GEM's sampleSize): never more than the data seen. */
  strategyExamples: 1_000_000,
  /** Numbers an uploaded similarity file may hold (rows × columns; float64: 200 MB). Its classes: at most `classes`. */
  uploadValues: 25_000_000,
  /** conformal.raps.kReg */
  kReg: 100_000,
  /** ui.hiddenControls entries, and the length of ui.selectedOrdering */
  hiddenControls: 100,
  orderingKeyLength: 20_000,
} as const;

/** 200000 → "200 000" (messages name bounds readably). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** Bytes the distribution sample keeps per drawn ordering of `classes` classes in `tasks` tasks (an upper estimate; see the header). */
export function sampledOrderingBytes(classes: number, tasks: number): number {
  return 256 + 8 * classes + 64 * tasks;
}

/** The most orderings the distribution sample may draw for `classes` classes in `tasks` tasks. */
export function distributionSampleLimit(classes: number, tasks: number): number {
  const byMemory = Math.floor(CONFIG_LIMITS.distributionSampleBytes / sampledOrderingBytes(classes, tasks));
  return Math.max(1, Math.min(CONFIG_LIMITS.distributionSample, byMemory));
}

/** Spatial size after the engine's 2×2 max-pool, stride 2, 'same' padding. */
const pooled = (n: number): number => Math.ceil(n / 2);

/**
 * Weights of a model on images of `shape` ([height, width, channels]) with `outputs` output units, and the
 * values one example produces on its way through (input and every layer's output), as src/engine/models.ts
 * builds it: MLP (and a head, over a feature vector of shape [1, 1, d]) dense layers; CNN two blocks of 3×3 'same'
 * conv + 2×2 max-pool, then dense, then the output.
 */
export function modelSize(model: ModelConfig, shape: readonly [number, number, number], outputs: number): { parameters: number; activations: number } {
  const [h, w, c] = shape;
  let parameters = 0;
  let activations = h * w * c;
  if (model.kind === 'mlp' || model.kind === 'head') {
    let width = h * w * c;
    for (const units of [...model.hidden, outputs]) {
      parameters += width * units + units;
      activations += units;
      width = units;
    }
    return { parameters, activations };
  }
  let ch = c;
  let hh = h;
  let ww = w;
  for (const f of model.filters) {
    parameters += 9 * ch * f + f;
    activations += hh * ww * f; // the conv's output …
    hh = pooled(hh);
    ww = pooled(ww);
    activations += hh * ww * f; // … and the pool's
    ch = f;
  }
  const flat = hh * ww * ch;
  parameters += flat * model.dense + model.dense + model.dense * outputs + outputs;
  activations += model.dense + outputs;
  return { parameters, activations };
}
