/**
 * FeCAM on frozen features (Goswami et al., "FeCAM: Exploiting the Heterogeneity of Class Distributions in
 * Exemplar-Free Continual Learning", NeurIPS 2023; its pre-trained-ViT code `FeCAM_vit_cifar100.py`), as
 * docs/science.md §9 states it:
 *
 *   x̂ = x / ‖x‖                                    (features L2-normalised)
 *   μ_c = mean of x̂ over class c's training rows
 *   Σ_c = cov(x̂) over those rows (n_c − 1 in the denominator, np.cov)
 *   Σ'_c = Σ_c + α · mean(diag Σ_c) · I             (shrinkage; α = 1 in the code, `shrinkage` here)
 *   Σ̃_c = D^(−1/2) Σ'_c D^(−1/2), D = diag Σ'_c      (the code's normalize_cov: a correlation matrix)
 *   score_c(x) = (x̂ − μ_c)ᵀ Σ̃_c⁻¹ (x̂ − μ_c)           (Mahalanobis; the prediction is the smallest)
 *
 * The code inverts with a pseudo-inverse; Σ̃_c is positive definite whenever α > 0 and the class's features vary,
 * so a Cholesky factor serves, and a class whose shrunk covariance is singular gets a message instead.
 *
 * Cost: per class a covariance (n_c d²/2), a factor (d³/6) and one triangular solve per test row (d²/2):
 * n_test · C · d²/2 multiply-adds in all, the dominant term for many classes.
 */
import { choleskyInPlace, gramOfRows, SingularMatrixError, squaredNormsOfForwardSolves } from './linalg';
import { normalizedRows } from './prototypes';
import { PtmInputError, type PtmProblem } from './problem';

/** Mahalanobis distances (n_test × C, lower is better) of every test row to every class. */
export function fecamScores(problem: PtmProblem, shrinkage: number): Float64Array {
  const { C, d, train, test } = problem;
  const xs = normalizedRows(train, d);
  const xt = normalizedRows(test, d);
  const scores = new Float64Array(test.n * C);
  const mu = new Float64Array(d);
  const centredTest = new Float64Array(test.n * d);
  const dist = new Float64Array(test.n);
  for (let p = 0; p < C; p++) {
    const lo = train.start[p];
    const hi = train.start[p + 1];
    let cov: Float64Array;
    try {
      cov = fecamClassFactor(xs, lo, hi, d, shrinkage, mu);
    } catch (e) {
      if (!(e instanceof SingularMatrixError)) throw e;
      throw new PtmInputError(
        `FeCAM: the shrunk covariance of class ${problem.classes[p]} (${problem.classNames[p]}) is singular (its ${hi - lo} training rows do not vary enough); raise the shrinkage above ${shrinkage}.`,
      );
    }
    for (let i = 0; i < test.n; i++) for (let t = 0; t < d; t++) centredTest[i * d + t] = xt[i * d + t] - mu[t];
    squaredNormsOfForwardSolves(cov, d, centredTest, test.n, dist);
    for (let i = 0; i < test.n; i++) scores[i * C + p] = dist[i];
  }
  return scores;
}

/**
 * One class's FeCAM statistics from its L2-normalised training rows `xs[lo..hi)` (d columns): μ_c written into `mu`,
 * and the Cholesky factor of Σ̃_c returned (lower triangle, d × d). Throws SingularMatrixError where Σ̃_c is singular.
 */
export function fecamClassFactor(xs: Float64Array, lo: number, hi: number, d: number, shrinkage: number, mu: Float64Array): Float64Array {
  const n = hi - lo;
  mu.fill(0);
  for (let i = lo; i < hi; i++) for (let t = 0; t < d; t++) mu[t] += xs[i * d + t];
  for (let t = 0; t < d; t++) mu[t] /= n;
  // Σ_c = Zᵀ Z / (n − 1) with Z the centred rows (as the rows of Zᵀ, a Gram matrix of rows)
  const zt = new Float64Array(d * n);
  for (let i = 0; i < n; i++) for (let t = 0; t < d; t++) zt[t * n + i] = xs[(lo + i) * d + t] - mu[t];
  const cov = gramOfRows(zt, d, n);
  let diagMean = 0;
  for (let a = 0; a < d; a++) {
    for (let b = 0; b <= a; b++) cov[a * d + b] /= n - 1;
    diagMean += cov[a * d + a];
  }
  diagMean /= d;
  for (let a = 0; a < d; a++) cov[a * d + a] += shrinkage * diagMean;
  // correlation form (lower triangle), then its Cholesky factor
  const sd = new Float64Array(d);
  for (let a = 0; a < d; a++) sd[a] = Math.sqrt(cov[a * d + a]);
  for (let a = 0; a < d; a++) for (let b = 0; b <= a; b++) cov[a * d + b] /= sd[a] * sd[b];
  choleskyInPlace(cov, d);
  return cov;
}
