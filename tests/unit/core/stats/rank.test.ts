import { describe, expect, it } from 'vitest';
import { averageRanks } from '../../../../src/core/stats/rank';
import { fixture } from './fixture';

describe('averageRanks = scipy.stats.rankdata(method="average")', () => {
  for (const c of fixture.rankdata) {
    it(`[${c.x.slice(0, 6).join(', ')}${c.x.length > 6 ? ', …' : ''}]`, () => {
      expect([...averageRanks(c.x)]).toEqual(c.ranks);
    });
  }
  it('ties get the mean of the ranks they span', () => {
    expect([...averageRanks([10, 20, 10, 30, 20, 20])]).toEqual([1.5, 4, 1.5, 6, 4, 4]);
  });
  it('rejects NaN', () => {
    expect(() => averageRanks([1, NaN])).toThrow(/value 1 is NaN/);
  });
});
