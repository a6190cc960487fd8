import { describe, expect, it } from 'vitest';
import { countOrderings } from '../../../../src/core/orderings/count';
import { rankOrdering } from '../../../../src/core/orderings/enumerate';
import { orderingKey } from '../../../../src/core/orderings/key';
import { sampleOrderings, sampleOrderingsByShuffle, uniformBigBelow } from '../../../../src/core/orderings/sample';
import { createDefaultRng } from '../../../../src/core/random/default-rng';

describe('uniform sampling of orderings', () => {
  it('is reproducible by seed and different across seeds', () => {
    const a = sampleOrderings(Array(10).fill(10), 5, 7).map((s) => orderingKey(s.tasks));
    const b = sampleOrderings(Array(10).fill(10), 5, 7).map((s) => orderingKey(s.tasks));
    const c = sampleOrderings(Array(10).fill(10), 5, 8).map((s) => orderingKey(s.tasks));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
  it('draws distinct orderings whose rank matches, and can take all of a small Ω', () => {
    const all = sampleOrderings([2, 2, 2], 90, 1);
    expect(new Set(all.map((s) => orderingKey(s.tasks))).size).toBe(90);
    for (const s of all) expect(rankOrdering(s.tasks, [2, 2, 2])).toBe(s.rank);
    expect(() => sampleOrderings([2, 2, 2], 91, 1)).toThrow(/only 90/);
  });
  it('is uniform: chi-square over the 90 orderings of 6 classes / 3 tasks (18 000 single draws)', () => {
    const counts = new Array(90).fill(0);
    const rng = createDefaultRng(123);
    for (let i = 0; i < 18000; i++) counts[Number(uniformBigBelow(rng, 90n))]++;
    const chi2 = counts.reduce((a, c) => a + (c - 200) ** 2 / 200, 0);
    // 89 degrees of freedom: the 99.9% quantile is 135.98 (scipy.stats.chi2.ppf(0.999, 89))
    expect(chi2).toBeLessThan(135.98);
  });
  it('each task position gets each class equally often over many samples of a huge Ω', () => {
    const sizes = Array(10).fill(10);
    expect(countOrderings(sizes) > 10n ** 90n).toBe(true);
    const firstTask = new Array(100).fill(0);
    for (const s of sampleOrderings(sizes, 2000, 5)) for (const c of s.tasks[0]) firstTask[c]++;
    // each class lands in task 1 with probability 1/10: expected 200 of 2000, sd ≈ 13.4
    for (const n of firstTask) expect(Math.abs(n - 200)).toBeLessThan(70);
  });
});

describe('uniform sampling by shuffles (no ranks)', () => {
  it('draws distinct valid orderings reproducibly, uniform over task membership', () => {
    const sizes = Array(10).fill(10);
    const a = sampleOrderingsByShuffle(sizes, 2000, 9);
    expect(new Set(a.map((o) => orderingKey(o))).size).toBe(2000);
    expect(a.map((o) => orderingKey(o))).toEqual(sampleOrderingsByShuffle(sizes, 2000, 9).map((o) => orderingKey(o)));
    const lastTask = new Array(100).fill(0);
    for (const o of a) {
      expect(o.map((t) => t.length)).toEqual(sizes);
      for (const c of o[9]) lastTask[c]++;
    }
    for (const n of lastTask) expect(Math.abs(n - 200)).toBeLessThan(70);
  });
  it('falls back to rank sampling when L is more than half of a small Ω', () => {
    expect(new Set(sampleOrderingsByShuffle([2, 2, 2], 90, 1).map((o) => orderingKey(o))).size).toBe(90);
  });
});
