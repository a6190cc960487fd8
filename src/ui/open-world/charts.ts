/**
 * The Open-world lab's charts (docs/science.md §5; the OpenCIL paper's Figs. 1 and 3, Tables 1 and 2): pure models
 * (tested in tests/unit/ui/open-world-charts.test.ts) and d3 drawing into an <svg>. Every chart has a title in words
 * (the component's caption), labelled axes with units, and a legend (the component's <Legend>).
 *
 * - step curves: one OOD metric (AUROC or FPR@95, %) per detector against the step, averaged over the chosen OOD
 *   sets (or one set), with the CIL accuracy (%) on the same 0–100 axis as a dashed black line (Fig. 1a / 3);
 * - confidence: the mean max-softmax (%) of each task's test samples and of each OOD set at one step (Fig. 1b);
 * - assignment: per step, the share (%) of an OOD set's samples whose predicted class belongs to each task (Fig. 1c);
 * - Table 1 layout: per detector, AUROC / FPR@95 per OOD set (means over steps) and their mean over sets;
 * - ROC curve and score histograms of one detector, OOD set and step (on click).
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear, type ScaleBand } from 'd3-scale';
import { line } from 'd3-shape';
import { DETECTOR_LABELS, type DetectorId } from '../../core/ood/detectors';
import { rocCurve } from '../../core/ood/metrics';
import type { DetectorSummary, StepResult } from '../../core/ood/schedule';
import { drawAxes, drawAxisTitles, freshSvg, showTip } from '../common/chart-kit';
import { OKABE_ITO, taskColours } from '../common/palette';

/** What the charts read of a step (the engine's OpenWorldStep has these fields). */
export interface StepView {
  step: number;
  steps: number;
  accuracy: number;
  results: StepResult[];
  confidence: { tasks: number[]; ood: Record<string, number> };
  assignment: Record<string, number[]>;
}

export type CurveMetric = 'auroc' | 'fpr95' | 'auprIn' | 'auprOut';
export const METRIC_LABEL: Record<CurveMetric, string> = {
  auroc: 'AUROC (%)',
  fpr95: 'FPR@95 (%)',
  auprIn: 'AUPR-in (%)',
  auprOut: 'AUPR-out (%)',
};
export const STEP_AXIS = 'incremental step (tasks learned)';

export interface Point {
  x: number;
  y: number;
}
export interface LineSeries {
  id: string;
  label: string;
  colour: string;
  dash: string;
  points: Point[];
}
export interface LineModel {
  series: LineSeries[];
  xDomain: [number, number];
  yDomain: [number, number];
  xLabel: string;
  yLabel: string;
  /** integer x ticks (steps), or null for a continuous axis */
  xTicks: number[] | null;
}

/** A detector's colour: Okabe–Ito in the order the detectors are listed. */
export function detectorColour(index: number): string {
  const palette = OKABE_ITO.filter((c) => c !== '#000000' && c !== '#F0E442');
  return palette[index % palette.length];
}

/**
 * Per detector, `metric` (%) at each step (paper numbering: step 1 = the first task learned), averaged over `sets`
 * (or the one set); plus the accuracy (%) as a dashed black series.
 */
export function stepCurves(steps: readonly StepView[], T: number, detectors: readonly DetectorId[], metric: CurveMetric, sets: readonly string[]): LineModel {
  const series: LineSeries[] = detectors.map((d, i) => ({
    id: d,
    label: DETECTOR_LABELS[d],
    colour: detectorColour(i),
    dash: '',
    points: steps.flatMap((s) => {
      const rows = s.results.filter((r) => r.detector === d && sets.includes(r.oodSet));
      return rows.length === 0 ? [] : [{ x: s.step + 1, y: (100 * rows.reduce((a, r) => a + r[metric], 0)) / rows.length }];
    }),
  }));
  series.push({
    id: 'accuracy',
    label: 'CIL accuracy (%)',
    colour: '#000000',
    dash: '6,4',
    points: steps.map((s) => ({ x: s.step + 1, y: 100 * s.accuracy })),
  });
  return {
    series,
    xDomain: [1, Math.max(2, T)],
    yDomain: [0, 100],
    xLabel: STEP_AXIS,
    yLabel: `${METRIC_LABEL[metric]} · accuracy (%)`,
    xTicks: Array.from({ length: Math.max(2, T) }, (_, i) => i + 1),
  };
}

export interface Bar {
  label: string;
  /** percent */
  value: number;
  colour: string;
  kind: 'task' | 'ood';
}

/** Mean confidence (%) of each task's test samples and of each OOD set at one step (Fig. 1b). */
export function confidenceBars(step: StepView, T: number): Bar[] {
  const colours = taskColours(T);
  const bars: Bar[] = step.confidence.tasks.map((v, j) => ({ label: `task ${j + 1}`, value: 100 * v, colour: colours[j], kind: 'task' as const }));
  for (const [name, v] of Object.entries(step.confidence.ood)) bars.push({ label: name, value: 100 * v, colour: '#5b6372', kind: 'ood' });
  return bars;
}

export interface StackedColumn {
  step: number;
  /** percent per task 0..step */
  shares: number[];
}

/** Per step, the share (%) of one OOD set's samples assigned to each task (Fig. 1c). */
export function assignmentColumns(steps: readonly StepView[], set: string): StackedColumn[] {
  return steps.filter((s) => s.assignment[set]).map((s) => ({ step: s.step + 1, shares: s.assignment[set].map((v) => 100 * v) }));
}

export interface Table1 {
  sets: string[];
  rows: { detector: DetectorId; label: string; cells: { auroc: number; fpr95: number }[]; mean: { auroc: number; fpr95: number } }[];
  /** the best (max AUROC, min FPR) per column, by row index; the last column is the mean */
  best: { auroc: number; fpr95: number }[];
}

/** Table 1's layout: AUROC / FPR@95 (%) per OOD set (means over steps) and their mean over sets, per detector. */
export function table1(summary: readonly DetectorSummary[], sets: readonly string[]): Table1 {
  const rows = summary.map((d) => ({
    detector: d.detector as DetectorId,
    label: DETECTOR_LABELS[d.detector as DetectorId] ?? d.detector,
    cells: sets.map((name) => {
      const p = d.perSet.find((x) => x.oodSet === name);
      return { auroc: p ? 100 * p.auroc : NaN, fpr95: p ? 100 * p.fpr95 : NaN };
    }),
    mean: { auroc: 100 * d.mean.auroc, fpr95: 100 * d.mean.fpr95 },
  }));
  const columns = sets.length + 1;
  const best = Array.from({ length: columns }, (_, c) => {
    const cell = (r: (typeof rows)[number]) => (c < sets.length ? r.cells[c] : r.mean);
    let a = -1;
    let f = -1;
    rows.forEach((r, i) => {
      if (Number.isFinite(cell(r).auroc) && (a < 0 || cell(r).auroc > cell(rows[a]).auroc)) a = i;
      if (Number.isFinite(cell(r).fpr95) && (f < 0 || cell(r).fpr95 < cell(rows[f]).fpr95)) f = i;
    });
    return { auroc: a, fpr95: f };
  });
  return { sets: sets.slice(), rows, best };
}

/** ROC points (FPR, TPR in %, ID positive) of score samples, at most `max` points (evenly strided, ends kept). */
export function rocPoints(idScores: readonly number[], oodScores: readonly number[], max = 300): Point[] {
  const r = rocCurve(idScores, oodScores);
  const pts = r.fpr.map((f, i) => ({ x: 100 * f, y: 100 * r.tpr[i] }));
  if (pts.length <= max) return pts;
  const out = Array.from({ length: max - 1 }, (_, k) => pts[Math.floor((k * (pts.length - 1)) / (max - 1))]);
  out.push(pts[pts.length - 1]);
  return out;
}

export interface Histogram {
  edges: number[];
  /** percent of each group's samples per bin */
  id: number[];
  ood: number[];
}

/** Both score samples binned on one shared range into `bins` equal bins (each group's shares sum to 100). */
export function scoreHistogram(idScores: readonly number[], oodScores: readonly number[], bins = 30): Histogram {
  const all = [...idScores, ...oodScores];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const edges = Array.from({ length: bins + 1 }, (_, k) => lo + ((hi - lo) * k) / bins);
  const count = (xs: readonly number[]) => {
    const c = new Array<number>(bins).fill(0);
    for (const v of xs) c[Math.min(bins - 1, Math.floor(((v - lo) / (hi - lo)) * bins))]++;
    return c.map((n) => (xs.length ? (100 * n) / xs.length : 0));
  };
  return { edges, id: count(idScores), ood: count(oodScores) };
}

// ---------------------------------------------------------------- drawing

const M = { top: 12, right: 16, bottom: 44, left: 54 };
const FMT = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

type Svg = ReturnType<typeof freshSvg>;

function axisTitles(svg: Svg, width: number, height: number, xLabel: string, yLabel: string): void {
  drawAxisTitles(svg, {
    x: { x: (M.left + width - M.right) / 2, y: height - 6, text: xLabel },
    y: { x: 14, y: (M.top + height - M.bottom) / 2, text: yLabel },
  });
}

/**
 * A column chart's frame: `y` from 0 to 100 % up the left, the band axis `x` along the foot (`bottom` px above the
 * svg's bottom edge), and both axis titles. Returns `y` and the x axis group (to restyle its ticks).
 */
function percentColumns<D extends string | number>(svg: Svg, x: ScaleBand<D>, width: number, height: number, bottom: number, xLabel: string, yLabel: string) {
  const y = scaleLinear()
    .domain([0, 100])
    .range([height - bottom, M.top]);
  const axes = drawAxes(
    svg,
    { left: M.left, bottom },
    height,
    (g) => void g.call(axisBottom(x)),
    (g) => void g.call(axisLeft(y).ticks(5)),
  );
  axisTitles(svg, width, height, xLabel, yLabel);
  return { y, xAxis: axes.x };
}

/** A line chart of `model` (step curves, ROC). */
export function drawLines(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, model: LineModel, height = 280): void {
  const svg = freshSvg(svgEl, width, height);
  const x = scaleLinear()
    .domain(model.xDomain)
    .range([M.left, width - M.right]);
  const y = scaleLinear()
    .domain(model.yDomain)
    .range([height - M.bottom, M.top]);
  const xa = axisBottom(x);
  if (model.xTicks) xa.tickValues(model.xTicks).tickFormat((d) => String(d));
  svg
    .append('g')
    .attr('transform', `translate(0,${height - M.bottom})`)
    .call(xa);
  svg.append('g').attr('transform', `translate(${M.left},0)`).call(axisLeft(y).ticks(5));
  axisTitles(svg, width, height, model.xLabel, model.yLabel);
  const path = line<Point>()
    .x((p) => x(p.x))
    .y((p) => y(p.y));
  for (const s of model.series) {
    svg
      .append('path')
      .attr('d', path(s.points) ?? '')
      .attr('fill', 'none')
      .attr('stroke', s.colour)
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', s.dash);
    if (!model.xTicks) continue; // marks on the step curves only
    svg
      .append('g')
      .selectAll('circle')
      .data(s.points)
      .join('circle')
      .attr('cx', (p) => x(p.x))
      .attr('cy', (p) => y(p.y))
      .attr('r', 3.5)
      .attr('fill', s.colour)
      .on('mousemove', (ev: MouseEvent, p) => showTip(tip, `${s.label}\nstep ${p.x}: ${FMT(p.y)}`, ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}

/** Vertical bars with values in % (confidence per task and per OOD set). */
export function drawBars(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  bars: readonly Bar[],
  yLabel: string,
  xLabel: string,
  height = 240,
): void {
  const x = scaleBand<string>()
    .domain(bars.map((b) => b.label))
    .range([M.left, width - M.right])
    .padding(0.25);
  // on a narrow screen long group names ("digits:6-9", "fashion-mnist") would run into each other: every other
  // name moves one line down, and the chart grows by that line so the axis title stays clear
  const longest = Math.max(0, ...bars.map((b) => b.label.length));
  const stagger = x.step() < longest * 6.5 + 6;
  const bottom = M.bottom + (stagger ? 12 : 0);
  height += stagger ? 12 : 0;
  const svg = freshSvg(svgEl, width, height);
  const { y, xAxis } = percentColumns(svg, x, width, height, bottom, xLabel, yLabel);
  if (stagger) xAxis.selectAll<SVGTextElement, string>('.tick text').attr('dy', (_d, i) => (i % 2 ? '1.95em' : '0.71em'));
  svg
    .append('g')
    .selectAll('rect')
    .data(bars)
    .join('rect')
    .attr('x', (b) => x(b.label) ?? 0)
    .attr('width', x.bandwidth())
    .attr('y', (b) => y(Number.isFinite(b.value) ? b.value : 0))
    .attr('height', (b) => y(0) - y(Number.isFinite(b.value) ? b.value : 0))
    .attr('fill', (b) => b.colour)
    .attr('stroke', (b) => (b.kind === 'ood' ? '#1d2330' : 'none'))
    .attr('stroke-dasharray', (b) => (b.kind === 'ood' ? '3,2' : ''))
    .on('mousemove', (ev: MouseEvent, b) => showTip(tip, `${b.label}: ${FMT(b.value)}%`, ev))
    .on('mouseleave', () => showTip(tip, null));
}

/** Stacked columns per step: the share (%) of an OOD set assigned to each task. */
export function drawStacked(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  columns: readonly StackedColumn[],
  T: number,
  height = 240,
): void {
  const svg = freshSvg(svgEl, width, height);
  const colours = taskColours(T);
  const x = scaleBand<number>()
    .domain(Array.from({ length: Math.max(1, T) }, (_, i) => i + 1))
    .range([M.left, width - M.right])
    .padding(0.3);
  const { y } = percentColumns(svg, x, width, height, M.bottom, STEP_AXIS, 'OOD samples assigned (%)');
  for (const c of columns) {
    let acc = 0;
    c.shares.forEach((v, j) => {
      svg
        .append('rect')
        .attr('x', x(c.step) ?? 0)
        .attr('width', x.bandwidth())
        .attr('y', y(acc + v))
        .attr('height', y(acc) - y(acc + v))
        .attr('fill', colours[j])
        .on('mousemove', (ev: MouseEvent) => showTip(tip, `step ${c.step}: ${FMT(v)}% into task ${j + 1}'s classes`, ev))
        .on('mouseleave', () => showTip(tip, null));
      acc += v;
    });
  }
}

/** Two overlaid histograms (ID and OOD scores) as outlined step areas. */
export function drawHistogram(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, h: Histogram, scoreLabel: string, height = 220): void {
  const svg = freshSvg(svgEl, width, height);
  const x = scaleLinear()
    .domain([h.edges[0], h.edges[h.edges.length - 1]])
    .range([M.left, width - M.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...h.id, ...h.ood)])
    .nice()
    .range([height - M.bottom, M.top]);
  svg
    .append('g')
    .attr('transform', `translate(0,${height - M.bottom})`)
    .call(axisBottom(x).ticks(6));
  svg.append('g').attr('transform', `translate(${M.left},0)`).call(axisLeft(y).ticks(4));
  axisTitles(svg, width, height, `${scoreLabel} (higher = more in-distribution)`, 'share of samples (%)');
  const groups: [number[], string, string][] = [
    [h.id, HIST_COLOURS.id, 'ID'],
    [h.ood, HIST_COLOURS.ood, 'OOD'],
  ];
  for (const [vals, colour, name] of groups) {
    svg
      .append('g')
      .selectAll('rect')
      .data(vals)
      .join('rect')
      .attr('x', (_, i) => x(h.edges[i]))
      .attr('width', (_, i) => Math.max(0.5, x(h.edges[i + 1]) - x(h.edges[i]) - 0.5))
      .attr('y', (v) => y(v))
      .attr('height', (v) => y(0) - y(v))
      .attr('fill', colour)
      .attr('fill-opacity', 0.45)
      .attr('stroke', colour)
      .on('mousemove', (ev: MouseEvent, v) => showTip(tip, `${name}: ${FMT(v)}% of samples`, ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}

export const HIST_COLOURS = { id: '#0072B2', ood: '#D55E00' } as const;

/** The numbers behind the charts, for the ⤓ menu's CSV (../common/ChartExport.svelte). */
export interface ChartCsv {
  columns: string[];
  rows: (string | number)[][];
}
const r3 = (x: number): number | string => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : '');

/** A line chart's series as columns over its x values. */
export function lineCsv(model: LineModel, xName: string): ChartCsv {
  const xs = [...new Set(model.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  return {
    columns: [xName, ...model.series.map((s) => s.label)],
    rows: xs.map((x) => [r3(x), ...model.series.map((s) => r3(s.points.find((p) => p.x === x)?.y ?? NaN))]),
  };
}

export function barsCsv(bars: readonly Bar[]): ChartCsv {
  return { columns: ['group', 'kind', 'mean_max_softmax_pct'], rows: bars.map((b) => [b.label, b.kind === 'ood' ? 'OOD set' : 'task', r3(b.value)]) };
}

export function stackedCsv(columns: readonly StackedColumn[], T: number): ChartCsv {
  return {
    columns: ['step', ...Array.from({ length: T }, (_, j) => `task_${j + 1}_pct`)],
    rows: columns.map((c) => [c.step, ...Array.from({ length: T }, (_, j) => (j < c.shares.length ? r3(c.shares[j]) : ''))]),
  };
}

export function histogramCsv(h: Histogram): ChartCsv {
  return { columns: ['bin_from', 'bin_to', 'id_pct', 'ood_pct'], rows: h.id.map((v, i) => [r3(h.edges[i]), r3(h.edges[i + 1]), r3(v), r3(h.ood[i])]) };
}
