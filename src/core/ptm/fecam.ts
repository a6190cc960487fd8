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
import { choleskyInPlace, SingularMatrixError, squaredNormOfForwardSolve } from './linalg';
import { normalizedRows } from './prototypes';
import { PtmInputError, type PtmProblem } from './problem';

/** Mahalanobis distances (n_test × C, lower is better) of every test row to every class. */
export function fecamScores(problem: PtmProblem, shrinkage: number): Float64Array {
  const { C, d, train, test } = problem;
  const xs = normalizedRows(train, d);
  const xt = normalizedRows(test, d);
  const scores = new Float64Array(test.n * C);
  const mu = new Float64Array(d);
  const cov = new Float64Array(d * d);
  const z = new Float64Array(d);
  const centred = new Float64Array(d);
  for (let p = 0; p < C; p++) {
    const lo = train.start[p];
    const hi = train.start[p + 1];
    const n = hi - lo;
    mu.fill(0);
    for (let i = lo; i < hi; i++) for (let t = 0; t < d; t++) mu[t] += xs[i * d + t];
    for (let t = 0; t < d; t++) mu[t] /= n;
    // lower triangle of Σ_c = Σ (x̂ − μ)(x̂ − μ)ᵀ / (n − 1)
    cov.fill(0);
    for (let i = lo; i < hi; i++) {
      for (let t = 0; t < d; t++) centred[t] = xs[i * d + t] - mu[t];
      for (let a = 0; a < d; a++) {
        const ca = centred[a];
        if (ca === 0) continue;
        const ro = a * d;
        for (let b = 0; b <= a; b++) cov[ro + b] += ca * centred[b];
      }
    }
    let diagMean = 0;
    for (let a = 0; a < d; a++) {
      for (let b = 0; b <= a; b++) cov[a * d + b] /= n - 1;
      diagMean += cov[a * d + a];
    }
    diagMean /= d;
    for (let a = 0; a < d; a++) cov[a * d + a] += shrinkage * diagMean;
    // correlation form, then its Cholesky factor
    const sd = new Float64Array(d);
    for (let a = 0; a < d; a++) sd[a] = Math.sqrt(cov[a * d + a]);
    for (let a = 0; a < d; a++) for (let b = 0; b <= a; b++) cov[a * d + b] /= sd[a] * sd[b];
    try {
      choleskyInPlace(cov, d);
    } catch (e) {
      if (!(e instanceof SingularMatrixError)) throw e;
      throw new PtmInputError(
        `FeCAM: the shrunk covariance of class ${problem.classes[p]} (${problem.classNames[p]}) is singular (its ${n} training rows do not vary enough); raise the shrinkage above ${shrinkage}.`,
      );
    }
    for (let i = 0; i < test.n; i++) scores[i * C + p] = squaredNormOfForwardSolve(cov, d, xt, i * d, mu, z);
  }
  return scores;
}
