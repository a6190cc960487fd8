/**
 * A pre-trained method run the plain way, one ordering step by step (docs/science.md §9): the reference the cached
 * ground truth (./ground-truth.ts) is tested against, and what "the method as its authors' code runs it" means here.
 *
 * - SimpleCIL / NCM / FeCAM: after each step, every test row of a seen class goes to the best-scoring seen class
 *   (the class scores of ./prototypes.ts and ./fecam.ts).
 * - RanPAC: G and Q accumulate over the rows of each new task in the primal form (M × M, whatever n is); λ is chosen
 *   by solving the fit rows' system once per λ of the grid (17 Cholesky factorisations), and the classifier is
 *   (G + λI)⁻¹ Q. None of the dual form, the tridiagonalisation or the cache of the ground truth is used.
 */
import { RIDGE_GRID, type PtmStrategy } from './defaults';
import { fecamScores } from './fecam';
import { choleskyInPlace, choleskySolveInPlace, SingularMatrixError } from './linalg';
import { countsOf, type PtmProblem } from './problem';
import { projectionMatrix, projectRows } from './projection';
import { prototypeScores } from './prototypes';
import { chooseRidge, ridgeSplit } from './ranpac';
import { predictAmong } from './ranked-scores';

export interface DirectRun {
  /** R over the ordering's tasks */
  matrix: number[][];
  /** RanPAC: the grid index of λ at each step */
  lambdaIndex?: number[];
}

/** Solves (A + λI) X = B for symmetric A (p × p) and B (p × c); null when the system is not positive definite. */
function ridgeSolve(a: Float64Array, p: number, lambda: number, b: Float64Array, c: number): Float64Array | null {
  const m = a.slice();
  for (let i = 0; i < p; i++) m[i * p + i] += lambda;
  try {
    choleskyInPlace(m, p);
  } catch (e) {
    if (e instanceof SingularMatrixError) return null;
    throw e;
  }
  const x = b.slice();
  choleskySolveInPlace(m, p, x, c);
  return x;
}

/** A runner of single orderings (positions) for one problem, method and seed. */
export function directRunner(problem: PtmProblem, strategy: PtmStrategy, seed: number): (tasks: readonly (readonly number[])[]) => DirectRun {
  const { C, d, train, test } = problem;
  const testPer = countsOf(problem.test);
  const matrixOf = (tasks: readonly (readonly number[])[], correctAfter: (t: number, seen: number[]) => Int32Array): number[][] => {
    const K = tasks.length;
    const seen: number[] = [];
    return tasks.map((task, t) => {
      seen.push(...task);
      seen.sort((a, b) => a - b);
      const correct = correctAfter(t, seen);
      return Array.from({ length: K }, (_, j) => (j > t ? 0 : tasks[j].reduce((s, p) => s + correct[p], 0) / tasks[j].reduce((s, p) => s + testPer[p], 0)));
    });
  };

  if (strategy.id !== 'ranpac') {
    const higher = strategy.id === 'simplecil';
    const scores = strategy.id === 'simplecil' ? prototypeScores(problem, strategy.options.metric) : fecamScores(problem, strategy.options.shrinkage);
    return (tasks) => ({
      matrix: matrixOf(tasks, (_t, seen) => {
        const correct = new Int32Array(C);
        for (const p of seen) for (let i = test.start[p]; i < test.start[p + 1]; i++) if (predictAmong(scores, C, i, seen, higher) === p) correct[p]++;
        return correct;
      }),
    });
  }

  const M = strategy.options.projection;
  const width = M > 0 ? M : d;
  const w = M > 0 ? projectionMatrix(d, M, seed) : new Float64Array(0);
  const h = projectRows(train.x, train.n, d, w, M);
  const ht = projectRows(test.x, test.n, d, w, M);
  const split = ridgeSplit(problem, seed);
  const addRow = (g: Float64Array, q: Float64Array | null, c: number, cols: number, i: number): void => {
    const o = i * width;
    for (let a = 0; a < width; a++) {
      const ha = h[o + a];
      if (ha === 0) continue;
      for (let b = 0; b < width; b++) g[a * width + b] += ha * h[o + b];
      if (q) q[a * cols + c] += ha;
    }
  };

  return (tasks) => {
    const g = new Float64Array(width * width);
    const q = new Float64Array(width * C);
    const lambdaIndex: number[] = [];
    const matrix = matrixOf(tasks, (t, seen) => {
      for (const p of tasks[t]) for (let i = train.start[p]; i < train.start[p + 1]; i++) addRow(g, q, p, C, i);
      // λ on the selection classes' fit rows, validated on their other rows
      const sel = strategy.options.lambdaFrom === 'task' ? [...tasks[t]].sort((a, b) => a - b) : seen;
      const cs = sel.length;
      const gFit = new Float64Array(width * width);
      const qFit = new Float64Array(width * cs);
      sel.forEach((p, j) => split.fit[p].forEach((i) => addRow(gFit, qFit, j, cs, i)));
      const errors = RIDGE_GRID.map((lambda) => {
        const wo = ridgeSolve(gFit, width, lambda, qFit, cs);
        if (!wo) return Infinity;
        let e = 0;
        sel.forEach((p, j) =>
          split.val[p].forEach((i) => {
            for (let k = 0; k < cs; k++) {
              let s = 0;
              for (let a = 0; a < width; a++) s += h[i * width + a] * wo[a * cs + k];
              e += (s - (k === j ? 1 : 0)) ** 2;
            }
          }),
        );
        return Number.isFinite(e) ? e : Infinity;
      });
      const li = chooseRidge(errors);
      lambdaIndex.push(li);
      // the classifier on every seen class, and its predictions
      const cols = seen.length;
      const qs = new Float64Array(width * cols);
      seen.forEach((p, j) => {
        for (let a = 0; a < width; a++) qs[a * cols + j] = q[a * C + p];
      });
      const wo = ridgeSolve(g, width, RIDGE_GRID[li], qs, cols);
      if (!wo) throw new Error(`RanPAC's ridge system is singular at λ = ${RIDGE_GRID[li]}.`);
      const correct = new Int32Array(C);
      for (const p of seen) {
        for (let i = test.start[p]; i < test.start[p + 1]; i++) {
          let best = 0;
          let bestScore = -Infinity;
          for (let j = 0; j < cols; j++) {
            let s = 0;
            for (let a = 0; a < width; a++) s += ht[i * width + a] * wo[a * cols + j];
            if (s > bestScore) {
              bestScore = s;
              best = j;
            }
          }
          if (seen[best] === p) correct[p]++;
        }
      }
      return correct;
    });
    return { matrix, lambdaIndex };
  };
}
