/**
 * The pure half of the Orderings page's similarity heat map + dendrogram (./similarity-heatmap.ts draws it): the
 * dendrogram of EDGE's linkage, the layout of dendrogram, cells, task marks and labels for a width, the hit-test of
 * a cell, the tooltip's text, and the bitmap's colour table (beyond SVG_CELL_LIMIT classes). Tested without a
 * browser (tests/unit/ui/orderings-heatmap.test.ts).
 */
import { scaleLinear } from 'd3-scale';
import { leavesList } from '../../core/clustering/fcluster';
import { fmt, truncateLabel } from '../common/chart-kit';

/** Up to this many classes every cell is an SVG rect; beyond, the cells are one bitmap. */
export const SVG_CELL_LIMIT = 60;

/**
 * Beyond this many classes the lab shows less at once (1 000 classes): the heat map is
 * drawn in a task of its own and its task marks are one shape per task (not per class); an ordering's row shows its
 * first tasks and a "show all" button.
 */
export const MANY_CLASSES = 200;
/** The dendrogram's axis title (one line when there is room, else two). */
export const AXIS_TITLE: [string, string] = ['dissimilarity 1 − Sim', '(complete linkage)'];

// ───────────────────────────── the dendrogram, pure ─────────────────────────────

/** A scipy-style linkage matrix as rows [idx1, idx2, distance, count] (n−1 rows for n leaves). */
export type LinkageRows = readonly (readonly number[])[];

/** Z as scipy's flat array, after checking that every row joins two ids that exist by then. */
function flat(z: LinkageRows): Float64Array {
  const n = z.length + 1;
  const out = new Float64Array(4 * z.length);
  z.forEach((r, i) => {
    if (r.length !== 4) throw new RangeError(`Linkage row ${i} has ${r.length} entries; a row is [idx1, idx2, distance, count].`);
    const [a, b] = r;
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a < n + i && b < n + i && a !== b)) {
      throw new RangeError(`Linkage row ${i} joins ${a} and ${b}; only ids below ${n + i} exist then.`);
    }
    out.set(r, 4 * i);
  });
  return out;
}

/** The leaves in dendrogram order (scipy `leaves_list(Z)`): row/column r of the heat map shows class `order[r]`. */
export function leafOrder(z: LinkageRows): number[] {
  if (z.length === 0) return [0];
  return Array.from(leavesList(flat(z), z.length + 1));
}

/** One ⊐-shaped link of the dendrogram: cluster n+row joining `left` and `right` at `height`. */
export interface DendrogramLink {
  /** id of the new cluster, n + row */
  node: number;
  left: number;
  right: number;
  /** merge distance (1 − Sim under complete linkage) */
  height: number;
  /** classes under the new cluster */
  count: number;
  /** scipy `dendrogram(Z)['icoord']` of this link in leaf units (leaf r at r; scipy's = 5 + 10·r): [pL, pL, pR, pR] */
  pos: [number, number, number, number];
  /** scipy `dendrogram(Z)['dcoord']` of this link: [height of left child, height, height, height of right child] */
  hgt: [number, number, number, number];
}

/**
 * The links of the dendrogram, in linkage-row order, with scipy's coordinates: a leaf sits at its position in the
 * leaf order, a cluster halfway between its two children (scipy's rule), a leaf at height 0, a cluster at its merge
 * distance. Also the leaf order and the largest merge height.
 */
export function dendrogramLinks(z: LinkageRows): { leaves: number[]; links: DendrogramLink[]; maxHeight: number } {
  const n = z.length + 1;
  const leaves = leafOrder(z); // checks the rows
  const pos = new Float64Array(2 * n - 1);
  const hgt = new Float64Array(2 * n - 1);
  leaves.forEach((c, r) => (pos[c] = r));
  const links: DendrogramLink[] = [];
  let maxHeight = 0;
  z.forEach((row, i) => {
    const [a, b, h, count] = row;
    const node = n + i;
    pos[node] = (pos[a] + pos[b]) / 2;
    hgt[node] = h;
    maxHeight = Math.max(maxHeight, h);
    links.push({ node, left: a, right: b, height: h, count, pos: [pos[a], pos[a], pos[b], pos[b]], hgt: [hgt[a], h, h, hgt[b]] });
  });
  return { leaves, links, maxHeight };
}

// ───────────────────────────── the layout, pure ─────────────────────────────

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DendroHeatmapLayout {
  width: number;
  height: number;
  n: number;
  /** cell side, px (square cells) */
  cell: number;
  /** gap between cells, px (0 for small cells) */
  gap: number;
  /** the map: x, y of its top-left corner and its side n·cell */
  heat: Box;
  /** the dendrogram panel: the root side at x, the leaves at x + width (next to the map); rows as the map */
  dendro: Box;
  /** the strip of task marks right of the map (one per row) */
  rowStrip: Box;
  /** the strip of task marks above the map (one per column) */
  colStrip: Box;
  /** row labels: left-aligned at x, one every `step` rows, texts cut to fit */
  rowLabels: { x: number; step: number; font: number; texts: string[] };
  /** column labels under the map (rotated), one every `step` columns; none when `show` is false */
  colLabels: { y: number; step: number; show: boolean };
  /** the dendrogram's axis (ticks at y) and its title, on one line or two */
  axis: { y: number; titleLines: string[] };
  /** the colour legend (gradient bar) */
  legend: Box;
  /** the task-mark legend: title at (x, y), entries from y + 16, `perRow` entries of `entryWidth` px per row */
  taskLegend: { x: number; y: number; perRow: number; entryWidth: number };
  /** cells as one bitmap (many classes) instead of one rect each */
  bitmap: boolean;
}

export interface LayoutOptions {
  /** room across, px; the chart is at least this wide when it fits, wider (scrolling in its box) when not */
  width: number;
  /** class names in dendrogram order (row r = names[r]) */
  names: readonly string[];
  /** number of tasks of the shown ordering (for the task legend's rows); 0 = none */
  taskCount?: number;
  /** the longest ordering label that the task legend's title ("Task marks: EDGE median (seed 0)") may show */
  taskLabelChars?: number;
}

const FONT = 11;
const CHAR = 0.6 * FONT; // average glyph width of the UI font at 11 px (generous: labels must not collide)
const CHAR_AXIS = 6.2; // the axis title's glyphs, measured in Chromium's system-ui at 11 px (≈ 5.9 px)
const MAX_LABEL_CHARS = 16;
const MIN_CELL = 3;
const MAX_CELL = 36;

/** Where everything goes (see the module comment). Cells stay ≥ 3 px, so 200 classes need ≈ 830 px across. */
export function layoutDendroHeatmap(o: LayoutOptions): DendroHeatmapLayout {
  const n = o.names.length;
  const width = Math.max(200, Math.floor(o.width));
  const texts = o.names.map((s) => truncateLabel(s, MAX_LABEL_CHARS));
  const longest = texts.reduce((m, s) => Math.max(m, s.length), 1);
  const labelW = Math.min(8 + Math.ceil(longest * CHAR), 120);
  const pad = { left: 10, right: 6, top: 4 };
  // the dendrogram panel holds its axis title on two lines ("dissimilarity 1 − Sim" is the longest)
  const dendroW = Math.round(Math.min(160, Math.max(AXIS_TITLE[0].length * CHAR_AXIS, width * 0.24)));
  const stripW = 12;
  const gaps = 4 /* dendro | map */ + 4 /* map | strip */ + 5; /* strip | labels */
  const avail = width - pad.left - dendroW - stripW - labelW - gaps - pad.right;
  const cell = Math.min(MAX_CELL, Math.max(MIN_CELL, avail / Math.max(1, n)));
  const side = cell * n;
  const stripH = 12;
  const heatX = pad.left + dendroW + 4;
  const heatY = pad.top + stripH + 4;
  const rowStep = Math.max(1, Math.ceil(12 / cell));
  const colStep = Math.max(1, Math.ceil(12 / cell));
  const showCols = colStep <= 3;
  const colLabelH = showCols ? Math.min(longest, MAX_LABEL_CHARS) * CHAR + 10 : 0;
  const axisTitleOneLine = dendroW >= AXIS_TITLE.join(' ').length * CHAR_AXIS;
  const axisH = 18 + (axisTitleOneLine ? 16 : 30);
  const bottom = heatY + side + Math.max(colLabelH, axisH) + 12;
  const totalW = Math.ceil(heatX + side + 4 + stripW + 5 + labelW + pad.right);
  // the legend's end ticks are centred on its ends: inset it by half a tick label
  const legendInset = 16;
  // legends stay within the room the chart has on screen, even when the map itself is wider (and scrolls)
  const visibleW = Math.min(totalW, width);
  const legendW = Math.max(120, Math.min(220, visibleW - pad.left - 2 * legendInset));
  const legend = { x: pad.left + legendInset, y: bottom, width: legendW, height: 10 };
  const legendH = 10 + 18 + 16;
  // task legend: beside the colour legend when both fit across, else under it
  const entryWidth = 42;
  const k = Math.max(1, o.taskCount ?? 0);
  const besideX = legend.x + legendW + legendInset + 20;
  const besideRoom = visibleW - besideX - pad.right;
  const titleW = (12 + (o.taskLabelChars ?? 20)) * CHAR;
  const beside = besideRoom >= Math.max(Math.min(k, 3) * entryWidth, titleW);
  const tlX = beside ? besideX : pad.left;
  const tlY = beside ? bottom - 2 : bottom + legendH + 8;
  const perRow = Math.max(1, Math.floor((visibleW - tlX - pad.right) / entryWidth));
  const tlRows = Math.ceil(k / perRow);
  const tlBottom = tlY + 16 + tlRows * 16;
  const height = Math.ceil(Math.max(bottom + legendH, tlBottom) + 6);
  return {
    width: totalW,
    height,
    n,
    cell,
    gap: cell >= 8 ? 1 : 0,
    heat: { x: heatX, y: heatY, width: side, height: side },
    dendro: { x: pad.left, y: heatY, width: dendroW, height: side },
    rowStrip: { x: heatX + side + 4, y: heatY, width: stripW, height: side },
    colStrip: { x: heatX, y: pad.top, width: side, height: stripH },
    rowLabels: { x: heatX + side + 4 + stripW + 5, step: rowStep, font: FONT, texts },
    colLabels: { y: heatY + side + 5, step: colStep, show: showCols },
    axis: { y: heatY + side + 2, titleLines: axisTitleOneLine ? [AXIS_TITLE.join(' ')] : [...AXIS_TITLE] },
    legend,
    taskLegend: { x: tlX, y: tlY, perRow, entryWidth },
    bitmap: n > SVG_CELL_LIMIT,
  };
}

/** The rectangle of cell (row r, column c), r and c in dendrogram order. */
export function cellRect(L: DendroHeatmapLayout, r: number, c: number): Box {
  return { x: L.heat.x + c * L.cell, y: L.heat.y + r * L.cell, width: Math.max(0.5, L.cell - L.gap), height: Math.max(0.5, L.cell - L.gap) };
}

/** The cell under a point of the chart (inverse of `cellRect`), or null outside the map. */
export function cellAt(L: DendroHeatmapLayout, x: number, y: number): { r: number; c: number } | null {
  const c = Math.floor((x - L.heat.x) / L.cell);
  const r = Math.floor((y - L.heat.y) / L.cell);
  if (c < 0 || r < 0 || c >= L.n || r >= L.n) return null;
  return { r, c };
}

/** Centre y of row r (leaf r of the dendrogram). */
export function rowY(L: DendroHeatmapLayout, r: number): number {
  return L.heat.y + (r + 0.5) * L.cell;
}

/** The dendrogram's height scale: 0 at the leaves (next to the map), the top of the axis at the root side. */
export function heightScale(L: DendroHeatmapLayout, maxHeight: number) {
  return scaleLinear()
    .domain([0, maxHeight > 0 ? maxHeight : 1])
    .nice(4)
    .range([L.dendro.x + L.dendro.width, L.dendro.x]);
}

/** At most `max` of d3's ticks (every other one while there are too many), 0 always kept. */
export function dendroTicks(ticks: readonly number[], max: number): number[] {
  let t = ticks.slice();
  while (t.length > max) t = t.filter((_, i) => i % 2 === 0);
  return t;
}

/** SVG path of one link, left orientation: heights across (x), leaf positions down (y). */
export function linkPath(L: DendroHeatmapLayout, link: DendrogramLink, x: (h: number) => number): string {
  const y = (p: number) => L.heat.y + (p + 0.5) * L.cell;
  const r = (v: number) => Math.round(v * 100) / 100;
  return `M${r(x(link.hgt[0]))},${r(y(link.pos[0]))}H${r(x(link.hgt[1]))}V${r(y(link.pos[2]))}H${r(x(link.hgt[3]))}`;
}

/** Task index (0-based) of every class under an ordering, −1 for a class in no task. */
export function taskOfClass(tasks: readonly (readonly number[])[] | null | undefined, n: number): number[] {
  const out = new Array<number>(n).fill(-1);
  tasks?.forEach((t, k) => t.forEach((c) => (out[c] = k)));
  return out;
}

/** How many tasks of an ordering hold whole runs of neighbouring leaves: contiguous blocks of one task in leaf order. */
export function taskRuns(leaves: readonly number[], taskOf: readonly number[]): number {
  let runs = 0;
  for (let r = 0; r < leaves.length; r++) if (r === 0 || taskOf[leaves[r]] !== taskOf[leaves[r - 1]]) runs++;
  return runs;
}

/** The tooltip of a cell: both classes, the similarity and 1 − Sim, and their tasks in the shown ordering. */
export function cellTip(names: readonly string[], i: number, j: number, sim: number, shown?: { label: string; taskOf: readonly number[] } | null): string {
  if (i === j) return `${names[i]} (itself)`;
  const lines = [`${names[i]} – ${names[j]}`, `similarity: ${fmt(sim)} · 1 − Sim: ${fmt(1 - sim)}`];
  if (shown) {
    const a = shown.taskOf[i];
    const b = shown.taskOf[j];
    if (a >= 0 && b >= 0) lines.push(a === b ? `${shown.label}: both in T${a + 1}` : `${shown.label}: T${a + 1} and T${b + 1}`);
  }
  return lines.join('\n');
}

// ───────────────────────────── DOM ─────────────────────────────

/** Steps of the bitmap's colour table over the domain (a step is 1/1024 of the range: below one 8-bit level of Blues). */
export const COLOUR_STEPS = 1024;
const DIAGONAL_RGB = [227, 230, 235]; // #e3e6eb, as the SVG cells' diagonal

/** An interpolator's colours at t = k / COLOUR_STEPS (k = 0…COLOUR_STEPS) as r, g, b bytes, three per step. */
export function colourTable(interpolate: (t: number) => string): Uint8Array {
  const out = new Uint8Array(3 * (COLOUR_STEPS + 1));
  for (let k = 0; k <= COLOUR_STEPS; k++) {
    const { r, g, b } = parseRgb(interpolate(k / COLOUR_STEPS));
    out.set([r, g, b], 3 * k);
  }
  return out;
}

/**
 * colourTable's steps as opaque RGBA pixels (ImageData's byte order, whatever the machine's endianness), then the
 * diagonal's grey at COLOUR_STEPS + 1 and black (NaN) at COLOUR_STEPS + 2.
 */
export function rgbaTable(rgb: Uint8Array): Uint32Array {
  const steps = rgb.length / 3;
  const bytes = new Uint8Array(4 * (steps + 2));
  for (let k = 0; k < steps; k++) bytes.set([rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2], 255], 4 * k);
  bytes.set([...DIAGONAL_RGB, 255], 4 * steps);
  bytes.set([0, 0, 0, 255], 4 * (steps + 1));
  return new Uint32Array(bytes.buffer);
}

/** The step of `colourTable` nearest to a value of the domain (clamped to it, as the scale clamps); −2 for NaN. */
export function colourStep(v: number, [d0, d1]: readonly [number, number]): number {
  return stepOf(v, d0, d1);
}

/** colourStep with the domain's ends as numbers (the bitmap's loop calls it 10⁶ times). */
export function stepOf(v: number, d0: number, d1: number): number {
  if (v !== v) return -2;
  return Math.round(Math.min(COLOUR_STEPS, Math.max(0, ((v - d0) / (d1 - d0)) * COLOUR_STEPS)));
}

/** "rgb(r, g, b)" (d3's colour output) as numbers. */
export function parseRgb(s: string): { r: number; g: number; b: number } {
  const m = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(s);
  if (m) return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) };
  const h = /^#([0-9a-f]{6})$/i.exec(s);
  if (h) return { r: parseInt(h[1].slice(0, 2), 16), g: parseInt(h[1].slice(2, 4), 16), b: parseInt(h[1].slice(4, 6), 16) };
  return { r: 0, g: 0, b: 0 };
}
