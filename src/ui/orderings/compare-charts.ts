/**
 * Drawing logic of the "compare two similarity sources" panel (paper App. E.3.1; docs/architecture.md: a chart's d3
 * code lives in a plain .ts beside its component). Two charts:
 * - a scatter of pair similarities, one dot per class pair i < j, x = source A, y = source B, on one shared scale
 *   so that the dashed y = x line is "the two sources agree" (MAE is the mean vertical distance to it);
 * - a heat map per source, rows and columns in the same class order, d3.interpolateBlues over that source's range
 *   of off-diagonal values (the diagonal, a class with itself, is drawn grey: it carries no information).
 * The layout helpers and the CSV of the pairs are pure (tested in tests/unit/ui/compare-charts.test.ts); the draw
 * functions touch the DOM.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleSequential } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import { select } from 'd3-selection';
import type { CsvTable } from '../common/chart-export';
import { drawColorLegend, fmt, freshSvg, joinCells, showTip, truncateLabel } from '../common/chart-kit';

export interface Pair {
  i: number;
  j: number;
  a: number;
  b: number;
}

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Every class pair i < j with its value in A and in B (row-major order: (0,1), (0,2), …, (1,2), …). */
export function upperPairs(a: ArrayLike<ArrayLike<number>>, b: ArrayLike<ArrayLike<number>>): Pair[] {
  const n = a.length;
  if (b.length !== n) throw new Error(`The two matrices have ${n} and ${b.length} rows.`);
  const out: Pair[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push({ i, j, a: a[i][j], b: b[i][j] });
  return out;
}

/**
 * The charts' numbers for CSV export: every class pair i < j with its similarity in A and B (the scatter, `'both'`),
 * or in one source (a heat map, `'a'` / `'b'`).
 */
export function pairsCsv(pairs: readonly Pair[], names: readonly string[], labelA: string, labelB: string, which: 'both' | 'a' | 'b'): CsvTable {
  const base = ['class_i', 'class_j', 'i', 'j'];
  const columns = which === 'both' ? [...base, labelA, labelB] : [...base, which === 'a' ? labelA : labelB];
  const rows = pairs.map((p) => {
    const head = [names[p.i], names[p.j], p.i, p.j];
    return which === 'both' ? [...head, p.a, p.b] : [...head, which === 'a' ? p.a : p.b];
  });
  return { columns, rows };
}

/** [min, max] over the off-diagonal entries; a degenerate range is widened so a scale can be built on it. */
export function offDiagonalExtent(m: ArrayLike<ArrayLike<number>>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < m.length; i++)
    for (let j = 0; j < m.length; j++) {
      if (i === j) continue;
      const v = m[i][j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (!Number.isFinite(lo)) return [0, 1];
  if (hi - lo < 1e-9) return [lo - 0.05, hi + 0.05];
  return [lo, hi];
}

export interface ScatterLayout {
  width: number;
  height: number;
  margin: Margin;
  /** Side of the square plot area, px. */
  side: number;
  /** One domain for both axes (so y = x is the diagonal of the square). */
  domain: [number, number];
  /** Dot radius: smaller when there are many pairs. */
  radius: number;
  ticks: number;
}

/** A square scatter no wider than `width` (and at most 420 px of plot), covering every pair with a 4% pad. */
export function layoutScatter(width: number, pairs: readonly Pair[]): ScatterLayout {
  const margin = { top: 14, right: 16, bottom: 46, left: 58 };
  const side = Math.max(160, Math.min(420, Math.floor(width) - margin.left - margin.right));
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pairs) {
    lo = Math.min(lo, p.a, p.b);
    hi = Math.max(hi, p.a, p.b);
  }
  if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
  const pad = (hi - lo) * 0.04 || 0.05;
  const radius = pairs.length <= 60 ? 5 : pairs.length <= 600 ? 3.5 : pairs.length <= 3000 ? 2.5 : 1.8;
  return {
    width: side + margin.left + margin.right,
    height: side + margin.top + margin.bottom,
    margin,
    side,
    domain: [lo - pad, hi + pad],
    radius,
    ticks: side >= 300 ? 6 : 4,
  };
}

export interface HeatmapLayout {
  width: number;
  height: number;
  margin: Margin;
  /** Cell side, px (may be fractional for many classes). */
  cell: number;
  /** Row labels "3 apple" on the left and column indices on top when the cells are big enough. */
  showLabels: boolean;
  /** Row labels, already cut to fit (the full names are in the tooltip). */
  rowLabels: string[];
  labelFont: number;
  /** The colour legend under the map. */
  legend: { x: number; y: number; width: number; height: number };
}

/** A square heat map of n classes that fits `width` (cells at most 40 px); labels only when a cell is at least 11 px. */
export function layoutHeatmap(width: number, names: readonly string[]): HeatmapLayout {
  const n = names.length;
  const labelFont = 11;
  const maxChars = 14;
  // first guess with labels: room for "NN name" on the left
  const rowLabels = names.map((s, i) => `${i + 1} ${truncateLabel(s, maxChars)}`);
  const longest = rowLabels.reduce((m, s) => Math.max(m, s.length), 0);
  const labelled = { top: 22, right: 18, bottom: 64, left: Math.min(130, 12 + Math.ceil(longest * labelFont * 0.58)) };
  const plain = { top: 8, right: 18, bottom: 64, left: 18 };
  const fit = (m: Margin) => Math.max(1, Math.min(40, (Math.floor(width) - m.left - m.right) / Math.max(1, n)));
  const showLabels = n > 0 && n <= 40 && fit(labelled) >= 11;
  const margin = showLabels ? labelled : plain;
  const cell = fit(margin);
  const side = cell * n;
  return {
    width: Math.ceil(margin.left + side + margin.right),
    height: Math.ceil(margin.top + side + margin.bottom),
    margin,
    cell,
    showLabels,
    rowLabels,
    labelFont,
    legend: { x: margin.left, y: margin.top + side + 14, width: Math.max(120, Math.min(220, side)), height: 10 },
  };
}

/** The tooltip text of a class pair. */
export function pairTip(names: readonly string[], i: number, j: number, values: { label: string; value: number }[]): string {
  return [`${names[i]} – ${names[j]}`, ...values.map((v) => `${v.label}: ${fmt(v.value)}`)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// DOM

/** Scatter of pair similarities with the y = x line, labelled axes and a hover tooltip. */
export function drawPairScatter(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  pairs: readonly Pair[],
  names: readonly string[],
  labelA: string,
  labelB: string,
): ScatterLayout {
  const L = layoutScatter(width, pairs);
  const svg = freshSvg(svgEl, L.width, L.height);
  const x0 = L.margin.left;
  const y0 = L.margin.top;
  const x = scaleLinear()
    .domain(L.domain)
    .range([x0, x0 + L.side]);
  const y = scaleLinear()
    .domain(L.domain)
    .range([y0 + L.side, y0]);
  const tipOf = (p: Pair) =>
    pairTip(names, p.i, p.j, [
      { label: labelA, value: p.a },
      { label: labelB, value: p.b },
    ]);

  svg.append('rect').attr('x', x0).attr('y', y0).attr('width', L.side).attr('height', L.side).attr('fill', '#fafbfc').attr('stroke', '#e3e6eb');
  svg
    .append('line')
    .attr('class', 'identity')
    .attr('x1', x(L.domain[0]))
    .attr('y1', y(L.domain[0]))
    .attr('x2', x(L.domain[1]))
    .attr('y2', y(L.domain[1]))
    .attr('stroke', '#7a8291')
    .attr('stroke-dasharray', '5,4');
  svg
    .append('text')
    .attr('x', x(L.domain[1]) - 4)
    .attr('y', y(L.domain[1]) + 14)
    .attr('text-anchor', 'end')
    .attr('font-size', 12)
    .attr('fill', '#5b6372')
    .text('y = x (agree)');

  joinCells(svg.append('g').attr('class', 'dots'), 'circle', 'dot', pairs)
    .attr('cx', (p) => x(p.a))
    .attr('cy', (p) => y(p.b))
    .attr('r', L.radius)
    .attr('fill', '#0072B2')
    .attr('fill-opacity', 0.65)
    .attr('stroke', '#fff')
    .attr('stroke-width', L.radius >= 3 ? 0.8 : 0)
    .on('mouseenter', function (ev: MouseEvent, p) {
      select(this)
        .attr('r', L.radius + 2.5)
        .attr('fill-opacity', 1)
        .attr('stroke', '#1d2330');
      showTip(tip, tipOf(p), ev);
    })
    .on('mousemove', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
    .on('mouseleave', function () {
      select(this).attr('r', L.radius).attr('fill-opacity', 0.65).attr('stroke', '#fff');
      showTip(tip, null);
    });

  svg
    .append('g')
    .attr('transform', `translate(0,${y0 + L.side})`)
    .call(axisBottom(x).ticks(L.ticks))
    .attr('font-size', 12);
  svg.append('g').attr('transform', `translate(${x0},0)`).call(axisLeft(y).ticks(L.ticks)).attr('font-size', 12);
  svg
    .append('text')
    .attr('class', 'x-label')
    .attr('x', x0 + L.side / 2)
    .attr('y', L.height - 8)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text(`A: ${labelA} similarity`);
  svg
    .append('text')
    .attr('class', 'y-label')
    .attr('transform', `translate(14,${y0 + L.side / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text(`B: ${labelB} similarity`);
  return L;
}

/** A class×class heat map (interpolateBlues over its off-diagonal range) with a colour legend and hover values. */
export function drawSimilarityHeatmap(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  matrix: readonly (readonly number[])[],
  names: readonly string[],
  label: string,
): HeatmapLayout {
  const L = layoutHeatmap(width, names);
  const n = names.length;
  const domain = offDiagonalExtent(matrix);
  const colour = scaleSequential(interpolateBlues).domain(domain).clamp(true);
  const svg = freshSvg(svgEl, L.width, L.height);
  const { left, top } = L.margin;

  const cells: { i: number; j: number; v: number }[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) cells.push({ i, j, v: matrix[i][j] });
  const gap = L.cell >= 8 ? 1 : 0;
  const tipOf = (c: (typeof cells)[number]) => (c.i === c.j ? `${names[c.i]} (itself)` : pairTip(names, c.i, c.j, [{ label, value: c.v }]));
  svg
    .append('g')
    .attr('class', 'cells')
    .selectAll('rect')
    .data(cells)
    .join('rect')
    .attr('class', 'cell')
    .attr('x', (c) => left + c.j * L.cell)
    .attr('y', (c) => top + c.i * L.cell)
    .attr('width', Math.max(0.5, L.cell - gap))
    .attr('height', Math.max(0.5, L.cell - gap))
    .attr('fill', (c) => (c.i === c.j ? '#e3e6eb' : colour(c.v)))
    .on('mouseenter', function (ev: MouseEvent, c) {
      select(this).attr('stroke', '#1d2330').attr('stroke-width', 1.5);
      showTip(tip, tipOf(c), ev);
    })
    .on('mousemove', (ev: MouseEvent, c) => showTip(tip, tipOf(c), ev))
    .on('mouseleave', function () {
      select(this).attr('stroke', null);
      showTip(tip, null);
    });

  if (L.showLabels) {
    const g = svg.append('g').attr('class', 'labels').attr('font-size', L.labelFont).attr('fill', '#1d2330');
    L.rowLabels.forEach((s, i) =>
      g
        .append('text')
        .attr('x', left - 5)
        .attr('y', top + (i + 0.5) * L.cell)
        .attr('dy', '0.35em')
        .attr('text-anchor', 'end')
        .text(s)
        .append('title')
        .text(names[i]),
    );
    names.forEach((s, j) =>
      g
        .append('text')
        .attr('x', left + (j + 0.5) * L.cell)
        .attr('y', top - 6)
        .attr('text-anchor', 'middle')
        .text(String(j + 1))
        .append('title')
        .text(s),
    );
  }

  drawColorLegend(svg, { ...L.legend, domain, interpolator: interpolateBlues, title: 'similarity · grey = a class with itself', titleOffset: 32 });
  return L;
}
