/**
 * The fine-tuning OOD detectors (docs/science.md §5 "Fine-tuning detectors"; OpenCIL's Algorithm 2): after each step
 * a linear head, initialised from the classifier's output layer, is trained on the frozen CIL model's penultimate
 * features, and BER, LogitNorm or RegMixup scores with it. The CIL model is never changed; inputs are mixed in pixel
 * space and pushed through the frozen backbone, as the authors mix images. The margins' and learning rate's
 * departures from the paper, and what they measured, are in science.md; the settings in HEAD_DEFAULTS
 * (src/core/ood/detectors.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { berTerms, HEAD_DEFAULTS, type FineTuningDetector, type HeadSettings } from '../../core/ood/detectors';
import type { DefaultRng } from '../../core/random/default-rng';
import { batchImages } from '../dataset';
import { ensureGradients } from '../gradients';
import { crossEntropy, oneHotRows } from '../losses';
import type { Network } from '../models';
import type { ImageDataset, ImageSplit } from '../types';

/** A head's weights: W row-major d × width, b width. */
export interface HeadParams {
  W: Float32Array;
  b: Float32Array;
  d: number;
  width: number;
}

/** The classifier's output layer restricted to the first `width` units, from a network's weight arrays. */
export function classifierHead(weights: Float32Array[], d: number, outputs: number, width: number): HeadParams {
  const kernel = weights[weights.length - 2];
  const bias = weights[weights.length - 1];
  if (kernel.length !== d * outputs || bias.length !== outputs) throw new Error(`classifierHead: expected a ${d}×${outputs} output layer.`);
  const W = new Float32Array(d * width);
  for (let k = 0; k < d; k++) W.set(kernel.subarray(k * outputs, k * outputs + width), k * width);
  return { W, b: bias.slice(0, width), d, width };
}

/** E = −logsumexp(z) per row. */
export function energyOf(z: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.neg(tf.logSumExp(z, 1)) as tf.Tensor1D);
}

/** mean relu(E − m_in)² */
export function hIn(E: tf.Tensor1D, marginIn: number): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.square(tf.relu(tf.sub(E, marginIn)))) as tf.Scalar);
}

/** mean relu(m_out − E)² */
export function hOut(E: tf.Tensor1D, marginOut: number): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.square(tf.relu(tf.sub(marginOut, E)))) as tf.Scalar);
}

/** Features of one BER batch (frozen backbone outputs) and labels. */
export interface BerBatch {
  fNew: tf.Tensor2D;
  yNew: tf.Tensor1D;
  /** features of mix(x_new); null when NTER is off */
  fMix: tf.Tensor2D | null;
  /** features of the old samples (old' when OTER is on, raw memory samples otherwise); null without memory */
  fOld: tf.Tensor2D | null;
  yOld: tf.Tensor1D | null;
}

export interface BerLossParts {
  ceNew: tf.Scalar;
  ceOld: tf.Scalar | null;
  hInNew: tf.Scalar | null;
  hOutMix: tf.Scalar | null;
  hInOld: tf.Scalar | null;
  total: tf.Scalar;
}

const linear = (f: tf.Tensor2D, W: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor2D => tf.add(tf.matMul(f, W), b) as tf.Tensor2D;

/**
 * BER's loss on one batch, term by term: E(x) = −logsumexp(head(f(x))) (τ = 1), h_in = relu(E − m_in)²,
 * h_out = relu(m_out − E)²; loss = CE(new) + CE(old') + α·(mean h_in(new) + mean h_out(mix(new)) + mean h_in(old')),
 * where mix(x) = λx + (1−λ)x[π] (λ ~ Beta(1, 1) and π one per batch) and old' = 0.002·x_new + 0.998·x_old (B old
 * examples drawn uniformly with replacement from the memory, paired with the batch's new ones; the old labels).
 * With no memory the old terms are absent. Ablation (the paper's Table 2): `nter` = the two new-data energy terms,
 * `oter` = the old-sample mixing and h_in(old'); with OTER off the old samples still train the head by CE, unmixed
 * (the fine-tuning framework always trains on current data + memory). Call inside a tidy / gradient tape.
 */
export function berLoss(
  W: tf.Tensor2D,
  b: tf.Tensor1D,
  batch: BerBatch,
  s: Pick<HeadSettings, 'alpha' | 'marginIn' | 'marginOut'>,
  terms: { nter: boolean; oter: boolean },
): BerLossParts {
  const zNew = linear(batch.fNew, W, b);
  const ceNew = crossEntropy(zNew, batch.yNew);
  let total: tf.Scalar = ceNew;
  let ceOld: tf.Scalar | null = null;
  let hInNew: tf.Scalar | null = null;
  let hOutMix: tf.Scalar | null = null;
  let hInOld: tf.Scalar | null = null;
  let reg: tf.Scalar | null = null;
  const addReg = (t: tf.Scalar) => (reg = reg ? (tf.add(reg, t) as tf.Scalar) : t);
  if (batch.fOld && batch.yOld) {
    const zOld = linear(batch.fOld, W, b);
    ceOld = crossEntropy(zOld, batch.yOld);
    total = tf.add(total, ceOld) as tf.Scalar;
    if (terms.oter) addReg((hInOld = hIn(energyOf(zOld), s.marginIn)));
  }
  if (terms.nter) {
    if (!batch.fMix) throw new Error('berLoss: NTER needs the features of the mixed batch.');
    addReg((hInNew = hIn(energyOf(zNew), s.marginIn)));
    addReg((hOutMix = hOut(energyOf(linear(batch.fMix, W, b)), s.marginOut)));
  }
  if (reg) total = tf.add(total, tf.mul(reg, s.alpha)) as tf.Scalar;
  return { ceNew, ceOld, hInNew, hOutMix, hInOld, total };
}

/** LogitNorm's loss: CE(z / (τ·(‖z‖ + 1e-7))), on batches of new and old data together; the head is then scored with
 * MSP of its raw logits (OpenOOD's LogitNorm uses the MSP postprocessor). */
export function logitNormLoss(z: tf.Tensor2D, y: tf.Tensor1D, tau: number): tf.Scalar {
  return tf.tidy(() => {
    const norm = tf.add(tf.norm(z, 'euclidean', 1, true), 1e-7);
    return crossEntropy(tf.div(z, tf.mul(norm, tau)) as tf.Tensor2D, y);
  });
}

/** Soft-label cross-entropy −mean Σ t·log softmax(z). */
function softCrossEntropy(z: tf.Tensor2D, target: tf.Tensor2D): tf.Scalar {
  return tf.neg(tf.mean(tf.sum(tf.mul(target, tf.logSoftmax(z)), 1))) as tf.Scalar;
}

/** RegMixup's loss (OpenOOD's regmixup trainer): ½(CE(clean) + λ·CE(mix, y) + (1−λ)·CE(mix, y[π])), λ ~ Beta(10, 10),
 * the clean batch and its mix through the head together (OpenOOD's mixup criterion over the concatenation). */
export function regMixupLoss(zClean: tf.Tensor2D, zMix: tf.Tensor2D, y: tf.Tensor1D, yPerm: tf.Tensor1D, lambda: number): tf.Scalar {
  return tf.tidy(() => {
    const w = zClean.shape[1];
    const mixTarget = tf.add(tf.mul(oneHotRows(y, w), lambda), tf.mul(oneHotRows(yPerm, w), 1 - lambda)) as tf.Tensor2D;
    return tf.mul(tf.add(crossEntropy(zClean, y), softCrossEntropy(zMix, mixTarget)), 0.5) as tf.Scalar;
  });
}

/** A Beta(a, a) draw from the seeded generator: Beta(1, 1) is uniform; otherwise two Marsaglia–Tsang gammas. */
export function betaSample(rng: DefaultRng, a: number): number {
  if (a === 1) return rng.random();
  const gamma = (k: number): number => {
    const d = k - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        // Box–Muller normal from two uniforms (1 − u keeps the log finite)
        x = Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = 1 - rng.random();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  if (!(a >= 1)) throw new RangeError(`betaSample supports a ≥ 1; got ${a}.`);
  const g1 = gamma(a);
  const g2 = gamma(a);
  return g1 / (g1 + g2);
}

/** What a head trains on. */
export interface HeadData {
  network: Network;
  ds: ImageDataset;
  split: ImageSplit;
  /** the current task's training examples and their output units */
  newExamples: Int32Array;
  newUnits: Int32Array;
  /** the memory's examples (from before this task) and their units */
  oldExamples: Int32Array;
  oldUnits: Int32Array;
}

/**
 * Trains one fine-tuning detector's head from `initial`; returns its weights. SGD as PyTorch's (d = g + wd·p;
 * buf = μ·buf + d, buf = d on the first step; p −= lr·buf) with a per-iteration cosine schedule; BER's batches run
 * over the new data in a seeded permutation per epoch, LogitNorm's and RegMixup's over new + old data shuffled.
 * Every random draw comes from `rng`. Tensors are all released.
 */
export async function trainHead(
  kind: FineTuningDetector,
  data: HeadData,
  initial: HeadParams,
  rng: DefaultRng,
  settings: Partial<HeadSettings> = {},
  pausePoint: () => Promise<void> = async () => {},
): Promise<HeadParams> {
  await ensureGradients();
  const s = { ...HEAD_DEFAULTS, ...settings };
  const { d, width } = initial;
  const variable = (t: tf.Tensor): tf.Variable => {
    const v = tf.variable(t, true);
    t.dispose(); // the variable holds its own reference to the data
    return v;
  };
  const W = variable(tf.tensor2d(initial.W, [d, width])) as tf.Variable<tf.Rank.R2>;
  const b = variable(tf.tensor1d(initial.b)) as tf.Variable<tf.Rank.R1>;
  const bufs: (tf.Tensor | null)[] = [null, null];
  const terms = berTerms(kind);
  const ber = terms !== null;
  // BER runs over the new data and draws old samples; LogitNorm and RegMixup run over new + old together
  const pool = ber ? data.newExamples : Int32Array.from([...data.newExamples, ...data.oldExamples]);
  const poolUnits = ber ? data.newUnits : Int32Array.from([...data.newUnits, ...data.oldUnits]);
  const n = pool.length;
  const B = s.batchSize;
  const stepsPerEpoch = Math.ceil(n / B);
  const S = s.epochs * stepsPerEpoch;
  const net = data.network;
  const img = (idx: ArrayLike<number>) => batchImages(data.ds, data.split, idx);
  let step = 0;
  try {
    for (let epoch = 0; epoch < s.epochs; epoch++) {
      const perm = rng.permutation(n);
      for (let k = 0; k < stepsPerEpoch; k++, step++) {
        await pausePoint();
        const pick = perm.slice(k * B, Math.min(n, (k + 1) * B));
        const idx = Int32Array.from(pick, (p) => pool[p]);
        const units = Int32Array.from(pick, (p) => poolUnits[p]);
        const m = idx.length;
        const lambda = ber ? rng.random() : kind === 'regmixup' ? betaSample(rng, s.regMixupAlpha) : 0;
        const mixPerm = ber || kind === 'regmixup' ? rng.permutation(m) : [];
        const oldPick = ber && data.oldExamples.length > 0 ? Array.from({ length: m }, () => rng.integers(0, data.oldExamples.length)) : [];
        const lr = s.lr * 0.5 * (1 + Math.cos((Math.PI * step) / S));
        const grads = tf.tidy(() => {
          const x = img(idx);
          const y = tf.tensor1d(units, 'int32');
          const permT = tf.tensor1d(Int32Array.from(mixPerm), 'int32');
          const mixed = mixPerm.length > 0 ? tf.add(tf.mul(x, lambda), tf.mul(tf.gather(x, permT), 1 - lambda)) : null;
          const f = net.features(x);
          let loss: () => tf.Scalar;
          if (ber && terms) {
            let fOld: tf.Tensor2D | null = null;
            let yOld: tf.Tensor1D | null = null;
            if (oldPick.length > 0) {
              const xo = img(Int32Array.from(oldPick, (j) => data.oldExamples[j]));
              const oldIn = terms.oter ? tf.add(tf.mul(x, s.oldMix), tf.mul(xo, 1 - s.oldMix)) : xo;
              fOld = net.features(oldIn as tf.Tensor4D);
              yOld = tf.tensor1d(
                Int32Array.from(oldPick, (j) => data.oldUnits[j]),
                'int32',
              );
            }
            const fMix = terms.nter && mixed ? net.features(mixed as tf.Tensor4D) : null;
            loss = () => berLoss(W, b, { fNew: f, yNew: y, fMix, fOld, yOld }, s, terms).total;
          } else if (kind === 'logitnorm') {
            loss = () => logitNormLoss(linear(f, W, b), y, s.logitNormTau);
          } else {
            const fMix = net.features(mixed as tf.Tensor4D);
            const yPerm = tf.gather(y, permT) as tf.Tensor1D;
            loss = () => regMixupLoss(linear(f, W, b), linear(fMix, W, b), y, yPerm, lambda);
          }
          const { grads: g } = tf.variableGrads(loss, [W, b]);
          return [g[W.name], g[b.name]];
        });
        // PyTorch SGD with momentum and weight decay
        tf.tidy(() => {
          [W, b].forEach((p, i) => {
            const dp = tf.add(grads[i], tf.mul(p, s.weightDecay));
            const prev = bufs[i];
            const buf = prev ? tf.add(tf.mul(prev, s.momentum), dp) : dp;
            p.assign(tf.sub(p, tf.mul(buf, lr)));
            if (prev) prev.dispose();
            bufs[i] = tf.keep(buf);
          });
        });
        for (const g of grads) g.dispose();
      }
    }
    const [Wd, bd] = await Promise.all([W.data(), b.data()]);
    const out = { W: Float32Array.from(Wd as Float32Array), b: Float32Array.from(bd as Float32Array), d, width };
    if (!out.W.every(Number.isFinite) || !out.b.every(Number.isFinite)) {
      throw new Error(`The ${kind} head diverged (its weights are not finite numbers): lower its learning rate (now ${s.lr}).`);
    }
    return out;
  } finally {
    W.dispose();
    b.dispose();
    for (const t of bufs) t?.dispose();
  }
}

/** The head's logits on `examples` (width columns), n × width row-major. */
export async function headLogitsOn(
  network: Network,
  head: HeadParams,
  ds: ImageDataset,
  split: ImageSplit,
  examples: ArrayLike<number>,
  batchSize = 512,
): Promise<Float32Array> {
  const idx = Int32Array.from(examples as ArrayLike<number>);
  const out = new Float32Array(idx.length * head.width);
  const W = tf.tensor2d(head.W, [head.d, head.width]);
  const b = tf.tensor1d(head.b);
  try {
    for (let at = 0; at < idx.length; at += batchSize) {
      const part = idx.subarray(at, Math.min(idx.length, at + batchSize));
      const z = tf.tidy(() => linear(network.features(batchImages(ds, split, part)), W, b));
      out.set((await z.data()) as Float32Array, at * head.width);
      z.dispose();
    }
  } finally {
    W.dispose();
    b.dispose();
  }
  return out;
}
