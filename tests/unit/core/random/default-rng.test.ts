import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/numpy-random.json';
import {
  createDefaultRng,
  defaultRngPermutation,
  pcg64FromSeed,
  seedSequenceGenerateState,
  seedSequencePool,
  type DefaultRng,
} from '../../../../src/core/random/default-rng';
import { pcg64StateValues } from '../../../../src/core/random/pcg64';

// Fixture made by scripts/make-numpy-fixtures.py from numpy itself (see its _note).
const fx = fixture.defaultRng;

type Op = [string, ...(number | boolean)[]];

function runOp(g: DefaultRng, op: Op): unknown {
  const [name, a, b, c] = op;
  switch (name) {
    case 'permutation':
      return g.permutation(a as number);
    case 'random':
      return g.random();
    case 'integers':
      if (b === undefined) return g.integers(a as number);
      return g.integers(a as number, b as number, (c as boolean | undefined) ?? false);
    case 'random_raw':
      return g.randomRaw().toString();
    default:
      throw new Error(`unknown op ${name}`);
  }
}

describe('default_rng (SeedSequence → PCG64 → Generator), bit-identical to numpy', () => {
  it('SeedSequence(seed).generate_state(8) matches numpy', () => {
    for (const { seed, words } of fx.seedSequence) {
      const got = Array.from(seedSequenceGenerateState(seedSequencePool(seed === 0 ? [0] : [seed]), 8));
      expect(got, `seed ${seed}`).toEqual(words);
    }
  });

  it('PCG64(seed).state (128-bit state and increment) matches numpy', () => {
    for (const { seed, state, inc } of fx.pcg64State) {
      const v = pcg64StateValues(pcg64FromSeed(seed));
      expect({ state: v.state.toString(), inc: v.inc.toString() }, `seed ${seed}`).toEqual({ state, inc });
    }
  });

  it('random_raw() 64-bit outputs match numpy (first 5 per seed)', () => {
    for (const { seed, values } of fx.randomRaw) {
      const g = createDefaultRng(seed);
      expect(
        values.map(() => g.randomRaw().toString()),
        `seed ${seed}`,
      ).toEqual(values);
    }
  });

  it('reproduces the EDGE reference: default_rng(0).permutation(10)', () => {
    expect(defaultRngPermutation(0, 10)).toEqual([4, 6, 2, 7, 3, 5, 9, 0, 8, 1]);
  });

  it(`matches numpy ${fixture.numpyVersion} permutation(n) for every fixture seed and n (${fx.permutations.length} cases)`, () => {
    for (const { seed, n, perm } of fx.permutations) {
      expect(defaultRngPermutation(seed, n), `seed ${seed}, n ${n}`).toEqual(perm);
    }
  });

  it('matches numpy random() doubles exactly (first 20 per seed)', () => {
    for (const { seed, values } of fx.random) {
      const g = createDefaultRng(seed);
      expect(
        values.map(() => g.random()),
        `seed ${seed}`,
      ).toEqual(values);
    }
  });

  it('matches interleaved permutation / random / integers / random_raw calls on one stream', () => {
    // Pins down PCG64's buffered 32-bit half-words (integers < 2^32 and permutation use them;
    // random() and random_raw() do not) and both Lemire paths of integers().
    for (const { seed, steps } of fx.ops) {
      const g = createDefaultRng(seed);
      steps.forEach(({ op, result }, k) => {
        expect(runOp(g, op as Op), `seed ${seed}, step ${k} ${JSON.stringify(op)}`).toEqual(result);
      });
    }
  });

  it('keeps state across 200 successive permutations (the MS protocol draws)', () => {
    const { seed, n, count, perms } = fx.manyPermutations;
    const g = createDefaultRng(seed);
    expect(Array.from({ length: count }, () => g.permutation(n))).toEqual(perms);
  });

  it('shuffle() permutes arbitrary items exactly like permutation() permutes indices', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const idx = defaultRngPermutation(3, items.length);
    expect(createDefaultRng(3).shuffle(items.slice())).toEqual(idx.map((i) => items[i]));
  });

  it('rejects non-integer or out-of-range seeds with a RangeError', () => {
    for (const bad of [-1, 2 ** 32, 0.25, Number.NaN, Infinity]) {
      expect(() => createDefaultRng(bad), String(bad)).toThrow(RangeError);
      expect(() => defaultRngPermutation(bad, 10), String(bad)).toThrow(/default_rng seed must be an integer between 0 and 2\^32 - 1/);
    }
    expect(() => createDefaultRng(2 ** 32 - 1)).not.toThrow();
  });

  it('rejects bad n, bounds and ranges with a RangeError', () => {
    const g = createDefaultRng(0);
    expect(() => g.permutation(-3)).toThrow(RangeError);
    expect(() => g.randomInterval(1.5)).toThrow(RangeError);
    expect(() => g.integers(3, 3)).toThrow(/low >= high/);
    expect(() => g.integers(4, 3, true)).toThrow(/low > high/);
    expect(() => g.integers(0, 2 ** 60)).toThrow(RangeError);
  });
});
