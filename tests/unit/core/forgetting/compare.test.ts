import { describe, expect, it } from 'vitest';
import { MIN_BASE_ACCURACY, comparabilityNotes, meanSdText, pText, summariseDcor, type CompareSetup } from '../../../../src/core/forgetting/compare';
import { dcorPermutationTest } from '../../../../src/core/stats/dcor-permutation';

const paper: CompareSetup = {
  dataset: 'fashion-mnist',
  taskSizes: [5, 1, 1, 1, 1, 1],
  lr: 2e-5,
  firstTaskEpochs: 8,
  epochs: 3,
  trainPerClass: null,
  head: 'all',
  batchSize: 64,
};

describe('comparability with the CPCF paper', () => {
  it("the paper's regime on Fashion-MNIST with a learned base task and several seeds is comparable", () => {
    expect(comparabilityNotes(paper, { baseAccuracy: 0.86, points: 5, seeds: 5 })).toEqual([]);
  });
  it('says plainly what differs: dataset, data size, epochs, lr, tasks, head, base accuracy, points, seeds', () => {
    const notes = comparabilityNotes(
      { ...paper, dataset: 'digits', trainPerClass: 144, firstTaskEpochs: 300, epochs: 85, lr: 1e-3, taskSizes: [5, 5], head: 'seen' },
      { baseAccuracy: 0.31, points: 1, seeds: 1 },
    );
    expect(notes).toEqual([
      'different dataset: 8×8 digits (1 437 training images) stand in for MNIST (28×28, 60 000)',
      'less data: 144 training images per class, the paper ≈6000',
      'epochs 300 / 85, the paper 8 / 3',
      'learning rate 0.001, the paper 2e-5',
      'tasks of 5,5 classes, the paper 5,1,1,1,1,1',
      'softmax over the classes seen so far, the paper over the full head',
      'base task not learned as in the paper: 31.0% (we ask ≥ 80.0%; the paper prints no base accuracy)',
      "too few points: 1 per run, the paper's setup has 5",
      'one seed: no spread',
    ]);
    expect(comparabilityNotes({ ...paper, dataset: 'emoji' }, { baseAccuracy: 0.9, points: 5, seeds: 3 })).toEqual(['the paper has no emoji column']);
    // the threshold itself counts as learned; NaN does not
    expect(comparabilityNotes(paper, { baseAccuracy: MIN_BASE_ACCURACY, points: 5, seeds: 2 })).toEqual([]);
    expect(comparabilityNotes(paper, { baseAccuracy: NaN, points: 5, seeds: 2 })).toHaveLength(1);
  });
  it('summariseDcor: one seed is the exact test; the base accuracy is averaged', () => {
    const x = [6.55, 7.36, 7.9, 8.65, 9.3];
    const y = [0.15, 0.24, 0.063, 0.048, 0.036];
    const s = summariseDcor(paper, [{ seed: 0, cpcf: x, aPrev: y, baseAccuracy: 0.867 }], { seed: 0 });
    const t = dcorPermutationTest(x, y);
    expect([s.p, s.exact, s.nullMean, s.points]).toEqual([t.p, true, t.nullMean, 5]);
    expect(s.dcor.mean).toBe(t.dcor);
    expect(s.baseAccuracy.mean).toBe(0.867);
    expect(s.notes).toEqual(['one seed: no spread']);
    expect(s.comparable).toBe(false);
    expect(() => summariseDcor(paper, [], { seed: 0 })).toThrow(/no runs/);
    expect(() =>
      summariseDcor(
        paper,
        [
          { seed: 0, cpcf: x, aPrev: y, baseAccuracy: 1 },
          { seed: 1, cpcf: [1, 2], aPrev: [1, 2], baseAccuracy: 1 },
        ],
        { seed: 0 },
      ),
    ).toThrow(/different lengths/);
  });
  it('formats mean ± sd and p', () => {
    expect(meanSdText({ mean: 0.8534, sd: 0.0412, n: 5 })).toBe('0.853 ± 0.041 (5 seeds)');
    // a unit goes after the numbers, before the seed count
    expect(meanSdText({ mean: 86.94, sd: 0.21, n: 5 }, 1, '%')).toBe('86.9 ± 0.2 % (5 seeds)');
    expect(meanSdText({ mean: 100, sd: NaN, n: 1 }, 1, '%')).toBe('100.0 % (1 seed)');
    expect(meanSdText({ mean: 0.8534, sd: NaN, n: 1 })).toBe('0.853 (1 seed)');
    expect(meanSdText({ mean: NaN, sd: NaN, n: 0 })).toBe('–');
    expect(pText(0.0001)).toBe('p < 0.001');
    expect(pText(0.1333)).toBe('p = 0.133');
  });
});
