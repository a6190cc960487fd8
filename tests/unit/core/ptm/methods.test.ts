import { describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { directRunner } from '../../../../src/core/ptm/direct-run';
import { fecamScores } from '../../../../src/core/ptm/fecam';
import { allOrderings, preparePtm, runPtmGroundTruth, type PtmRunRecord } from '../../../../src/core/ptm/ground-truth';
import { ptmProblem } from '../../../../src/core/ptm/problem';
import { prototypeScores } from '../../../../src/core/ptm/prototypes';
import { ranpacModel, ridgeErrors } from '../../../../src/core/ptm/ranpac';
import { cases, fixture, fixtureFeatures } from './fixture';

// Every method against numpy run the plain way (scripts/make-ptm-fixtures.py; see the fixture's _note).
const features = fixtureFeatures();
const problem = ptmProblem(features, fixture.classes);

function expectClose(got: ArrayLike<number>, want: readonly number[], rel: number, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    expect(Math.abs(got[i] - want[i]), `${what}[${i}]: ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(want[i])));
  }
}

describe('the problem of a feature set', () => {
  it('groups the rows of the chosen label ids by position, in file order', () => {
    expect(problem.C).toBe(6);
    expect(problem.d).toBe(12);
    expect(problem.train.n).toBe(6 * 30);
    expect(problem.test.n).toBe(6 * 12);
    // the first training row of position 1 (label 3) is the npz's first row with label 3 and split 0
    let first = -1;
    for (let i = 0; i < features.n && first < 0; i++) if (features.labels[i] === 3 && features.split[i] === 0) first = i;
    const r = problem.train.start[1];
    expect(Array.from(problem.train.x.subarray(r * 12, r * 12 + 12))).toEqual(Array.from(features.features.subarray(first * 12, first * 12 + 12)));
  });
});

describe('class scores equal numpy', () => {
  const flat = (m: number[][]) => m.flat();
  it('SimpleCIL: cosine to the class mean of the raw features', () => {
    expectClose(prototypeScores(problem, 'cosine'), flat(fixture.scores.cosine), 1e-12, 'cosine');
  });
  it('NCM: minus the squared distance to the class mean of the normalised features', () => {
    expectClose(prototypeScores(problem, 'euclidean'), flat(fixture.scores.euclidean), 1e-12, 'euclidean');
  });
  it('FeCAM: the Mahalanobis distance with the shrunk, normalised covariance (numpy uses pinv)', () => {
    expectClose(
      fecamScores(problem, 1),
      flat(fixture.scores.fecam).map((x) => -x),
      1e-9,
      'fecam 1',
    );
    expectClose(
      fecamScores(problem, 0.25),
      flat(fixture.scores['fecam-0.25']).map((x) => -x),
      1e-9,
      'fecam 0.25',
    );
  });
});

describe("RanPAC's λ selection equals numpy's 17 solves", () => {
  const sel = fixture.ridgeSelection;
  const model = ranpacModel(problem, { projection: sel.M, lambdaFrom: 'task' }, sel.seed);
  it('holds out the same rows (default_rng([seed, label]).permutation, first int(0.8 n) fit)', () => {
    // numpy's fit rows are npz row indices; ours are indices into the grouped train block: compare the features
    sel.members.forEach((p, k) => {
      const ours = Array.from(model.split.fit[p], (i) => Array.from(problem.train.x.subarray(i * 12, i * 12 + 12)));
      const theirs = sel.fit[k].map((i: number) => Array.from(features.features.subarray(i * 12, i * 12 + 12), Number));
      expect(ours).toEqual(theirs);
    });
  });
  it('gives the same validation error for every λ of the grid where the system is well conditioned, and the same choice', () => {
    const choice = model.chooseLambda(sel.members);
    // λ ≤ 1e-6 leaves the 24 × 24 system near-singular in numpy's primal solve: compare from 1e-5 up
    expectClose(choice.errors.slice(3), sel.errors.slice(3), 1e-7, 'errors');
    const want = sel.errors.indexOf(Math.min(...sel.errors));
    expect(choice.index).toBe(want);
  });
  it('ridgeErrors: the tridiagonal path equals one solve per λ on a small system', () => {
    // A = [[4,1,0],[1,3,1],[0,1,2]], B = [[1,0,1]], R = [[1],[0],[1]], Y = [[0.5]]
    const errors = ridgeErrors(Float64Array.of(4, 1, 0, 1, 3, 1, 0, 1, 2), Float64Array.of(1, 0, 1), Float64Array.of(1, 0, 1), Float64Array.of(0.5), 3, 1, 1);
    const direct = (lambda: number) => {
      // solve (A + λI) x = r by Cramer's rule on 3 × 3
      const a = [
        [4 + lambda, 1, 0],
        [1, 3 + lambda, 1],
        [0, 1, 2 + lambda],
      ];
      const det = (m: number[][]) =>
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
      const r = [1, 0, 1];
      const x = [0, 1, 2].map((k) => det(a.map((row, i) => row.map((v, j) => (j === k ? r[i] : v)))) / det(a));
      return (x[0] + x[2] - 0.5) ** 2;
    };
    errors.forEach((e, k) => expect(e).toBeCloseTo(direct([1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8][k]), 12));
  });
});

describe.each(cases.map((c) => [c.name, c] as const))('%s: the ground truth of every ordering equals numpy', (_name, c) => {
  const evaluator = preparePtm({ features, classes: fixture.classes, strategy: c.strategy, seed: c.seed });
  const records: PtmRunRecord[] = [];
  const done = runPtmGroundTruth({ evaluator, taskSizes: c.taskSizes, ...allOrderings(c.taskSizes, 1000) }, { onRecord: (r) => records.push(r) });

  it(`the ${c.runs.length} orderings come in rank order with numpy's final accuracy and AIA`, async () => {
    await done;
    expect(records.map((r) => r.orderingKey)).toEqual(c.runs.map((r) => r.key));
    records.forEach((r, k) => {
      expect(r.finalAccuracy, `${r.orderingKey} final`).toBeCloseTo(c.runs[k].final, 12);
      expect(r.aia, `${r.orderingKey} AIA`).toBeCloseTo(c.runs[k].aia, 12);
    });
  });

  it('the kept orderings have numpy’s whole matrix R (and RanPAC its λ per step, also on the direct run)', async () => {
    await done;
    const direct = directRunner(evaluator.problem, c.strategy, c.seed);
    const kept = c.runs.filter((r) => r.matrix);
    expect(kept.length).toBeGreaterThan(0);
    for (const run of kept) {
      const rec = records.find((r) => r.orderingKey === run.key)!;
      rec.matrix.forEach((row, i) => expectClose(row, run.matrix![i], 1e-12, `${run.key} R[${i}]`));
      const d = direct(run.order!);
      expect(d.matrix).toEqual(rec.matrix);
      if (run.lambdas) expect(d.lambdaIndex).toEqual(run.lambdas);
    }
  });
});

describe('order-invariance on the numpy reference', () => {
  it('SimpleCIL, NCM, FeCAM and RanPAC with λ from every seen class: one final accuracy for every ordering, AIA spread', () => {
    for (const c of cases.filter((x) => x.strategy.id !== 'ranpac' || x.strategy.options.lambdaFrom === 'seen')) {
      const finals = new Set(c.runs.map((r) => r.final.toFixed(12)));
      const aias = new Set(c.runs.map((r) => r.aia.toFixed(12)));
      expect(finals.size, c.name).toBe(1);
      expect(aias.size, c.name).toBeGreaterThan(1);
    }
  });
  it("RanPAC with λ from the last task (its code's rule): the final accuracy varies only with the last task's λ", () => {
    const c = cases.find((x) => x.name === 'ranpac M=24 task')!;
    expect(new Set(c.runs.map((r) => r.final.toFixed(12))).size).toBeGreaterThan(1);
    // the orderings sharing a last task share their final accuracy
    const byLast = new Map<string, Set<string>>();
    for (const r of c.runs) {
      const last = r.key.split('|')[2];
      byLast.set(last, (byLast.get(last) ?? new Set()).add(r.final.toFixed(12)));
    }
    for (const finals of byLast.values()) expect(finals.size).toBe(1);
  });
  it('enumerateOrderings is the rank order the fixture lists', () => {
    expect([...enumerateOrderings([2, 2, 2])].length).toBe(90);
  });
});
