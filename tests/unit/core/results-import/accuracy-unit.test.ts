import { describe, expect, it } from 'vitest';
import { detectUnit, readNumber, toFraction } from '../../../../src/core/results-import/accuracy-unit';

describe('percent detection', () => {
  it('any value above 1 means percent, and says which', () => {
    const d = detectUnit([
      { value: '0.5', where: 'line 2' },
      { value: 71.2, where: 'line 3' },
    ]);
    expect(d.unit).toBe('percent');
    expect(d.reason).toContain('71.2 on line 3');
  });
  it('a % sign means percent', () => {
    expect(detectUnit([{ value: '0.9%', where: 'line 4' }]).unit).toBe('percent');
  });
  it('all values in [0, 1] are fractions', () => {
    const d = detectUnit([
      { value: 0.5, where: 'a' },
      { value: '1', where: 'b' },
      { value: 'n/a', where: 'c' },
    ]);
    expect(d).toEqual({ unit: 'fraction', reason: 'every accuracy is between 0 and 1, so they are read as fractions' });
  });
  it('converts and range-checks', () => {
    expect(toFraction('71.2', 'percent', 'x')).toBeCloseTo(0.712, 12);
    expect(toFraction('71.2%', 'percent', 'x')).toBeCloseTo(0.712, 12);
    expect(toFraction(0.3, 'fraction', 'x')).toBe(0.3);
    expect(toFraction('130', 'percent', 'the final accuracy')).toBe('the final accuracy 130 % is outside 0–100 %');
    expect(toFraction(-0.1, 'fraction', 'x')).toBe('x -0.1 is outside 0–1');
    expect(toFraction('abc', 'fraction', 'x')).toBe('x "abc" is not a number');
    expect(readNumber('1e-1')).toBe(0.1);
    expect(readNumber('')).toBeNull();
  });
});
