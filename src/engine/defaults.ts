/**
 * Every hyper-parameter of the engine with its default, in one place ("every hyper-parameter has a
 * documented default and can be set"). A run's config may override any of them; `resolveTrainConfig` fills in
 * the rest, and the resolved config is what a result records.
 *
 * Sources of the defaults, where a paper or a common library gives one:
 * - Adam (lr 1e-3, β 0.9/0.999, ε 1e-8): PyTorch's defaults; docs/science.md §3 names no optimiser for the CPCF
 *   paper, so Adam is ours. The CPCF preset sets lr 2e-5, 8 epochs on the base task and 3 afterwards.
 * - EWC λ: PyCIL's `lamda = 1000`; empirical diagonal Fisher over up to 200 training samples of the task.
 * - LwF α = 1, T = 2: Avalanche's `LwF(alpha=1, temperature=2)`; T = 2 is also Hinton's and PyCIL's choice.
 * - SI c = 1, ξ = 1e-3: Zenke, Poole & Ganguli (2017), split-MNIST setting.
 * - Replay / iCaRL / A-GEM / GDumb memory 200 examples in total: a small fixed budget that fits the built-in
 *   data (iCaRL's CIFAR-100 runs use 2000 for 100 classes, i.e. 20 per class; 200 over 10 classes is the same).
 * - A-GEM reference batch 64 (Chaudhry et al. 2019 use 256 on larger data; we keep it at the batch size).
 */
/** How initial weights are drawn (models.ts `initWeights`). */
export type InitScheme = 'he-glorot' | 'pytorch';
export const INIT_SCHEMES: readonly InitScheme[] = ['he-glorot', 'pytorch'];

export const TRAINER_DEFAULTS = {
  /** 'adam' (default) or plain 'sgd' (no momentum), created fresh at every task. */
  optimizer: 'adam' as 'adam' | 'sgd',
  /** Learning rate. */
  lr: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  epsilon: 1e-8,
  /** Training batch size. */
  batchSize: 64,
  /** Epochs per task (the first task may differ: `firstTaskEpochs`). */
  epochs: 3,
  /** Batch size of evaluation and feature extraction (no gradients: larger is fine). */
  evalBatchSize: 512,
  /**
   * 'seen': the single output head is masked to the classes seen so far, for training and prediction (the
   * growing head of PyCIL/Avalanche); 'all': every output unit takes part from the start (the CPCF paper's MLP).
   */
  head: 'seen' as 'seen' | 'all',
  /**
   * Initial weights (models.ts): 'he-glorot' (He-uniform hidden, Glorot-uniform output, zero biases) or 'pytorch'
   * (torch.nn.Linear's U(±1/√fan_in) for weights and biases: the distribution a plain PyTorch script starts from).
   */
  init: 'he-glorot' as InitScheme,
  /** Report progress (and read the loss back from the device) every this many steps. */
  progressEvery: 1,
  /** Yield to the event loop when this many milliseconds passed since the last yield (keeps a worker responsive). */
  yieldEveryMs: 25,
  /**
   * Seeded augmentation of the training batches (augment.ts; the magnitudes are AUGMENT_DEFAULTS). Off for every
   * dataset in the engine: the caller turns it on where it belongs — `cil-lab run` and the app do for emoji, whose
   * test images are renderings by artists the model never trains on, and not for the other datasets.
   */
  augment: false as boolean,
} as const;

/**
 * Training-batch augmentation (augment.ts), per example, with a seeded generator of its own per task (so the
 * batch order and every other stream are the same with and without it). Every magnitude 0 = the identity.
 * Order: geometry (shift, scale, rotation; bilinear sampling, the area brought in filled with the background
 * colour), then background replacement, then colour jitter. The defaults are tuned on the 32×32 emoji on white
 * (test-results/augment-emoji.png shows them); for other sizes scale `shift` with the image.
 *
 * "The background colour" of an image is the per-channel median of its border pixels (white for emoji, black for
 * Fashion-MNIST and digits).
 */
export const AUGMENT_DEFAULTS = {
  /** Largest translation in pixels: dx, dy each a uniform whole number in [−shift, shift]. */
  shift: 2,
  /** Zoom about the image centre by a factor uniform in [1 − scale, 1 + scale] (0.85–1.15); in [0, 1). */
  scale: 0.15,
  /** Rotation about the centre by an angle uniform in [−rotation, rotation] degrees; in [0, 180]. */
  rotation: 15,
  /** RGB only: brightness factor uniform in [1 − b, 1 + b] multiplies every channel (torchvision ColorJitter). */
  brightness: 0.2,
  /** RGB only: contrast factor c in [1 − c, 1 + c] blends with the image's mean grey: m + c·(v − m). */
  contrast: 0.2,
  /** RGB only: saturation factor s in [1 − s, 1 + s] blends with the pixel's grey (ITU-R 601 luma): g + s·(v − g). */
  saturation: 0.3,
  /**
   * RGB only, light backgrounds only (every channel of the background colour ≥ 192): the probability that an
   * image's background is replaced by a random light colour, each channel uniform in [backgroundMin, 255].
   * The other images keep their background (the test renderings are on white too).
   */
  background: 0.5,
  /** Lowest channel value of a replacement background colour (0–255). */
  backgroundMin: 160,
  /**
   * A pixel whose largest channel difference d from the background colour is ≤ tolerance is background and takes
   * the new colour; up to 2·tolerance it moves part of the way, (2·tol − d)/tol (the anti-aliased rim); beyond
   * 2·tolerance it is left exactly as it was (0–255).
   */
  backgroundTolerance: 24,
} as const;

export type AugmentOptions = { -readonly [K in keyof typeof AUGMENT_DEFAULTS]: number };

/** Default calibration split ratio r (docs/science.md §3: default 0.1). */
export const CALIBRATION_DEFAULTS = {
  ratio: 0.1,
  /** Softmax over the classes seen so far (docs/science.md §3), or over the full head ('all'). */
  softmax: 'seen' as 'seen' | 'all',
} as const;

/** Model defaults: the CPCF paper's MLP 784-256-128-10 hidden widths, and a small two-block CNN. */
export const MODEL_DEFAULTS = {
  mlp: { hidden: [256, 128] as number[] },
  cnn: { filters: [16, 32] as number[], dense: 128 },
  /** A head over feature vectors: linear by default (a linear probe), or one hidden layer. */
  head: { hidden: [] as number[] },
} as const;

export const STRATEGY_DEFAULTS = {
  finetune: {},
  joint: {},
  ewc: {
    /** λ of the quadratic penalty (λ/2)·Σ F_i (θ_i − θ*_i)². */
    lambda: 1000,
    /** 'single': only the last task's Fisher; 'multi': one Fisher per past task with λ_j = λ / 2^{t−j−1}. */
    mode: 'multi' as 'single' | 'multi',
    /** Samples of the task's training data the empirical Fisher is averaged over (seeded; all if fewer). */
    fisherSamples: 200,
  },
  lwf: {
    /** Weight α of the distillation term. */
    alpha: 1,
    /** Distillation temperature T. */
    temperature: 2,
  },
  si: {
    /** Strength c of the surrogate penalty c·Σ Ω_i (θ_i − θ*_i)². */
    c: 1,
    /** Damping ξ in Ω_i += ω_i / (Δθ_i² + ξ). */
    xi: 1e-3,
  },
  replay: {
    /** Memory budget: examples kept in total over all classes. */
    memory: 200,
    /** 'reservoir': uniform over the stream (Vitter's algorithm R); 'herding': iCaRL's per-class herding. */
    selection: 'reservoir' as 'reservoir' | 'herding',
  },
  icarl: {
    memory: 200,
    /** Weight of the distillation term (PyCIL: loss_clf + loss_kd). */
    distillWeight: 1,
    temperature: 2,
  },
  agem: {
    memory: 200,
    /** Size of the reference batch drawn from the episodic memory at each step. */
    sampleSize: 64,
  },
  gdumb: {
    memory: 200,
  },
  ncm: {},
} as const;

export type StrategyId = keyof typeof STRATEGY_DEFAULTS;
export const STRATEGY_IDS = Object.keys(STRATEGY_DEFAULTS) as StrategyId[];

/** Widen literal types of a defaults object to their value types (`1000` → number). */
type Widen<T> = T extends string
  ? T
  : T extends number
    ? number
    : T extends readonly (infer U)[]
      ? Widen<U>[]
      : T extends object
        ? { -readonly [K in keyof T]: Widen<T[K]> }
        : T;

export type StrategyOptionsMap = Widen<typeof STRATEGY_DEFAULTS>;
export type EwcOptions = StrategyOptionsMap['ewc'];
export type LwfOptions = StrategyOptionsMap['lwf'];
export type SiOptions = StrategyOptionsMap['si'];
export type ReplayOptions = StrategyOptionsMap['replay'];
export type IcarlOptions = StrategyOptionsMap['icarl'];
export type AgemOptions = StrategyOptionsMap['agem'];
export type GdumbOptions = StrategyOptionsMap['gdumb'];
