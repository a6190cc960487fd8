/**
 * Image prototypes as a similarity source (docs/science.md §6, "cosine of class-mean features of the actual data"; the
 * EDGE paper's "image-based similarity"). The feature extractor is the pixels themselves, fixed and training-free, so
 * the similarity exists before any model is trained and is the same on every backend; the same function gives the
 * prototypes of any feature source (the similarity kind "features": a backbone's or an encoder's vectors). Similarity
 * = cosine of the prototypes (`cosineSimilarity`), exactly `P / ‖P‖ @ (P / ‖P‖).T` in numpy. Pure (no DOM, no
 * fetch): the data worker feeds it the decoded dataset (src/workers/data.worker.ts).
 */

export interface ClassPrototypes {
  /** One row per class label 0..classCount−1: the mean of that class's L2-normalised images (length H·W·C). */
  rows: Float32Array[];
  /** Images averaged per class (blank images excluded). */
  counts: number[];
  /** Blank (all-zero) images left out, per class. */
  blank: number[];
  /** Feature length H·W·C. */
  dim: number;
}

/**
 * Class-mean prototypes of L2-normalised images: p_c = mean over the training images x of class c of x/‖x‖, so a
 * faint and a bold drawing of one shape count alike and one bright class does not dominate its mean. An all-zero
 * (blank) image has no direction: it is left out and counted. Every training image of the class, not the test split
 * nor a run's subset, so the prototypes describe the classes, not one experiment's sample. Sums are float64; the
 * prototypes are float32 rows. An image is its H·W·C bytes as a vector (the 0–255 scale is irrelevant after
 * normalising).
 * @param images N × dim values (bytes, or float features), image i at `images[i·dim .. (i+1)·dim)` (row-major H × W × C).
 * @param labels N labels in 0..classCount−1.
 * @param dim H·W·C.
 * @param classCount number of classes (labels outside 0..classCount−1 are an error).
 */
export function classMeanPrototypes(images: ArrayLike<number>, labels: ArrayLike<number>, dim: number, classCount: number): ClassPrototypes {
  if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`The image size must be a positive whole number of values; got ${dim}.`);
  if (!Number.isInteger(classCount) || classCount < 1) throw new RangeError(`The number of classes must be a positive whole number; got ${classCount}.`);
  const count = labels.length;
  if (images.length !== count * dim) {
    throw new RangeError(`${count} labels need ${count * dim} pixel values (${dim} per image); there are ${images.length}.`);
  }
  const sums = new Float64Array(classCount * dim);
  const counts = new Array<number>(classCount).fill(0);
  const blank = new Array<number>(classCount).fill(0);
  for (let i = 0; i < count; i++) {
    const c = labels[i];
    if (!Number.isInteger(c) || c < 0 || c >= classCount) throw new RangeError(`Image ${i} has label ${c}; labels must be 0..${classCount - 1}.`);
    const at = i * dim;
    let ss = 0;
    for (let k = 0; k < dim; k++) {
      const x = images[at + k];
      ss += x * x;
    }
    if (ss === 0) {
      blank[c]++;
      continue;
    }
    const inv = 1 / Math.sqrt(ss);
    const row = c * dim;
    for (let k = 0; k < dim; k++) sums[row + k] += images[at + k] * inv;
    counts[c]++;
  }
  const rows: Float32Array[] = [];
  for (let c = 0; c < classCount; c++) {
    const r = new Float32Array(dim);
    const n = counts[c];
    if (n > 0) for (let k = 0; k < dim; k++) r[k] = sums[c * dim + k] / n;
    rows.push(r);
  }
  return { rows, counts, blank, dim };
}
