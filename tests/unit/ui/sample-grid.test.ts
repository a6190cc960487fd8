import { describe, expect, it } from 'vitest';
import {
  EMPTY_CELL_RGB,
  cellAt,
  cellOrigin,
  countPerClass,
  describeExtreme,
  formatBytes,
  formatCount,
  gridColumns,
  gridLayout,
  indicesPerClass,
  isUniform,
  packSamples,
  perClassRange,
  placeInColumns,
  renderRow,
  selectSamples,
  shapeText,
  styleColour,
  type SampleSet,
} from '../../../src/ui/data/sample-grid';

const LABELS = Uint8Array.from([0, 1, 0, 1, 0, 2, 2, 0, 1, 0, 2, 0]);

describe('choosing samples per class', () => {
  it('counts and indexes images per class, ignoring out-of-range labels', () => {
    expect(countPerClass(LABELS, 4)).toEqual([6, 3, 3, 0]);
    expect(countPerClass([0, 5, 1], 2)).toEqual([1, 1]);
    expect(indicesPerClass(LABELS, 3)).toEqual([
      [0, 2, 4, 7, 9, 11],
      [1, 3, 8],
      [5, 6, 10],
    ]);
  });

  it('is numpy: idx[RandomState(seed).permutation(len(idx))[:S]] per class, one stream in label order', () => {
    // python: rs = np.random.RandomState(seed); [idx_c[rs.permutation(len(idx_c))[:3]] for c in range(4)]
    expect(selectSamples(LABELS, 4, 3, 0)).toEqual([[11, 4, 2], [8, 1, 3], [10, 6, 5], []]);
    expect(selectSamples(LABELS, 4, 3, 1993)).toEqual([[0, 4, 7], [8, 3, 1], [5, 10, 6], []]);
  });

  it('gives at most S images of the right class, without repeats, all of a small class, and a new draw for a new seed', () => {
    const labels = Int32Array.from({ length: 500 }, (_, i) => ((i * 7) % 10 === 3 ? 9 : i % 9));
    const a = selectSamples(labels, 10, 8, 42);
    a.forEach((idx, c) => {
      expect(idx.length).toBe(Math.min(8, countPerClass(labels, 10)[c]));
      expect(new Set(idx).size).toBe(idx.length);
      for (const i of idx) expect(labels[i]).toBe(c);
    });
    expect(selectSamples(labels, 10, 8, 42)).toEqual(a);
    expect(selectSamples(labels, 10, 8, 43)).not.toEqual(a);
    expect(selectSamples([0, 0, 1], 2, 8, 0).map((x) => x.length)).toEqual([2, 1]);
    expect(() => selectSamples(LABELS, 3, 0, 0)).toThrow(/≥ 1/);
    expect(() => selectSamples(LABELS, 3, 2, -1)).toThrow(/seed/);
  });

  it('packs the chosen images class by class, with each class start and style', () => {
    const shape: [number, number, number] = [1, 2, 1];
    const images = Uint8Array.from({ length: 12 * 2 }, (_, i) => i); // image i = [2i, 2i+1]
    const styles = Uint8Array.from(LABELS, (_, i) => i % 3);
    const s = packSamples(images, shape, [[4, 0], [], [6]], { split: 'test', perClass: 2, seed: 5, styles });
    expect(s.classes).toEqual([
      { indices: [4, 0], start: 0, styles: [1, 0] },
      { indices: [], start: 2, styles: [] },
      { indices: [6], start: 2, styles: [0] },
    ]);
    expect([...s.pixels]).toEqual([8, 9, 0, 1, 12, 13]);
    expect(s).toMatchObject({ split: 'test', perClass: 2, seed: 5, shape });
  });

  it('finds the fewest and most images per class', () => {
    expect(perClassRange([142, 146, 139, 146])).toEqual({ min: 139, minClasses: [2], max: 146, maxClasses: [1, 3] });
    expect(perClassRange([])).toBeNull();
    const names = ['zero', 'one', 'two', 'three', 'four'];
    expect(describeExtreme(139, [2], names)).toBe('139 (two)');
    expect(describeExtreme(146, [1, 3], names)).toBe('146 (one, three)');
    expect(describeExtreme(4, [0, 1, 2, 4], names)).toBe('4 (4 classes, e.g. zero)');
    expect(describeExtreme(6000, [0, 1, 2, 3, 4], names)).toBe('6\u2009000 (every class)');
  });
});

function sampleSet(shape: [number, number, number], classes: SampleSet['classes'], pixels: number[]): SampleSet {
  return { split: 'train', shape, perClass: 8, seed: 0, classes, pixels: Uint8Array.from(pixels) };
}

describe('grid columns', () => {
  it('has as many columns as the fullest class without styles, empty cells marked -1', () => {
    const s = sampleSet(
      [1, 1, 1],
      [
        { indices: [3, 1, 2], start: 0 },
        { indices: [7], start: 3 },
      ],
      [1, 2, 3, 4],
    );
    const cols = gridColumns(s);
    expect(cols).toHaveLength(3);
    expect(placeInColumns(s.classes[1], cols)).toEqual([0, -1, -1]);
  });

  it('has one column per style present (emoji), so each column is one artist', () => {
    const s = sampleSet(
      [1, 1, 1],
      [
        { indices: [10, 11, 12], styles: [4, 0, 2], start: 0 },
        { indices: [20, 21], styles: [2, 0], start: 3 },
      ],
      [1, 2, 3, 4, 5],
    );
    const cols = gridColumns(s);
    expect(cols.map((c) => c.style)).toEqual([0, 2, 4]);
    expect(placeInColumns(s.classes[0], cols)).toEqual([1, 2, 0]);
    expect(placeInColumns(s.classes[1], cols)).toEqual([1, 0, -1]);
    expect(styleColour(0)).toMatch(/^#[0-9A-F]{6}$/i);
    expect(styleColour(0)).not.toBe(styleColour(1));
  });
});

describe('grid layout', () => {
  it('fills a wide container with integer-scaled cells next to the class labels', () => {
    const fashion = gridLayout({ containerWidth: 900, imageWidth: 28, imageHeight: 28, columns: 8, rows: 10 });
    expect(fashion).toMatchObject({ labelPosition: 'left', scale: 3, cellWidth: 84, perLine: 8, lines: 1 });
    expect(fashion.labelWidth + 8 + fashion.canvasWidth).toBeLessThanOrEqual(900);
    const digits = gridLayout({ containerWidth: 900, imageWidth: 8, imageHeight: 8, columns: 8, rows: 10 });
    expect(digits.scale).toBe(11); // 88 px cells: an 8×8 digit is big enough to read
    expect(digits.cellWidth).toBeLessThanOrEqual(96);
  });

  it('gives long grids (emoji, ~200 classes) smaller cells, labels on top, and several class rows side by side', () => {
    const emoji = gridLayout({ containerWidth: 900, imageWidth: 32, imageHeight: 32, columns: 5, rows: 198, stripHeight: 6 });
    expect(emoji).toMatchObject({ labelPosition: 'top', scale: 2, cellWidth: 64, cellHeight: 64, rowCellHeight: 70, perLine: 5, lines: 1 });
    expect(emoji.canvasHeight).toBe(70);
    expect(emoji.rowWidth).toBe(5 * 64 + 4 * 4);
    expect(emoji.flow).toBe(2);
    expect(emoji.flow * emoji.rowWidth + (emoji.flow - 1) * emoji.flowGap).toBeLessThanOrEqual(900);
    const test = gridLayout({ containerWidth: 900, imageWidth: 32, imageHeight: 32, columns: 2, rows: 198, stripHeight: 6 });
    expect(test.flow).toBe(6);
    // short grids never flow: one class per line
    expect(gridLayout({ containerWidth: 2000, imageWidth: 8, imageHeight: 8, columns: 2, rows: 10 }).flow).toBe(1);
    // a phone shows one class per line
    expect(gridLayout({ containerWidth: 366, imageWidth: 32, imageHeight: 32, columns: 5, rows: 198 }).flow).toBe(1);
  });

  it('puts labels on top and wraps rows onto balanced lines on a phone, never wider than the container', () => {
    const fashion = gridLayout({ containerWidth: 366, imageWidth: 28, imageHeight: 28, columns: 8, rows: 10 });
    expect(fashion).toMatchObject({ labelPosition: 'top', labelWidth: 0, scale: 2, perLine: 4, lines: 2 });
    expect(fashion.canvasWidth).toBeLessThanOrEqual(366);
    expect(fashion.canvasHeight).toBe(2 * 56 + 4);
    for (const w of [200, 320, 366, 390, 559, 560, 700, 1000, 1600]) {
      for (const [iw, cols, rows] of [
        [8, 8, 10],
        [28, 8, 10],
        [32, 5, 198],
        [32, 16, 100],
        [32, 7, 3],
      ]) {
        const l = gridLayout({ containerWidth: w, imageWidth: iw, imageHeight: iw, columns: cols, rows });
        expect(l.scale).toBe(Math.round(l.scale));
        expect(l.cellWidth).toBeGreaterThanOrEqual(40);
        expect(l.perLine * l.lines).toBeGreaterThanOrEqual(cols);
        expect(l.perLine * (l.lines - 1)).toBeLessThan(cols); // no empty last line
        const used = l.flow * l.rowWidth + (l.flow - 1) * l.flowGap;
        expect(used).toBeLessThanOrEqual(Math.max(w, l.cellWidth));
      }
    }
  });

  it('maps points to cells and back', () => {
    const l = gridLayout({ containerWidth: 366, imageWidth: 28, imageHeight: 28, columns: 8 });
    for (let k = 0; k < 8; k++) {
      const { x, y } = cellOrigin(k, l);
      expect(cellAt(x, y, l, 8)).toBe(k);
      expect(cellAt(x + l.cellWidth - 1, y + l.cellHeight - 1, l, 8)).toBe(k);
    }
    expect(cellAt(l.cellWidth + 1, 0, l, 8)).toBe(-1); // in the gap
    expect(l.perLine).toBe(4);
    expect(cellAt(cellOrigin(3, l).x, cellOrigin(4, l).y, l, 7)).toBe(-1); // 7 cells on 4 + 3: past the last one
  });
});

describe('drawing a row', () => {
  const at = (rgba: ArrayLike<number>, width: number, x: number, y: number) => {
    const o = (y * width + x) * 4;
    return [rgba[o], rgba[o + 1], rgba[o + 2], rgba[o + 3]];
  };

  it('upscales grey images by nearest neighbour and greys out empty cells', () => {
    // one class, two 2×2 grey images; three columns (the third empty)
    const s = sampleSet([2, 2, 1], [{ indices: [0, 1], start: 0 }], [0, 50, 100, 150, 200, 210, 220, 230]);
    const l = gridLayout({ containerWidth: 1000, imageWidth: 2, imageHeight: 2, columns: 3, minCell: 6, maxCell: 6 });
    expect(l.scale).toBe(3);
    const rgba = renderRow(s, 0, [0, 1, -1], l);
    expect(rgba.length).toBe(l.canvasWidth * l.canvasHeight * 4);
    expect(at(rgba, l.canvasWidth, 0, 0)).toEqual([0, 0, 0, 255]);
    expect(at(rgba, l.canvasWidth, 2, 2)).toEqual([0, 0, 0, 255]);
    expect(at(rgba, l.canvasWidth, 3, 0)).toEqual([50, 50, 50, 255]);
    expect(at(rgba, l.canvasWidth, 5, 5)).toEqual([150, 150, 150, 255]);
    expect(at(rgba, l.canvasWidth, 6, 0)).toEqual([255, 255, 255, 255]); // the gap
    const x1 = cellOrigin(1, l).x;
    expect(at(rgba, l.canvasWidth, x1 + 4, 1)).toEqual([210, 210, 210, 255]);
    const x2 = cellOrigin(2, l).x;
    expect(at(rgba, l.canvasWidth, x2 + 1, 1)).toEqual([...EMPTY_CELL_RGB, 255]);
    expect(isUniform(rgba)).toBe(false);
  });

  it('draws RGB images in colour, and the style strip under each image', () => {
    const s = sampleSet([1, 1, 3], [{ indices: [0], start: 0, styles: [1] }], [10, 20, 30]);
    const l = gridLayout({ containerWidth: 1000, imageWidth: 1, imageHeight: 1, columns: 1, minCell: 4, maxCell: 4, stripHeight: 3 });
    const rgba = renderRow(s, 0, [0], l, ['#FF8000']);
    expect(at(rgba, l.canvasWidth, 3, 3)).toEqual([10, 20, 30, 255]);
    expect(at(rgba, l.canvasWidth, 0, 4)).toEqual([255, 255, 255, 255]); // 1 px white above the strip
    expect(at(rgba, l.canvasWidth, 0, 5)).toEqual([255, 128, 0, 255]);
    expect(at(rgba, l.canvasWidth, 3, 6)).toEqual([255, 128, 0, 255]);
  });

  it('tells a blank canvas', () => {
    expect(isUniform(new Uint8ClampedArray(16).fill(255))).toBe(true);
    expect(isUniform(Uint8ClampedArray.from([1, 2, 3, 255, 1, 2, 4, 255]))).toBe(false);
  });
});

describe('numbers', () => {
  it('writes counts with thin-space thousands and bytes in decimal units', () => {
    expect(formatCount(60000)).toBe('60\u2009000');
    expect(formatCount(986)).toBe('986');
    expect(formatCount(1797)).toBe('1\u2009797');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(93_400)).toBe('93.4 kB');
    expect(formatBytes(47_040_000)).toBe('47.0 MB');
  });
  it('writes an image shape as height×width and grey or RGB', () => {
    expect(shapeText([28, 28, 1])).toBe('28×28 grey');
    expect(shapeText([32, 32, 3])).toBe('32×32 RGB');
  });
});
