import { describe, expect, it } from 'vitest';
import { RANKING_DIMENSIONS, rankScores, rankingError, strategyRankings, summarizeOutcomes } from '../../../../src/core/stats/rankings';
import { expectClose, fixture } from './fixture';

describe('strategy rankings against numpy / scipy.stats.rankdata (paper Tables A5/A6)', () => {
  for (const c of fixture.rankings) {
    it(c.name, () => {
      const r = strategyRankings(c.strategies);
      expect(r.protocols).toEqual(['truth', 'edge', 'rs']);
      expect(r.strategies).toEqual(c.strategies.map((s: any) => s.strategy));
      for (const p of r.protocols) {
        for (const d of RANKING_DIMENSIONS) {
          r.summaries[p][d].forEach((v, i) => expectClose(v, c.summaries[p][d][i], 1e-12, 1e-15, `${p} ${d} ${i}`));
          expect(r.ranks[p][d], `${p} ${d} ranks`).toEqual(c.ranks[p][d]);
        }
      }
      for (const p of ['edge', 'rs']) expect(r.errors[p]).toEqual(c.errors[p]);
    });
  }
});

describe('ranking rules', () => {
  it('rank 1 is best: higher min and max, lower std; ties averaged', () => {
    expect(rankScores([0.7, 0.9, 0.8], true)).toEqual([3, 1, 2]);
    expect(rankScores([0.02, 0.01, 0.03], false)).toEqual([2, 1, 3]);
    expect(rankScores([0.5, 0.5, 0.4], true)).toEqual([1.5, 1.5, 3]);
  });
  it('ranking error is Σ |rank − reference|', () => {
    expect(rankingError([1, 2, 3], [3, 2, 1])).toBe(4);
    expect(() => rankingError([1], [1, 2])).toThrow(RangeError);
  });
  it('summaries use the population std', () => {
    expect(summarizeOutcomes([1, 3])).toEqual({ min: 1, max: 3, std: 1 });
    expect(() => summarizeOutcomes([])).toThrow(/at least one value/);
  });
  it('a protocol that reproduces the truth has error 0; the paper-style total sums the three dimensions', () => {
    const a = [0.5, 0.6, 0.7];
    const b = [0.55, 0.56, 0.57];
    const c = [0.4, 0.8, 0.6];
    const r = strategyRankings([
      { strategy: 'A', values: { truth: a, edge: a, rs: [0.6, 0.6, 0.6] } },
      { strategy: 'B', values: { truth: b, edge: b, rs: [0.56, 0.57, 0.55] } },
      { strategy: 'C', values: { truth: c, edge: c, rs: [0.6, 0.5, 0.7] } },
    ]);
    expect(r.errors.edge).toEqual({ min: 0, max: 0, std: 0, total: 0 });
    expect(r.errors.rs.total).toBe(r.errors.rs.min + r.errors.rs.max + r.errors.rs.std);
  });
  it('custom reference and protocol list; missing values throw', () => {
    const r = strategyRankings(
      [
        { strategy: 'A', values: { truth: [1, 2], edge: [1, 2], ms: [1.5] } },
        { strategy: 'B', values: { truth: [0, 3], edge: [0, 3], ms: [2] } },
      ],
      { protocols: ['ms'] },
    );
    expect(r.protocols).toEqual(['truth', 'ms']);
    expect(() => strategyRankings([{ strategy: 'A', values: { truth: [1] } }], { protocols: ['rs'] })).toThrow(/no values for "rs"/);
    expect(() => strategyRankings([])).toThrow(/at least one strategy/);
  });
});
