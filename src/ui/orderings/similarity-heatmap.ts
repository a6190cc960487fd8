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
 * The layout and colour helpers are pure, in ./heatmap-layout.ts (re-exported here); the draw functions touch the DOM.
 */
import { axisBottom } from 'd3-axis';
import { format, precisionFixed } from 'd3-format';
import { scaleSequential } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import type { Selection } from 'd3-selection';
import { textOn } from '../common/palette';
import { drawColorLegend, fmt, freshSvg, joinCells, showTip } from '../common/chart-kit';
import { offDiagonalExtent } from './compare-charts';
import {
  cellAt,
  cellRect,
  cellTip,
  COLOUR_STEPS,
  colourTable,
  dendroTicks,
  dendrogramLinks,
  heightScale,
  layoutDendroHeatmap,
  linkPath,
  MANY_CLASSES,
  rgbaTable,
  rowY,
  stepOf,
  SVG_CELL_LIMIT,
  taskOfClass,
  type DendroHeatmapLayout,
  type LinkageRows,
} from './heatmap-layout';

export * from './heatmap-layout';

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
  const svg = freshSvg(svgEl, L.width, L.height);
  let shown: { label: string; taskOf: number[] } | null = null;

  // cells
  const cellsG = svg.append('g').attr('class', 'cells');
  if (!L.bitmap) {
    const cells: { r: number; c: number; i: number; j: number; v: number }[] = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) cells.push({ r, c, i: leaves[r], j: leaves[c], v: matrix[leaves[r]][leaves[c]] });
    joinCells(cellsG, 'rect', 'cell', cells)
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
      // writes per cell and the domain unpacked in every call)
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
