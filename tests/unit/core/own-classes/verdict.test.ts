import { describe, expect, it } from 'vitest';
import { forgettingPerTask, orderingsVerdict, summariseOrderings, updateVerdict } from '../../../../src/core/own-classes/verdict';
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
  it('answers whether the order matters', () => {
    const same = summariseOrderings([0.9, 0.9, 0.9, 0.9, 0.9, 0.9], 0);
    expect(orderingsVerdict(same, 'simplecil')).toMatch(/6 orderings.*does not matter/);
    const spread = summariseOrderings([0.3, 0.6, 0.25, 0.5, 0.25, 0.3], 0);
    expect(spread).toMatchObject({ orderings: 6, min: 0.25, max: 0.6, taught: 0.3, better: 2 });
    expect(orderingsVerdict(summariseOrderings([0.25, 0.25, 0.25], 0), 'finetune')).toBe(
      'Over all 3 orderings of your classes, fine-tuning a head ends with final accuracy 25 % in every one: the order you taught it does not matter, because it forgets in every order alike: the accuracy is low whichever class comes last.',
    );
    expect(orderingsVerdict(summariseOrderings([0.9, 0.92], 0), 'replay')).toMatch(
      /from 90 % to 92 % \(mean 91 %\): the order you taught it does not matter\.$/,
    );
    expect(orderingsVerdict(spread, 'finetune')).toMatch(/the order matters \(a spread of 35 %\)\. Yours reached 30 %; 2 of 6 orderings did better/);
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
