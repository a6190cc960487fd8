/**
 * The one parser of class ranges ("0-5,7"): each part is read as two numbers and bounded before it is expanded, so
 * a huge range is a message naming the bound, at once, without allocating (a range of 4 · 10⁹ classes used to abort
 * V8, and the Open-world class field froze the tab for half a minute).
 */
import { describe, expect, it } from 'vitest';
import { parseIndexRanges } from '../../../../src/core/config/index-ranges';

const ok = (text: string, options = {}) => {
  const r = parseIndexRanges(text, options);
  if (!r.ok) throw new Error(r.error);
  return r.indices;
};
const error = (text: string, options = {}) => {
  const r = parseIndexRanges(text, options);
  return r.ok ? `parsed ${r.indices.length}` : r.error;
};

describe('parseIndexRanges', () => {
  it('reads indices, ranges and lists, in the order written', () => {
    expect(ok('0-5')).toEqual([0, 1, 2, 3, 4, 5]);
    expect(ok('7,0-2')).toEqual([7, 0, 1, 2]);
    expect(ok(' 3 , 4 ')).toEqual([3, 4]);
    expect(ok('0 1 2', { spaces: true })).toEqual([0, 1, 2]);
    expect(ok('')).toEqual([]);
    expect(ok('0-999')).toHaveLength(1000);
  });

  it('refuses a huge range at once, naming the bound, without expanding it', () => {
    for (const text of ['0-99999999999', '0-20000000', '6-99999999999999999999', '0-4000000000'])
      expect(error(text)).toMatch(/^Class \d+ is beyond the bound: an experiment has at most 1 000 classes \(0\.\.999\)\.$/);
    expect(error('0-4000000000', { count: 10, of: 'digits' })).toBe('Class 4000000000 does not exist: digits has classes 0..9.');
    expect(error('12', { count: 10, of: 'digits' })).toBe('Class 12 does not exist: digits has classes 0..9.');
  });

  it('refuses many ranges that add up past the bound, counted before any is expanded', () => {
    // 200 000 ranges of 1 000 would be 2 · 10⁸ indices expanded; counted, the second range is already past the bound
    const text = Array(200_000).fill('0-999').join(',');
    expect(error(text)).toBe('More than 1 000 classes are listed, so some are listed twice.');
  });

  it('says what is wrong with a part', () => {
    expect(error('5-2')).toBe('The range "5-2" runs backwards.');
    expect(error('a')).toBe('"a" is not a class index or a range like 0-5.');
    expect(error('1-2-3')).toBe('"1-2-3" is not a class index or a range like 0-5.');
    expect(error('-3')).toBe('"-3" is not a class index or a range like 0-5.');
    expect(error('0-3,2')).toBe('Class 2 is listed twice.');
    expect(error('0 1', { spaces: false })).toBe('"0 1" is not a class index or a range like 0-5.');
  });
});
