/**
 * Drawing logic of the Orderings page's first chart (docs/design.md "Orderings": similarity heat map + dendrogram): the
 * class×class similarity matrix with rows and columns in EDGE's dendrogram leaf order, the dendrogram of that very
 * clustering beside it (complete linkage on 1 − Sim, the linkage matrix EDGE cuts; see core/protocols/edge.ts), and
 * task-coloured marks beside the class labels showing the tasks of one ordering, so a reader sees that EDGE hard
 * keeps whole branches of the tree together and EDGE easy deals them out.
 *
 * Geometry, left to right: the dendrogram (root at the left, leaves touching the map; merge heights on a labelled
 * axis "dissimilarity 1 − Sim (complete linkage)"), the heat map (cells square, d3.interpolateBlues over the
 * off-diagonal range; the diagonal, a class with itself, grey), a strip of task marks, the row labels. A second
 * strip of task marks runs above the map's columns; column labels (rotated) sit under the map when they fit, else
 * every k-th one, else none (the rows carry the names; the tooltip names both classes of a cell). Up to
 * SVG_CELL_LIMIT classes a cell is an SVG <rect class="cell">; beyond, all cells are one bitmap (one pixel per cell,
 * scaled up, inside the SVG so the ⤓ exports keep it) and hovering finds the cell from the pointer.
 *
 * The layout helpers are pure (tests/unit/ui/orderings-heatmap.test.ts); the draw functions touch the DOM.
 */
import { axisBottom } from 'd3-axis';
import { format, precisionFixed } from 'd3-format';
import { scaleLinear, scaleSequential } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import { select, type Selection } from 'd3-selection';
import { leavesList } from '../../core/clustering/fcluster';
import { textOn } from '../common/palette';
import { drawColorLegend, fmt, showTip, truncateLabel } from '../common/chart-kit';
import { offDiagonalExtent } from './compare-charts';

/** Up to this many classes every cell is an SVG rect; beyond, the cells are one bitmap. */
export const SVG_CELL_LIMIT = 60;

/**
 * Beyond this many classes the lab shows less at once (issue 16's long-task drill, 1 000 classes): the heat map is
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

export interface HeatmapInput {
  matrix: readonly (readonly number[])[];
  names: readonly string[];
  /** EDGE's linkage rows (n−1) of this matrix */
  linkage: LinkageRows;
  /** number of tasks of the orderings whose tasks may be marked */
  taskCount: number;
  /** the longest of their labels, in characters */
  taskLabelChars?: number;
}

export interface HeatmapHandle {
  layout: DendroHeatmapLayout;
  /** the leaf order used (row r = class leaves[r]) */
  leaves: number[];
  /** Show the tasks of an ordering as marks beside the labels (null: none). */
  setTasks(shown: { label: string; tasks: readonly (readonly number[])[]; colours: readonly string[] } | null): void;
}

type G = Selection<SVGGElement, unknown, null, undefined>;

/** Draw the heat map + dendrogram into `svgEl` (replacing its content); returns a handle to update the task marks. */
export function drawDendroHeatmap(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, input: HeatmapInput): HeatmapHandle {
  const { matrix, names, linkage } = input;
  const n = names.length;
  const { leaves, links, maxHeight } = dendrogramLinks(linkage);
  const ordered = leaves.map((c) => names[c]);
  const L = layoutDendroHeatmap({ width, names: ordered, taskCount: input.taskCount, taskLabelChars: input.taskLabelChars });
  const domain = offDiagonalExtent(matrix);
  const colour = scaleSequential(interpolateBlues).domain(domain).clamp(true);
  const svg = select(svgEl);
  svg.selectAll('*').remove();
  svg.attr('width', L.width).attr('height', L.height).attr('viewBox', `0 0 ${L.width} ${L.height}`);
  let shown: { label: string; taskOf: number[] } | null = null;

  // cells
  const cellsG = svg.append('g').attr('class', 'cells');
  if (!L.bitmap) {
    const cells: { r: number; c: number; i: number; j: number; v: number }[] = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) cells.push({ r, c, i: leaves[r], j: leaves[c], v: matrix[leaves[r]][leaves[c]] });
    cellsG
      .selectAll('rect')
      .data(cells)
      .join('rect')
      .attr('class', 'cell')
      .attr('data-i', (d) => d.i)
      .attr('data-j', (d) => d.j)
      .attr('x', (d) => cellRect(L, d.r, d.c).x)
      .attr('y', (d) => cellRect(L, d.r, d.c).y)
      .attr('width', cellRect(L, 0, 0).width)
      .attr('height', cellRect(L, 0, 0).height)
      .attr('fill', (d) => (d.i === d.j ? '#e3e6eb' : colour(d.v)));
  } else {
    const canvas = document.createElement('canvas');
    canvas.width = n;
    canvas.height = n;
    const ctx = canvas.getContext('2d');
    if (ctx) {
      const img = ctx.createImageData(n, n);
      // n² cells (10⁶ for 1 000 classes): the colours come from a table, not d3's interpolator and a regex per cell
      // (that took seconds on the main thread), and one 32-bit write per pixel (the loop took ~100 ms with four byte
      // writes per cell and the domain unpacked in every call; issue 16's long-task drill)
      const rgba = rgbaTable(colourTable(interpolateBlues));
      const px = new Uint32Array(img.data.buffer);
      const [d0, d1] = domain;
      for (let r = 0; r < n; r++) {
        const i = leaves[r];
        const row = matrix[i];
        const base = r * n;
        for (let c = 0; c < n; c++) {
          const j = leaves[c];
          // the diagonal grey; NaN (step −2) black, as d3's scale gives it no colour
          const k = i === j ? COLOUR_STEPS + 1 : stepOf(row[j], d0, d1);
          px[base + c] = rgba[k < 0 ? COLOUR_STEPS + 2 : k];
        }
      }
      ctx.putImageData(img, 0, 0);
    }
    cellsG
      .append('image')
      .attr('class', 'cells-bitmap')
      .attr('data-cells', n * n)
      .attr('x', L.heat.x)
      .attr('y', L.heat.y)
      .attr('width', L.heat.width)
      .attr('height', L.heat.height)
      .attr('preserveAspectRatio', 'none')
      .attr('image-rendering', 'optimizeSpeed')
      .style('image-rendering', 'pixelated')
      .attr('href', canvas.toDataURL('image/png'));
  }
  cellsG
    .append('rect')
    .attr('x', L.heat.x - 0.5)
    .attr('y', L.heat.y - 0.5)
    .attr('width', L.heat.width)
    .attr('height', L.heat.height)
    .attr('fill', 'none')
    .attr('stroke', '#b9c0cc')
    .attr('stroke-width', 0.5);

  // hover: the cells' group finds the cell under the pointer (the same for rects and the bitmap)
  const hl = svg.append('g').attr('class', 'hover').attr('pointer-events', 'none');
  const hlRow = hl.append('rect').attr('fill', '#1d2330').attr('fill-opacity', 0.07).attr('visibility', 'hidden');
  const hlCol = hl.append('rect').attr('fill', '#1d2330').attr('fill-opacity', 0.07).attr('visibility', 'hidden');
  const hlCell = hl.append('rect').attr('fill', 'none').attr('stroke', '#1d2330').attr('stroke-width', 1.5).attr('visibility', 'hidden');
  const clear = () => {
    hlCell.attr('visibility', 'hidden');
    hlRow.attr('visibility', 'hidden');
    hlCol.attr('visibility', 'hidden');
    svg.selectAll('.leaf-label, .col-label').attr('font-weight', null);
    showTip(tip, null);
  };
  cellsG
    .on('mousemove', (ev: MouseEvent) => {
      const [px, py] = pointer(ev, svgEl);
      const at = cellAt(L, px, py);
      if (!at) return clear();
      const i = leaves[at.r];
      const j = leaves[at.c];
      const b = cellRect(L, at.r, at.c);
      hlCell.attr('x', b.x).attr('y', b.y).attr('width', b.width).attr('height', b.height).attr('visibility', 'visible');
      hlRow.attr('x', L.heat.x).attr('y', b.y).attr('width', L.heat.width).attr('height', b.height).attr('visibility', 'visible');
      hlCol.attr('x', b.x).attr('y', L.heat.y).attr('width', b.width).attr('height', L.heat.height).attr('visibility', 'visible');
      svg.selectAll<SVGTextElement, unknown>('.leaf-label').attr('font-weight', function () {
        return Number(this.getAttribute('data-row')) === at.r ? 700 : null;
      });
      svg.selectAll<SVGTextElement, unknown>('.col-label').attr('font-weight', function () {
        return Number(this.getAttribute('data-col')) === at.c ? 700 : null;
      });
      showTip(tip, cellTip(names, i, j, matrix[i][j], shown), ev);
    })
    .on('mouseleave', clear);

  // the dendrogram
  const x = heightScale(L, maxHeight);
  const dg = svg.append('g').attr('class', 'dendrogram');
  dg.selectAll('path')
    .data(links)
    .join('path')
    .attr('class', 'link')
    .attr('d', (l) => linkPath(L, l, x))
    .attr('fill', 'none')
    .attr('stroke', '#1d2330')
    .attr('stroke-width', n > 80 ? 0.8 : 1.2)
    .append('title')
    .text((l) => `${l.count} classes merge at 1 − Sim = ${fmt(l.height)} (the least similar pair inside has Sim = ${fmt(1 - l.height)})`);
  const ticks = dendroTicks(x.ticks(4), L.dendro.width >= 150 ? 5 : 3);
  const axisG = svg
    .append('g')
    .attr('class', 'dendro-axis')
    .attr('transform', `translate(0,${L.axis.y})`)
    .call(
      axisBottom(x)
        .tickValues(ticks)
        .tickFormat((d) => format(`.${precisionFixed(ticks.length > 1 ? ticks[1] - ticks[0] : 1)}f`)(Number(d)))
        .tickSize(4),
    );
  axisG.attr('font-size', 11);
  // the 0 tick sits at the map's edge: its label ends there instead of reaching under the column labels
  axisG
    .selectAll<SVGTextElement, number>('.tick text')
    .filter((d) => d === 0)
    .attr('text-anchor', 'end')
    .attr('dx', '0.3em');
  const title = svg
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', L.dendro.x + L.dendro.width / 2)
    .attr('y', L.axis.y + 30)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', '#1d2330');
  L.axis.titleLines.forEach((line, k) =>
    title
      .append('tspan')
      .attr('x', L.dendro.x + L.dendro.width / 2)
      .attr('dy', k === 0 ? 0 : 13)
      .text(k === 0 ? line : ` ${line}`),
  );

  // labels: rows (every step-th, in dendrogram order) and columns (rotated) when they fit
  const lab = svg.append('g').attr('class', 'labels').attr('font-size', L.rowLabels.font).attr('fill', '#1d2330');
  for (let r = 0; r < n; r += L.rowLabels.step) {
    lab
      .append('text')
      .attr('class', 'leaf-label')
      .attr('data-row', r)
      .attr('data-class', leaves[r])
      .attr('x', L.rowLabels.x)
      .attr('y', rowY(L, r))
      .attr('dy', '0.35em')
      .text(L.rowLabels.texts[r])
      .append('title')
      .text(ordered[r]);
  }
  if (L.colLabels.show) {
    for (let c = 0; c < n; c += L.colLabels.step) {
      const cx = L.heat.x + (c + 0.5) * L.cell;
      lab
        .append('text')
        .attr('class', 'col-label')
        .attr('data-col', c)
        .attr('data-class', leaves[c])
        .attr('transform', `translate(${cx},${L.colLabels.y}) rotate(-90)`)
        .attr('dy', '0.35em')
        .attr('text-anchor', 'end')
        .text(L.rowLabels.texts[c])
        .append('title')
        .text(ordered[c]);
    }
  }

  drawColorLegend(svg, { ...L.legend, domain, interpolator: interpolateBlues, title: 'similarity Sim · grey: a class with itself' });

  const marks = svg.append('g').attr('class', 'task-marks');
  const tl = svg.append('g').attr('class', 'task-legend');
  const setTasks: HeatmapHandle['setTasks'] = (s) => {
    marks.selectAll('*').remove();
    tl.selectAll('*').remove();
    shown = s ? { label: s.label, taskOf: taskOfClass(s.tasks, n) } : null;
    drawTaskMarks(marks, tl, L, leaves, s ? { label: s.label, taskOf: shown!.taskOf, colours: s.colours, k: s.tasks.length } : null);
  };
  setTasks(null);
  return { layout: L, leaves, setTasks };
}

/**
 * Many classes: the task strips as one path per task and strip (runs of adjacent rows in the same task merged),
 * instead of 3 elements per class — 1 000 classes were 3 000 elements redrawn on every hover of an ordering's row.
 */
function drawMergedTaskMarks(
  marks: G,
  L: DendroHeatmapLayout,
  leaves: readonly number[],
  s: { label: string; taskOf: readonly number[]; colours: readonly string[]; k: number },
): void {
  const h = Math.max(0.5, L.cell - L.gap);
  const rows: string[] = Array(s.k).fill('');
  const cols: string[] = Array(s.k).fill('');
  for (let r = 0; r < leaves.length;) {
    const t = s.taskOf[leaves[r]];
    let end = r + 1;
    while (end < leaves.length && s.taskOf[leaves[end]] === t) end++;
    if (t >= 0) {
      const y = L.heat.y + r * L.cell;
      const len = (end - r - 1) * L.cell + h;
      rows[t] += `M${L.rowStrip.x},${y}h${L.rowStrip.width}v${len}h${-L.rowStrip.width}Z`;
      cols[t] += `M${L.heat.x + r * L.cell},${L.colStrip.y}h${len}v${L.colStrip.height}h${-len}Z`;
    }
    r = end;
  }
  for (let t = 0; t < s.k; t++) {
    if (!rows[t]) continue;
    marks
      .append('path')
      .attr('class', 'task-mark-merged')
      .attr('data-task', t + 1)
      .attr('d', rows[t])
      .attr('fill', s.colours[t])
      .append('title')
      .text(`T${t + 1} of ${s.label}`);
    marks.append('path').attr('class', 'task-mark-col').attr('d', cols[t]).attr('fill', s.colours[t]);
  }
}

function drawTaskMarks(
  marks: G,
  tl: G,
  L: DendroHeatmapLayout,
  leaves: readonly number[],
  s: { label: string; taskOf: readonly number[]; colours: readonly string[]; k: number } | null,
): void {
  const { x: tx, y: ty, perRow, entryWidth } = L.taskLegend;
  if (!s) {
    tl.append('text')
      .attr('x', tx)
      .attr('y', ty + 8)
      .attr('font-size', 11)
      .attr('fill', '#5b6372')
      .text('Task marks: pick an ordering');
    return;
  }
  const numbers = L.cell >= 12;
  if (leaves.length > MANY_CLASSES) {
    drawMergedTaskMarks(marks, L, leaves, s);
  } else
    for (let r = 0; r < leaves.length; r++) {
      const t = s.taskOf[leaves[r]];
      if (t < 0) continue;
      const fill = s.colours[t];
      const y = L.heat.y + r * L.cell;
      const h = Math.max(0.5, L.cell - L.gap);
      marks
        .append('rect')
        .attr('class', 'task-mark')
        .attr('data-class', leaves[r])
        .attr('data-task', t + 1)
        .attr('x', L.rowStrip.x)
        .attr('y', y)
        .attr('width', L.rowStrip.width)
        .attr('height', h)
        .attr('fill', fill)
        .append('title')
        .text(`T${t + 1} of ${s.label}`);
      marks
        .append('rect')
        .attr('class', 'task-mark-col')
        .attr('x', L.heat.x + r * L.cell)
        .attr('y', L.colStrip.y)
        .attr('width', h)
        .attr('height', L.colStrip.height)
        .attr('fill', fill);
      if (numbers) {
        marks
          .append('text')
          .attr('x', L.rowStrip.x + L.rowStrip.width / 2)
          .attr('y', y + h / 2)
          .attr('dy', '0.35em')
          .attr('text-anchor', 'middle')
          .attr('font-size', 9)
          .attr('font-weight', 700)
          .attr('fill', textOn(fill))
          .text(t + 1);
      }
    }
  tl.append('text')
    .attr('x', tx)
    .attr('y', ty + 8)
    .attr('font-size', 11)
    .attr('fill', '#1d2330')
    .attr('font-weight', 600)
    .text(`Task marks: ${s.label}`);
  for (let t = 0; t < s.k; t++) {
    const ex = tx + (t % perRow) * entryWidth;
    const ey = ty + 16 + Math.floor(t / perRow) * 16;
    tl.append('rect')
      .attr('x', ex)
      .attr('y', ey)
      .attr('width', 11)
      .attr('height', 11)
      .attr('fill', s.colours[t])
      .attr('stroke', '#1d2330')
      .attr('stroke-width', 0.5);
    tl.append('text')
      .attr('x', ex + 15)
      .attr('y', ey + 6)
      .attr('dy', '0.35em')
      .attr('font-size', 11)
      .attr('fill', '#1d2330')
      .text(`T${t + 1}`);
  }
}

/** The pointer's position in the SVG's user units (its viewBox equals its size here). */
function pointer(ev: MouseEvent, svgEl: SVGSVGElement): [number, number] {
  const r = svgEl.getBoundingClientRect();
  const vb = svgEl.viewBox.baseVal;
  const sx = vb && vb.width > 0 && r.width > 0 ? vb.width / r.width : 1;
  const sy = vb && vb.height > 0 && r.height > 0 ? vb.height / r.height : 1;
  return [(ev.clientX - r.left) * sx, (ev.clientY - r.top) * sy];
}

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
function stepOf(v: number, d0: number, d1: number): number {
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
