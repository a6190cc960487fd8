/**
 * A 2-D map of feature vectors by principal component analysis (the Data tab's feature map): centre the rows, find
 * the two directions of largest variance (the top eigenvectors of the covariance XᵀX/(n−1)) and project every row on
 * them. What share of the total variance each axis carries is reported, so the map says how much it leaves out.
 *
 * Method: subspace (block power) iteration on the implicit covariance — V ← orthonormalise(Xᵀ(X V)) — from a fixed
 * start, then Rayleigh–Ritz on the 2-D subspace; never forms the d × d matrix, so 768-dimensional CLIP features cost
 * 2·n·d per iteration. Stops when the subspace moves less than `tol` or after `maxIterations`. Signs are fixed so that
 * each component's entry of largest magnitude is positive (numpy's eigh leaves them arbitrary; the reference applies
 * the same rule). Float64 throughout. Pure.
 */

export interface Pca2 {
  /** n × 2, row-major: each row's coordinates on PC1 and PC2 */
  coords: Float64Array;
  /** the two components (d each, unit length) */
  components: [Float64Array, Float64Array];
  /** their variances (eigenvalues of the covariance, descending) */
  variances: [number, number];
  /** the share of the total variance each carries, in [0, 1] */
  explained: [number, number];
  iterations: number;
}

export interface Pca2Options {
  maxIterations?: number;
  tol?: number;
}

function normalise(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const norm = Math.sqrt(s);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return norm;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** C·v for the centred rows (C = XᵀX/(n−1)), without forming C. */
function covTimes(x: Float64Array, n: number, d: number, v: Float64Array): Float64Array {
  const out = new Float64Array(d);
  for (let r = 0; r < n; r++) {
    const row = r * d;
    let p = 0;
    for (let k = 0; k < d; k++) p += x[row + k] * v[k];
    if (p !== 0) for (let k = 0; k < d; k++) out[k] += p * x[row + k];
  }
  const scale = 1 / Math.max(1, n - 1);
  for (let k = 0; k < d; k++) out[k] *= scale;
  return out;
}

/** The two principal components of n rows of d features (row-major) and every row's coordinates on them. */
export function pca2(features: ArrayLike<number>, n: number, d: number, opts: Pca2Options = {}): Pca2 {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`A map needs at least 2 feature vectors; got ${n}.`);
  if (!Number.isInteger(d) || d < 2) throw new RangeError(`A 2-D map needs at least 2 dimensions; got ${d}.`);
  if (features.length !== n * d) throw new RangeError(`Expected ${n} × ${d} values, got ${features.length}.`);
  const maxIterations = opts.maxIterations ?? 500;
  const tol = opts.tol ?? 1e-13;

  const mean = new Float64Array(d);
  for (let r = 0; r < n; r++) for (let k = 0; k < d; k++) mean[k] += features[r * d + k];
  for (let k = 0; k < d; k++) mean[k] /= n;
  const x = new Float64Array(n * d);
  let total = 0;
  for (let r = 0; r < n; r++)
    for (let k = 0; k < d; k++) {
      const v = features[r * d + k] - mean[k];
      x[r * d + k] = v;
      total += v * v;
    }
  total /= Math.max(1, n - 1);

  // a fixed start that is not orthogonal to any axis: two different smooth patterns
  let a: Float64Array = Float64Array.from({ length: d }, (_, k) => 1 + Math.sin(1.3 * k + 0.5));
  let b: Float64Array = Float64Array.from({ length: d }, (_, k) => Math.cos(0.7 * k + 0.2));
  const orthonormalise = () => {
    normalise(a);
    const p = dot(a, b);
    for (let k = 0; k < d; k++) b[k] -= p * a[k];
    if (normalise(b) === 0) b = Float64Array.from({ length: d }, (_, k) => (k % 2 === 0 ? 1 : -1) * (k + 1));
  };
  orthonormalise();
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    const na = covTimes(x, n, d, a);
    const nb = covTimes(x, n, d, b);
    const prevA = a;
    const prevB = b;
    a = na;
    b = nb;
    orthonormalise();
    // the subspace moved: 2 − ‖PᵀQ‖²_F (0 when the new basis spans the old one)
    const overlap = dot(a, prevA) ** 2 + dot(a, prevB) ** 2 + dot(b, prevA) ** 2 + dot(b, prevB) ** 2;
    if (2 - overlap < tol) {
      iterations++;
      break;
    }
  }
  // Rayleigh–Ritz: the 2 × 2 covariance in the basis (a, b), diagonalised
  const ca = covTimes(x, n, d, a);
  const cb = covTimes(x, n, d, b);
  const h11 = dot(a, ca);
  const h12 = dot(a, cb);
  const h22 = dot(b, cb);
  const tr = h11 + h22;
  const disc = Math.sqrt(Math.max(0, ((h11 - h22) / 2) ** 2 + h12 * h12));
  const l1 = tr / 2 + disc;
  const l2 = tr / 2 - disc;
  // eigenvector of [[h11, h12], [h12, h22]] for l1: (h12, l1 − h11), or an axis when h12 = 0
  let c = h12;
  let s = l1 - h11;
  if (Math.abs(c) < 1e-300 && Math.abs(s) < 1e-300) {
    c = h11 >= h22 ? 1 : 0;
    s = h11 >= h22 ? 0 : 1;
  }
  const len = Math.hypot(c, s);
  c /= len;
  s /= len;
  const p1 = Float64Array.from({ length: d }, (_, k) => c * a[k] + s * b[k]);
  const p2 = Float64Array.from({ length: d }, (_, k) => -s * a[k] + c * b[k]);
  for (const p of [p1, p2]) {
    let at = 0;
    for (let k = 1; k < d; k++) if (Math.abs(p[k]) > Math.abs(p[at])) at = k;
    if (p[at] < 0) for (let k = 0; k < d; k++) p[k] = -p[k];
  }
  const coords = new Float64Array(n * 2);
  for (let r = 0; r < n; r++) {
    let u = 0;
    let w = 0;
    for (let k = 0; k < d; k++) {
      u += x[r * d + k] * p1[k];
      w += x[r * d + k] * p2[k];
    }
    coords[2 * r] = u;
    coords[2 * r + 1] = w;
  }
  const share = (l: number) => (total > 0 ? Math.max(0, l) / total : 0);
  return { coords, components: [p1, p2], variances: [l1, l2], explained: [share(l1), share(l2)], iterations };
}

/**
 * The rows to map: at most `perClass` training rows (split 0) of each wanted class, the first in file order, so a map
 * of 60,000 images stays quick and every class shows. Returns row indices into the set.
 */
export function mapRows(labels: ArrayLike<number>, split: ArrayLike<number>, classes: readonly number[], perClass: number): Int32Array {
  const left = new Map(classes.map((c) => [c, perClass]));
  const out: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (split[i] !== 0) continue;
    const k = left.get(labels[i]);
    if (k === undefined || k <= 0) continue;
    left.set(labels[i], k - 1);
    out.push(i);
  }
  return Int32Array.from(out);
}
