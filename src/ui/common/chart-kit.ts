/**
 * What every chart of every lab shares: the hover tooltip, number formats for axes and tips, and the colour legend
 * of a heat map (docs/design.md, "Visual language": a sequential single-hue scale with its legend, always).
 * Chart files import these from here, never from another lab's chart file.
 */
import { axisBottom } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import { select, type BaseType, type Selection } from 'd3-selection';
import { fmt } from './format';

/** `count + 1` evenly spaced tick values over a legend's domain (ends included). */
export function legendTicks(domain: [number, number], count = 4): number[] {
  const [lo, hi] = domain;
  return Array.from({ length: count + 1 }, (_, k) => lo + ((hi - lo) * k) / count);
}

/** The number formats live in ./format.ts (one module for every lab); re-exported for the chart files. */
export { fmt, pct, fixed, count } from './format';

/** A label cut to `max` characters with an ellipsis (the full text goes into a <title>). */
export function truncateLabel(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1))}…`;
}

/** Show `text` in the tooltip element near the pointer (positioned inside its offset parent), or hide it. */
export function showTip(tip: HTMLElement | null | undefined, text: string | null, ev?: MouseEvent): void {
  if (!tip) return;
  if (text === null || !ev) {
    tip.hidden = true;
    return;
  }
  tip.textContent = text;
  tip.hidden = false;
  const host = (tip.offsetParent as HTMLElement | null) ?? document.body;
  const r = host.getBoundingClientRect();
  const x = ev.clientX - r.left + 12;
  const y = ev.clientY - r.top + 12;
  const maxX = host.clientWidth - tip.offsetWidth - 4;
  tip.style.left = `${Math.max(0, Math.min(x, maxX))}px`;
  tip.style.top = `${y}px`;
}

/** A chart of equal panels in `columns` columns: the svg's size, one panel's size and its plot margins. */
export interface PanelGridLayout {
  width: number;
  height: number;
  columns: number;
  panelWidth: number;
  panelHeight: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export interface ColorLegendSpec {
  /** the gradient bar's box in the SVG's coordinates */
  x: number;
  y: number;
  width: number;
  height: number;
  /** the values at the bar's two ends */
  domain: [number, number];
  /** colour of t ∈ [0, 1] along the bar */
  interpolator: (t: number) => string;
  /** the tick values (default: legendTicks of the domain, 4 intervals on a wide bar, 2 on a narrow one) */
  ticks?: number[];
  /** the tick format (default fmt) */
  format?: (v: number) => string;
  /** what the colour means, with its unit, drawn under the ticks */
  title: string;
  /** the title's baseline below the bar's bottom edge */
  titleOffset?: number;
}

/**
 * A horizontal gradient bar with ticks and a title, appended to `svg` as <g class="legend"> (with its gradient in
 * <defs>): the colour legend of every heat map.
 */
export function drawColorLegend(svg: Selection<SVGSVGElement, unknown, null, undefined>, spec: ColorLegendSpec): void {
  const gradId = `legend-grad-${Math.random().toString(36).slice(2, 9)}`;
  const grad = svg.append('defs').append('linearGradient').attr('id', gradId);
  for (let k = 0; k <= 10; k++)
    grad
      .append('stop')
      .attr('offset', `${k * 10}%`)
      .attr('stop-color', spec.interpolator(k / 10));
  const legend = svg.append('g').attr('class', 'legend');
  legend
    .append('rect')
    .attr('x', spec.x)
    .attr('y', spec.y)
    .attr('width', spec.width)
    .attr('height', spec.height)
    .attr('fill', `url(#${gradId})`)
    .attr('stroke', '#b9c0cc');
  const lx = scaleLinear()
    .domain(spec.domain)
    .range([spec.x, spec.x + spec.width]);
  const format = spec.format ?? fmt;
  legend
    .append('g')
    .attr('transform', `translate(0,${spec.y + spec.height})`)
    .call(
      axisBottom(lx)
        .tickValues(spec.ticks ?? legendTicks(spec.domain, spec.width >= 180 ? 4 : 2))
        .tickFormat((d) => format(Number(d)))
        .tickSize(4),
    )
    .attr('font-size', 11);
  legend
    .append('text')
    .attr('x', spec.x)
    .attr('y', spec.y + spec.height + (spec.titleOffset ?? 30))
    .attr('font-size', 11)
    .attr('fill', '#5b6372')
    .text(spec.title);
}

export interface AxisTitle {
  text: string;
  /** the title's anchor point (its middle; for a y title the point it is rotated about) */
  x: number;
  y: number;
}

/**
 * A panel's axis titles in words with their units (docs/design.md: every chart labels its axes): the x title
 * centred under the axis, the y title rotated along it. Appended to `g`.
 */
export function drawAxisTitles<E extends SVGGElement | SVGSVGElement>(
  g: Selection<E, unknown, null, undefined>,
  titles: { x?: AxisTitle; y?: AxisTitle },
  style: { size?: number; fill?: string } = {},
): void {
  const size = style.size ?? 12;
  const fill = style.fill ?? '#1d2330';
  if (titles.x)
    g.append('text').attr('x', titles.x.x).attr('y', titles.x.y).attr('text-anchor', 'middle').attr('font-size', size).attr('fill', fill).text(titles.x.text);
  if (titles.y)
    g.append('text')
      .attr('transform', `translate(${titles.y.x},${titles.y.y}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .attr('font-size', size)
      .attr('fill', fill)
      .text(titles.y.text);
}

/** An axis group appended to a chart's svg or to a panel's group. */
type AxisGroup = Selection<SVGGElement, unknown, null, undefined>;

/**
 * A chart's (or a panel's: `svg` a group) two axes in the usual place for a margin `m`: `x` (an axisBottom) along the
 * plot's foot at y = height − m.bottom, `y` (an axisLeft) up its left edge at x = m.left, their tick labels at
 * `fontSize` when given. Returns both groups, to restyle ticks.
 */
export function drawAxes<E extends SVGSVGElement | SVGGElement>(
  svg: Selection<E, unknown, null, undefined>,
  m: { left: number; bottom: number },
  height: number,
  x: (g: AxisGroup) => void,
  y: (g: AxisGroup) => void,
  fontSize?: number,
): { x: AxisGroup; y: AxisGroup } {
  const xg = svg
    .append('g')
    .attr('transform', `translate(0,${height - m.bottom})`)
    .call(x);
  const yg = svg.append('g').attr('transform', `translate(${m.left},0)`).call(y);
  // a panel's smaller tick labels (d3's axis sets 10 px on its group)
  if (fontSize !== undefined) for (const a of [xg, yg]) a.attr('font-size', fontSize);
  return { x: xg, y: yg };
}

/**
 * A lane of marks above a plot (one per protocol): its name right-aligned just left of the plot at `left − 8`, and a
 * faint guide across the plot from `left` to `right` at `y`.
 */
export function drawLane<E extends SVGGElement | SVGSVGElement>(
  g: Selection<E, unknown, null, undefined>,
  left: number,
  right: number,
  y: number,
  name: string,
  fill: string,
): void {
  g.append('text')
    .attr('x', left - 8)
    .attr('y', y)
    .attr('dy', '0.35em')
    .attr('text-anchor', 'end')
    .attr('font-size', 12)
    .attr('fill', fill)
    .text(name);
  g.append('line').attr('x1', left).attr('x2', right).attr('y1', y).attr('y2', y).attr('stroke', '#eef0f4');
}

/** A mark's dashed line down to the plot's bottom (`length` px below the mark): where a lane's marker sits on the x axis. */
export function drawDropLine<D, P extends BaseType, PD>(g: Selection<SVGGElement, D, P, PD>, length: number, stroke: string, opacity: number): void {
  g.append('line').attr('y1', 0).attr('y2', length).attr('stroke', stroke).attr('stroke-opacity', opacity).attr('stroke-dasharray', '2,3');
}

/**
 * One `tag` element per matrix cell or class pair (i, j) under `parent`, with its `class` and `data-i` / `data-j`
 * (what the tooltips, clicks and tests find a cell by).
 */
export function joinCells<D extends { i: number; j: number }, K extends 'g' | 'rect' | 'circle'>(
  parent: Selection<SVGGElement, unknown, null, undefined>,
  tag: K,
  className: string,
  data: readonly D[],
): Selection<SVGElementTagNameMap[K], D, SVGGElement, unknown> {
  return parent
    .selectAll<SVGElementTagNameMap[K], D>(tag)
    .data(data)
    .join((enter) => enter.append<SVGElementTagNameMap[K]>(tag))
    .attr('class', className)
    .attr('data-i', (d) => d.i)
    .attr('data-j', (d) => d.j);
}

/** The two band scales of a grouped bar chart: `groups` across [left, right], and `keys` side by side within a group. */
export function groupedBands(groups: readonly string[], keys: readonly string[], left: number, right: number) {
  const outer = scaleBand<string>().domain(groups).range([left, right]).padding(0.25);
  const inner = scaleBand<string>().domain(keys).range([0, outer.bandwidth()]).padding(0.08);
  return { outer, inner };
}

/** The band scales of a K × K heat map whose square plot is `size` wide at (left, top): column j on x, row i on y. */
export function squareBands(K: number, left: number, top: number, size: number) {
  const idx = Array.from({ length: K }, (_, k) => k);
  const x = scaleBand<number>()
    .domain(idx)
    .range([left, left + size]);
  const y = scaleBand<number>()
    .domain(idx)
    .range([top, top + size]);
  return { idx, x, y };
}

/** A panel's title in a chart of several panels: bold and dark, its left end at (x, y). Returns the text. */
export function drawPanelTitle<D, P extends BaseType, PD>(g: Selection<SVGGElement, D, P, PD>, x: number, y: number, size: number, text: string) {
  return g.append('text').attr('x', x).attr('y', y).attr('font-size', size).attr('font-weight', 600).attr('fill', '#1d2330').text(text);
}

/** A chart's <svg> emptied and sized `width` × `height` (its viewBox too, so it scales), ready to draw into. */
export function freshSvg(svgEl: SVGSVGElement, width: number, height: number): Selection<SVGSVGElement, unknown, null, undefined> {
  const svg = select(svgEl);
  svg.selectAll('*').remove();
  svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  return svg;
}

/** An accuracy matrix cell's colour for a fraction t in 0..1: single-hue blues, never white (0 % still shows). */
export function accuracyBlue(t: number): string {
  return interpolateBlues(0.1 + 0.85 * t);
}

/**
 * The frame of a square accuracy-matrix heat map (R[i][j], `size` px from (`left`, `top`)): the column title under it,
 * the row title up its left at x = `rowTitleX`, and the 0–100 % colour legend (accuracyBlue) under the column title.
 */
export function drawMatrixFrame(
  svg: Selection<SVGSVGElement, unknown, null, undefined>,
  box: { left: number; top: number; size: number; rowTitleX: number },
  titles: { columns: string; rows: string; legend: string },
): void {
  const { left, top, size } = box;
  drawAxisTitles(svg, {
    x: { x: left + size / 2, y: top + size + 32, text: titles.columns },
    y: { x: box.rowTitleX, y: top + size / 2, text: titles.rows },
  });
  drawColorLegend(svg, {
    x: left,
    y: top + size + 46,
    width: Math.min(200, size),
    height: 10,
    domain: [0, 100],
    interpolator: accuracyBlue,
    format: (v) => `${v.toFixed(0)}`,
    title: titles.legend,
    titleOffset: 28,
  });
}
