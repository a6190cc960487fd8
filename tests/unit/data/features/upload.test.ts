/**
 * Uploaded feature files (src/data/features/upload.ts, csv.ts): a good CSV with names and a split, the same set
 * through .npz, and a message for each bad file — malformed, huge, NaN, a wrong number of values on a row, labels out
 * of range, one label with two names, no label column, not text.
 */
import { describe, expect, it } from 'vitest';
import { FeatureSetError } from '../../../../src/core/features/feature-set';
import { readFeaturesCsv } from '../../../../src/data/features/csv';
import { writeFeaturesNpz } from '../../../../src/data/features/npz';
import { readFeatureFile } from '../../../../src/data/features/upload';

const enc = (s: string) => new TextEncoder().encode(s);
const GOOD = ['f0,f1,label,class_name,split', '0.5,1,0,cat,train', '-2,3e-1,1,dog,train', '1,1,0,cat,test', '0,0,1,dog,test'].join('\n');

describe('feature CSV', () => {
  it('reads rows, labels, names and the split', () => {
    const set = readFeatureFile(enc(GOOD), 'f.csv');
    expect(set.n).toBe(4);
    expect(set.d).toBe(2);
    expect([...set.features]).toEqual([0.5, 1, -2, Math.fround(0.3), 1, 1, 0, 0]);
    expect([...set.labels]).toEqual([0, 1, 0, 1]);
    expect([...set.split]).toEqual([0, 0, 1, 1]);
    expect(set.classNames).toEqual(['cat', 'dog']);
  });

  it('without names or split: "class k" and every row training', () => {
    const set = readFeaturesCsv('label;a;b\n2;1;2\n0;3;4\n', 'g.csv');
    expect(set.classNames).toEqual(['class 0', 'class 1', 'class 2']);
    expect([...set.split]).toEqual([0, 0]);
  });

  it('reads the same set from an .npz', () => {
    const set = readFeatureFile(enc(GOOD), 'f.csv');
    const again = readFeatureFile(writeFeaturesNpz(set), 'f.npz');
    expect(again).toEqual(set);
  });

  const bad: [string, string | Uint8Array, RegExp][] = [
    ['malformed quotes', 'label,a\n0,"1\n', /quoted field is not closed/],
    ['no label column', 'a,b\n1,2\n', /no "label" column/],
    ['only the label', 'label\n0\n', /no feature columns/],
    ['a header only', 'label,a\n', /no rows of features/],
    ['NaN', 'label,a,b\n0,1,2\n1,NaN,2\n', /line 3 of bad\.csv column "a" is "NaN"; every feature must be a finite number/],
    ['an empty cell', 'label,a,b\n0,,2\n', /column "a" is ""/],
    ['too large for float32', 'label,a\n0,1e40\n', /is Infinity; every value must be a finite number/],
    ['wrong row count', 'label,a,b\n0,1,2\n1,2\n', /line 3 of bad\.csv there are 2 values; the header has 3 columns/],
    ['a negative label', 'label,a\n-1,2\n', /the label is "-1"; labels are class indices/],
    ['a label out of range', 'label,a\n1000,2\n', /label is 1000, outside the 1\s000 classes allowed/],
    ['two names for a label', 'label,class_name,a\n0,cat,1\n0,dog,2\n', /label 0 is called "dog", and "cat" on an earlier line/],
    ['a bad split', 'label,split,a\n0,val,1\n', /the split is "val"; use train or test/],
    ['not text', new Uint8Array([0xff, 0xfe, 0x00, 0x80]), /neither an \.npz file nor UTF-8 text/],
    ['empty', '', /is empty/],
  ];
  for (const [what, content, message] of bad) {
    it(`refuses ${what} with one sentence`, () => {
      const bytes = typeof content === 'string' ? enc(content) : content;
      expect(() => readFeatureFile(bytes, 'bad.csv')).toThrow(FeatureSetError);
      expect(() => readFeatureFile(bytes, 'bad.csv')).toThrow(message);
    });
  }

  it('refuses a huge file before decoding it', () => {
    expect(() => readFeatureFile(enc(GOOD), 'big.csv', 50)).toThrow(/big\.csv is \d+ bytes, more than the 50 a feature file may have/);
  });
});
