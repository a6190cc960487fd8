import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/orderings.json';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { similarityScore } from '../../../../src/core/orderings/score';
import { fractionBelow, scoreValues, summariseScores } from '../../../../src/core/orderings/score-distribution';

const sim = matrixFromRows(fixture.scores[0].sim); // 6 classes

describe('distribution of S over Ω', () => {
  it('exact: the sorted S of all 90 orderings equals brute force', () => {
    const { kind, values } = scoreValues(sim, [2, 2, 2]);
    expect(kind).toBe('exact');
    const brute = [...enumerateOrderings([2, 2, 2])].map((o) => similarityScore(o, sim)).sort((a, b) => a - b);
    expect(values.length).toBe(90);
    values.forEach((v, i) => expect(v).toBeCloseTo(brute[i], 12));
  });
  it('sample: above the limit it draws a seeded uniform sample, labelled so', () => {
    const a = scoreValues(sim, [2, 2, 2], { limit: 10, sampleSize: 50, seed: 3 });
    const b = scoreValues(sim, [2, 2, 2], { limit: 10, sampleSize: 50, seed: 3 });
    expect(a.kind).toBe('sample');
    expect(a.seed).toBe(3);
    expect(Array.from(a.values)).toEqual(Array.from(b.values));
  });
  it('exact also below the limit when the sample would be all of Ω (90 orderings, a sample of 90 or 20 000)', () => {
    for (const sampleSize of [90, 20_000]) {
      const r = scoreValues(sim, [2, 2, 2], { limit: 10, sampleSize, seed: 3 });
      expect(r.kind).toBe('exact');
      expect(Array.from(r.values)).toEqual(Array.from(scoreValues(sim, [2, 2, 2]).values));
    }
    expect(scoreValues(sim, [2, 2, 2], { limit: 10, sampleSize: 89 }).kind).toBe('sample');
  });
  it('histogram counts add up, bins span [min, max], moments match a direct computation', () => {
    const { values } = scoreValues(sim, [2, 2, 2]);
    const d = summariseScores(values, 'exact', 10);
    expect(d.bins.reduce((a, b) => a + b.count, 0)).toBe(90);
    expect(d.bins[0].x0).toBe(values[0]);
    expect(d.bins[9].x1).toBe(values[89]);
    const mean = values.reduce((a, b) => a + b, 0) / 90;
    expect(d.mean).toBeCloseTo(mean, 12);
    expect(d.std).toBeCloseTo(Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / 90), 12);
  });
  it('fractionBelow counts strictly lower scores (ties within 1e-12 are equal)', () => {
    const sorted = Float64Array.from([1, 2, 2, 3]);
    expect(fractionBelow(sorted, 0.5)).toBe(0);
    expect(fractionBelow(sorted, 1)).toBe(0);
    expect(fractionBelow(sorted, 2 + 1e-14)).toBe(0.25);
    expect(fractionBelow(sorted, 2.5)).toBe(0.75);
    expect(fractionBelow(sorted, 4)).toBe(1);
  });
});
