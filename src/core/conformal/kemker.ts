/**
 * Kemker et al.'s Ω metrics (Kemker, McClure, Abitino, Hayes & Kanan, AAAI 2018; docs/science.md §3) and the CPCF
 * paper's Ω_prev (its Eq. 6), from the accuracy matrix R. With T tasks (steps i = 1..T−1 here, the papers' 2..T):
 * - `Ω_base = 1/(T−1) Σ_i α_base,i / α_ideal`, α_base,i = R[i][0] (the base task after step i);
 * - `Ω_new  = 1/(T−1) Σ_i α_new,i`, α_new,i = R[i][i] (the new task right after learning it; not normalised);
 * - `Ω_all  = 1/(T−1) Σ_i α_all,i / α_ideal`, α_all,i = accuracy on all the test data seen so far (tasks 0..i);
 * - `Ω_prev = 1/(T−1) Σ_i a_prev,i / α_ideal`, a_prev,i = mean_{j<i} R[i][j], unweighted as science.md §3 defines it.
 * Only the entries R[i][j] with j ≤ i are read: a ragged lower-triangular matrix (cpcf.ts' `accuracy`) works.
 */
import { ConformalInputError } from './probs';

export interface OmegaInput {
  /** R, K×K or lower-triangular (row i with ≥ i+1 entries), fractions in [0, 1] */
  matrix: readonly (readonly number[])[];
  /** n_j: test examples per task (weights of α_all); omit for equal weights */
  testCounts?: readonly number[];
  /** α_ideal; default R[0][0] */
  alphaIdeal?: number;
}

export interface Omega {
  omegaBase: number;
  omegaNew: number;
  omegaAll: number;
  omegaPrev: number;
  /** the α_ideal used */
  alphaIdeal: number;
  /** where α_ideal came from */
  alphaIdealSource: 'base-task' | 'supplied';
}

function entry(R: OmegaInput['matrix'], i: number, j: number): number {
  const row = R[i];
  if (!Array.isArray(row) || row.length < i + 1) throw new ConformalInputError(`accuracy matrix row ${i} needs entries for tasks 0..${i}.`);
  const v = row[j];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    throw new ConformalInputError(`accuracy matrix entry R[${i}][${j}] must be a fraction in [0, 1]; got ${String(v)}.`);
  }
  return v;
}

/**
 * Ω_base, Ω_new, Ω_all and Ω_prev of one run. α_ideal defaults to R[0][0], the base-task accuracy right after base
 * training (science.md §3); a jointly trained model's can be supplied (Kemker's "offline" model). α_all,i is Kemker's
 * "test accuracy for all of the test data for the classes seen to point i": pooled over examples,
 * Σ_{j≤i} n_j R[i][j] / Σ_{j≤i} n_j, with the per-task test counts n_j; without them every task weighs the same.
 */
export function kemkerOmega(input: OmegaInput): Omega {
  const R = input.matrix;
  if (!Array.isArray(R) || R.length < 2) throw new ConformalInputError('the Ω metrics need at least two tasks (T ≥ 2).');
  const T = R.length;
  const weights = input.testCounts ?? new Array<number>(T).fill(1);
  if (!Array.isArray(weights) || weights.length < T)
    throw new ConformalInputError(`testCounts needs one count per task (${T}); got ${Array.isArray(weights) ? weights.length : 'none'}.`);
  for (let j = 0; j < T; j++) {
    if (!Number.isFinite(weights[j]) || weights[j] <= 0)
      throw new ConformalInputError(`testCounts[${j}] must be a positive number; got ${String(weights[j])}.`);
  }
  const supplied = input.alphaIdeal !== undefined;
  const alphaIdeal = supplied ? (input.alphaIdeal as number) : entry(R, 0, 0);
  if (typeof alphaIdeal !== 'number' || !Number.isFinite(alphaIdeal) || alphaIdeal <= 0 || alphaIdeal > 1) {
    throw new ConformalInputError(
      supplied
        ? `alphaIdeal must be an accuracy in (0, 1]; got ${String(alphaIdeal)}.`
        : `α_ideal = R[0][0] = ${alphaIdeal}: the base task's accuracy after base training must be > 0 to normalise by it.`,
    );
  }
  let base = 0;
  let fresh = 0;
  let all = 0;
  let prev = 0;
  for (let i = 1; i < T; i++) {
    base += entry(R, i, 0);
    fresh += entry(R, i, i);
    let num = 0;
    let den = 0;
    let prevSum = 0;
    for (let j = 0; j <= i; j++) {
      const r = entry(R, i, j);
      num += weights[j] * r;
      den += weights[j];
      if (j < i) prevSum += r;
    }
    all += num / den;
    prev += prevSum / i;
  }
  const m = T - 1;
  return {
    omegaBase: base / m / alphaIdeal,
    omegaNew: fresh / m,
    omegaAll: all / m / alphaIdeal,
    omegaPrev: prev / m / alphaIdeal,
    alphaIdeal,
    alphaIdealSource: supplied ? 'supplied' : 'base-task',
  };
}
