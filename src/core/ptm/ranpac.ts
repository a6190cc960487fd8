/**
 * RanPAC without first-session adaptation (McDonnell et al., NeurIPS 2023; the authors' RanPAC.py), as
 * docs/science.md §9 states it: with H = ReLU(X W) the projected training rows and Y their one-hot labels, the
 * classifier after a step is W_o = (G + λI)⁻¹ Q, G = HᵀH, Q = HᵀY over every training row seen, with λ from the
 * grid 10⁻⁸ … 10⁸ by an 80/20 split per class (`default_rng([seed, label])`; on the last task's rows by default,
 * `lambdaFrom: 'seen'` on every class seen). So the state after a step depends only on the set S of classes seen and
 * on λ: the ground truth caches by (S, λ) (./ground-truth.ts). The costs and how they are kept down are science.md's
 * cost table; `ranpacModel` says which form it takes.
 */
import { concatInt32 } from '../arrays';
import { createDefaultRngFromWords } from '../random/default-rng';
import { PTM_LIMITS, RIDGE_FIT_SHARE, RIDGE_GRID, RIDGE_TIE, type RanpacOptions } from './defaults';
import {
  applyURight,
  applyUt,
  choleskyInPlace,
  choleskySolveInPlace,
  gramOfRows,
  multiplyABt,
  SingularMatrixError,
  solveShiftedTridiagonal,
  transpose,
  tridiagonalize,
} from './linalg';
import { PtmInputError, type PtmProblem } from './problem';
import { projectionMatrix, projectRows } from './projection';

/** Each class's training rows (indices into the train block) split into fit and validation rows. */
export interface RidgeSplit {
  fit: Int32Array[];
  val: Int32Array[];
}

/** The per-class 80/20 split of the training rows (see the header). */
export function ridgeSplit(problem: PtmProblem, seed: number): RidgeSplit {
  const fit: Int32Array[] = [];
  const val: Int32Array[] = [];
  problem.classes.forEach((label, p) => {
    const lo = problem.train.start[p];
    const n = problem.train.start[p + 1] - lo;
    const perm = createDefaultRngFromWords([seed, label]).permutation(n);
    const nFit = Math.floor(n * RIDGE_FIT_SHARE);
    fit.push(Int32Array.from(perm.slice(0, nFit), (k) => lo + k));
    val.push(Int32Array.from(perm.slice(nFit), (k) => lo + k));
  });
  return { fit, val };
}

/** The chosen λ of a selection and the validation error of every λ of the grid (NaN-free: a failed λ is +∞). */
export interface RidgeChoice {
  index: number;
  lambda: number;
  errors: number[];
}

/** Smallest grid index whose error is within RIDGE_TIE of the least (np.argmin keeps the first of equals). */
export function chooseRidge(errors: readonly number[]): number {
  let min = Infinity;
  for (const e of errors) if (e < min) min = e;
  if (!Number.isFinite(min)) return 0;
  const bound = min + Math.abs(min) * RIDGE_TIE;
  return errors.findIndex((e) => e <= bound);
}

/**
 * Validation errors over the grid of ‖B (A + λI)⁻¹ R − Y‖² (A p × p symmetric, B v × p, R p × c, Y v × c), all λ
 * from one tridiagonalisation. `a`, `b` and `r` are overwritten.
 */
export function ridgeErrors(a: Float64Array, b: Float64Array, r: Float64Array, y: Float64Array, p: number, v: number, c: number): number[] {
  const t = tridiagonalize(a, p);
  applyUt(t, r, c);
  applyURight(t, b, v);
  const x = new Float64Array(p * c);
  return RIDGE_GRID.map((lambda) => {
    solveShiftedTridiagonal(t, lambda, r, c, x);
    let e = 0;
    for (let i = 0; i < v; i++) {
      for (let j = 0; j < c; j++) {
        let s = 0;
        for (let k = 0; k < p; k++) s += b[i * p + k] * x[k * c + j];
        const diff = s - y[i * c + j];
        e += diff * diff;
      }
    }
    return Number.isFinite(e) ? e : Infinity;
  });
}

/** One-hot targets (rows × c) of `rows` over the columns of `members` (class position → column). */
function oneHot(problem: PtmProblem, rows: Int32Array, column: Int32Array, c: number): Float64Array {
  const y = new Float64Array(rows.length * c);
  rows.forEach((i, k) => {
    y[k * c + column[problem.train.y[i]]] = 1;
  });
  return y;
}

function gatherRows(h: Float64Array, width: number, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length * width);
  rows.forEach((i, k) => out.set(h.subarray(i * width, (i + 1) * width), k * width));
  return out;
}

export interface RanpacModel {
  /** 'dual' (kernel of the training rows) or 'primal' (M × M systems) */
  form: 'dual' | 'primal';
  /** width of the projected rows (M, or d without projection) */
  width: number;
  split: RidgeSplit;
  /** λ chosen on the selection rows of `members` (ascending class positions) */
  chooseLambda(members: readonly number[]): RidgeChoice;
  /** correct test rows per class position of the classifier on `members` with the grid's λ number `lambdaIndex` */
  correctCounts(members: readonly number[], lambdaIndex: number): Int32Array;
  /** float64 bytes held for the precomputed matrices */
  bytes: number;
}

/**
 * Sets RanPAC up on a problem (n training rows, M the projection width): the projection, then
 * - the dual form when n ≤ M: test scores K_test,S (K_S + λI)⁻¹ Y_S with K = HHᵀ (the same W_o by the push-through
 *   identity), K and K_test computed once and H dropped, so each set S costs an n_S × n_S Cholesky factor;
 * - the primal form otherwise: per class G_c and the row sums q_c once; each set sums its classes' and factors M × M.
 * λ for a selection: one Householder tridiagonalisation of the fit rows' system, then every λ of the grid is a
 * tridiagonal solve (about p³ for the whole grid instead of 17 factorisations, p = min(fit rows, M)).
 */
export function ranpacModel(problem: PtmProblem, options: RanpacOptions, seed: number): RanpacModel {
  const { C, d, train, test } = problem;
  const M = options.projection;
  if (!Number.isInteger(M) || M < 0 || M > PTM_LIMITS.projection) {
    throw new PtmInputError(`RanPAC's projection must be a whole number from 0 to ${PTM_LIMITS.projection}; got ${M}.`);
  }
  const width = M > 0 ? M : d;
  const n = train.n;
  const nt = test.n;
  const form: 'dual' | 'primal' = n <= width ? 'dual' : 'primal';
  const bytes = 8 * (form === 'dual' ? n * n + nt * n : C * width * width + (n + nt) * width);
  const transient = 8 * (n + nt) * width;
  if (Math.max(bytes, transient) > PTM_LIMITS.memoryBytes) {
    const mb = Math.round(Math.max(bytes, transient) / 1e6);
    throw new PtmInputError(
      `RanPAC with M = ${M} on ${n} training and ${nt} test rows of ${C} classes needs about ${mb} MB (${form} form), more than the ${PTM_LIMITS.memoryBytes / 1e6} MB allowed: use a smaller projection or fewer rows per class.`,
    );
  }
  const w = M > 0 ? projectionMatrix(d, M, seed) : new Float64Array(0);
  let hTrain: Float64Array | null = projectRows(train.x, n, d, w, M);
  let hTest: Float64Array | null = projectRows(test.x, nt, d, w, M);
  const split = ridgeSplit(problem, seed);

  let kernel: Float64Array | null = null;
  let kernelTest: Float64Array | null = null;
  const grams: Float64Array[] = [];
  const sums: Float64Array[] = [];
  if (form === 'dual') {
    kernel = gramOfRows(hTrain, n, width);
    kernelTest = multiplyABt(hTest, nt, hTrain, n, width);
    hTrain = null;
    hTest = null;
  } else {
    for (let p = 0; p < C; p++) {
      const lo = train.start[p];
      const np = train.start[p + 1] - lo;
      const rows = hTrain.subarray(lo * width, (lo + np) * width);
      grams.push(gramOfRows(transpose(rows, np, width), width, np));
      const q = new Float64Array(width);
      for (let i = 0; i < np; i++) for (let t = 0; t < width; t++) q[t] += rows[i * width + t];
      sums.push(q);
    }
  }

  const columnsOf = (members: readonly number[]): Int32Array => {
    const column = new Int32Array(C).fill(-1);
    members.forEach((p, j) => (column[p] = j));
    return column;
  };

  const chooseLambda = (members: readonly number[]): RidgeChoice => {
    const c = members.length;
    const column = columnsOf(members);
    const fit = concatInt32(members.map((p) => split.fit[p]));
    const val = concatInt32(members.map((p) => split.val[p]));
    const yFit = oneHot(problem, fit, column, c);
    const yVal = oneHot(problem, val, column, c);
    let errors: number[];
    if (fit.length <= width) {
      // dual: A = K_FF, B = K_VF, R = Y_F
      const f = fit.length;
      const a = new Float64Array(f * f);
      const b = new Float64Array(val.length * f);
      if (kernel) {
        fit.forEach((i, r) => fit.forEach((j, s) => (a[r * f + s] = kernel![i * n + j])));
        val.forEach((i, r) => fit.forEach((j, s) => (b[r * f + s] = kernel![i * n + j])));
      } else {
        const hf = gatherRows(hTrain!, width, fit);
        gramOfRows(hf, f, width, a);
        multiplyABt(gatherRows(hTrain!, width, val), val.length, hf, f, width, b);
      }
      errors = ridgeErrors(a, b, yFit, yVal, f, val.length, c);
    } else {
      // primal: A = H_Fᵀ H_F, B = H_V, R = H_Fᵀ Y_F (per class, the sums of its fit rows)
      const hf = gatherRows(hTrain!, width, fit);
      const a = gramOfRows(transpose(hf, fit.length, width), width, fit.length);
      const r = new Float64Array(width * c);
      fit.forEach((i, k) => {
        const j = column[train.y[i]];
        for (let t = 0; t < width; t++) r[t * c + j] += hf[k * width + t];
      });
      errors = ridgeErrors(a, gatherRows(hTrain!, width, val), r, yVal, width, val.length, c);
    }
    const index = chooseRidge(errors);
    return { index, lambda: RIDGE_GRID[index], errors };
  };

  const factor = (a: Float64Array, p: number, lambda: number, members: readonly number[]): void => {
    for (let i = 0; i < p; i++) a[i * p + i] += lambda;
    try {
      choleskyInPlace(a, p);
    } catch (e) {
      if (!(e instanceof SingularMatrixError)) throw e;
      throw new PtmInputError(
        `RanPAC's ridge system for classes ${members.map((q) => problem.classes[q]).join(', ')} is singular at λ = ${lambda} (duplicate or degenerate feature rows); use another projection or seed.`,
      );
    }
  };

  const correctCounts = (members: readonly number[], lambdaIndex: number): Int32Array => {
    const lambda = RIDGE_GRID[lambdaIndex];
    const c = members.length;
    const out = new Int32Array(C);
    // the members' training rows are contiguous ranges of the train block (rows are grouped by class)
    const lo = members.map((p) => train.start[p]);
    const hi = members.map((p) => train.start[p + 1]);
    // the members' test rows, as rows of what the classifier's weights multiply: the kernel against the members'
    // training rows (dual), or the projected features (primal); then wT (c × m), one row of weights per class
    const nt = members.reduce((s, p) => s + test.start[p + 1] - test.start[p], 0);
    let m: number;
    let rows: Float64Array;
    let wT: Float64Array;
    if (kernel && kernelTest) {
      m = hi.reduce((s, h, k) => s + h - lo[k], 0);
      const a = new Float64Array(m * m);
      const y = new Float64Array(m * c);
      // lower triangle of K_S, and the one-hot targets
      let r = 0;
      for (let k = 0; k < c; k++) {
        for (let i = lo[k]; i < hi[k]; i++, r++) {
          const ko = i * n;
          let col = 0;
          // element by element: no typed-array view per row and class
          const ro = r * m;
          for (let k2 = 0; k2 <= k; k2++) {
            const end = k2 === k ? i + 1 : hi[k2];
            for (let q = lo[k2]; q < end; q++) a[ro + col++] = kernel[ko + q];
          }
          y[r * c + k] = 1;
        }
      }
      factor(a, m, lambda, members);
      choleskySolveInPlace(a, m, y, c);
      wT = transpose(y, m, c);
      rows = new Float64Array(nt * m);
      let t = 0;
      for (const p of members) {
        for (let i = test.start[p]; i < test.start[p + 1]; i++, t++) {
          let col = t * m;
          const io = i * n;
          for (let k2 = 0; k2 < c; k2++) for (let q = lo[k2]; q < hi[k2]; q++) rows[col++] = kernelTest[io + q];
        }
      }
    } else {
      m = width;
      const a = new Float64Array(width * width);
      for (const p of members) {
        const g = grams[p];
        for (let i = 0; i < a.length; i++) a[i] += g[i];
      }
      factor(a, width, lambda, members);
      const wo = new Float64Array(width * c);
      members.forEach((p, j) => {
        const q = sums[p];
        for (let t = 0; t < width; t++) wo[t * c + j] = q[t];
      });
      choleskySolveInPlace(a, width, wo, c);
      wT = transpose(wo, width, c);
      rows = new Float64Array(nt * m);
      let t = 0;
      for (const p of members) {
        rows.set(hTest!.subarray(test.start[p] * width, test.start[p + 1] * width), t * m);
        t += test.start[p + 1] - test.start[p];
      }
    }
    const scores = multiplyABt(rows, nt, wT, c, m);
    // argmax over the members' columns (ascending positions: ties go to the smaller position)
    let t = 0;
    for (let k = 0; k < c; k++) {
      const p = members[k];
      for (let i = test.start[p]; i < test.start[p + 1]; i++, t++) {
        let best = 0;
        for (let j = 1; j < c; j++) if (scores[t * c + j] > scores[t * c + best]) best = j;
        if (best === k) out[p]++;
      }
    }
    return out;
  };

  return { form, width, split, chooseLambda, correctCounts, bytes };
}
