/**
 * The sample grid of the Data page ("Sample images per class"): which images to show, how big, and the pixels of
 * one grid row. Pure functions over plain data (no DOM): the worker uses the selection and packing helpers to send
 * the UI only a few images per class, SampleGrid.svelte uses the layout and rendering helpers to draw them.
 */
import { OKABE_ITO } from '../common/palette';

export { countPerClass, indicesPerClass, packSamples, selectSamples, type Labels, type SampleSet, type SplitName } from '../../data/samples';
import type { SampleSet } from '../../data/samples';

/** min and max of the per-class counts, and which classes (labels) have each. */
export function perClassRange(perClass: readonly number[]): { min: number; minClasses: number[]; max: number; maxClasses: number[] } | null {
  if (perClass.length === 0) return null;
  const min = Math.min(...perClass);
  const max = Math.max(...perClass);
  const having = (n: number) => perClass.flatMap((v, c) => (v === n ? [c] : []));
  return { min, minClasses: having(min), max, maxClasses: having(max) };
}

/** "139 (eight)", "146 (one, three)", "4 (4 classes, e.g. ladybug)", "6 000 (every class)". */
export function describeExtreme(count: number, classes: readonly number[], names: readonly string[]): string {
  const k = classes.length;
  const who =
    k === names.length && k > 1 ? 'every class' : k <= 3 ? classes.map((c) => names[c]).join(', ') : `${formatCount(k)} classes, e.g. ${names[classes[0]]}`;
  return `${formatCount(count)} (${who})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Columns: plain samples, or (emoji) one column per artist style so every column is the same artist.

/** A column of the grid; `style` is set when columns are styles. */
export interface GridColumn {
  style?: number;
}

/**
 * The columns of a split's grid. With styles (emoji): one column per style that occurs in the sample, in style
 * table order, so a column is one artist. Otherwise: as many columns as the fullest class has samples.
 */
export function gridColumns(samples: SampleSet): GridColumn[] {
  if (samples.classes.some((c) => c.styles)) {
    const present = new Set<number>();
    for (const c of samples.classes) for (const s of c.styles ?? []) present.add(s);
    return [...present].sort((a, b) => a - b).map((style) => ({ style }));
  }
  const n = samples.classes.reduce((m, c) => Math.max(m, c.indices.length), 0);
  return Array.from({ length: n }, () => ({}));
}

/**
 * Which sample (index into the class's `indices`) goes in each column, or -1 for an empty cell. With style
 * columns a sample sits in its style's column (the first sample of that style when there are several).
 */
export function placeInColumns(cls: SampleSet['classes'][number], columns: GridColumn[]): number[] {
  if (columns.length > 0 && columns[0].style !== undefined) {
    return columns.map((col) => (cls.styles ? cls.styles.indexOf(col.style!) : -1));
  }
  return columns.map((_, k) => (k < cls.indices.length ? k : -1));
}

/** Colour of style `s` (Okabe–Ito, cycled). */
export function styleColour(style: number): string {
  return OKABE_ITO[style % OKABE_ITO.length];
}

// ---------------------------------------------------------------------------------------------------------------
// Layout: cell size from the container width and the image size.

export interface GridLayoutInput {
  /** width the grid may use, CSS px */
  containerWidth: number;
  imageWidth: number;
  imageHeight: number;
  /** cells per class row (S, or the number of style columns) */
  columns: number;
  /** how many class rows there are; long grids (> 20 rows) get smaller cells, the label on top, and several class
   *  rows side by side when they fit */
  rows?: number;
  /** below this width the class label goes above its row instead of to its left */
  narrowBelow?: number;
  labelWidth?: number;
  gap?: number;
  /** space between class rows placed side by side */
  flowGap?: number;
  /** extra height under each image (the style colour strip) */
  stripHeight?: number;
  minCell?: number;
  maxCell?: number;
}

export interface GridLayout {
  /** integer upscaling factor: every image pixel is scale × scale screen pixels (nearest neighbour) */
  scale: number;
  cellWidth: number;
  /** image height × scale (the strip is drawn below it, within `rowCellHeight`) */
  cellHeight: number;
  /** cellHeight + strip */
  rowCellHeight: number;
  gap: number;
  stripHeight: number;
  labelPosition: 'left' | 'top';
  /** 0 when the label is on top */
  labelWidth: number;
  /** cells per line; < columns when a row wraps onto several lines (balanced: 8 → 4 + 4, not 5 + 3) */
  perLine: number;
  lines: number;
  /** the row canvas, CSS px */
  canvasWidth: number;
  canvasHeight: number;
  /** one class row (label included), CSS px */
  rowWidth: number;
  /** class rows side by side (long grids of narrow rows), ≥ 1 */
  flow: number;
  flowGap: number;
}

const LONG_GRID = 20;

/**
 * Picks an integer scale so that a cell is between `minCell` and `maxCell` px and a row fits the width when it
 * can; a row that does not fit even at the smallest scale wraps onto balanced lines (never scrolls sideways).
 * Long grids (emoji: ~200 classes) put the label above each row and as many rows side by side as fit.
 */
export function gridLayout(input: GridLayoutInput): GridLayout {
  const { containerWidth, imageWidth, imageHeight } = input;
  const columns = Math.max(1, input.columns);
  const rows = input.rows ?? 0;
  const long = rows > LONG_GRID;
  const gap = input.gap ?? 4;
  const flowGap = input.flowGap ?? 16;
  const stripHeight = input.stripHeight ?? 0;
  const narrowBelow = input.narrowBelow ?? 560;
  const labelPosition = containerWidth < narrowBelow || long ? 'top' : 'left';
  const labelWidth = labelPosition === 'left' ? (input.labelWidth ?? 150) : 0;
  const minCell = input.minCell ?? 40;
  const maxCell = input.maxCell ?? (long ? 64 : 96);
  const avail = Math.max(1, containerWidth - (labelPosition === 'left' ? labelWidth + 8 : 0));
  const minScale = Math.max(1, Math.ceil(minCell / imageWidth));
  const maxScale = Math.max(minScale, Math.floor(maxCell / imageWidth));
  const fit = Math.floor((avail - gap * (columns - 1)) / columns / imageWidth);
  const scale = Math.min(maxScale, Math.max(minScale, fit));
  const cellWidth = imageWidth * scale;
  const cellHeight = imageHeight * scale;
  const most = Math.max(1, Math.min(columns, Math.floor((avail + gap) / (cellWidth + gap))));
  const lines = Math.ceil(columns / most);
  const perLine = Math.ceil(columns / lines);
  const rowCellHeight = cellHeight + stripHeight;
  const canvasWidth = perLine * cellWidth + (perLine - 1) * gap;
  const rowWidth = canvasWidth + (labelPosition === 'left' ? labelWidth + 8 : 0);
  const flow = long && lines === 1 ? Math.max(1, Math.min(rows, Math.floor((containerWidth + flowGap) / (rowWidth + flowGap)))) : 1;
  return {
    scale,
    cellWidth,
    cellHeight,
    rowCellHeight,
    gap,
    stripHeight,
    labelPosition,
    labelWidth,
    perLine,
    lines,
    canvasWidth,
    canvasHeight: lines * rowCellHeight + (lines - 1) * gap,
    rowWidth,
    flow,
    flowGap,
  };
}

/** Top-left corner of cell `k` of a row, CSS px. */
export function cellOrigin(k: number, layout: GridLayout): { x: number; y: number } {
  const col = k % layout.perLine;
  const line = Math.floor(k / layout.perLine);
  return { x: col * (layout.cellWidth + layout.gap), y: line * (layout.rowCellHeight + layout.gap) };
}

/** The cell under a point of a row canvas, or -1 in a gap or outside. */
export function cellAt(x: number, y: number, layout: GridLayout, columns: number): number {
  const col = Math.floor(x / (layout.cellWidth + layout.gap));
  const line = Math.floor(y / (layout.rowCellHeight + layout.gap));
  if (col < 0 || line < 0 || col >= layout.perLine) return -1;
  const { x: x0, y: y0 } = cellOrigin(line * layout.perLine + col, layout);
  if (x - x0 >= layout.cellWidth || y - y0 >= layout.rowCellHeight) return -1;
  const k = line * layout.perLine + col;
  return k < columns ? k : -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering one row into RGBA (what putImageData wants), nearest-neighbour upscaling by an integer factor.

function hexRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Empty cells (a class with fewer than S images, or without this style) are light grey. */
export const EMPTY_CELL_RGB: readonly [number, number, number] = [232, 234, 238];

/**
 * RGBA pixels (canvasWidth × canvasHeight, white background) of one class row: each sample upscaled by
 * `layout.scale` (grey C = 1 is drawn as R = G = B), empty cells grey, and under each image its style's colour
 * strip when `stripColours[k]` is given.
 */
export function renderRow(
  samples: SampleSet,
  label: number,
  placement: readonly number[],
  layout: GridLayout,
  stripColours?: readonly (string | undefined)[],
): Uint8ClampedArray<ArrayBuffer> {
  const W = layout.canvasWidth;
  const H = layout.canvasHeight;
  const out = new Uint8ClampedArray(W * H * 4).fill(255);
  const [h, w, c] = samples.shape;
  const size = h * w * c;
  const s = layout.scale;
  const cls = samples.classes[label];
  const fillRect = (x0: number, y0: number, rw: number, rh: number, rgb: readonly number[]) => {
    for (let y = y0; y < y0 + rh && y < H; y++) {
      for (let x = x0; x < x0 + rw && x < W; x++) {
        const o = (y * W + x) * 4;
        out[o] = rgb[0];
        out[o + 1] = rgb[1];
        out[o + 2] = rgb[2];
      }
    }
  };
  placement.forEach((j, k) => {
    const { x: x0, y: y0 } = cellOrigin(k, layout);
    if (j < 0 || !cls) {
      fillRect(x0, y0, layout.cellWidth, layout.cellHeight, EMPTY_CELL_RGB);
    } else {
      const base = (cls.start + j) * size;
      for (let py = 0; py < h; py++) {
        for (let px = 0; px < w; px++) {
          const p = base + (py * w + px) * c;
          const r = samples.pixels[p];
          const g = c === 3 ? samples.pixels[p + 1] : r;
          const b = c === 3 ? samples.pixels[p + 2] : r;
          for (let dy = 0; dy < s; dy++) {
            let o = ((y0 + py * s + dy) * W + x0 + px * s) * 4;
            for (let dx = 0; dx < s; dx++, o += 4) {
              out[o] = r;
              out[o + 1] = g;
              out[o + 2] = b;
            }
          }
        }
      }
    }
    const strip = stripColours?.[k];
    if (strip && layout.stripHeight > 0) {
      fillRect(x0, y0 + layout.cellHeight + 1, layout.cellWidth, layout.stripHeight - 1, hexRgb(strip));
    }
  });
  return out;
}

/** Is every pixel of an RGBA buffer the same colour? (a blank canvas) */
export function isUniform(rgba: ArrayLike<number>): boolean {
  for (let i = 4; i < rgba.length; i += 4) {
    if (rgba[i] !== rgba[0] || rgba[i + 1] !== rgba[1] || rgba[i + 2] !== rgba[2]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers as docs/design.md wants them.

/** Counts with thin-space thousands: 60000 → "60 000". */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

/** An image shape [height, width, channels] as "28×28 grey" / "32×32 RGB". */
export function shapeText(s: readonly [number, number, number]): string {
  return `${s[0]}×${s[1]} ${s[2] === 1 ? 'grey' : 'RGB'}`;
}

/** Bytes as "812 B", "93.4 kB", "47.0 MB" (decimal units, one decimal). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}
