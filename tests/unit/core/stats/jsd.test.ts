import { describe, expect, it } from 'vitest';
import { fitGaussian } from '../../../../src/core/stats/gaussian';
import {
  JSD_BINS,
  JSD_EPSILON,
  binEdges,
  gaussianBinMass,
  histogramMass,
  jensenShannonBits,
  jsdAgainstGrid,
  jsdGrid,
  NO_SPREAD_STD,
  jsdToTruth,
} from '../../../../src/core/stats/jsd';
import { expectClose, fixture } from './fixture';

describe('JSD against the independent numpy implementation of docs/science.md §2', () => {
  for (const c of fixture.quality) {
    it(c.name, () => {
      const g = { mean: c.mean, std: c.std };
      const got = jsdToTruth(c.truth, g);
      if (c.jsd === null) expect(got).toBeNaN();
      else expectClose(got, c.jsd, 1e-9, 1e-12, 'jsd');
      // the estimate is the population-variance Gaussian of its values
      const fit = fitGaussian(c.estimate);
      expectClose(fit.mean, c.mean, 1e-13, 1e-15);
      expectClose(fit.std, c.std, 1e-9, 1e-300);
      if (c.grid) {
        const grid = jsdGrid(c.truth);
        expectClose(grid.lo, c.grid.lo, 1e-14, 1e-15, 'lo');
        expectClose(grid.hi, c.grid.hi, 1e-14, 1e-15, 'hi');
        expect(grid.edges).toHaveLength(JSD_BINS + 1);
        grid.edges.forEach((e, i) => expectClose(e, c.grid.edges[i], 1e-14, 1e-15, `edge ${i}`));
        const n = c.truth.length;
        expect(Array.from(grid.truthMass, (m) => Math.round(m * n))).toEqual(c.grid.counts);
      }
    });
  }
});

describe('JSD pieces', () => {
  it('binEdges is np.linspace: lo + i·step, last edge exactly hi', () => {
    const e = binEdges(0.1, 0.7, 64);
    expect(e[0]).toBe(0.1);
    expect(e[64]).toBe(0.7);
    expect(e[32]).toBe(32 * (0.6 / 64) + 0.1);
  });
  it('histogramMass: half-open bins, last bin closed, outside values dropped', () => {
    const e = binEdges(0, 4, 4);
    expect([...histogramMass([0, 1, 1.5, 4, 5, -1], e)]).toEqual([0.25, 0.5, 0, 0.25]);
  });
  it('gaussianBinMass sums to the mass inside the grid', () => {
    const e = binEdges(-3, 3, 64);
    const m = gaussianBinMass({ mean: 0, std: 1 }, e);
    expectClose(
      m.reduce((a, b) => a + b, 0),
      0.9973002039367398,
      1e-13,
    );
  });
  it('jensenShannonBits: 0 for equal, 1 bit for disjoint (up to ε), symmetric', () => {
    expect(jensenShannonBits([0.5, 0.5], [0.5, 0.5])).toBe(0);
    expectClose(jensenShannonBits([1, 0], [0, 1]), 1, 1e-9);
    expect(jensenShannonBits([0.2, 0.8], [0.6, 0.4])).toBeCloseTo(jensenShannonBits([0.6, 0.4], [0.2, 0.8]), 15);
    expect(JSD_EPSILON).toBe(1e-12);
  });
  it('a truth with no spread has no grid: NaN', () => {
    expect(jsdGrid([0.5, 0.5]).degenerate).toBe(true);
    expect(jsdToTruth([0.5], { mean: 0.5, std: 0.1 })).toBeNaN();
    expect(jsdAgainstGrid(jsdGrid([0.5, 0.5]), { mean: 0.5, std: 0.1 })).toBeNaN();
  });
  it('equal accuracies whose mean rounds (σ ≈ 1e-16, not 0) have no spread either; one test image apart has', () => {
    // 90 orderings at 151/180 (a prototype method: every order ends the same): the summed mean is off by a rounding,
    // so the population std is about 2e-16 rather than 0 (numpy: np.full(90, 151 / 180).std() is 2.2e-16)
    const same = Array<number>(90).fill(151 / 180);
    expect(jsdGrid(same).degenerate).toBe(true);
    expect(jsdToTruth(same, { mean: 151 / 180, std: 0 })).toBeNaN();
    expect(NO_SPREAD_STD).toBe(1e-9);
    expect(jsdGrid([0.8, 0.8 + 1 / 300]).degenerate).toBe(false);
  });
  it('rejects empty or non-finite truth', () => {
    expect(() => jsdGrid([])).toThrow(/at least one value/);
    expect(() => jsdGrid([0.1, Infinity])).toThrow(/value 1 is Infinity/);
  });
  it('a Gaussian that matches the truth better scores lower', () => {
    const truth = fixture.quality[0].truth as number[];
    const good = jsdToTruth(truth, fitGaussian(truth));
    const bad = jsdToTruth(truth, { mean: fitGaussian(truth).mean + 0.05, std: 0.01 });
    expect(good).toBeLessThan(bad);
    expect(good).toBeGreaterThanOrEqual(0);
    expect(bad).toBeLessThanOrEqual(1);
  });
});
