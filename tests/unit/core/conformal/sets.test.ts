import { describe, expect, it } from 'vitest';
import { conformalSets, empiricalCoverage, meanSetSize, predictionSet, predictionSets } from '../../../../src/core/conformal/sets';
import { conformalScores, type ScoreName } from '../../../../src/core/conformal/scores';
import { conformalQuantile } from '../../../../src/core/conformal/quantile';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import { expectClose, fx, qOf } from './fixture';
import { dirichletRow, exchangeable, gaussianSoftmaxRow } from './synthetic';

describe('predictionSet by hand', () => {
  const row = [0.1, 0.6, 0.3];
  it('APS: most probable first, up to and including the first class whose cumulative mass ≥ q', () => {
    expect(predictionSet(row, 0.5)).toEqual([1]);
    expect(predictionSet(row, 0.6)).toEqual([1]); // 0.6 ≥ 0.6 stops at class 1
    expect(predictionSet(row, 0.61)).toEqual([1, 2]);
    expect(predictionSet(row, 0.95)).toEqual([1, 2, 0]);
    expect(predictionSet(row, 0)).toEqual([1]); // never empty
    expect(predictionSet(row, 1.5)).toEqual([1, 2, 0]); // q above the total mass: every class
    expect(predictionSet(row, Infinity)).toEqual([1, 2, 0]);
    expect(predictionSet([0.25, 0.25, 0.25, 0.25], 0.5)).toEqual([0, 1]); // ties by index
  });
  it('LAC: {k : 1 − π_k ≤ q}, possibly empty', () => {
    expect(predictionSet(row, 0.5, { score: 'lac' })).toEqual([1]);
    expect(predictionSet(row, 0.7, { score: 'lac' })).toEqual([1, 2]);
    expect(predictionSet(row, 0.3, { score: 'lac' })).toEqual([]);
    expect(predictionSet(row, Infinity, { score: 'lac' })).toEqual([1, 2, 0]);
  });
  it('RAPS: APS on the penalised mass; equals APS within k_reg classes', () => {
    // cumulative 0.3, 0.5, 0.65, 0.75, 0.83, 0.90, 0.95, 1.0; penalty from rank 6 on: 0.01, 0.02, 0.03
    const p = [0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.05, 0.05];
    expect(predictionSet(p, 0.8, { score: 'raps' })).toEqual([0, 1, 2, 3, 4]); // within k_reg: as APS
    expect(predictionSet(p, 0.8, { score: 'aps' })).toEqual([0, 1, 2, 3, 4]);
    expect(predictionSet(p, 0.905, { score: 'aps' })).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(predictionSet(p, 0.905, { score: 'raps' })).toEqual([0, 1, 2, 3, 4, 5]); // 0.90 + 0.01 ≥ 0.905
    expect(predictionSet(p, 0.92, { score: 'raps' })).toEqual([0, 1, 2, 3, 4, 5, 6]); // 0.95 + 0.02
    expect(predictionSet(p, 0.7, { score: 'raps', raps: { lambda: 0.5, kReg: 1 } })).toEqual([0, 1]); // 0.5 + 0.5
    expect(predictionSet(p, 0.905, { score: 'raps', raps: { lambda: 0 } })).toEqual(predictionSet(p, 0.905));
  });
  it('rejects a NaN threshold', () => {
    expect(() => predictionSet(row, NaN)).toThrow('the threshold q must be a number (or Infinity); got NaN.');
  });
});

describe('sizes and coverage', () => {
  it('mean size and empirical coverage', () => {
    expect(meanSetSize([1, 2, 3])).toBe(2);
    expect(meanSetSize([])).toBeNaN();
    expect(empiricalCoverage([[1], [0, 2], []], [1, 1, 0])).toBeCloseTo(1 / 3, 15);
    expect(() => empiricalCoverage([[1]], [1, 2])).toThrow('2 labels for 1 prediction sets.');
  });
});

describe('sets equal the numpy reference', () => {
  for (const c of fx.scores) {
    it(c.name, () => {
      const probs = c.float32 ? { data: Float32Array.from(c.probs.flat()), width: c.probs[0].length } : c.probs;
      for (const score of ['aps', 'lac', 'raps'] as const) {
        for (const s of c.sets[score]) {
          const got = predictionSets(probs, qOf(s.q), { score });
          expect(got.sets, `${score} q=${s.q}`).toEqual(s.sets);
          expect(got.sizes).toEqual(s.sizes);
          expect(empiricalCoverage(got.sets, c.labels)).toBe(s.coverage);
        }
      }
    });
  }
  it('conformalSets end to end (calibrate, threshold, sets, coverage)', () => {
    for (const c of fx.conformal) {
      const r = conformalSets(c.calibration, c.test, { alpha: c.alpha, score: c.score });
      const what = `${c.score} α=${c.alpha} n=${c.calibration.labels.length}`;
      expect(r.q, what).toBe(qOf(c.q));
      expect(r.sets, what).toEqual(c.sets);
      expect(r.sizes).toEqual(c.sizes);
      expect(r.coverage).toBe(c.coverage);
      expectClose([r.meanSize], [c.meanSize], 1e-12, what);
      expect(r.n).toBe(c.calibration.labels.length);
    }
  });
});

describe('conformalSets edge cases', () => {
  const cal = {
    probs: [
      [0.7, 0.3],
      [0.4, 0.6],
      [0.9, 0.1],
    ],
    labels: [0, 1, 1],
  };
  it('too little calibration data for α: q = +∞ and every set is the full set', () => {
    const r = conformalSets(
      cal,
      {
        probs: [
          [0.99, 0.01],
          [0.2, 0.8],
        ],
      },
      { alpha: 0.1 },
    );
    expect(r.q).toBe(Infinity);
    expect(r.sets).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(r.coverage).toBeNull(); // no test labels
  });
  it('clear errors: α out of (0,1), mismatched classes, mismatched labels', () => {
    expect(() => conformalSets(cal, { probs: [[1, 0]] }, { alpha: 0 })).toThrow(RangeError);
    expect(() => conformalSets(cal, { probs: [[1, 0]] }, { alpha: 1.2 })).toThrow('alpha must be a number strictly between 0 and 1');
    expect(() => conformalSets(cal, { probs: [[1, 0, 0]] }, { alpha: 0.5 })).toThrow(
      'calibration probs have 2 classes but test probs have 3; both need the same classes.',
    );
    expect(() => conformalSets({ ...cal, labels: [0, 1] }, { probs: [[1, 0]] }, { alpha: 0.5 })).toThrow('calibration labels: 2 labels for 3 rows');
    expect(() => conformalSets(cal, { probs: [[1, 0]], labels: [0, 1] }, { alpha: 0.5 })).toThrow('test labels: 2 labels for 1 rows');
  });
});

describe('validity on exchangeable synthetic data (200 seeds)', () => {
  // Each seed: 10 classes, 250 calibration and 250 test examples whose labels are drawn from the probabilities
  // (even seeds: softmax of Gaussian logits; odd seeds: Dirichlet(0.5)), so calibration and test are exchangeable.
  const scores: ScoreName[] = ['aps', 'lac', 'raps'];
  const alphas = [0.05, 0.1, 0.2];
  const sum = new Map<string, number>();
  const size = new Map<string, number>();
  const seeds = 200;
  for (let seed = 0; seed < seeds; seed++) {
    const rng = createDefaultRng(seed);
    const makeRow = seed % 2 === 0 ? () => gaussianSoftmaxRow(rng, 10, 2) : () => dirichletRow(rng, 10, 0.5);
    const cal = exchangeable(rng, 250, makeRow);
    const test = exchangeable(rng, 250, makeRow);
    for (const score of scores) {
      const s = conformalScores(cal.probs, cal.labels, { score });
      for (const alpha of alphas) {
        const q = conformalQuantile(s, alpha);
        const { sets, sizes } = predictionSets(test.probs, q, { score });
        const key = `${score}/${alpha}`;
        sum.set(key, (sum.get(key) ?? 0) + empiricalCoverage(sets, test.labels));
        size.set(key, (size.get(key) ?? 0) + meanSetSize(sizes));
      }
    }
  }
  for (const score of scores) {
    for (const alpha of alphas) {
      it(`${score.toUpperCase()} at α = ${alpha}: mean coverage ≥ 1 − α − 0.02`, () => {
        const cov = sum.get(`${score}/${alpha}`)! / seeds;
        expect(cov).toBeGreaterThanOrEqual(1 - alpha - 0.02);
        // not trivially valid: the sets are smaller than the 10 classes
        expect(size.get(`${score}/${alpha}`)! / seeds).toBeLessThan(9);
        // LAC is exact up to discreteness: E[coverage] ∈ [1 − α, 1 − α + 1/(n+1)]
        if (score === 'lac') expect(cov).toBeLessThanOrEqual(1 - alpha + 0.02);
      });
    }
  }
});
