import { describe, expect, it } from 'vitest';
import { forgettingPerTask, jointVerdict, orderingsVerdict, updateVerdict } from '../../../../src/core/own-classes/verdict';
import { overviewOfRuns, type OrderingsOverview } from '../../../../src/core/own-classes/order-states';
import { ownFeatureSet } from '../../../../src/core/own-classes/settings';

describe('Your-classes verdicts', () => {
  const forgot = [
    [1, 0, 0],
    [0.2, 1, 0],
    [0, 0.1, 1],
  ];
  it('forgetting per task is the best earlier accuracy minus the last', () => {
    expect(forgettingPerTask(forgot)).toEqual([1, 0.9, 0]);
    expect(forgettingPerTask([[1]])).toEqual([0]);
  });
  it('names the forgotten classes under fine-tuning', () => {
    const v = updateVerdict(forgot, ['mug', 'pen', 'cup'], 'finetune');
    expect(v.forgotten).toEqual(['mug', 'pen']);
    expect(v.meanForgetting).toBeCloseTo(0.95);
    expect(v.text).toMatch(/After “cup”, fine-tuning a head gets 100 % on it and 37 % on all 3 classes\. It forgot “mug”, “pen”/);
  });
  it('says no forgetting when the earlier classes keep their accuracy', () => {
    const kept = [
      [1, 0, 0],
      [0.9, 1, 0],
      [0.9, 0.95, 1],
    ];
    const v = updateVerdict(kept, ['mug', 'pen', 'cup'], 'simplecil');
    expect(v.forgotten).toEqual([]);
    expect(v.text).toMatch(/no forgetting, as prototypes promise/);
    expect(updateVerdict([[1]], ['mug'], 'finetune').text).toMatch(/one class/);
  });
  /** An overview of orderings with these final accuracies and AIAs (the first is the taught order's). */
  const over = (finals: number[], aias: number[] = finals, exact = true): OrderingsOverview =>
    overviewOfRuns(
      finals.map((final, i) => ({ final, aia: aias[i] })),
      { final: finals[0], aia: aias[0] },
      3,
      exact,
    );
  it('answers whether the order matters for a trained head by the final accuracy, AIA beside it', () => {
    expect(orderingsVerdict(over([0.9, 0.9, 0.9, 0.9, 0.9, 0.9]), 'replay', 3)).toMatch(/all 6 orderings of your 3 classes.*does not matter\. Its AIA/);
    const spread = over([0.3, 0.6, 0.25, 0.5, 0.25, 0.3], [0.6, 0.7, 0.5, 0.6, 0.55, 0.6]);
    expect(spread.taught).toMatchObject({ final: 0.3, betterFinal: 2, aia: 0.6, betterAia: 1 });
    expect(orderingsVerdict(over([0.25, 0.25, 0.25]), 'finetune', 3)).toBe(
      'Over all 3 orderings of your 3 classes, fine-tuning a head ends with final accuracy 25 % in every one: the order you taught it does not matter, because it forgets in every order alike: the accuracy is low whichever class comes last. Its AIA (the accuracy along the way) runs 25 % in every one; yours 25 %.',
    );
    expect(orderingsVerdict(spread, 'finetune', 3)).toMatch(
      /the order matters \(a spread of 35 %\)\. Yours reached 30 %; 2 of the 6 did better\. One ordering’s number would not have told you this\. Its AIA \(the accuracy along the way\) runs from 50 % to 70 % \(mean 59 %\); yours 60 %\.$/,
    );
  });
  it('judges a closed-form head by AIA: its final accuracy is the same in every order', () => {
    const o = over([0.9, 0.9, 0.9, 0.9, 0.9, 0.9], [0.95, 0.8, 0.9, 0.85, 0.97, 0.9]);
    expect(orderingsVerdict(o, 'simplecil', 3)).toBe(
      "Over all 6 orderings of your 3 classes, SimpleCIL prototypes ends at 90 % in every one — after the last class its statistics are the same whatever the order. What the order changes is how much it knew along the way: the average incremental accuracy (AIA, each step's accuracy on the classes seen, averaged over the steps) runs from 80 % to 97 % (mean 90 %), a spread of 17 %: the order matters along the way. Your order's AIA is 95 %; 1 of the 6 did better.",
    );
    expect(orderingsVerdict(o, 'ranpac', 3)).toMatch(/differs only by the λ the last class chose/);
    const sampled = { ...over([0.9, 0.9], [0.9, 0.92], false), omega: '9.33e157' };
    expect(orderingsVerdict(sampled, 'ncm', 100)).toMatch(
      /^Over 2 orderings drawn at random \(seeded\) from the 9\.33 × 10\^157 orderings of your 100 classes, .* so the order you taught it hardly matters\. Your order's AIA is 90 %; 1 of the 2 drawn did better\.$/,
    );
  });
  it('sets the joint head beside the head taught class by class', () => {
    expect(jointVerdict(0.9, 0.85, 'simplecil', 100)).toBe(
      'A head trained on all 100 classes at once (the same head, training and features, one task: joint training) reaches 90 %; SimpleCIL prototypes, taught one class at a time, ends at 85 %: 5 points below it.',
    );
    expect(jointVerdict(0.5, 0.51, 'fecam', 4)).toMatch(/1 point above it\.$/);
    expect(jointVerdict(0.5, 0.502, 'ncm', 4)).toMatch(/: the same\.$/);
  });
  it('names at most five forgotten classes and counts the rest', () => {
    const K = 8;
    const m = Array.from({ length: K }, (_, i) => Array.from({ length: K }, (_, j) => (j > i ? 0 : j === i ? 1 : i === K - 1 ? 0 : 1)));
    const v = updateVerdict(
      m,
      Array.from({ length: K }, (_, k) => `c${k}`),
      'finetune',
    );
    expect(v.forgotten).toHaveLength(7);
    expect(v.text).toMatch(/It forgot 7 of the 7 earlier classes \(“c0”, “c1”, “c2”, “c3”, “c4” and 2 more\)/);
    expect(
      updateVerdict(
        [
          [1, 0],
          [1, 1],
        ],
        ['a', 'b'],
        'fecam',
      ).text,
    ).toMatch(/class statistics promise — a new class adds its own mean and covariance/);
  });
  it('builds unit-length rows, the first `train` of each class for training', () => {
    const set = ownFeatureSet(
      [
        { name: 'a', rows: Float32Array.from([3, 4, 0, 2, 1, 1]), train: 2 },
        { name: 'b', rows: Float32Array.from([0, 0]), train: 1 },
      ],
      2,
    );
    expect(Array.from(set.features)).toEqual(
      [0.6000000238418579, 0.800000011920929, 0, 1, Math.SQRT1_2, Math.SQRT1_2].map((x) => Math.fround(x)).concat([0, 0]),
    );
    expect(Array.from(set.labels)).toEqual([0, 0, 0, 1]);
    expect(Array.from(set.split)).toEqual([0, 0, 1, 0]);
  });
});
