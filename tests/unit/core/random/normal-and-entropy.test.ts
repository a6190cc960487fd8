import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/ptm.json';
import { createDefaultRng, createDefaultRngFromWords } from '../../../../src/core/random/default-rng';
import { createRandomState } from '../../../../src/core/random/random-state';

// numpy's own draws, from scripts/make-ptm-fixtures.py (RanPAC's projection and validation split use them).
describe('RandomState.standard_normal (legacy polar method)', () => {
  it.each(fixture.standardNormal.map((c) => [c.seed, c.values] as const))('seed %i: numpy’s first 9 values to 1e-15', (seed, values) => {
    const rs = createRandomState(seed);
    for (const v of values) expect(Math.abs(rs.standardNormal() - v)).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(v)));
  });
  it('keeps the second normal of each pair for the next call (odd counts continue the stream)', () => {
    const a = createRandomState(5);
    const b = createRandomState(5);
    const first = [a.standardNormal(), a.standardNormal(), a.standardNormal()];
    expect([b.standardNormal(), b.standardNormal(), b.standardNormal()]).toEqual(first);
    expect(first[0]).not.toBe(first[1]);
  });
});

describe('default_rng([a, b]): SeedSequence over several words', () => {
  it.each(fixture.entropyPermutations.map((c) => [c.words.join(','), c] as const))('[%s]: numpy’s permutation', (_w, c) => {
    expect(createDefaultRngFromWords(c.words).permutation(c.n)).toEqual(c.perm);
  });
  it('one word is default_rng(seed)', () => {
    expect(createDefaultRngFromWords([42]).permutation(50)).toEqual(createDefaultRng(42).permutation(50));
  });
  it('refuses words outside 0 … 2³²−1 and an empty list', () => {
    expect(() => createDefaultRngFromWords([])).toThrow(/at least one/);
    expect(() => createDefaultRngFromWords([1, -1])).toThrow(/between 0 and 2\^32/);
  });
});
