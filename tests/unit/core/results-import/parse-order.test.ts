import { describe, expect, it } from 'vitest';
import { nameIndex, normalizeName, parseOrderText, resolveToken } from '../../../../src/core/results-import/parse-order';

const FM = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

describe('parseOrderText', () => {
  it('reads flat orders separated by spaces or commas, and JSON lists', () => {
    expect(parseOrderText('3 1 0 2')).toEqual({ kind: 'flat', tokens: ['3', '1', '0', '2'] });
    expect(parseOrderText(' 3, 1,0 ,2 ')).toEqual({ kind: 'flat', tokens: ['3', '1', '0', '2'] });
    expect(parseOrderText('[3, 1, 0, 2]')).toEqual({ kind: 'flat', tokens: ['3', '1', '0', '2'] });
  });
  it('reads task lists with | or nested JSON', () => {
    expect(parseOrderText('3 1 | 0 2')).toEqual({
      kind: 'tasks',
      tasks: [
        ['3', '1'],
        ['0', '2'],
      ],
    });
    expect(parseOrderText('[[3, 1], [0, 2]]')).toEqual({
      kind: 'tasks',
      tasks: [
        ['3', '1'],
        ['0', '2'],
      ],
    });
  });
  it("reads names, multi-word names matched whole, and Python's quoting", () => {
    expect(parseOrderText('Ankle boot Bag | Coat Dress', FM)).toEqual({
      kind: 'tasks',
      tasks: [
        ['Ankle boot', 'Bag'],
        ['Coat', 'Dress'],
      ],
    });
    expect(parseOrderText("['cat', 'dog']")).toEqual({ kind: 'flat', tokens: ['cat', 'dog'] });
  });
  it('says what is wrong with an unreadable order', () => {
    expect(() => parseOrderText('')).toThrow('empty');
    expect(() => parseOrderText('[1, 2')).toThrow('not a valid list');
    expect(() => parseOrderText('[{"a": 1}]')).toThrow('neither');
  });
});

describe('resolveToken', () => {
  const idx = nameIndex(FM.slice(0, 6));
  it('indices are positions; names match ignoring case and underscores', () => {
    expect(resolveToken('5', FM.slice(0, 6), idx)).toBe(5);
    expect(resolveToken('t-shirt/TOP', FM.slice(0, 6), idx)).toBe(0);
    expect(normalizeName(' Ankle_boot ')).toBe('ankle boot');
  });
  it('explains unknown classes and out-of-range indices', () => {
    expect(resolveToken('6', FM.slice(0, 6), idx)).toMatch(/out of range: the experiment has 6 classes \(0–5\)/);
    expect(resolveToken('Llama', FM.slice(0, 6), idx)).toBe('unknown class "Llama"');
  });
});
