/**
 * One ordering's accuracy matrix R as a heat map (docs/science.md conventions: R[i][j] = accuracy on task j's test data
 * after training tasks 1..i; row = training step, column = test task). d3.interpolateBlues over [0, 100] %, the
 * value of every cell written in it as a percentage, tasks labelled T1..TK in their task colours (the same colours
 * as the Orderings lab's chips) with their classes listed under the map. The upper triangle (tasks not trained yet:
 * what FWT reads) is drawn faded. Pure helpers tested in tests/unit/ui/ground-truth-charts.test.ts.
 */
import { scaleSequential } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import { drawColorLegend, freshSvg, joinCells, showTip } from '../common/chart-kit';
import { textOn } from '../common/palette';
import { pct } from './format';

export interface MatrixLayout {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  cell: number;
  /** Font size of the values in the cells. */
  valueFont: number;
  legend: { x: number; y: number; width: number; height: number };
}

/** Cells between 26 and 64 px that fit `width`; the value font follows the cell. */
export function layoutMatrixHeatmap(width: number, K: number): MatrixLayout {
  const margin = { top: 40, right: 12, bottom: 58, left: 74 };
  const cell = Math.max(26, Math.min(64, Math.floor((width - margin.left - margin.right) / Math.max(1, K))));
  const side = cell * K;
  return {
    width: margin.left + side + margin.right,
    height: margin.top + side + margin.bottom,
    margin,
    cell,
    valueFont: cell >= 44 ? 13 : cell >= 34 ? 11 : 9,
    legend: { x: margin.left, y: margin.top + side + 16, width: Math.max(140, Math.min(240, side)), height: 10 },
  };
}

/** The colour of an accuracy (fraction) on the Blues scale over [0, 1]. */
export const accuracyColour = scaleSequential(interpolateBlues).domain([0, 1]).clamp(true);

/** Text on a cell: black on light blue, white on dark blue. */
export function cellTextColour(v: number): string {
  const c = accuracyColour(v);
  const m = /rgb\((\d+), ?(\d+), ?(\d+)\)/.exec(c);
  const hex = m ? `#${[m[1], m[2], m[3]].map((s) => Number(s).toString(16).padStart(2, '0')).join('')}` : c;
  return textOn(hex);
}

/** "T2 one, five" for the legend of tasks under the map. */
export function taskCaption(t: number, classes: readonly number[], classNames: readonly string[]): string {
  return `T${t + 1} ${classes.map((c) => classNames[c] ?? String(c)).join(', ')}`;
}

/** The tooltip of cell (i, j). */
export function cellTip(i: number, j: number, v: number, tasks: readonly (readonly number[])[], classNames: readonly string[]): string {
  const when = j > i ? ' (not trained yet)' : j === i ? ' (just trained)' : '';
  return `after training T${i + 1}, tested on ${taskCaption(j, tasks[j], classNames)}${when}\naccuracy ${pct(v)}%`;
}

export function drawMatrixHeatmap(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  R: readonly (readonly number[])[],
  tasks: readonly (readonly number[])[],
  classNames: readonly string[],
  colours: readonly string[],
): MatrixLayout {
  const K = R.length;
  const L = layoutMatrixHeatmap(width, K);
  const svg = freshSvg(svgEl, L.width, L.height);
  const { left, top } = L.margin;
  const cells: { i: number; j: number; v: number }[] = [];
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) cells.push({ i, j, v: R[i][j] });

  const cg = joinCells(svg.append('g').attr('class', 'cells'), 'g', 'cell', cells)
    .attr('transform', (c) => `translate(${left + c.j * L.cell},${top + c.i * L.cell})`)
    .attr('opacity', (c) => (c.j > c.i ? 0.45 : 1))
    .on('mouseenter', (ev: MouseEvent, c) => showTip(tip, cellTip(c.i, c.j, c.v, tasks, classNames), ev))
    .on('mousemove', (ev: MouseEvent, c) => showTip(tip, cellTip(c.i, c.j, c.v, tasks, classNames), ev))
    .on('mouseleave', () => showTip(tip, null));
  cg.append('rect')
    .attr('width', L.cell - 1)
    .attr('height', L.cell - 1)
    .attr('fill', (c) => accuracyColour(c.v));
  cg.append('text')
    .attr('x', (L.cell - 1) / 2)
    .attr('y', (L.cell - 1) / 2)
    .attr('dy', '0.35em')
    .attr('text-anchor', 'middle')
    .attr('font-size', L.valueFont)
    .attr('font-variant-numeric', 'tabular-nums')
    .attr('fill', (c) => cellTextColour(c.v))
    .text((c) => pct(c.v));

  // task labels: columns = test task, rows = after training task i
  const lab = svg.append('g').attr('class', 'labels').attr('font-size', 12);
  for (let t = 0; t < K; t++) {
    const colour = colours[t] ?? '#999';
    /** the task's chip in `g`: "T<t+1>" on its colour, centred at x = mid, with what it stands for on hover */
    const chipIn = (g: typeof lab, mid: number, title: string) => {
      g.append('rect')
        .attr('x', mid - 14)
        .attr('y', -9)
        .attr('width', 28)
        .attr('height', 18)
        .attr('rx', 4)
        .attr('fill', colour);
      g.append('text')
        .attr('x', mid)
        .attr('text-anchor', 'middle')
        .attr('dy', '0.35em')
        .attr('fill', textOn(colour))
        .attr('font-weight', 600)
        .text(`T${t + 1}`);
      g.append('title').text(title);
    };
    const cx = left + t * L.cell + (L.cell - 1) / 2;
    chipIn(lab.append('g').attr('transform', `translate(${cx},${top - 12})`), 0, `test task ${taskCaption(t, tasks[t], classNames)}`);
    const ry = top + t * L.cell + (L.cell - 1) / 2;
    const row = lab.append('g').attr('transform', `translate(${left - 6},${ry})`);
    row.append('text').attr('x', -32).attr('text-anchor', 'end').attr('dy', '0.35em').attr('fill', '#5b6474').text('after');
    chipIn(row, -14, `after training ${taskCaption(t, tasks[t], classNames)}`);
  }
  lab.append('text').attr('x', left).attr('y', 12).attr('fill', '#5b6474').text('tested on →');

  // colour legend
  drawColorLegend(svg, {
    ...L.legend,
    domain: [0, 1],
    interpolator: interpolateBlues,
    ticks: [0, 0.25, 0.5, 0.75, 1],
    format: (v) => `${Math.round(100 * v)}`,
    title: 'test accuracy (%)',
  });
  return L;
}

/** R as CSV: one row per training step. */
export function matrixCsv(R: readonly (readonly number[])[]): { columns: string[]; rows: (string | number | null)[][] } {
  return { columns: ['after_task', ...R.map((_, j) => `task_${j + 1}`)], rows: R.map((row, i) => [i + 1, ...row]) };
}
