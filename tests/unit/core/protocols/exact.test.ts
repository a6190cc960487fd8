import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/edge.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { similarityScore } from '../../../../src/core/orderings/score';
import { forEachOrdering, labelsToOrdering, rankOrdering } from '../../../../src/core/orderings/enumerate';
import { OrderingError } from '../../../../src/core/orderings/task-sizes';
import type { SquareMatrix } from '../../../../src/core/orderings/types';
import { DEFAULT_EXACT_LIMIT, exactExtremes, exactSequences } from '../../../../src/core/protocols/exact';

function randomSim(n: number, seed: number, symmetric = true): SquareMatrix {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = i === j ? 1 : u();
  if (symmetric) for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) data[i * n + j] = data[j * n + i];
  return { n, data };
}

/** Brute force with the plain score: min/max and the first rank reaching them. */
function bruteForce(sim: SquareMatrix, sizes: number[]) {
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  forEachOrdering(sizes, (labels) => {
    const s = similarityScore(labelsToOrdering(labels, sizes.length), sim);
    min = Math.min(min, s);
    max = Math.max(max, s);
    count++;
  });
  return { min, max, count };
}

describe('exact extremes of S over Ω', () => {
  it('equal the brute-force min / max of the independent Python script', () => {
    for (const c of fixture.cases.filter((x) => 'exact' in x)) {
      const sim = matrixFromRows(c.sim);
      const res = exactExtremes(sim, c.sizes);
      const want = (c as unknown as { exact: { min: number; max: number; count: number } }).exact;
      expect(res.count).toBe(want.count);
      expect(res.min.score).toBeCloseTo(want.min, 12);
      expect(res.max.score).toBeCloseTo(want.max, 12);
    }
  });

  const settings = [
    { sizes: [2, 2, 2], symmetric: true },
    { sizes: [1, 3, 2], symmetric: true },
    { sizes: [2, 2, 2], symmetric: false },
    { sizes: [3, 2, 3], symmetric: false },
    { sizes: [2, 2, 2, 2], symmetric: true },
  ];
  for (const { sizes, symmetric } of settings) {
    it(`equal the brute-force min / max (sizes ${sizes.join(',')}, ${symmetric ? 'symmetric' : 'asymmetric'})`, () => {
      for (let seed = 1; seed <= 3; seed++) {
        const n = sizes.reduce((a, b) => a + b, 0);
        const sim = randomSim(n, seed * 7 + sizes.length, symmetric);
        const res = exactExtremes(sim, sizes);
        const bf = bruteForce(sim, sizes);
        expect(res.count).toBe(bf.count);
        expect(res.min.score).toBeCloseTo(bf.min, 12);
        expect(res.max.score).toBeCloseTo(bf.max, 12);
        expect(similarityScore(res.min.tasks, sim)).toBe(res.min.score);
        expect(Number(rankOrdering(res.min.tasks, sizes))).toBe(res.min.rank);
        expect(Number(rankOrdering(res.max.tasks, sizes))).toBe(res.max.rank);
      }
    });
  }

  it('ties go to the lowest rank', () => {
    const n = 6;
    const sim = { n, data: new Float64Array(n * n).fill(0.5) }; // every ordering has the same S
    const res = exactExtremes(sim, [2, 2, 2]);
    expect(res.min.rank).toBe(0);
    expect(res.max.rank).toBe(0);
    expect(res.min.tasks).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    // symmetric Sim: an ordering and its reverse tie; the lower rank is kept
    const sym = randomSim(6, 3);
    const r2 = exactExtremes(sym, [2, 2, 2]);
    const reversedRank = Number(rankOrdering(r2.min.tasks.slice().reverse(), [2, 2, 2]));
    expect(r2.min.rank).toBeLessThan(reversedRank);
  });

  it('refuses when |Ω| exceeds the limit, saying how many and offering sampling', () => {
    const sim = randomSim(100, 1);
    expect(() => exactExtremes(sim, Array(10).fill(10))).toThrow(OrderingError);
    expect(() => exactExtremes(sim, Array(10).fill(10))).toThrow(/2\.357e92 orderings.*[Ss]ampling/);
    expect(() => exactExtremes(randomSim(8, 1), [2, 2, 2, 2], 1000)).toThrow(/2\u2009520 orderings/);
    expect(DEFAULT_EXACT_LIMIT).toBe(1_000_000);
  });

  it('Sequences', () => {
    const sim = randomSim(6, 5);
    const [h, e] = exactSequences(exactExtremes(sim, [2, 2, 2]), sim);
    expect([h.protocol, h.label, e.label]).toEqual(['exact', 'Exact hard (min S)', 'Exact easy (max S)']);
    expect(h.score).toBeLessThanOrEqual(e.score);
  });
});
