import { describe, expect, it } from 'vitest';
import { auprIn, auprOut, auroc, binaryCurve, fprAtRecall, oodMetrics, prCurve, rocCurve } from '../../../../src/core/ood/metrics';
import { OodInputError } from '../../../../src/core/ood/rows';
import { fx } from './fixture';

describe('OOD metrics equal the numpy re-implementation of sklearn (ties included)', () => {
  for (const c of fx.metrics) {
    it(c.name, () => {
      const m = oodMetrics(c.id, c.ood);
      expect(m.auroc).toBeCloseTo(c.auroc, 12);
      expect(m.fpr95).toBe(c.fpr95);
      expect(m.auprIn).toBeCloseTo(c.auprIn, 12);
      expect(m.auprOut).toBeCloseTo(c.auprOut, 12);
      // typed arrays give the same numbers
      expect(oodMetrics(Float64Array.from(c.id), Float64Array.from(c.ood))).toEqual(m);
    });
  }
});

describe('curves', () => {
  it('group tied scores into one threshold, as sklearn _binary_clf_curve', () => {
    const c = binaryCurve([3, 2, 2, 1], [2, 0]);
    expect(c.thresholds).toEqual([3, 2, 1, 0]);
    expect(c.tps).toEqual([1, 3, 4, 4]);
    expect(c.fps).toEqual([0, 1, 1, 2]);
  });
  it('ROC starts at (0,0) with an infinite threshold and ends at (1,1)', () => {
    const r = rocCurve([3, 2], [1]);
    expect(r.fpr).toEqual([0, 0, 0, 1]);
    expect(r.tpr).toEqual([0, 0.5, 1, 1]);
    expect(r.thresholds[0]).toBe(Infinity);
  });
  it('PR points: recall decreasing, the class balance first, (0, 1) last', () => {
    const pr = prCurve([1, 1], [1]);
    expect(pr.recall).toEqual([1, 0]);
    expect(pr.precision).toEqual([2 / 3, 1]);
  });
});

describe('edge cases', () => {
  it('all scores equal: AUROC ½, FPR@95 1, AUPR-in (1 + π)/2', () => {
    const m = oodMetrics([7, 7, 7], [7]);
    expect(m.auroc).toBe(0.5);
    expect(m.fpr95).toBe(1);
    expect(m.auprIn).toBeCloseTo((1 + 3 / 4) / 2, 15);
    expect(m.auprOut).toBeCloseTo((1 + 1 / 4) / 2, 15);
  });
  it('perfect separation: AUROC 1, FPR@95 0, both AUPRs 1', () => {
    expect(oodMetrics([5, 6, 7], [1, 2])).toEqual({ auroc: 1, fpr95: 0, auprIn: 1, auprOut: 1 });
  });
  it('empty sets and non-finite scores are clear errors', () => {
    expect(() => auroc([], [1])).toThrow(OodInputError);
    expect(() => auroc([1], [])).toThrow(/OOD scores is empty/);
    expect(() => fprAtRecall([], [1])).toThrow(/ID scores is empty/);
    expect(() => auprIn([1], [])).toThrow(OodInputError);
    expect(() => auprOut([Number.NaN], [1])).toThrow(/score 0 is not a finite number/);
    expect(() => oodMetrics([1, Infinity], [1])).toThrow(/score 1/);
  });
});
