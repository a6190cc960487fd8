/**
 * How the Your-classes lab trains (docs/science.md §10): one class per task, in the order the visitor taught them,
 * on L2-normalised features of a frozen image encoder. Fine-tuning and replay train a linear head (the engine's
 * `head` model) with these settings; SimpleCIL keeps one prototype per class (src/core/ptm). Fixed here, not in the
 * link: a classroom compares strategies, not learning rates.
 */
import type { FeatureSet } from '../features/feature-set';
import { OWN_CLASSES_LIMITS as OWN_LIMITS } from '../config/limits';
import type { OwnStrategy } from './strategies';
import { PTM_DEFAULTS, type PtmStrategy } from '../ptm/defaults';

/**
 * The head's training: a linear layer, Adam at 0.01, 20 epochs of batches of 16 on each task. `outputUnits`: the
 * head always has as many output units as the lab's bound on its classes (the units of classes not taught yet are
 * masked out), so its initial weights, and so task t's training, do not depend on how many classes come later: row t
 * of R is the same whether it was computed after class t or after class t + 3.
 */
export const OWN_TRAINING = { epochs: 20, batchSize: 16, lr: 0.01, hidden: [] as number[], outputUnits: OWN_LIMITS.headClasses } as const;

/** Side of the square RGB image each sample is decoded to before the encoder's own preprocessing (app and CLI). */
export const OWN_SAMPLE_SIZE = 96;

/**
 * A class's samples as the lab keeps them from a samples zip: its first `trainPerClass` training images, then its
 * test images, `trainPerClass + testPerClass` in all (the first `trainPerClass` train, the rest test).
 */
export function ownSampleList<T>(train: readonly T[], test: readonly T[], trainPerClass: number, testPerClass: number): T[] {
  return [...train.slice(0, trainPerClass), ...test].slice(0, trainPerClass + testPerClass);
}

/** SimpleCIL as the lab runs it: the cosine classifier over class means. */
export const OWN_SIMPLECIL: PtmStrategy = { id: 'simplecil', options: { metric: 'cosine' } };

/**
 * The closed-form methods as the lab runs them (docs/science.md §9 with its defaults): SimpleCIL's cosine to the
 * class means, NCM's distance to the means of normalised features, FeCAM's Mahalanobis distance (shrinkage 1),
 * RanPAC's ridge classifier on a random projection (M = 2000, λ from the newest class). Null for the trained head.
 */
export function ownPtmStrategy(s: OwnStrategy): PtmStrategy | null {
  switch (s) {
    case 'simplecil':
      return OWN_SIMPLECIL;
    case 'ncm':
      return { id: 'simplecil', options: { metric: 'euclidean' } };
    case 'fecam':
      return { id: 'fecam', options: { ...PTM_DEFAULTS.fecam } };
    case 'ranpac':
      return { id: 'ranpac', options: { ...PTM_DEFAULTS.ranpac } };
    default:
      return null;
  }
}

/** A closed-form method: adding a class computes its statistics and one row of R; nothing is trained. */
export function isClosedForm(s: OwnStrategy): boolean {
  return ownPtmStrategy(s) !== null;
}

/**
 * The methods whose score of a class depends on that class's samples alone (SimpleCIL, NCM, FeCAM): a new class
 * changes none of the old classes' statistics, it can only win some of their test images.
 */
export function isPerClass(s: OwnStrategy): boolean {
  return s === 'simplecil' || s === 'ncm' || s === 'fecam';
}

/** A strategy's button label. */
export const OWN_STRATEGY_LABELS: Readonly<Record<OwnStrategy, string>> = {
  finetune: 'Fine-tune',
  replay: 'Replay',
  simplecil: 'SimpleCIL',
  ncm: 'NCM',
  fecam: 'FeCAM',
  ranpac: 'RanPAC',
};

/** Words for a strategy. */
export const OWN_STRATEGY_NAMES: Readonly<Record<OwnStrategy, string>> = {
  finetune: 'fine-tuning a head',
  replay: 'a head with replay',
  simplecil: 'SimpleCIL prototypes',
  ncm: 'NCM (nearest class mean)',
  fecam: 'FeCAM (a covariance per class)',
  ranpac: 'RanPAC (a ridge classifier on random features)',
};

/** One recorded class: its feature rows (row-major, `d` each), the first `train` of them for training. */
export interface OwnClassRows {
  name: string;
  rows: Float32Array;
  train: number;
}

/**
 * The feature set of the recorded classes: label k = class k in teaching order, rows scaled to unit length (CLIP's
 * own comparison is the cosine; a head learns faster on unit-length rows), each class's first `train` rows split 0
 * (train), the rest split 1 (test).
 */
export function ownFeatureSet(classes: readonly OwnClassRows[], d: number): FeatureSet {
  const n = classes.reduce((s, c) => s + c.rows.length / d, 0);
  const features = new Float32Array(n * d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  let r = 0;
  classes.forEach((c, k) => {
    const m = c.rows.length / d;
    if (!Number.isInteger(m)) throw new RangeError(`Class "${c.name}" has ${c.rows.length} feature values, not a whole number of ${d}-dimensional rows.`);
    for (let i = 0; i < m; i++, r++) {
      let norm = 0;
      for (let t = 0; t < d; t++) norm += c.rows[i * d + t] ** 2;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let t = 0; t < d; t++) features[r * d + t] = c.rows[i * d + t] * scale;
      labels[r] = k;
      split[r] = i < c.train ? 0 : 1;
    }
  });
  return { features, n, d, labels, split, classNames: classes.map((c) => c.name) };
}

/** What an encoder downloads once (the browser caches it), by model id and precision, shown before the first download. */
const DOWNLOAD_SIZES: Readonly<Record<string, Partial<Record<string, string>>>> = {
  'Xenova/clip-vit-base-patch32': { q8: 'about 88 MB', fp16: 'about 176 MB', fp32: 'about 350 MB' },
  'Xenova/clip-vit-base-patch16': { q8: 'about 87 MB', fp32: 'about 345 MB' },
  'Xenova/dinov2-small': { q8: 'about 24 MB', fp32: 'about 88 MB' },
};

/** "CLIP … (about 88 MB, downloaded once when you press the button)", or what is known of another encoder. */
export function encoderDownloadNote(model: string, precision: string, selfHosted: boolean): string {
  if (selfHosted) return `${model} (${precision}) from this site's own folder: nothing is downloaded from elsewhere.`;
  const size = DOWNLOAD_SIZES[model]?.[precision];
  return size
    ? `${model} (${precision}): ${size}, downloaded once (from the hub or the mirror set below) when you press the download button, then kept by the browser.`
    : `${model} (${precision}): downloaded once (from the hub or the mirror set below) when you press the download button, which says its size first; then kept by the browser.`;
}
