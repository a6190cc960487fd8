/**
 * The closed-form heads of the Your-classes lab taught one class at a time (docs/science.md §10, "A hundred
 * classes"): SimpleCIL, NCM, FeCAM and RanPAC of §9, as the Ground-truth lab's evaluator computes them
 * (src/core/ptm), but grown class by class, so adding class t costs what class t brings, not what every class
 * before it did.
 *
 * - **Per-class scores** (SimpleCIL, NCM, FeCAM): a class's score of a test image depends on that class's training
 *   rows alone. Adding class t computes its statistics (a mean; FeCAM also a shrunk correlation's Cholesky factor),
 *   scores every test image held so far against it and the new class's test images against every class. Each test
 *   image keeps its best class so far (ties to the earlier class, the evaluator's rule), so row t of R is a count.
 *   The scores are those of `prototypeScores` / `fecamScores` bit for bit (the same sums in the same order), and
 *   the whole score matrix is kept for every ordering (./order-states.ts).
 * - **RanPAC**: its ridge classifier changes with every class (G = HᵀH over every training row seen, λ from the
 *   newest class's rows). While the rows seen are few (`RANPAC_DUAL_ROWS`) row t is the evaluator's own
 *   (`ranpacModel` on the classes so far: the dual form, an n × n system); above, the primal form grown in place:
 *   G and Q summed class by class and one M × M Cholesky factor per class (M = 2000: about 2.7 GFLOP, seconds here).
 *
 * Pure: float64 rows in (each class's rows as its feature set holds them), counts out.
 */
import { RIDGE_GRID, type PtmStrategy } from '../ptm/defaults';
import { choleskyInPlace, choleskySolveInPlace, gramOfRows, multiplyABt, SingularMatrixError, squaredNormsOfForwardSolves, transpose } from '../ptm/linalg';
import { PtmInputError, rowBlock, type PtmProblem, type RowBlock } from '../ptm/problem';
import { projectionMatrix, projectRows } from '../ptm/projection';
import { classMeans, normalizedRows } from '../ptm/prototypes';
import { ranpacModel } from '../ptm/ranpac';
import { fecamClassFactor } from '../ptm/fecam';

/** Training rows seen up to which RanPAC's row comes from the evaluator's dual form; above, the primal form grown in place. */
export const RANPAC_DUAL_ROWS = 1000;

/** One class as the head takes it: its training and test rows (row-major, d each), as its feature set holds them. */
export interface HeadClass {
  train: ArrayLike<number>;
  test: ArrayLike<number>;
}

/** Row t of R after adding class t: the accuracy on each class 0..t, with its correct and test counts. */
export interface HeadStep {
  row: number[];
  correct: number[];
  testCounts: number[];
}

export interface ClosedFormHead {
  readonly strategy: PtmStrategy;
  /** classes taught so far */
  readonly classes: number;
  /** teach class t (= `classes`); `evaluate` false skips row t's counts (a rebuild towards a later row) */
  add(c: HeadClass, evaluate?: boolean): HeadStep | null;
  /**
   * The score of every test image for every class (n_test × C, test images class by class in teaching order, higher
   * is better; FeCAM's distances negated), for the per-class methods; null for RanPAC.
   */
  scores(): { scores: Float64Array; testStart: Int32Array } | null;
}

const toF64 = (a: ArrayLike<number>): Float64Array => Float64Array.from(a);
const block = (x: Float64Array, d: number): RowBlock => ({ x, n: x.length / d, y: new Int32Array(0), start: new Int32Array(0) });

/** A class's scorer: the score (higher is better) of each of `n` unit-length rows `xs` (row-major). */
type Scorer = (xs: Float64Array, n: number) => Float64Array;

function cosineScorer(train: Float64Array, d: number): Scorer {
  const b = block(train, d);
  b.start = Int32Array.from([0, b.n]);
  const mean = classMeans(train, b, 1, d);
  let s = 0;
  for (let t = 0; t < d; t++) s += mean[t] ** 2;
  const inv = 1 / Math.max(Math.sqrt(s), 1e-12);
  return (xs, n) => {
    const out = multiplyABt(xs, n, mean, 1, d);
    for (let i = 0; i < n; i++) out[i] *= inv;
    return out;
  };
}

function euclideanScorer(train: Float64Array, d: number): Scorer {
  const b = block(train, d);
  b.start = Int32Array.from([0, b.n]);
  const mean = classMeans(normalizedRows(b, d), b, 1, d);
  let meanNorm = 0;
  for (let t = 0; t < d; t++) meanNorm += mean[t] ** 2;
  return (xs, n) => {
    const out = multiplyABt(xs, n, mean, 1, d);
    for (let i = 0; i < n; i++) {
      let xn = 0;
      for (let t = 0; t < d; t++) xn += xs[i * d + t] ** 2;
      out[i] = 2 * out[i] - xn - meanNorm;
    }
    return out;
  };
}

/** FeCAM's class statistics (src/core/ptm/fecam.ts fecamClassFactor): the negated Mahalanobis distance. */
function fecamScorer(train: Float64Array, d: number, shrinkage: number, name: string): Scorer {
  const b = block(train, d);
  const xs = normalizedRows(b, d);
  const n = b.n;
  const mu = new Float64Array(d);
  let cov: Float64Array;
  try {
    cov = fecamClassFactor(xs, 0, n, d, shrinkage, mu);
  } catch (e) {
    if (!(e instanceof SingularMatrixError)) throw e;
    throw new PtmInputError(
      `FeCAM: the shrunk covariance of “${name}” is singular (its ${n} training samples do not vary enough); record it again with some movement.`,
    );
  }
  return (x, m) => {
    const centred = new Float64Array(m * d);
    for (let i = 0; i < m; i++) for (let t = 0; t < d; t++) centred[i * d + t] = x[i * d + t] - mu[t];
    const dist = squaredNormsOfForwardSolves(cov, d, centred, m);
    for (let i = 0; i < m; i++) dist[i] = -dist[i];
    return dist;
  };
}

/** SimpleCIL, NCM or FeCAM grown class by class (see the header). */
function perClassHead(strategy: PtmStrategy, d: number): ClosedFormHead {
  const scorers: Scorer[] = [];
  /** each class's test rows, unit length */
  const tests: Float64Array[] = [];
  /** scores[p][c]: class p's test rows against class c */
  const scores: Float64Array[][] = [];
  /** per class's test rows: the best class so far and its score */
  const best: Int32Array[] = [];
  const bestScore: Float64Array[] = [];
  const scorerOf = (train: Float64Array, t: number): Scorer => {
    if (strategy.id === 'fecam') return fecamScorer(train, d, strategy.options.shrinkage, `class ${t + 1}`);
    if (strategy.id === 'simplecil') return strategy.options.metric === 'cosine' ? cosineScorer(train, d) : euclideanScorer(train, d);
    throw new Error(`${strategy.id} does not score classes one by one.`);
  };
  const head: ClosedFormHead = {
    strategy,
    get classes() {
      return scorers.length;
    },
    add(c, evaluate = true) {
      const t = scorers.length;
      const train = toF64(c.train);
      if (train.length < 2 * d) throw new PtmInputError(`Class ${t + 1} has ${train.length / d} training samples; every class needs at least 2.`);
      const scorer = scorerOf(train, t);
      const test = normalizedRows(block(toF64(c.test), d), d);
      const nt = test.length / d;
      if (nt < 1) throw new PtmInputError(`Class ${t + 1} has no test samples; every class needs at least one.`);
      scorers.push(scorer);
      tests.push(test);
      // every earlier class's test rows against the new class: it wins a row only when strictly better (ties to the earlier class)
      for (let p = 0; p < t; p++) {
        const s = scorer(tests[p], tests[p].length / d);
        scores[p].push(s);
        for (let i = 0; i < s.length; i++) if (s[i] > bestScore[p][i]) ((bestScore[p][i] = s[i]), (best[p][i] = t));
      }
      // the new class's test rows against every class, the earlier ones winning ties
      const own = scorers.map((f) => f(test, nt));
      scores.push(own);
      const b = new Int32Array(nt);
      const bs = new Float64Array(nt).fill(-Infinity);
      for (let c2 = 0; c2 <= t; c2++) for (let i = 0; i < nt; i++) if (own[c2][i] > bs[i]) ((bs[i] = own[c2][i]), (b[i] = c2));
      best.push(b);
      bestScore.push(bs);
      if (!evaluate) return null;
      const correct = best.map((row, p) => row.reduce((n, x) => n + (x === p ? 1 : 0), 0));
      return stepOf(
        correct,
        tests.map((x) => x.length / d),
      );
    },
    scores() {
      const C = scorers.length;
      const counts = tests.map((x) => x.length / d);
      const testStart = new Int32Array(C + 1);
      counts.forEach((n, p) => (testStart[p + 1] = testStart[p] + n));
      const out = new Float64Array(testStart[C] * C);
      for (let p = 0; p < C; p++) for (let c = 0; c < C; c++) for (let i = 0; i < counts[p]; i++) out[(testStart[p] + i) * C + c] = scores[p][c][i];
      return { scores: out, testStart };
    },
  };
  return head;
}

function stepOf(correct: number[], testCounts: number[]): HeadStep {
  return { row: correct.map((n, p) => n / testCounts[p]), correct, testCounts };
}

/** A problem (src/core/ptm/problem.ts) of the classes given, position p = class p of the list, label p = `labels[p]`. */
export function problemOf(classes: readonly { train: Float64Array; test: Float64Array }[], d: number, labels: readonly number[]): PtmProblem {
  const rows = (split: 'train' | 'test'): RowBlock =>
    rowBlock(
      classes.map((c) => c[split].length / d),
      d,
      (p, x, at) => x.set(classes[p][split], at * d),
    );
  return {
    classes: [...labels],
    classNames: labels.map((l) => `class ${l + 1}`),
    C: classes.length,
    d,
    train: rows('train'),
    test: rows('test'),
  };
}

/** RanPAC grown class by class (see the header). */
function ranpacHead(strategy: Extract<PtmStrategy, { id: 'ranpac' }>, d: number, seed: number): ClosedFormHead {
  const options = strategy.options;
  const M = options.projection;
  const width = M > 0 ? M : d;
  const classes: { train: Float64Array; test: Float64Array }[] = [];
  const lambdas: number[] = [];
  let projection: Float64Array | null = null;
  const w = (): Float64Array => (projection ??= M > 0 ? projectionMatrix(d, M, seed) : new Float64Array(0));
  // the primal form's running sums: G = Σ_c G_c and the row sums q_c, over the classes `inG` (in teaching order)
  let gram: Float64Array | null = null;
  const sums: Float64Array[] = [];
  const hTest: Float64Array[] = [];
  let inG = 0;
  const grow = (): void => {
    gram ??= new Float64Array(width * width);
    for (; inG < classes.length; inG++) {
      const c = classes[inG];
      const np = c.train.length / d;
      const rows = projectRows(c.train, np, d, w(), M);
      const g = gramOfRows(transpose(rows, np, width), width, np);
      for (let i = 0; i < g.length; i++) gram[i] += g[i];
      const q = new Float64Array(width);
      for (let i = 0; i < np; i++) for (let t = 0; t < width; t++) q[t] += rows[i * width + t];
      sums.push(q);
      hTest.push(projectRows(c.test, c.test.length / d, d, w(), M));
    }
  };
  const rowsSeen = (): number => classes.reduce((s, c) => s + c.train.length / d, 0);
  return {
    strategy,
    get classes() {
      return classes.length;
    },
    add(c, evaluate = true) {
      const t = classes.length;
      const cls = { train: toF64(c.train), test: toF64(c.test) };
      if (cls.train.length < 2 * d) throw new PtmInputError(`Class ${t + 1} has ${cls.train.length / d} training samples; every class needs at least 2.`);
      if (cls.test.length < d) throw new PtmInputError(`Class ${t + 1} has no test samples; every class needs at least one.`);
      classes.push(cls);
      // λ from the newest class's own rows (λ from the last task), its validation split drawn from [seed, t]
      lambdas.push(ranpacModel(problemOf([cls], d, [t]), options, seed).chooseLambda([0]).index);
      if (!evaluate) return null;
      const members = classes.map((_, p) => p);
      const testCounts = classes.map((x) => x.test.length / d);
      if (rowsSeen() <= RANPAC_DUAL_ROWS) {
        const model = ranpacModel(
          problemOf(
            classes,
            d,
            classes.map((_, p) => p),
          ),
          options,
          seed,
        );
        return stepOf([...model.correctCounts(members, lambdas[t])], testCounts);
      }
      grow();
      const a = Float64Array.from(gram!);
      const lambda = RIDGE_GRID[lambdas[t]];
      for (let i = 0; i < width; i++) a[i * width + i] += lambda;
      try {
        choleskyInPlace(a, width);
      } catch (e) {
        if (!(e instanceof SingularMatrixError)) throw e;
        throw new PtmInputError(`RanPAC's ridge system is singular at λ = ${lambda} (duplicate or degenerate samples); record a class again.`);
      }
      const C = t + 1;
      const wo = new Float64Array(width * C);
      sums.forEach((q, j) => {
        for (let k = 0; k < width; k++) wo[k * C + j] = q[k];
      });
      choleskySolveInPlace(a, width, wo, C);
      const wT = transpose(wo, width, C);
      const correct = hTest.map((h, p) => {
        const n = h.length / width;
        const s = multiplyABt(h, n, wT, C, width);
        let right = 0;
        for (let i = 0; i < n; i++) {
          let b = 0;
          for (let j = 1; j < C; j++) if (s[i * C + j] > s[i * C + b]) b = j;
          if (b === p) right++;
        }
        return right;
      });
      return stepOf(correct, testCounts);
    },
    scores: () => null,
  };
}

/** A closed-form head of `strategy` over `d`-dimensional rows; `seed` draws RanPAC's projection and λ splits. */
export function closedFormHead(strategy: PtmStrategy, d: number, seed: number): ClosedFormHead {
  if (!Number.isInteger(d) || d < 1) throw new PtmInputError(`Features need at least one dimension; got ${d}.`);
  return strategy.id === 'ranpac' ? ranpacHead(strategy, d, seed) : perClassHead(strategy, d);
}
