/**
 * The Forgetting lab's charts (docs/science.md §3; docs/design.md "Forgetting"): pure models (tested in
 * tests/unit/ui/forgetting-charts.test.ts) and d3 drawing into an <svg>.
 *
 * - cpcf: CPCF_j (left axis, mean prediction-set size in classes) and a_prev,j / a_new,j (right axis, accuracy %)
 *   against the task j just trained (paper numbering, j = 2..K). Told apart by colour, dash and mark: CPCF dark
 *   solid ●, a_prev vermillion dashed ■, a_new blue dotted ▲; each axis label carries its series' colour.
 * - set sizes: one small panel per earlier task i, x = step j > i, a stacked bar of the share of i's test images
 *   whose prediction set has 0, 1, 2, … classes (sequential blues, darker = larger set).
 * - coverage: pooled empirical coverage over tasks 1..j−1 per step (line) and each earlier task's coverage (dots in
 *   the task's colour), with the 1 − α target as a dashed reference line.
 * - compare: one metric of several runs against j (the learning-rate and EDGE presets).
 */
import { axisBottom, axisLeft, axisRight } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import type { BaseType, Selection } from 'd3-selection';
import { line } from 'd3-shape';
import type { CpcfReport } from '../../core/conformal/from-run';
import { drawAxes, drawPanelTitle, freshSvg, showTip } from '../common/chart-kit';

/** An unfilled line through the points (in order) appended to `g` (an empty path when there are none). */
function appendLine<P, D, PE extends BaseType, PD>(g: Selection<SVGGElement, D, PE, PD>, pts: P[], x: (p: P) => number, y: (p: P) => number) {
  return g
    .append('path')
    .attr('d', line<P>().x(x).y(y)(pts) ?? '')
    .attr('fill', 'none');
}

export const SERIES_STYLE = {
  cpcf: { colour: '#1d2330', dash: '', mark: 'circle', name: 'CPCF (mean set size)' },
  aPrev: { colour: '#D55E00', dash: '7,4', mark: 'square', name: 'a_prev (accuracy on earlier tasks)' },
  aNew: { colour: '#0072B2', dash: '2,3', mark: 'triangle', name: 'a_new (accuracy on the new task)' },
} as const;
export type SeriesId = keyof typeof SERIES_STYLE;

export const CPCF_AXIS = 'CPCF: mean prediction-set size (classes)';
export const ACC_AXIS = 'accuracy (%)';
export const STEP_AXIS = 'task j just trained (1 = base task)';

export interface CpcfPoint {
  /** paper numbering: task j = afterTask + 1 (≥ 2) */
  j: number;
  cpcf: number;
  /** percent */
  aPrev: number;
  aNew: number;
  coverage: number;
  q: number;
}

export interface CpcfModel {
  points: CpcfPoint[];
  /** the left axis' top (classes) */
  cpcfMax: number;
  /** last task j of the axis */
  K: number;
  /** tick values of the task axis: every j = 2..K */
  ticks: number[];
}

/** `tasks` (K of the run) keeps the task axis at 2..K while a run is still training (its later points to come). */

export function cpcfModel(report: Pick<CpcfReport, 'steps'>, tasks?: number): CpcfModel {
  const points = report.steps.map((s) => ({ j: s.afterTask + 1, cpcf: s.cpcf, aPrev: 100 * s.aPrev, aNew: 100 * s.aNew, coverage: s.coverage, q: s.q }));
  const widest = Math.max(2, ...report.steps.map((s) => s.width));
  const top = Math.max(2, ...points.map((p) => (Number.isFinite(p.cpcf) ? p.cpcf : 0)));
  const K = Math.max(points.length ? points[points.length - 1].j : 2, tasks ?? 0);
  const ticks = points.length || tasks ? Array.from({ length: Math.max(1, K - 1) }, (_, i) => i + 2) : [2];
  return { points, cpcfMax: Math.min(widest, Math.ceil(top * 1.1 + 0.001)), K, ticks };
}

export function cpcfCsv(report: Pick<CpcfReport, 'steps' | 'alpha' | 'score'>): { columns: string[]; rows: (string | number | null)[][] } {
  return {
    columns: ['task_j', 'cpcf_mean_set_size', 'a_prev', 'a_new', 'coverage', 'q', 'calibration_examples', 'test_examples', 'alpha', 'score'],
    rows: report.steps.map((s) => [
      s.afterTask + 1,
      s.cpcf,
      s.aPrev,
      s.aNew,
      s.coverage,
      Number.isFinite(s.q) ? s.q : 'inf',
      s.calibrationCount,
      s.testCount,
      report.alpha,
      report.score,
    ]),
  };
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export function layoutCpcf(width: number): { width: number; height: number; margin: Margins } {
  const narrow = width < 500;
  return { width, height: narrow ? 280 : 340, margin: { top: 16, right: narrow ? 50 : 64, bottom: 46, left: narrow ? 50 : 64 } };
}

/** A d3 symbol-ish path centred on 0,0. */
export function markPath(kind: 'circle' | 'square' | 'triangle', r: number): string {
  if (kind === 'square') return `M${-r},${-r}h${2 * r}v${2 * r}h${-2 * r}Z`;
  if (kind === 'triangle') return `M0,${-r * 1.15}L${r * 1.1},${r * 0.8}L${-r * 1.1},${r * 0.8}Z`;
  return `M${r},0A${r},${r} 0 1,1 ${-r},0A${r},${r} 0 1,1 ${r},0`;
}

const fmt = (v: number, d: number) => (Number.isFinite(v) ? v.toFixed(d) : '–');

function axisTitle(g: Selection<SVGGElement, unknown, null, undefined>, x: number, y: number, text: string, colour: string, rotate: number) {
  g.append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(${x},${y}) rotate(${rotate})`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .attr('font-weight', 600)
    .attr('fill', colour)
    .text(text);
}

export function drawCpcf(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, model: CpcfModel): void {
  const L = layoutCpcf(width);
  const { margin } = L;
  const svg = freshSvg(svgEl, L.width, L.height);
  const g = svg.append('g');
  const x = scaleLinear()
    .domain([2, Math.max(3, model.K)])
    .range([margin.left + 10, L.width - margin.right - 10]);
  const yL = scaleLinear()
    .domain([0, model.cpcfMax])
    .nice()
    .range([L.height - margin.bottom, margin.top]);
  const yR = scaleLinear()
    .domain([0, 100])
    .range([L.height - margin.bottom, margin.top]);
  // grid lines of the accuracy axis (light) so both scales can be read
  g.append('g')
    .selectAll('line')
    .data(yR.ticks(5))
    .join('line')
    .attr('x1', margin.left)
    .attr('x2', L.width - margin.right)
    .attr('y1', (d) => yR(d))
    .attr('y2', (d) => yR(d))
    .attr('stroke', '#eef0f4');
  g.append('g')
    .attr('transform', `translate(0,${L.height - margin.bottom})`)
    .call(
      axisBottom(x)
        .tickValues(model.ticks)
        .tickFormat((d) => String(d)),
    )
    .attr('font-size', 12);
  g.append('g')
    .attr('class', 'axis-left')
    .attr('transform', `translate(${margin.left},0)`)
    .call(axisLeft(yL).ticks(6))
    .attr('font-size', 12)
    .attr('color', SERIES_STYLE.cpcf.colour);
  g.append('g')
    .attr('class', 'axis-right')
    .attr('transform', `translate(${L.width - margin.right},0)`)
    .call(
      axisRight(yR)
        .ticks(5)
        .tickFormat((d) => `${d}`),
    )
    .attr('font-size', 12)
    .attr('color', '#7a3d00');
  axisTitle(g, 16, (margin.top + L.height - margin.bottom) / 2, width < 500 ? 'CPCF: mean set size (classes)' : CPCF_AXIS, SERIES_STYLE.cpcf.colour, -90);
  axisTitle(g, L.width - 12, (margin.top + L.height - margin.bottom) / 2, `${ACC_AXIS}: a_prev, a_new`, '#7a3d00', 90);
  axisTitle(g, (margin.left + L.width - margin.right) / 2, L.height - 8, STEP_AXIS, '#1d2330', 0);

  const series: { id: SeriesId; y: (p: CpcfPoint) => number; value: (p: CpcfPoint) => string }[] = [
    { id: 'aPrev', y: (p) => yR(p.aPrev), value: (p) => `${fmt(p.aPrev, 1)} %` },
    { id: 'aNew', y: (p) => yR(p.aNew), value: (p) => `${fmt(p.aNew, 1)} %` },
    { id: 'cpcf', y: (p) => yL(p.cpcf), value: (p) => `${fmt(p.cpcf, 3)} classes` },
  ];
  for (const s of series) {
    const st = SERIES_STYLE[s.id];
    const sg = g.append('g').attr('class', `series series-${s.id}`);
    const pts = model.points.filter((p) => Number.isFinite(s.id === 'cpcf' ? p.cpcf : s.id === 'aPrev' ? p.aPrev : p.aNew));
    appendLine(sg, pts, (p) => x(p.j), s.y)
      .attr('stroke', st.colour)
      .attr('stroke-width', s.id === 'cpcf' ? 2.5 : 2)
      .attr('stroke-dasharray', st.dash || null);
    const tipOf = (p: CpcfPoint) =>
      `task j = ${p.j}\n${st.name}: ${s.value(p)}\nCPCF ${fmt(p.cpcf, 3)} · a_prev ${fmt(p.aPrev, 1)} % · a_new ${fmt(p.aNew, 1)} %`;
    sg.selectAll('path.pt')
      .data(pts)
      .join('path')
      .attr('class', 'pt')
      .attr('data-j', (p) => p.j)
      .attr('data-value', (p) => (s.id === 'cpcf' ? p.cpcf : s.id === 'aPrev' ? p.aPrev : p.aNew))
      .attr('d', markPath(st.mark, 4.5))
      .attr('transform', (p) => `translate(${x(p.j)},${s.y(p)})`)
      .attr('fill', st.colour)
      .attr('stroke', '#fff')
      .attr('stroke-width', 1)
      .on('mouseenter', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
      .on('mousemove', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}

// --- set-size distributions ---

export interface SetSizePanel {
  /** earlier task i, paper numbering (1 = base task) */
  task: number;
  bars: { j: number; n: number; shares: number[]; mean: number }[];
}

export function setSizeModel(report: Pick<CpcfReport, 'steps'>): { panels: SetSizePanel[]; maxSize: number } {
  const panels = new Map<number, SetSizePanel>();
  let maxSize = 1;
  for (const s of report.steps) {
    for (const p of s.previous) {
      const total = p.sizeCounts.reduce((a, b) => a + b, 0);
      const shares = p.sizeCounts.map((c) => (total > 0 ? c / total : 0));
      for (let k = shares.length - 1; k >= 0; k--) {
        if (shares[k] > 0) {
          maxSize = Math.max(maxSize, k);
          break;
        }
      }
      const panel = panels.get(p.task) ?? { task: p.task + 1, bars: [] };
      panel.bars.push({ j: s.afterTask + 1, n: p.n, shares, mean: p.meanSetSize });
      panels.set(p.task, panel);
    }
  }
  return { panels: [...panels.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]), maxSize };
}

/** Colour of set size k (0 = empty set: grey; 1 … max: light to dark blue). */
export function sizeColour(k: number, maxSize: number): string {
  if (k === 0) return '#c9ced6';
  return interpolateBlues(0.25 + (0.75 * (k - 1)) / Math.max(1, maxSize - 1));
}

export function setSizeCsv(report: Pick<CpcfReport, 'steps'>): { columns: string[]; rows: (string | number | null)[][] } {
  const width = Math.max(0, ...report.steps.map((s) => s.width));
  const rows = report.steps.flatMap((s) =>
    s.previous.map((p) => [p.task + 1, s.afterTask + 1, p.n, p.meanSetSize, p.coverage, ...Array.from({ length: width + 1 }, (_, k) => p.sizeCounts[k] ?? 0)]),
  );
  return {
    columns: [
      'earlier_task_i',
      'after_task_j',
      'test_examples',
      'mean_set_size',
      'coverage',
      ...Array.from({ length: width + 1 }, (_, k) => `sets_of_size_${k}`),
    ],
    rows,
  };
}

export function layoutSetSizes(width: number, panels: number): { columns: number; panelW: number; panelH: number; height: number } {
  const columns = Math.max(1, Math.min(panels, Math.floor(width / 150)));
  const panelW = Math.floor(width / columns);
  const panelH = 150;
  return { columns, panelW, panelH, height: Math.ceil(Math.max(1, panels) / columns) * panelH };
}

export function drawSetSizes(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  model: { panels: SetSizePanel[]; maxSize: number },
  K: number,
): void {
  const L = layoutSetSizes(width, model.panels.length);
  const svg = freshSvg(svgEl, width, L.height);
  const m = { top: 20, right: 6, bottom: 28, left: 34 };
  model.panels.forEach((panel, idx) => {
    const ox = (idx % L.columns) * L.panelW;
    const oy = Math.floor(idx / L.columns) * L.panelH;
    const g = svg.append('g').attr('class', 'size-panel').attr('data-task', panel.task);
    const js = Array.from({ length: Math.max(1, K - panel.task) }, (_, k) => panel.task + 1 + k);
    const x = scaleLinear()
      .domain([panel.task + 0.5, K + 0.5])
      .range([ox + m.left, ox + L.panelW - m.right]);
    const y = scaleLinear()
      .domain([0, 1])
      .range([oy + L.panelH - m.bottom, oy + m.top]);
    const bw = Math.max(4, ((L.panelW - m.left - m.right) / js.length) * 0.7);
    drawPanelTitle(g, ox + m.left, oy + 13, 12, panel.task === 1 ? 'task 1 (base)' : `task ${panel.task}`);
    for (const b of panel.bars) {
      let acc = 0;
      b.shares.forEach((share, k) => {
        if (share <= 0) return;
        const tipText = `task ${panel.task} after training task ${b.j}\nsets of size ${k}: ${(100 * share).toFixed(1)} % of ${b.n} test images\nmean set size ${b.mean.toFixed(2)}`;
        g.append('rect')
          .attr('x', x(b.j) - bw / 2)
          .attr('width', bw)
          .attr('y', y(acc + share))
          .attr('height', Math.max(0, y(acc) - y(acc + share)))
          .attr('fill', sizeColour(k, model.maxSize))
          .on('mouseenter', (ev: MouseEvent) => showTip(tip, tipText, ev))
          .on('mousemove', (ev: MouseEvent) => showTip(tip, tipText, ev))
          .on('mouseleave', () => showTip(tip, null));
        acc += share;
      });
    }
    g.append('g')
      .attr('transform', `translate(0,${oy + L.panelH - m.bottom})`)
      .call(
        axisBottom(x)
          .tickValues(js)
          .tickFormat((d) => String(d))
          .tickSizeOuter(0),
      )
      .attr('font-size', 10);
    g.append('g')
      .attr('transform', `translate(${ox + m.left},0)`)
      .call(
        axisLeft(y)
          .ticks(idx % L.columns === 0 ? 4 : 2)
          .tickFormat((d) => `${Math.round(100 * Number(d))}%`),
      )
      .attr('font-size', 10);
    g.append('text')
      .attr('x', ox + (m.left + L.panelW - m.right) / 2)
      .attr('y', oy + L.panelH - 2)
      .attr('text-anchor', 'middle')
      .attr('font-size', 10)
      .attr('fill', '#5b6474')
      .text('after task j');
  });
}

// --- coverage ---

export interface CoverageModel {
  pooled: { j: number; coverage: number }[];
  perTask: { j: number; task: number; coverage: number }[];
  target: number;
  yMin: number;
  K: number;
}

/** `tasks`: K, so a run still training has the task axis at 2..K from the start (as cpcfModel). */
export function coverageModel(report: Pick<CpcfReport, 'steps' | 'alpha'>, tasks?: number): CoverageModel {
  const pooled = report.steps.map((s) => ({ j: s.afterTask + 1, coverage: s.coverage }));
  const perTask = report.steps.flatMap((s) => s.previous.map((p) => ({ j: s.afterTask + 1, task: p.task + 1, coverage: p.coverage })));
  const lows = [...pooled, ...perTask].map((p) => p.coverage).filter(Number.isFinite);
  const target = 1 - report.alpha;
  const low = Math.min(target, ...lows);
  const yMin = Math.max(0, Math.floor((low - 0.05) * 10) / 10);
  const lastJ = pooled.length ? pooled[pooled.length - 1].j : 2;
  return { pooled, perTask, target, yMin, K: Math.max(lastJ, tasks ?? 0) };
}

export function coverageCsv(report: Pick<CpcfReport, 'steps' | 'alpha'>): { columns: string[]; rows: (string | number | null)[][] } {
  const rows: (string | number | null)[][] = [];
  for (const s of report.steps) {
    rows.push([s.afterTask + 1, 'pooled 1..j−1', s.coverage, 1 - report.alpha]);
    for (const p of s.previous) rows.push([s.afterTask + 1, p.task + 1, p.coverage, 1 - report.alpha]);
  }
  return { columns: ['after_task_j', 'tested_task', 'coverage', 'target_1_minus_alpha'], rows };
}

export function drawCoverage(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, model: CoverageModel, colours: readonly string[]): void {
  const height = 220;
  const m = { top: 14, right: 14, bottom: 40, left: 52 };
  const svg = freshSvg(svgEl, width, height);
  const x = scaleLinear()
    .domain([1.6, Math.max(3, model.K) + 0.4])
    .range([m.left, width - m.right]);
  const y = scaleLinear()
    .domain([model.yMin, 1])
    .range([height - m.bottom, m.top]);
  const g = svg.append('g');
  g.append('line')
    .attr('class', 'target')
    .attr('x1', m.left)
    .attr('x2', width - m.right)
    .attr('y1', y(model.target))
    .attr('y2', y(model.target))
    .attr('stroke', '#b3261e')
    .attr('stroke-dasharray', '5,4')
    .attr('stroke-width', 1.5);
  g.append('text')
    .attr('x', m.left + 4)
    .attr('y', y(model.target) + 13)
    .attr('text-anchor', 'start')
    .attr('font-size', 11)
    .attr('fill', '#b3261e')
    .text(`1 − α = ${(100 * model.target).toFixed(0)} %`);
  const dx = (t: number) => (t - 1) * 3 - 6;
  g.selectAll('circle.task')
    .data(model.perTask.filter((p) => Number.isFinite(p.coverage)))
    .join('circle')
    .attr('class', 'task')
    .attr('cx', (p) => x(p.j) + dx(p.task))
    .attr('cy', (p) => y(p.coverage))
    .attr('r', 3)
    .attr('fill', (p) => colours[(p.task - 1) % colours.length] ?? '#999')
    .attr('opacity', 0.85)
    .on('mouseenter', (ev: MouseEvent, p) => showTip(tip, `after task ${p.j}: coverage on task ${p.task} = ${(100 * p.coverage).toFixed(1)} %`, ev))
    .on('mouseleave', () => showTip(tip, null));
  const pts = model.pooled.filter((p) => Number.isFinite(p.coverage));
  appendLine(
    g,
    pts,
    (p) => x(p.j),
    (p) => y(p.coverage),
  )
    .attr('stroke', '#1d2330')
    .attr('stroke-width', 2);
  g.selectAll('path.pooled')
    .data(pts)
    .join('path')
    .attr('class', 'pooled')
    .attr('data-value', (p) => p.coverage)
    .attr('d', markPath('circle', 4))
    .attr('transform', (p) => `translate(${x(p.j)},${y(p.coverage)})`)
    .attr('fill', '#1d2330')
    .on('mouseenter', (ev: MouseEvent, p) =>
      showTip(
        tip,
        `after task ${p.j}: coverage over tasks 1..${p.j - 1} = ${(100 * p.coverage).toFixed(1)} % (target ${(100 * model.target).toFixed(0)} %)`,
        ev,
      ),
    )
    .on('mouseleave', () => showTip(tip, null));
  drawAxes(
    g,
    m,
    height,
    axisBottom(x)
      .tickValues(model.pooled.map((p) => p.j))
      .tickFormat((d) => String(d)),
    axisLeft(y)
      .ticks(5)
      .tickFormat((d) => `${Math.round(100 * Number(d))}`),
    11,
  );
  axisTitle(g, 14, (m.top + height - m.bottom) / 2, 'coverage (%)', '#1d2330', -90);
  axisTitle(g, (m.left + width - m.right) / 2, height - 6, STEP_AXIS, '#1d2330', 0);
}

// --- several runs, one metric ---

export interface CompareSeries {
  label: string;
  colour: string;
  dash: string;
  points: { j: number; v: number }[];
}

export function compareSeries(
  runs: readonly { label: string; report: Pick<CpcfReport, 'steps'> }[],
  metric: 'cpcf' | 'aPrev',
  colours: readonly string[],
): CompareSeries[] {
  const dashes = ['', '7,4', '2,3', '10,3,2,3', '4,4', '1,2'];
  return runs.map((r, i) => ({
    label: r.label,
    colour: colours[i % colours.length],
    dash: dashes[i % dashes.length],
    points: r.report.steps.map((s) => ({ j: s.afterTask + 1, v: metric === 'cpcf' ? s.cpcf : 100 * s.aPrev })),
  }));
}

export function drawCompare(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  series: CompareSeries[],
  yLabel: string,
  yDomain: [number, number],
): void {
  const height = 240;
  const m = { top: 12, right: 14, bottom: 40, left: 54 };
  const svg = freshSvg(svgEl, width, height);
  const K = Math.max(3, ...series.flatMap((s) => s.points.map((p) => p.j)));
  const x = scaleLinear()
    .domain([2, K])
    .range([m.left + 8, width - m.right - 8]);
  const y = scaleLinear()
    .domain(yDomain)
    .nice()
    .range([height - m.bottom, m.top]);
  const g = svg.append('g');
  g.append('g')
    .attr('transform', `translate(0,${height - m.bottom})`)
    .call(
      axisBottom(x)
        .tickValues(Array.from({ length: K - 1 }, (_, k) => k + 2))
        .tickFormat((d) => String(d)),
    )
    .attr('font-size', 11);
  g.append('g').attr('transform', `translate(${m.left},0)`).call(axisLeft(y).ticks(5)).attr('font-size', 11);
  axisTitle(g, 14, (m.top + height - m.bottom) / 2, yLabel, '#1d2330', -90);
  axisTitle(g, (m.left + width - m.right) / 2, height - 6, STEP_AXIS, '#1d2330', 0);
  for (const s of series) {
    const pts = s.points.filter((p) => Number.isFinite(p.v));
    appendLine(
      g,
      pts,
      (p) => x(p.j),
      (p) => y(p.v),
    )
      .attr('stroke', s.colour)
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', s.dash || null);
    g.selectAll(null)
      .data(pts)
      .join('circle')
      .attr('cx', (p) => x(p.j))
      .attr('cy', (p) => y(p.v))
      .attr('r', 3.5)
      .attr('fill', s.colour)
      .on('mouseenter', (ev: MouseEvent, p) => showTip(tip, `${s.label} · task j = ${p.j}: ${p.v.toFixed(2)}`, ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}
