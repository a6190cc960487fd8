/**
 * S(O) against A(O) (docs/science.md §2 "Pearson R between S(O) and A(O) over the evaluated orderings"; EDGE paper
 * §4: higher inter-task similarity S should mean an easier ordering). One panel per strategy: a grey dot per
 * evaluated truth ordering, the least-squares line through them, and the protocol orderings marked on top
 * (● RS blue; ▼ EDGE hard, ▲ EDGE easy, ● EDGE median orange). Pearson R and its p-value in the panel's title.
 * Click a point to open that ordering's accuracy matrix. Pure helpers are tested in
 * tests/unit/ui/ground-truth-charts.test.ts.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { GroundTruthStats, OrderingRole, ProtocolRole } from '../../core/ground-truth/derive';
import { leastSquares } from '../../core/stats/least-squares';
import { drawAxisTitles, drawPanelTitle, freshSvg, showTip, type PanelGridLayout } from '../common/chart-kit';
import type { HistogramHandlers } from './accuracy-histogram';
import { fixed, markPath, pct, pValue, roleMark, SELECTED_STROKE, TRUTH_FILL_HOVER, variableAxisLabel } from './format';

export interface ScatterPoint {
  key: string;
  score: number;
  value: number;
  roles: OrderingRole[];
  label?: string;
}

export interface ScatterPanel {
  strategy: string;
  points: ScatterPoint[];
  /** Pearson R over the truth points, or the reason it is missing. */
  r: number | null;
  p: number | null;
  n: number;
  reason: string | null;
  /** Least-squares line over the truth points (null below 2 points or with S constant). */
  fit: { slope: number; intercept: number } | null;
}

export interface ScatterModel {
  panels: ScatterPanel[];
  xDomain: [number, number];
  yDomain: [number, number];
}

function extent(values: number[], minPad: number): [number, number] {
  if (values.length === 0) return [0, 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max(minPad, (hi - lo) * 0.06);
  return [lo - pad, hi + pad];
}

/** Every evaluated ordering with an S, per strategy; shared S and A domains. */
export function scatterModel(stats: GroundTruthStats): ScatterModel {
  const panels = stats.strategies.map((s) => {
    const points = s.points
      .filter((p) => p.value !== null && p.score !== null)
      .map((p) => ({ key: p.key, score: p.score as number, value: p.value as number, roles: p.roles, ...(p.label ? { label: p.label } : {}) }));
    const truth = points.filter((p) => p.roles.includes('truth'));
    const pr = s.pearson.value;
    return {
      strategy: s.strategy,
      points,
      r: pr ? pr.statistic : null,
      p: pr ? pr.pvalue : null,
      n: pr ? pr.n : truth.length,
      reason: s.pearson.reason,
      fit: leastSquares(
        truth.map((p) => p.score),
        truth.map((p) => p.value),
      ),
    };
  });
  const all = panels.flatMap((p) => p.points);
  const yd = extent(
    all.map((p) => p.value),
    0.005,
  );
  return {
    panels,
    xDomain: extent(
      all.map((p) => p.score),
      0.01,
    ),
    yDomain: [Math.max(0, yd[0]), Math.min(1, yd[1])],
  };
}

/** The panel title: "finetune · Pearson R = 0.42 (p = 0.003, n = 90)" or the reason R is missing. */
export function scatterTitle(p: ScatterPanel): string {
  if (p.r === null) return `${p.strategy} · Pearson R: not defined yet (see below)`;
  return `${p.strategy} · Pearson R = ${fixed(p.r, 3)} (p ${p.p !== null && p.p < 0.001 ? '< 0.001' : `= ${pValue(p.p)}`}, n = ${p.n})`;
}

export type ScatterLayout = PanelGridLayout;

/** Two panels a row when each gets at least 300 px, else one; each plot about 4:3. */
export function layoutScatter(width: number, panelCount: number): ScatterLayout {
  const columns = panelCount >= 2 && width >= 620 ? 2 : 1;
  const panelWidth = Math.floor(width / columns);
  const margin = { top: 26, right: 14, bottom: 44, left: 56 };
  const plotW = panelWidth - margin.left - margin.right;
  const panelHeight = margin.top + Math.max(140, Math.min(260, Math.round(plotW * 0.62))) + margin.bottom;
  const rows = Math.max(1, Math.ceil(panelCount / columns));
  return { width, height: rows * panelHeight, columns, panelWidth, panelHeight, margin };
}

/** The most prominent role of an ordering (for its mark), or null for a plain truth ordering. */
export function leadRole(roles: readonly OrderingRole[]): ProtocolRole | null {
  for (const r of ['edge-hard', 'edge-easy', 'edge-median', 'rs'] as const) if (roles.includes(r)) return r;
  return null;
}

/** The same handlers as the histogram's: the variable, the selection, the tooltip text and the click. */
export type ScatterHandlers = HistogramHandlers;

export function drawScoreScatter(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  model: ScatterModel,
  h: ScatterHandlers,
): ScatterLayout {
  const L = layoutScatter(width, model.panels.length);
  const svg = freshSvg(svgEl, L.width, L.height);
  model.panels.forEach((panel, i) => {
    const ox = (i % L.columns) * L.panelWidth;
    const oy = Math.floor(i / L.columns) * L.panelHeight;
    const { margin } = L;
    const x = scaleLinear()
      .domain(model.xDomain)
      .range([ox + margin.left, ox + L.panelWidth - margin.right]);
    const y = scaleLinear()
      .domain(model.yDomain)
      .range([oy + L.panelHeight - margin.bottom, oy + margin.top]);
    const g = svg.append('g').attr('class', 'panel').attr('data-strategy', panel.strategy);
    const narrow = L.panelWidth < 440;
    drawPanelTitle(g, ox + (narrow ? 4 : margin.left), oy + 16, narrow ? 12 : 13, scatterTitle(panel)).attr('class', 'title');
    g.append('rect')
      .attr('x', ox + margin.left)
      .attr('y', oy + margin.top)
      .attr('width', L.panelWidth - margin.left - margin.right)
      .attr('height', L.panelHeight - margin.top - margin.bottom)
      .attr('fill', '#fafbfc')
      .attr('stroke', '#e3e6eb');
    if (panel.fit) {
      const [x0, x1] = model.xDomain;
      const clampY = (v: number) => Math.max(model.yDomain[0], Math.min(model.yDomain[1], v));
      g.append('line')
        .attr('class', 'fit')
        .attr('x1', x(x0))
        .attr('x2', x(x1))
        .attr('y1', y(clampY(panel.fit.intercept + panel.fit.slope * x0)))
        .attr('y2', y(clampY(panel.fit.intercept + panel.fit.slope * x1)))
        .attr('stroke', '#5b6474')
        .attr('stroke-dasharray', '5,4');
    }
    const tipOf = (p: ScatterPoint) =>
      [
        `${p.label ? `${p.label}: ` : ''}${pct(p.value)}%, S = ${p.score.toFixed(4)}`,
        h.describe(p.key),
        p.roles.includes('truth') ? '' : '(not in the truth sample: not in R)',
        'click: its accuracy matrix',
      ]
        .filter(Boolean)
        .join('\n');
    const ordered = [...panel.points].sort((a, b) => Number(leadRole(a.roles) !== null) - Number(leadRole(b.roles) !== null));
    const pts = g
      .append('g')
      .attr('class', 'points')
      .selectAll('g')
      .data(ordered)
      .join('g')
      .attr('class', 'point')
      .attr('data-key', (p) => p.key)
      .attr('transform', (p) => `translate(${x(p.score)},${y(p.value)})`)
      .style('cursor', 'pointer')
      .on('mouseenter', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
      .on('mousemove', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
      .on('mouseleave', () => showTip(tip, null))
      .on('click', (_ev, p) => h.onSelect(p.key, panel.strategy));
    pts.each(function (p) {
      const el = select(this);
      const selected = h.selectedKey === p.key && h.selectedStrategy === panel.strategy;
      const role = leadRole(p.roles);
      if (role) {
        const m = roleMark(role);
        el.append('path')
          .attr('d', markPath(m.shape, 6.5))
          .attr('fill', m.fill)
          .attr('stroke', selected ? SELECTED_STROKE : '#fff')
          .attr('stroke-width', selected ? 2.5 : 1);
      } else {
        el.append('circle')
          .attr('r', 4)
          .attr('fill', selected ? TRUTH_FILL_HOVER : '#7a8291')
          .attr('fill-opacity', 0.75)
          .attr('stroke', selected ? SELECTED_STROKE : '#fff')
          .attr('stroke-width', selected ? 2.5 : 0.8);
      }
    });
    g.append('g')
      .attr('transform', `translate(0,${oy + L.panelHeight - margin.bottom})`)
      .call(axisBottom(x).ticks(Math.max(3, Math.floor((L.panelWidth - margin.left) / 80))))
      .attr('font-size', 12);
    g.append('g')
      .attr('transform', `translate(${ox + margin.left},0)`)
      .call(
        axisLeft(y)
          .ticks(5)
          .tickFormat((d) => (100 * Number(d)).toFixed(model.yDomain[1] - model.yDomain[0] < 0.05 ? 1 : 0)),
      )
      .attr('font-size', 12);
    drawAxisTitles(g, {
      x: { text: 'S, similarity of adjacent tasks (paper Eq. 5)', x: ox + (margin.left + L.panelWidth - margin.right) / 2, y: oy + L.panelHeight - 8 },
      y: { text: variableAxisLabel(h.variable), x: ox + 14, y: oy + (margin.top + L.panelHeight - margin.bottom) / 2 },
    });
  });
  return L;
}

/** The chart's numbers for the ⤓ menu's CSV: one row per strategy and evaluated ordering with an S. */
export function scatterCsv(stats: GroundTruthStats): { columns: string[]; rows: (string | number | null)[][] } {
  const model = scatterModel(stats);
  const rows = model.panels.flatMap((p) => p.points.map((q) => [p.strategy, q.key, q.roles.join(' '), q.score, q.value, p.r, p.p]));
  return { columns: ['strategy', 'ordering', 'roles', 'S', stats.variable === 'final' ? 'final_accuracy' : 'aia', 'pearson_r', 'pearson_p'], rows };
}
