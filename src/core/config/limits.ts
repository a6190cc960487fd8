/**
 * The bounds on every size a config can ask for (from a share link, a config file, the UI or a CLI flag), set to
 * what this machine can serve: 24 GB of RAM, and one browser tab (its workers included) that Chromium kills a
 * little past 4 GB. validateConfig checks them before any work starts and says the bound in its message, so an
 * oversized request is refused instead of crashing the tab. The memory bounds were measured (Node 20, V8 as in
 * Chromium, heap after a forced GC; see `sampledOrderingBytes` and `exactLimit`); model sizes mirror
 * src/engine/models.ts (float32 weights, their gradients and Adam's two moments, plus what a strategy keeps of past
 * tasks and the checkpoints of shared prefixes). Pure TS, imports only src/core.
 */

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
  /** protocols.exactLimit: one float64 per enumerated ordering, 800 MB (score-distribution.ts; 12 classes in 6 tasks,
   * 7.5 · 10^6 orderings, took 6.7 µs each here, so 10^8 takes ≈ 11 minutes). */
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
  /**
   * Weights of the Open-world lab's model: besides training it, the lab keeps a checkpoint after every step and
   * fits the detectors on its features. Its heaviest link at 24.2 M weights peaked at 1.6 GB in one process
   * (scripts/lab-memory.ts open-world: 15 detectors, 3 OOD sets, 3 steps); at this bound the drill stays well
   * under the tab's 1.5 GB (README, drills).
   */
  openWorldParameters: 8_000_000,
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
  /** Learning rates (training.lr, a head's lr): in (0, lr]. */
  lr: 10,
  /** openWorld.oodSets and openWorld.detectors entries, and the length of one (an OOD set is "fashion-mnist:6-9"). */
  oodSets: 16,
  detectors: 32,
  settingNameLength: 80,
  /** BER's energy margins (openWorld.marginIn / marginOut): in [−margin, margin]. */
  margin: 10_000,
  /**
   * CLEAR's Alg. 1 (src/core/stream/reservoir.ts, `cil-lab reservoir`, the Time lab's buffer): buckets, the buffer
   * size k, trials. Each trial keeps every bucket's buffer (buckets × min(k, samples) positions, at most
   * `reservoirKept`: 200 MB of int32) and a buckets × buckets composition; its work is a draw per sample plus a
   * shuffle and a count of every kept buffer, ≈ 120 ns per unit on this machine (5 buckets of 1000, k = 1000:
   * 1000 trials in 1.2 s), so `reservoirWork` units take about half a minute.
   */
  reservoirBuckets: 1000,
  reservoirK: 100_000,
  reservoirTrials: 1_000_000,
  reservoirKept: 50_000_000,
  reservoirWork: 250_000_000,
  /** Models trained in lockstep (`cil-lab run --population N`; src/engine/population.ts choosePopulation's most). */
  population: 32,
  /** Shards of one sweep (`cil-lab sweep --shard i/n`); never more than the experiment has runs. */
  shards: 10_000,
  /** Bytes the CLI reads from one file (configs, similarity files, class lists, results, shard files): 256 MiB. */
  inputBytes: 256 * 1024 * 1024,
  /** Bytes of one dataset file (`cil-lab run --dataset PATH`, the built-in data): 1 GiB. */
  datasetBytes: 1024 * 1024 * 1024,
  /** Images an image encoder embeds at once (`cil-lab features --batch-size`): 256 images of 224×224×3 float32 are 154 MB. */
  encoderBatch: 256,
  /** Bytes of one feature file (`--features F.npz`, `features --source file:F.npz`): 2 GiB. */
  featureBytes: 2 * 1024 * 1024 * 1024,
} as const;

/**
 * The Time lab's settings (src/core/labs/time/settings.ts; the share link's `time` section and `cil-lab stream`): what a
 * tab trains in minutes on this machine, within 1.5 GB. K buckets of `perClass` images of each of 10 classes; the iid protocol's
 * training share `trainRatio`; a model of at most 4 hidden layers.
 */
export const TIME_LIMITS = {
  buckets: { min: 2, max: 10 },
  perClass: { min: 4, max: 600 },
  strength: { min: 0, max: 2 },
  trainRatio: { min: 0.1, max: 0.9 },
  k: { min: 1, max: CONFIG_LIMITS.reservoirK },
  epochs: { min: 1, max: 100 },
  batchSize: { min: 1, max: 1024 },
  hiddenLayers: 4,
  /**
   * At 4 × 2048 (14.2 M weights) the heaviest Time link peaked at 1.3 GB with 12 images per class and bucket, and the
   * linear probe's features of 60 000 images add 0.5 GB (scripts/lab-memory.ts time): the tab's 1.5 GB is kept by
   * 4 × 1024 (4.0 M weights).
   */
  width: 1024,
} as const;

/**
 * The Your-classes lab's sizes (src/core/labs/own-classes/section.ts; `cil-lab own-classes`). A closed-form head
 * (SimpleCIL, NCM, FeCAM, RanPAC) takes up to `classes` classes: adding one computes one row of R from the features
 * (docs/science.md §10). The fine-tuned head (fine-tune, replay) re-trains on every class and stays at `headClasses`.
 * `samples` bounds a whole set, classes × (train + test): 128 classes of 50 samples (CLIP ViT-B/32's 512 float32
 * values each: 13 MB of features, and the JPEGs in IndexedDB, not in the tab). Every ordering is enumerated up to
 * `exactClasses` classes (8! = 40 320 orderings, 2⁸ class sets for a closed-form head; the fine-tuned head trains
 * each ordering, so up to `headExactClasses`, 720), and sampled above (`sampledOrderings` of them). `fps`: frames a
 * second the recorder may take.
 */
export const OWN_CLASSES_LIMITS = {
  classes: 128,
  headClasses: 8,
  trainPerClass: 200,
  testPerClass: 100,
  samples: 6_400,
  exactClasses: 8,
  headExactClasses: 6,
  sampledOrderings: 10_000,
  headSampledOrderings: 200,
  fps: 30,
} as const;

/** The Curriculum lab's sizes (what a browser tab trains in minutes to an hour on this machine's 2 cores). */
export const CURRICULUM_LIMITS = { epochs: 50, hidden: 1024, trainPerClass: 6000, testPerClass: 1000 } as const;

/** 200000 → "200 000" (messages name bounds readably). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/**
 * Bytes the distribution sample keeps per drawn ordering of `classes` classes in `tasks` tasks, an upper estimate:
 * 256 + 8·N + 64·K. sampleOrderingsByShuffle keeps every drawn ordering and its key until the histogram is made;
 * measured (`node --expose-gc --import tsx`, N classes in K equal tasks): 2.09 KB per ordering for 30/30 (L = 20 000
 * and 100 000), 0.58 KB for 30/3, 1.48 KB for 100/10, 6.8 KB for 100/100, 8.8 KB for 1000/10, 66 KB for 1000/1000
 * (1.33 GB and 72 s for L = 20 000); this is at or above each. A link with sampleSize 10^7 (30 classes in 30 tasks)
 * needed ≈ 21 GB.
 */
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
 * A model as modelSize reads it: ModelConfig of ./types.ts, restated so that this table of bounds imports nothing
 * (the config's types import modules that read these bounds).
 */
type ModelShape =
  { kind: 'mlp'; hidden: readonly number[] } | { kind: 'head'; hidden: readonly number[] } | { kind: 'cnn'; filters: readonly number[]; dense: number };

/**
 * Weights of a model on images of `shape` ([height, width, channels]) with `outputs` output units, and the
 * values one example produces on its way through (input and every layer's output), as src/engine/models.ts
 * builds it: MLP (and a head, over a feature vector of shape [1, 1, d]) dense layers; CNN two blocks of 3×3 'same'
 * conv + 2×2 max-pool, then dense, then the output.
 */
export function modelSize(model: ModelShape, shape: readonly [number, number, number], outputs: number): { parameters: number; activations: number } {
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
