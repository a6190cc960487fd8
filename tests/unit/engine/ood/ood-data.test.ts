import { describe, expect, it } from 'vitest';
import { buildOodSet, parseOodSpec, toInputShape } from '../../../../src/engine/ood/ood-data';
import { syntheticDataset } from '../synthetic';

describe('OOD set specs', () => {
  it('parses a dataset id with optional classes', () => {
    expect(parseOodSpec('digits')).toEqual({ name: 'digits', dataset: 'digits' });
    expect(parseOodSpec('fashion-mnist:6-9')).toEqual({ name: 'fashion-mnist:6-9', dataset: 'fashion-mnist', classes: [6, 7, 8, 9] });
    expect(parseOodSpec('emoji:0,3-4').classes).toEqual([0, 3, 4]);
    expect(() => parseOodSpec('fashion-mnist:9-6')).toThrow(/runs backwards/);
    expect(() => parseOodSpec(':3')).toThrow(/not an OOD set/);
  });
});

describe('toInputShape', () => {
  it('leaves a matching shape alone', () => {
    const s = { images: Uint8Array.from([1, 2, 3, 4]), labels: Uint8Array.from([0]) };
    expect(toInputShape(s, [2, 2, 1], [2, 2, 1])).toBe(s);
  });
  it('bilinear with half-pixel centres: 2×2 → 4×4', () => {
    const s = { images: Uint8Array.from([0, 100, 200, 40]), labels: Uint8Array.from([3]) };
    const out = toInputShape(s, [2, 2, 1], [4, 4, 1]);
    // rows: source y = max(0, (o + 0.5)/2 − 0.5) = 0, 0.25, 0.75, 1 (clamped); the same for x
    const v = (y: number, x: number) => {
      const top = 0 * (1 - x) + 100 * x;
      const bottom = 200 * (1 - x) + 40 * x;
      return Math.round(top * (1 - y) + bottom * y);
    };
    const t = [0, 0.25, 0.75, 1];
    expect(Array.from(out.images)).toEqual(t.flatMap((y) => t.map((x) => v(y, x))));
    expect(Array.from(out.labels)).toEqual([3]);
  });
  it('RGB → grey by luma, grey → RGB by repetition', () => {
    const rgb = { images: Uint8Array.from([255, 0, 0]), labels: Uint8Array.from([0]) };
    expect(Array.from(toInputShape(rgb, [1, 1, 3], [1, 1, 1]).images)).toEqual([Math.round(0.299 * 255)]);
    const grey = { images: Uint8Array.from([77]), labels: Uint8Array.from([0]) };
    expect(Array.from(toInputShape(grey, [1, 1, 1], [1, 1, 3]).images)).toEqual([77, 77, 77]);
  });
});

describe('buildOodSet', () => {
  const ds = syntheticDataset({ classes: 4, testPerClass: 3 });
  it('near: held-out classes of the same dataset, test split', () => {
    const s = buildOodSet(parseOodSpec('synthetic:2-3'), ds, ds, true, [0, 1]);
    expect(s.kind).toBe('near');
    expect(Array.from(s.split.labels).sort()).toEqual([2, 2, 2, 3, 3, 3]);
  });
  it('refuses a near set that overlaps the ID classes, and unknown classes', () => {
    expect(() => buildOodSet(parseOodSpec('synthetic:1-2'), ds, ds, true, [0, 1])).toThrow(/shares class 1/);
    expect(() => buildOodSet(parseOodSpec('synthetic:7'), ds, ds, true, [0, 1])).toThrow(/class 7 does not exist/);
  });
  it('far: another dataset resized to the model input', () => {
    const other = syntheticDataset({ classes: 2, side: 3, testPerClass: 2 });
    const s = buildOodSet(parseOodSpec('other'), other, ds, false, [0, 1]);
    expect(s.kind).toBe('far');
    expect(s.split.images.length).toBe(4 * 36);
  });
});
