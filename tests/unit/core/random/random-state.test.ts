import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/numpy-random.json';
import { createRandomState, randomStatePermutation, type RandomState } from '../../../../src/core/random/random-state';
import { mt19937Next32, mt19937Seed } from '../../../../src/core/random/mt19937';

// Fixture made by scripts/make-numpy-fixtures.py from numpy itself (see its _note).
const fx = fixture.randomState;

type Op = [string, ...(number | boolean)[]];

function runOp(rs: RandomState, op: Op): unknown {
  const [name, ...args] = op as [string, ...number[]];
  switch (name) {
    case 'permutation':
      return rs.permutation(args[0]);
    case 'random_sample':
      return rs.randomSample();
    case 'randint':
      return args.length === 1 ? rs.randint(args[0]) : rs.randint(args[0], args[1]);
    default:
      throw new Error(`unknown op ${name}`);
  }
}

describe('RandomState (numpy legacy MT19937), bit-identical to numpy', () => {
  it('reproduces the docs/science.md anchor: seed 1993, N=100 starts 68, 56, 78, 8, 23, 84, 90, 65, 74, 76', () => {
    expect(randomStatePermutation(1993, 100).slice(0, 10)).toEqual([68, 56, 78, 8, 23, 84, 90, 65, 74, 76]);
  });

  it('matches the reference MT19937 output for init_genrand(5489)', () => {
    // Matsumoto–Nishimura's default seed: the first output of genrand_int32 is 3499211612.
    expect(mt19937Next32(mt19937Seed(5489))).toBe(3499211612);
  });

  it(`matches numpy ${fixture.numpyVersion} permutation(n) for every fixture seed and n (${fx.permutations.length} cases)`, () => {
    for (const { seed, n, perm } of fx.permutations) {
      expect(randomStatePermutation(seed, n), `seed ${seed}, n ${n}`).toEqual(perm);
    }
  });

  it('matches numpy random_sample() doubles exactly (first 20 per seed)', () => {
    for (const { seed, values } of fx.randomSample) {
      const rs = createRandomState(seed);
      const got = values.map(() => rs.randomSample());
      expect(got, `seed ${seed}`).toEqual(values);
    }
  });

  it('matches interleaved permutation / random_sample / randint calls on one stream (incl. 64-bit ranges)', () => {
    for (const { seed, steps } of fx.ops) {
      const rs = createRandomState(seed);
      steps.forEach(({ op, result }, k) => {
        expect(runOp(rs, op as Op), `seed ${seed}, step ${k} ${JSON.stringify(op)}`).toEqual(result);
      });
    }
  });

  it('keeps state across 200 successive permutations (as numpy does)', () => {
    const { seed, n, count, perms } = fx.manyPermutations;
    const rs = createRandomState(seed);
    const got = Array.from({ length: count }, () => rs.permutation(n));
    expect(got).toEqual(perms);
  });

  it('shuffle() permutes arbitrary items exactly like permutation() permutes indices', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const idx = randomStatePermutation(42, items.length);
    expect(createRandomState(42).shuffle(items.slice())).toEqual(idx.map((i) => items[i]));
  });

  it('randomInterval(0) returns 0 without consuming a draw', () => {
    const a = createRandomState(7);
    const b = createRandomState(7);
    expect(a.randomInterval(0)).toBe(0);
    expect(a.randomSample()).toBe(b.randomSample());
  });

  it('rejects non-integer or out-of-range seeds with a RangeError', () => {
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN, Infinity, -Infinity]) {
      expect(() => createRandomState(bad), String(bad)).toThrow(RangeError);
      expect(() => randomStatePermutation(bad, 10), String(bad)).toThrow(/RandomState seed must be an integer between 0 and 2\^32 - 1/);
    }
    expect(() => createRandomState('1' as unknown as number)).toThrow(RangeError);
    expect(() => createRandomState(0)).not.toThrow();
    expect(() => createRandomState(2 ** 32 - 1)).not.toThrow();
  });

  it('rejects bad n, bounds and ranges with a RangeError', () => {
    const rs = createRandomState(0);
    expect(() => rs.permutation(-1)).toThrow(RangeError);
    expect(() => rs.permutation(2.5)).toThrow(RangeError);
    expect(() => rs.randomInterval(-1)).toThrow(RangeError);
    expect(() => rs.randint(5, 5)).toThrow(/low >= high/);
    expect(() => rs.randint(0)).toThrow(/low >= high/);
    expect(() => rs.randint(0.5, 3)).toThrow(RangeError);
    expect(() => rs.randint(-(2 ** 53), 2 ** 53)).toThrow(RangeError);
  });
});
