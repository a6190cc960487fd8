import { describe, expect, it } from 'vitest';
import { fmt, legendTicks, truncateLabel } from '../../../src/ui/common/chart-kit';
import { layoutHeatmap, layoutScatter, offDiagonalExtent, pairsCsv, pairTip, upperPairs } from '../../../src/ui/orderings/compare-charts';

const A = [
  [1, 0.2, 0.5],
  [0.2, 1, 0.9],
  [0.5, 0.9, 1],
];
const B = [
  [1, 0.3, 0.4],
  [0.3, 1, 0.7],
  [0.4, 0.7, 1],
];

describe('upperPairs', () => {
  it('lists every pair i < j once, row-major, with both values', () => {
    expect(upperPairs(A, B)).toEqual([
      { i: 0, j: 1, a: 0.2, b: 0.3 },
      { i: 0, j: 2, a: 0.5, b: 0.4 },
      { i: 1, j: 2, a: 0.9, b: 0.7 },
    ]);
  });
  it('gives N(N−1)/2 pairs', () => {
    const n = 17;
    const m = Array.from({ length: n }, () => Array(n).fill(0.5));
    expect(upperPairs(m, m)).toHaveLength((n * (n - 1)) / 2);
  });
  it('refuses matrices of different sizes', () => {
    expect(() => upperPairs(A, [[1]])).toThrow(/3 and 1 rows/);
  });
});

describe('pairsCsv', () => {
  const names = ['cat', 'dog', 'fox'];
  it('gives both sources for the scatter and one for a heat map', () => {
    const pairs = upperPairs(A, B);
    const both = pairsCsv(pairs, names, 'WordNet', 'CLIP', 'both');
    expect(both.columns).toEqual(['class_i', 'class_j', 'i', 'j', 'WordNet', 'CLIP']);
    expect(both.rows[0]).toEqual(['cat', 'dog', 0, 1, 0.2, 0.3]);
    expect(pairsCsv(pairs, names, 'WordNet', 'CLIP', 'a').rows[2]).toEqual(['dog', 'fox', 1, 2, 0.9]);
    const b = pairsCsv(pairs, names, 'WordNet', 'CLIP', 'b');
    expect(b.columns.at(-1)).toBe('CLIP');
    expect(b.rows[1]).toEqual(['cat', 'fox', 0, 2, 0.4]);
  });
});

describe('offDiagonalExtent', () => {
  it('ignores the diagonal', () => {
    expect(offDiagonalExtent(A)).toEqual([0.2, 0.9]);
  });
  it('widens a constant matrix and defaults when there are no pairs', () => {
    const [lo, hi] = offDiagonalExtent([
      [1, 0.5],
      [0.5, 1],
    ]);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    expect(offDiagonalExtent([[1]])).toEqual([0, 1]);
  });
});

describe('layoutScatter', () => {
  it('is square, shares one padded domain for both axes and covers every value', () => {
    const pairs = upperPairs(A, B);
    const L = layoutScatter(600, pairs);
    expect(L.width).toBe(L.side + L.margin.left + L.margin.right);
    expect(L.height).toBe(L.side + L.margin.top + L.margin.bottom);
    expect(L.side).toBeLessThanOrEqual(420);
    expect(L.domain[0]).toBeLessThan(0.2);
    expect(L.domain[1]).toBeGreaterThan(0.9);
    for (const p of pairs) for (const v of [p.a, p.b]) expect(v >= L.domain[0] && v <= L.domain[1]).toBe(true);
  });
  it('fits a phone (never wider than asked, down to a 160 px plot) and shrinks dots for many pairs', () => {
    const L = layoutScatter(340, upperPairs(A, B));
    expect(L.width).toBeLessThanOrEqual(340);
    expect(layoutScatter(100, []).side).toBe(160);
    const many = Array.from({ length: 4950 }, (_, k) => ({ i: 0, j: k + 1, a: k / 4950, b: k / 4950 }));
    expect(layoutScatter(600, many).radius).toBeLessThan(layoutScatter(600, upperPairs(A, B)).radius);
  });
  it('has a usable domain when there are no pairs or all values are equal', () => {
    expect(layoutScatter(400, []).domain[1]).toBeGreaterThan(layoutScatter(400, []).domain[0]);
    const same = layoutScatter(400, [{ i: 0, j: 1, a: 0.5, b: 0.5 }]);
    expect(same.domain[1]).toBeGreaterThan(same.domain[0]);
  });
});

describe('layoutHeatmap', () => {
  it('labels rows ("1 name") and columns for a few classes and fits the width', () => {
    const names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal'];
    const L = layoutHeatmap(460, names);
    expect(L.showLabels).toBe(true);
    expect(L.rowLabels[0]).toBe('1 T-shirt/top');
    expect(L.width).toBeLessThanOrEqual(460 + 1);
    expect(L.cell).toBeLessThanOrEqual(40);
    expect(L.height).toBe(Math.ceil(L.margin.top + L.cell * 6 + L.margin.bottom));
    // the legend sits below the map, inside the SVG
    expect(L.legend.y).toBeGreaterThan(L.margin.top + L.cell * 6);
    expect(L.legend.y + L.legend.height).toBeLessThan(L.height);
  });
  it('drops labels when the cells get small (100 classes) and still fits', () => {
    const names = Array.from({ length: 100 }, (_, i) => `class ${i}`);
    const L = layoutHeatmap(460, names);
    expect(L.showLabels).toBe(false);
    expect(L.cell * 100 + L.margin.left + L.margin.right).toBeLessThanOrEqual(460);
  });
  it('cuts long names', () => {
    expect(truncateLabel('aquarium_fish_of_the_sea', 10)).toBe('aquarium_…');
    expect(truncateLabel('cat', 10)).toBe('cat');
    const L = layoutHeatmap(600, ['a very long class name indeed', 'b']);
    expect(L.rowLabels[0].length).toBeLessThanOrEqual(2 + 14);
  });
});

describe('legend ticks and tooltips', () => {
  it('spans the domain, both ends included', () => {
    expect(legendTicks([0, 1], 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
  it('names the pair and both values', () => {
    expect(
      pairTip(['cat', 'dog'], 0, 1, [
        { label: 'WordNet', value: 0.25 },
        { label: 'CLIP', value: -0.5 },
      ]),
    ).toBe('cat – dog\nWordNet: 0.250\nCLIP: −0.500');
    expect(fmt(0.12345)).toBe('0.123');
  });
});
