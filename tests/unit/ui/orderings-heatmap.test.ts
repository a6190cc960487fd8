import { describe, expect, it } from 'vitest';
import { scaleSequential } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import fixture from '../core/protocols/dendrogram9.fixture';
import { linkage, linkageRows } from '../../../src/core/clustering/linkage';
import { matrixFromRows, dissimilarity } from '../../../src/core/orderings/matrix';
import {
  AXIS_TITLE,
  SVG_CELL_LIMIT,
  cellAt,
  cellRect,
  cellTip,
  colourStep,
  colourTable,
  rgbaTable,
  COLOUR_STEPS,
  dendroTicks,
  dendrogramLinks,
  heightScale,
  layoutDendroHeatmap,
  leafOrder,
  linkPath,
  parseRgb,
  rowY,
  taskOfClass,
  taskRuns,
} from '../../../src/ui/orderings/similarity-heatmap';

const names = (n: number, f = (i: number) => `class ${i}`) => Array.from({ length: n }, (_, i) => f(i));

describe('dendrogram geometry against scipy (tests/unit/core/protocols/dendrogram9.fixture.ts)', () => {
  it('our complete linkage of 1 − Sim is scipy’s Z for the fixture', () => {
    const z = linkageRows(linkage(dissimilarity(matrixFromRows(fixture.sim)), 'complete'));
    z.forEach((row, i) => {
      expect(row[0]).toBe(fixture.Z[i][0]);
      expect(row[1]).toBe(fixture.Z[i][1]);
      expect(row[2]).toBeCloseTo(fixture.Z[i][2], 12);
      expect(row[3]).toBe(fixture.Z[i][3]);
    });
  });

  it('leaf order = scipy leaves_list', () => {
    expect(leafOrder(fixture.Z)).toEqual(fixture.leaves);
    expect(leafOrder([])).toEqual([0]);
  });

  it('links = scipy dendrogram icoord (5 + 10·position) and dcoord, as a set', () => {
    const { links, leaves, maxHeight } = dendrogramLinks(fixture.Z);
    expect(leaves).toEqual(fixture.leaves);
    expect(maxHeight).toBeCloseTo(Math.max(...fixture.Z.map((r) => r[2])), 12);
    const ours = links.map((l) => JSON.stringify([l.pos.map((p) => 5 + 10 * p), l.hgt.map((h) => Math.round(h * 1e9) / 1e9)])).sort();
    const scipy = fixture.icoord.map((ic, k) => JSON.stringify([ic, fixture.dcoord[k].map((h) => Math.round(h * 1e9) / 1e9)])).sort();
    expect(ours).toEqual(scipy);
    // every link knows its children and how many classes it holds
    expect(links[links.length - 1]).toMatchObject({ node: 16, left: 14, right: 15, count: 9 });
  });

  it('rejects a malformed linkage matrix', () => {
    expect(() => dendrogramLinks([[0, 5, 0.1, 2]])).toThrow(/joins 0 and 5/);
    expect(() => leafOrder([[0, 1, 0.1]])).toThrow(/\[idx1, idx2, distance, count\]/);
  });
});

describe('layoutDendroHeatmap', () => {
  it('6 classes at 1280 px (half the canvas) and at 390 px: everything side by side, nothing overlapping', () => {
    const fm = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal'];
    for (const width of [440, 366]) {
      const L = layoutDendroHeatmap({ width, names: fm, taskCount: 3 });
      expect(L.width).toBeLessThanOrEqual(width);
      expect(L.bitmap).toBe(false);
      expect(L.cell).toBeGreaterThanOrEqual(18);
      // left to right: dendrogram, map, task strip, labels
      expect(L.dendro.x + L.dendro.width).toBeLessThanOrEqual(L.heat.x);
      expect(L.heat.x + L.heat.width).toBeLessThanOrEqual(L.rowStrip.x);
      expect(L.rowStrip.x + L.rowStrip.width).toBeLessThan(L.rowLabels.x);
      // the column strip sits above the map, the axis and column labels under it, the legends under those
      expect(L.colStrip.y + L.colStrip.height).toBeLessThanOrEqual(L.heat.y);
      expect(L.axis.y).toBeGreaterThanOrEqual(L.heat.y + L.heat.height);
      expect(L.colLabels.show).toBe(true);
      expect(L.colLabels.step).toBe(1);
      expect(L.rowLabels.step).toBe(1);
      expect(L.legend.y).toBeGreaterThanOrEqual(L.axis.y + 18 + 13 * L.axis.titleLines.length);
      expect(L.legend.y).toBeGreaterThanOrEqual(L.colLabels.y + 11 * 0.6 * 11);
      expect(L.height).toBeGreaterThanOrEqual(L.taskLegend.y + 32);
      expect(L.axis.titleLines.join(' ')).toBe(AXIS_TITLE.join(' '));
    }
  });

  it('100–200 classes: cells ≥ 3 px as one bitmap, labels thinned, the chart wider than its box (it scrolls)', () => {
    const L100 = layoutDendroHeatmap({ width: 440, names: names(100), taskCount: 10 });
    expect(L100.bitmap).toBe(true);
    expect(L100.cell).toBeGreaterThanOrEqual(3);
    expect(L100.rowLabels.step).toBeGreaterThan(1);
    expect(L100.rowLabels.step * L100.cell).toBeGreaterThanOrEqual(12);
    const L200 = layoutDendroHeatmap({ width: 366, names: names(200), taskCount: 20 });
    expect(L200.cell).toBe(3);
    expect(L200.heat.width).toBe(600);
    expect(L200.width).toBeGreaterThan(366);
    expect(L200.colLabels.show).toBe(false);
    expect(SVG_CELL_LIMIT).toBeLessThan(100);
  });

  it('long class names are cut to 16 characters (the tooltip has the full name)', () => {
    const L = layoutDendroHeatmap({ width: 440, names: ['a very long class name indeed', 'b'] });
    expect(L.rowLabels.texts[0]).toBe('a very long cla…');
    expect(L.rowLabels.texts[1]).toBe('b');
  });

  it('cellRect and cellAt are inverse; rowY is the centre of a row', () => {
    const L = layoutDendroHeatmap({ width: 440, names: names(7) });
    for (let r = 0; r < 7; r++)
      for (let c = 0; c < 7; c++) {
        const b = cellRect(L, r, c);
        expect(cellAt(L, b.x + b.width / 2, b.y + b.height / 2)).toEqual({ r, c });
        expect(b.x).toBeCloseTo(L.heat.x + c * L.cell, 9);
      }
    expect(cellAt(L, L.heat.x - 1, L.heat.y + 1)).toBeNull();
    expect(cellAt(L, L.heat.x + L.heat.width + 1, L.heat.y + 1)).toBeNull();
    expect(rowY(L, 0)).toBeCloseTo(L.heat.y + L.cell / 2, 9);
  });
});

describe('dendrogram paths', () => {
  it('heights run from 0 at the map to the root at the left; a link is ⊐-shaped through its children’s rows', () => {
    const L = layoutDendroHeatmap({ width: 440, names: names(9) });
    const { links, maxHeight } = dendrogramLinks(fixture.Z);
    const x = heightScale(L, maxHeight);
    expect(x(0)).toBe(L.dendro.x + L.dendro.width);
    expect(x(x.domain()[1])).toBe(L.dendro.x);
    expect(x.domain()[1]).toBeGreaterThanOrEqual(maxHeight);
    const first = links[0]; // classes 1 and 7 at 0.052, leaf positions 4 and 5
    expect(first.pos).toEqual([4, 4, 5, 5]);
    const r = (v: number) => Math.round(v * 100) / 100;
    expect(linkPath(L, first, x)).toBe(`M${r(x(0))},${r(rowY(L, 4))}H${r(x(first.height))}V${r(rowY(L, 5))}H${r(x(0))}`);
  });
});

describe('dendrogram axis ticks', () => {
  it('keeps at most max ticks, 0 included', () => {
    expect(dendroTicks([0, 0.1, 0.2, 0.3, 0.4], 3)).toEqual([0, 0.2, 0.4]);
    expect(dendroTicks([0, 0.5, 1, 1.5], 5)).toEqual([0, 0.5, 1, 1.5]);
    expect(dendroTicks([0, 0.2, 0.4, 0.6, 0.8, 1, 1.2], 3)).toEqual([0, 0.8]);
  });
});

describe('task marks and the tooltip', () => {
  it('taskOfClass and the runs of one task down the leaf order', () => {
    const taskOf = taskOfClass([[0, 2], [1, 3], [4]], 6);
    expect(taskOf).toEqual([0, 1, 0, 1, 2, -1]);
    expect(taskRuns([0, 2, 1, 3, 4, 5], taskOf)).toBe(4);
    expect(taskRuns([0, 1, 2, 3, 4, 5], taskOf)).toBe(6);
  });

  it('a cell’s tooltip names both classes, Sim and 1 − Sim, and their tasks', () => {
    const n = ['cat', 'dog', 'car'];
    expect(cellTip(n, 0, 1, 0.8)).toBe('cat – dog\nsimilarity: 0.800 · 1 − Sim: 0.200');
    expect(cellTip(n, 0, 1, 0.8, { label: 'EDGE hard', taskOf: [0, 0, 1] })).toBe('cat – dog\nsimilarity: 0.800 · 1 − Sim: 0.200\nEDGE hard: both in T1');
    expect(cellTip(n, 0, 2, -0.25, { label: 'EDGE easy', taskOf: [0, 0, 1] })).toContain('EDGE easy: T1 and T2');
    expect(cellTip(n, 0, 2, -0.25)).toContain('similarity: −0.250 · 1 − Sim: 1.250');
    expect(cellTip(n, 2, 2, 1)).toBe('car (itself)');
  });

  it('parseRgb reads d3’s colours', () => {
    expect(parseRgb('rgb(8, 48, 107)')).toEqual({ r: 8, g: 48, b: 107 });
    expect(parseRgb('#e3e6eb')).toEqual({ r: 227, g: 230, b: 235 });
  });

  it('the bitmap’s colour table gives d3’s clamped sequential scale within one 8-bit level', () => {
    const domain: [number, number] = [-0.2, 0.93];
    const scale = scaleSequential(interpolateBlues).domain(domain).clamp(true);
    const table = colourTable(interpolateBlues);
    expect(table.length).toBe(3 * (COLOUR_STEPS + 1));
    for (let k = 0; k <= 400; k++) {
      const v = -0.5 + (1.7 * k) / 400; // beyond both ends too: clamped as the scale clamps
      const s = colourStep(v, domain);
      const want = parseRgb(scale(v));
      const got = { r: table[3 * s], g: table[3 * s + 1], b: table[3 * s + 2] };
      for (const c of ['r', 'g', 'b'] as const) expect(Math.abs(got[c] - want[c]), `${v} ${c}`).toBeLessThanOrEqual(1);
    }
    expect(colourStep(-9, domain)).toBe(0);
    expect(colourStep(9, domain)).toBe(COLOUR_STEPS);
    expect(colourStep(Number.NaN, domain)).toBe(-2);
  });

  it('the bitmap’s RGBA table holds the colour table’s bytes in ImageData order, then the diagonal grey and NaN black', () => {
    const table = colourTable(interpolateBlues);
    const rgba = rgbaTable(table);
    expect(rgba.length).toBe(COLOUR_STEPS + 3);
    const bytes = new Uint8Array(rgba.buffer);
    for (const k of [0, 1, 512, COLOUR_STEPS]) expect([...bytes.subarray(4 * k, 4 * k + 4)]).toEqual([table[3 * k], table[3 * k + 1], table[3 * k + 2], 255]);
    expect([...bytes.subarray(4 * (COLOUR_STEPS + 1), 4 * (COLOUR_STEPS + 2))]).toEqual([227, 230, 235, 255]); // #e3e6eb
    expect([...bytes.subarray(4 * (COLOUR_STEPS + 2))]).toEqual([0, 0, 0, 255]);
  });
});
