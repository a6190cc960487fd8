import { describe, expect, it } from 'vitest';
import { oodCountAtStep, oodIndicesAtStep, oodShuffle, summarizeResults, type StepResult } from '../../../../src/core/ood/schedule';
import { OodInputError } from '../../../../src/core/ood/rows';
import { fx } from './fixture';

describe('per-step OOD schedule', () => {
  for (const c of fx.schedule) {
    it(`n=${c.n}, seed ${c.seed}, ${c.steps} steps: numpy's permutation and ⌊n(t+1)/T⌋`, () => {
      const perm = oodShuffle(c.n, c.seed);
      expect(perm).toEqual(c.permutation);
      expect(c.counts.map((_, t) => oodCountAtStep(c.n, t, c.steps))).toEqual(c.counts);
      for (let t = 0; t < c.steps; t++) expect(oodIndicesAtStep(perm, t, c.steps)).toEqual(c.permutation.slice(0, c.counts[t]));
    });
  }
  it('the last step uses the whole set; bad steps are errors', () => {
    expect(oodCountAtStep(11, 2, 3)).toBe(11);
    expect(() => oodCountAtStep(11, 3, 3)).toThrow(OodInputError);
    expect(() => oodCountAtStep(11, 0, 0)).toThrow(OodInputError);
  });
});

describe('summarizeResults', () => {
  it('averages over steps, then over OOD sets', () => {
    const row = (step: number, oodSet: string, auroc: number): StepResult => ({
      step,
      detector: 'msp',
      oodSet,
      auroc,
      fpr95: 1 - auroc,
      auprIn: auroc,
      auprOut: auroc,
      idCount: 10,
      oodCount: 5,
    });
    // set a: 3 steps mean 0.6; set b: 1 step 0.9 → 0.75 (not the pooled mean 0.675)
    const s = summarizeResults([row(0, 'a', 0.5), row(1, 'a', 0.6), row(2, 'a', 0.7), row(0, 'b', 0.9)]);
    expect(s).toHaveLength(1);
    expect(s[0].perSet.map((p) => [p.oodSet, p.steps])).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
    expect(s[0].perSet[0].auroc).toBeCloseTo(0.6, 15);
    expect(s[0].mean.auroc).toBeCloseTo(0.75, 15);
    expect(s[0].mean.fpr95).toBeCloseTo(0.25, 15);
  });
});
