/**
 * SimpleCIL and NCM on frozen features (docs/science.md §9): one prototype per class, the mean of its training
 * features, and a test row goes to the nearest prototype among the classes seen.
 *
 * - SimpleCIL (Zhou et al., "Revisiting Class-Incremental Learning with Pre-Trained Models: Generalizability and
 *   Adaptivity are All You Need", IJCV 2024; LAMDA-PILOT `models/simplecil.py`): prototypes are means of the raw
 *   features, written into a cosine classifier, so the score is cos(x, μ_c).
 * - NCM (the nearest-class-mean baseline of FeCAM's code, `NCM_vit_*.py`): features L2-normalised first
 *   (`F.normalize`), prototypes are means of the normalised features, the score is −‖x̂ − μ̂_c‖.
 *
 * Normalising divides by max(‖x‖, 1e-12), as torch's F.normalize does, so a zero vector stays zero.
 */
import { multiplyABt } from './linalg';
import type { PtmProblem, RowBlock } from './problem';

export type PrototypeMetric = 'cosine' | 'euclidean';

const NORM_EPS = 1e-12;

/** Rows scaled to unit length (F.normalize, eps 1e-12). */
export function normalizedRows(b: RowBlock, d: number): Float64Array {
  const out = new Float64Array(b.x.length);
  for (let i = 0; i < b.n; i++) {
    const o = i * d;
    let s = 0;
    for (let t = 0; t < d; t++) s += b.x[o + t] * b.x[o + t];
    const inv = 1 / Math.max(Math.sqrt(s), NORM_EPS);
    for (let t = 0; t < d; t++) out[o + t] = b.x[o + t] * inv;
  }
  return out;
}

/** Class means (C × d) of `x` (rows grouped as in `b`). */
export function classMeans(x: Float64Array, b: RowBlock, C: number, d: number): Float64Array {
  const means = new Float64Array(C * d);
  for (let p = 0; p < C; p++) {
    const lo = b.start[p];
    const hi = b.start[p + 1];
    const mo = p * d;
    for (let i = lo; i < hi; i++) for (let t = 0; t < d; t++) means[mo + t] += x[i * d + t];
    for (let t = 0; t < d; t++) means[mo + t] /= hi - lo;
  }
  return means;
}

/** Scores (n_test × C, higher is better) of every test row for every class's prototype. */
export function prototypeScores(problem: PtmProblem, metric: PrototypeMetric): Float64Array {
  const { C, d, train, test } = problem;
  const xs = normalizedRows(test, d);
  if (metric === 'cosine') {
    const means = classMeans(train.x, train, C, d);
    const scores = multiplyABt(xs, test.n, means, C, d);
    for (let p = 0; p < C; p++) {
      let s = 0;
      for (let t = 0; t < d; t++) s += means[p * d + t] ** 2;
      const inv = 1 / Math.max(Math.sqrt(s), NORM_EPS);
      for (let i = 0; i < test.n; i++) scores[i * C + p] *= inv;
    }
    return scores;
  }
  // −‖x̂ − μ̂‖² = 2 x̂·μ̂ − ‖x̂‖² − ‖μ̂‖²: one product of rows, and the norms
  const means = classMeans(normalizedRows(train, d), train, C, d);
  const scores = multiplyABt(xs, test.n, means, C, d);
  const meanNorms = new Float64Array(C);
  for (let p = 0; p < C; p++) for (let t = 0; t < d; t++) meanNorms[p] += means[p * d + t] ** 2;
  for (let i = 0; i < test.n; i++) {
    let xn = 0;
    for (let t = 0; t < d; t++) xn += xs[i * d + t] ** 2;
    for (let p = 0; p < C; p++) scores[i * C + p] = 2 * scores[i * C + p] - xn - meanNorms[p];
  }
  return scores;
}
