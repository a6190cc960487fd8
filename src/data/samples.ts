/**
 * Choosing and packing a few sample images per class of a split (pure; no DOM): the data worker uses these to send
 * the UI only the pixels it shows. The Data page's drawing helpers live in src/ui/data/sample-grid.ts.
 */
import { createRandomState } from '../core/random/random-state';
import type { SplitName } from './format';

export type { SplitName };

/** Labels of one split, as the parsers and the built-in decoder give them. */
export type Labels = Uint8Array | Int32Array | readonly number[];

/** A few images per class of one split, packed for the UI (the only pixels that leave the data worker). */
export interface SampleSet {
  split: SplitName;
  /** [height, width, channels]; channels 1 = grey, 3 = RGB */
  shape: [number, number, number];
  /** S, the number of images asked for per class */
  perClass: number;
  seed: number;
  /** one entry per class (index = label): the chosen images' indices in the split, their styles (emoji), and where
   *  their pixels start in `pixels` (in images, not bytes) */
  classes: { indices: number[]; styles?: number[]; start: number }[];
  /** the chosen images back to back, class by class, H × W × C bytes each */
  pixels: Uint8Array;
}

/** Images per class (index = label). */
export function countPerClass(labels: Labels, classCount: number): number[] {
  const out = new Array<number>(classCount).fill(0);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    if (y >= 0 && y < classCount) out[y]++;
  }
  return out;
}

/** Indices of each class's images, in split order. */
export function indicesPerClass(labels: Labels, classCount: number): number[][] {
  const out: number[][] = Array.from({ length: classCount }, () => []);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    if (y >= 0 && y < classCount) out[y].push(i);
  }
  return out;
}

/**
 * The seeded choice of up to `perClass` images per class, reproducible in numpy:
 *
 *   rs = np.random.RandomState(seed)
 *   for c in range(classCount): idx = np.flatnonzero(labels == c); chosen[c] = idx[rs.permutation(len(idx))[:S]]
 *
 * (one RandomState stream for all classes, classes in label order). A class with ≤ S images shows all of them,
 * still in permuted order.
 */
export function selectSamples(labels: Labels, classCount: number, perClass: number, seed: number): number[][] {
  if (!Number.isInteger(perClass) || perClass < 1) throw new RangeError(`images per class must be an integer ≥ 1, got ${perClass}`);
  const rs = createRandomState(seed);
  return indicesPerClass(labels, classCount).map((idx) => {
    const perm = rs.permutation(idx.length);
    return perm.slice(0, perClass).map((p) => idx[p]);
  });
}

/**
 * Copies the chosen images of a split into one buffer (class by class) and records where each class starts.
 * `styles` (emoji) is the split's style index per image.
 */
export function packSamples(
  images: Uint8Array,
  shape: [number, number, number],
  chosen: number[][],
  opts: { split: SplitName; perClass: number; seed: number; styles?: Uint8Array },
): SampleSet {
  const size = shape[0] * shape[1] * shape[2];
  const total = chosen.reduce((s, c) => s + c.length, 0);
  const pixels = new Uint8Array(total * size);
  let at = 0;
  const classes = chosen.map((indices) => {
    const start = at;
    for (const i of indices) {
      pixels.set(images.subarray(i * size, (i + 1) * size), at * size);
      at++;
    }
    const styles = opts.styles ? indices.map((i) => opts.styles![i]) : undefined;
    return { indices: indices.slice(), start, ...(styles ? { styles } : {}) };
  });
  return { split: opts.split, shape, perClass: opts.perClass, seed: opts.seed, classes, pixels };
}
