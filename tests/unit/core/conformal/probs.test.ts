import { describe, expect, it } from 'vitest';
import { checkAlpha, checkLabels, checkProbabilities, ConformalInputError, probRows } from '../../../../src/core/conformal/probs';

describe('probRows', () => {
  it('accepts nested rows, typed-array rows and the flat engine layout (views, no copy)', () => {
    expect(
      probRows([
        [0.5, 0.5],
        [1, 0],
      ]).width,
    ).toBe(2);
    expect(probRows([Float32Array.of(0.25, 0.75)]).rows[0][1]).toBe(0.75);
    const data = Float32Array.of(0.5, 0.5, 0.25, 0.75, 1, 0);
    const p = probRows({ data, width: 2 });
    expect(p.rows).toHaveLength(3);
    expect(Array.from(p.rows[1])).toEqual([0.25, 0.75]);
    data[2] = 0.125; // a view: the engine's buffer is not copied
    expect(p.rows[1][0]).toBe(0.125);
    expect(probRows({ data: [0.5, 0.5], width: 2 }).rows).toEqual([[0.5, 0.5]]);
    expect(probRows([])).toEqual({ rows: [], width: 0 });
  });
  it('rejects ragged or malformed matrices with a clear message', () => {
    expect(() => probRows([[0.5, 0.5], [1]])).toThrow(ConformalInputError);
    expect(() => probRows([[0.5, 0.5], [1]], 'test probs')).toThrow(
      'test probs: row 1 has 1 columns but row 0 has 2; every row needs one probability per class.',
    );
    expect(() => probRows({ data: Float32Array.of(1, 0, 0), width: 2 })).toThrow('3 values do not make whole rows of width 2');
    expect(() => probRows({ data: Float32Array.of(1), width: 0 })).toThrow('width must be a whole number ≥ 1');
    expect(() => probRows([[], []])).toThrow('rows have no columns');
    expect(() => probRows([1, 2] as unknown as number[][])).toThrow('probs: row 0 is not an array.');
    expect(() => probRows('x' as unknown as number[][])).toThrow('must be an array of rows');
  });
});

describe('checkProbabilities', () => {
  it('accepts rows summing to 1 within 1e-4 and names the first bad row', () => {
    expect(() =>
      checkProbabilities(
        probRows([
          [0.5, 0.50009],
          [1, 0],
        ]),
      ),
    ).not.toThrow();
    expect(() =>
      checkProbabilities(
        probRows([
          [0.5, 0.5],
          [0.7, 0.2],
        ]),
        'calibration probs',
      ),
    ).toThrow('calibration probs: row 1 sums to 0.8999999999999999, not 1 (tolerance 0.0001); give softmax probabilities, not logits.');
    expect(() => checkProbabilities(probRows([[1.5, -0.5]]))).toThrow('row 0, column 0 = 1.5 is not a probability in [0, 1].');
    expect(() => checkProbabilities(probRows([[NaN, 1]]))).toThrow('row 0, column 0 is not a finite number (NaN).');
  });
});

describe('checkLabels / checkAlpha', () => {
  it('labels: one per row, whole numbers in [0, width)', () => {
    expect(checkLabels(Int32Array.of(0, 2), 2, 3)).toEqual([0, 2]);
    expect(() => checkLabels([0, 3], 2, 3, 'test labels')).toThrow('test labels[1] = 3 is out of range: the probabilities have 3 classes (0..2).');
    expect(() => checkLabels([0, -1], 2, 3)).toThrow('labels[1] = -1 is out of range');
    expect(() => checkLabels([0.5], 1, 3)).toThrow('labels[0] = 0.5 is not a whole number.');
    expect(() => checkLabels([0], 2, 3)).toThrow('1 labels for 2 rows of probabilities; give one label per row.');
    expect(() => checkLabels(undefined, 2, 3)).toThrow('labels must be an array of class indices.');
  });
  it('alpha must lie strictly inside (0, 1)', () => {
    expect(() => checkAlpha(0.1)).not.toThrow();
    for (const a of [0, 1, -0.1, 1.5, NaN]) expect(() => checkAlpha(a)).toThrow(RangeError);
    expect(() => checkAlpha(1)).toThrow('alpha must be a number strictly between 0 and 1 (the miscoverage level; 0.1 → 90% coverage); got 1.');
    expect(() => checkAlpha('0.1' as unknown as number)).toThrow('got 0.1');
  });
});
