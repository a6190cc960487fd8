/**
 * The hero chart of the Ground-truth lab (docs/design.md; EDGE paper Fig. 1 / A4): the distribution of A(O) over the
 * truth orderings, one panel per strategy, filling in live.
 *
 *   - Truth = grey bars built from one block per ordering (a unit histogram), so every ordering can be hovered and
 *     clicked (its accuracy matrix opens below) and the bars visibly grow as runs finish.
 *   - RS (blue) and EDGE (orange) Gaussian estimates N(μ̂, σ̂²) drawn over the bars as expected counts per bin,
 *     n · binWidth · pdf(x), so they sit on the same scale as the bars.
 *   - Above each panel, one lane per protocol with a mark per ordering it picked (▼ EDGE hard, ▲ EDGE easy,
 *     ● RS and EDGE median), at that ordering's A(O).
 * Panels share the y axis (orderings per bin) and, by default, the x axis (A(O) in %) so strategies compare at a
 * glance; when one strategy's truth would be a sliver of a shared axis (a strategy far better than another), each
 * panel gets its own x axis and bins (`autoXAxis`; the chart's "x axis" control overrides it).
 * The model and layout helpers are pure (tests/unit/ui/ground-truth-charts.test.ts); `drawAccuracyHistogram`
 * touches the DOM.
 */
import { ticks as d3ticks } from 'd3-array';
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { line } from 'd3-shape';
import type { AccuracyVariable, GroundTruthStats, ProtocolRole } from '../../core/ground-truth/derive';
import { normalPdf, type Gaussian } from '../../core/stats/gaussian';
import { drawAxisTitles, drawDropLine, drawLane, drawPanelTitle, freshSvg, showTip } from '../common/chart-kit';
import { protocolMark } from '../orderings/protocol-marks';
import { markPath, pct, roleMark, SELECTED_STROKE, TRUTH_FILL, TRUTH_FILL_HOVER, variableAxisLabel } from './format';

export interface HistogramMember {
  key: string;
  value: number;
  label?: string;
  score: number | null;
}

export interface HistogramMark {
  key: string;
  value: number;
  role: ProtocolRole;
  label: string;
}

export interface HistogramPanel {
  strategy: string;
  members: HistogramMember[];
  marks: HistogramMark[];
  rs: Gaussian | null;
  edge: Gaussian | null;
}

export interface StackedBin {
  x0: number;
  x1: number;
  /** Members in the bin, ascending by value: stack position = index. */
  members: HistogramMember[];
}

/** One panel's x axis: its domain (fractions), bin edges and bin width. */
export interface PanelScale {
  domain: [number, number];
  thresholds: number[];
  binWidth: number;
}

/** 'shared': one x axis for every strategy; 'own': each strategy's panel on its own x axis. */
export type XAxisMode = 'shared' | 'own';

export interface HistogramModel {
  panels: HistogramPanel[];
  /** the x axis used: shared, or one per panel */
  xAxis: XAxisMode;
  /** per panel: its x axis (all equal to the shared one when `xAxis` is 'shared') */
  scales: PanelScale[];
  /** the shared x domain (fractions), equal to the first and last threshold. */
  domain: [number, number];
  thresholds: number[];
  binWidth: number;
  /** bins[panel][bin] */
  bins: StackedBin[][];
  maxCount: number;
  /** y domain top (orderings): the tallest bar, or the estimates' peaks up to Y_HEADROOM × that (taller peaks are cut and labelled). */
  yMax: number;
}

/** How far above the tallest bar an estimate's peak may reach before it is cut (and its height written). */
export const Y_HEADROOM = 1.4;

/** The panels of the chart: one per strategy, the truth orderings with a value and the protocol draws with one. */
export function histogramPanels(stats: GroundTruthStats): HistogramPanel[] {
  return stats.strategies.map((s) => ({
    strategy: s.strategy,
    members: s.points
      .filter((p) => p.value !== null && p.roles.includes('truth'))
      .map((p) => ({ key: p.key, value: p.value as number, score: p.score, ...(p.label ? { label: p.label } : {}) })),
    marks: [...s.rs.draws, ...s.edge.draws]
      .filter((d) => d.value !== null)
      .map((d) => ({ key: d.key, value: d.value as number, role: d.role, label: d.label })),
    rs: s.rs.gaussian.value,
    edge: s.edge.gaussian.value,
  }));
}

/**
 * The x domain (fractions): every member and mark, and each estimate's μ ± 2.5σ, padded by 4% (at least half a
 * point) and kept inside [0, 1].
 */
export function accuracyDomain(panels: readonly HistogramPanel[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v: number) => {
    if (!Number.isFinite(v)) return;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  };
  for (const p of panels) {
    for (const m of p.members) take(m.value);
    for (const m of p.marks) take(m.value);
    for (const g of [p.rs, p.edge]) {
      if (!g) continue;
      take(g.mean - 2.5 * g.std);
      take(g.mean + 2.5 * g.std);
    }
  }
  if (!Number.isFinite(lo)) return [0, 1];
  const pad = Math.max(0.005, (hi - lo) * 0.04);
  return [Math.max(0, lo - pad), Math.min(1, hi + pad)];
}

/**
 * Bin edges on "nice" steps of the percentage scale (d3.ticks): the step gives about `target` bins across `span`
 * (the narrowest truth range of the panels, so a narrow distribution is not squeezed into two bins when another
 * strategy's lies far away), at most `maxBins` across the domain; edges extended to whole steps on both ends.
 * Stable while values stream in: the same step keeps the same edges.
 */
export function binThresholds(domain: [number, number], target: number, span = domain[1] - domain[0], maxBins = 120): number[] {
  const [lo, hi] = domain;
  const stepFor = (width: number, n: number): number => {
    const t = d3ticks(0, width * 100, Math.max(1, n));
    return t.length >= 2 ? t[1] - t[0] : Math.max(0.1, width * 100);
  };
  let step = stepFor(span > 0 ? span : hi - lo, target);
  while ((hi - lo) * 100 > maxBins * step) step = stepFor(hi - lo, Math.max(1, Math.floor(((hi - lo) * 100) / (step * 2))));
  const start = Math.floor((lo * 100) / step + 1e-9) * step;
  const end = Math.ceil((hi * 100) / step - 1e-9) * step;
  const out: number[] = [];
  const n = Math.max(1, Math.round((end - start) / step));
  for (let i = 0; i <= n; i++) out.push(+((start + i * step) / 100).toFixed(10));
  return out;
}

/** About 2·√n bins for n planned truth orderings, between 8 and 40. */
export function binTarget(plannedTruth: number): number {
  return Math.max(8, Math.min(40, Math.round(2 * Math.sqrt(Math.max(1, plannedTruth)))));
}

/** Members into bins [e_i, e_{i+1}) (the last closed), each bin ascending by value (ties by key). */
export function stackMembers(members: readonly HistogramMember[], thresholds: readonly number[]): StackedBin[] {
  const bins: StackedBin[] = [];
  for (let i = 0; i + 1 < thresholds.length; i++) bins.push({ x0: thresholds[i], x1: thresholds[i + 1], members: [] });
  const last = bins.length - 1;
  for (const m of members) {
    let i = bins.findIndex((b, k) => m.value >= b.x0 && (m.value < b.x1 || k === last));
    if (i < 0) i = m.value < thresholds[0] ? 0 : last;
    bins[i].members.push(m);
  }
  for (const b of bins) b.members.sort((a, c) => a.value - c.value || (a.key < c.key ? -1 : a.key > c.key ? 1 : 0));
  return bins;
}

/** Expected orderings per bin under N(μ, σ²) at x: n · binWidth · pdf(x); σ = 0 has no curve (null). */
export function gaussianCurve(g: Gaussian, n: number, binWidth: number, domain: [number, number], samples = 160): { x: number; y: number }[] | null {
  if (!(g.std > 0)) return null;
  const [lo, hi] = domain;
  const pts: { x: number; y: number }[] = [];
  for (let i = 0; i <= samples; i++) {
    const x = lo + ((hi - lo) * i) / samples;
    pts.push({ x, y: n * binWidth * normalPdf(x, g) });
  }
  return pts;
}

/** The x axis of `panels` (one or all of them) for `target` bins: domain, edges on nice steps, bin width. */
function panelScale(panels: readonly HistogramPanel[], target: number): PanelScale {
  const domain0 = accuracyDomain(panels);
  // the narrowest spread of a strategy's truth (with its estimates) sets the bin width
  const spans = panels
    .map((p) => accuracyDomain([p]))
    .filter((_, i) => panels[i].members.length > 0)
    .map(([a, b]) => b - a);
  const thresholds = binThresholds(domain0, target, spans.length ? Math.min(...spans) : domain0[1] - domain0[0]);
  return { domain: [thresholds[0], thresholds[thresholds.length - 1]], thresholds, binWidth: thresholds[1] - thresholds[0] };
}

/**
 * The x axis that shows every strategy: shared, unless a strategy's truth (two orderings or more) would span less
 * than a quarter of the shared axis (a sliver of a few bins beside a strategy far away): then each its own.
 */
export function autoXAxis(panels: readonly HistogramPanel[]): XAxisMode {
  if (panels.length < 2) return 'shared';
  const [lo, hi] = accuracyDomain(panels);
  const width = hi - lo;
  for (const p of panels) {
    if (p.members.length < 2) continue;
    const values = p.members.map((m) => m.value);
    if (Math.max(...values) - Math.min(...values) < width / 4) return 'own';
  }
  return 'shared';
}

/**
 * The whole model: panels, bins and scales. `plannedTruth` sets the bin count (stable while filling); `xAxis`
 * ('shared', 'own' or 'auto': `autoXAxis`) whether the panels share their x axis.
 */
export function histogramModel(stats: GroundTruthStats, plannedTruth: number, xAxis: XAxisMode | 'auto' = 'shared'): HistogramModel {
  const panels = histogramPanels(stats);
  const target = binTarget(plannedTruth);
  const shared = panelScale(panels, target);
  const mode = xAxis === 'auto' ? autoXAxis(panels) : xAxis;
  const scales = panels.map((p) => (mode === 'own' ? panelScale([p], target) : shared));
  const bins = panels.map((p, i) => stackMembers(p.members, scales[i].thresholds));
  const maxCount = Math.max(1, ...bins.flat().map((b) => b.members.length));
  let peak = maxCount;
  panels.forEach((p, i) => {
    for (const g of [p.rs, p.edge]) {
      if (g && g.std > 0) peak = Math.max(peak, (p.members.length * scales[i].binWidth) / (g.std * Math.sqrt(2 * Math.PI)));
    }
  });
  return {
    panels,
    xAxis: mode,
    scales,
    domain: shared.domain,
    thresholds: shared.thresholds,
    binWidth: shared.binWidth,
    bins,
    maxCount,
    yMax: Math.min(peak, Y_HEADROOM * maxCount),
  };
}

/**
 * Where an estimate's "↑ EDGE peak 58" label goes: beside its mean line on its preferred side (RS right, EDGE left),
 * on the other side when it would leave the plot [lo, hi] (into the y axis's tick labels), and kept inside.
 * `width` is the label's width in px (about 6.2 px a character at 11 px).
 */
export function peakLabelPlacement(
  xMean: number,
  width: number,
  prefer: 'start' | 'end',
  lo: number,
  hi: number,
  gap = 4,
): { x: number; anchor: 'start' | 'end' } {
  const fitsEnd = xMean - gap - width >= lo;
  const fitsStart = xMean + gap + width <= hi;
  const side = prefer === 'end' ? (fitsEnd || !fitsStart ? 'end' : 'start') : fitsStart || !fitsEnd ? 'start' : 'end';
  if (side === 'end') return { x: Math.max(lo + width, xMean - gap), anchor: 'end' };
  return { x: Math.min(hi - width, xMean + gap), anchor: 'start' };
}

/**
 * "↑ RS peak 58" inside the plot's top, beside the estimate's mean line `xMean` (`peakLabelPlacement` between `left`
 * and `right`, clear of the y axis's tick labels), RS's one line below EDGE's so the two never overlap: an estimate
 * far narrower than the truth is cut at the top, and this says how high it goes.
 */
export function drawPeakLabel<E extends SVGGElement | SVGSVGElement>(
  g: Selection<E, unknown, null, undefined>,
  protocol: 'rs' | 'edge',
  height: string,
  xMean: number,
  left: number,
  right: number,
  plotTop: number,
  colour: string,
): void {
  const text = `↑ ${protocol === 'rs' ? 'RS' : 'EDGE'} peak ${height}`;
  const at = peakLabelPlacement(xMean, text.length * 6.2, protocol === 'rs' ? 'start' : 'end', left + 2, right - 2);
  g.append('text')
    .attr('class', 'peak')
    .attr('x', at.x)
    .attr('y', plotTop + (protocol === 'rs' ? 24 : 10))
    .attr('text-anchor', at.anchor)
    .attr('font-size', 11)
    .attr('fill', colour)
    .attr('paint-order', 'stroke')
    .attr('stroke', '#fff')
    .attr('stroke-width', 3)
    .text(text);
}

/** The chart's numbers for the ⤓ menu's CSV: one row per strategy and evaluated ordering. */
export function histogramCsv(stats: GroundTruthStats): { columns: string[]; rows: (string | number | null)[][] } {
  const rows = stats.strategies.flatMap((s) =>
    s.points.filter((p) => p.value !== null).map((p) => [s.strategy, p.key, p.roles.join(' '), p.label ?? '', p.value, p.score, p.seeds.length]),
  );
  return { columns: ['strategy', 'ordering', 'roles', 'label', stats.variable === 'final' ? 'final_accuracy' : 'aia', 'S', 'seeds'], rows };
}

export interface HistogramLayout {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  /** Per panel: its top, the lanes' y, the plot's top and bottom. */
  panels: { top: number; lanes: { protocol: 'rs' | 'edge'; y: number }[]; plotTop: number; plotBottom: number }[];
  laneHeight: number;
  plotHeight: number;
  /** Gap between a member block and the next one above it (px). */
  blockGap: number;
}

/** Panels stacked vertically: a title line, two protocol lanes, the plot, the axis. */
export function layoutAccuracyHistogram(width: number, panelCount: number, maxCount: number, compact = false): HistogramLayout {
  const margin = { top: 4, right: 14, bottom: 4, left: compact ? 62 : 92 };
  const titleHeight = 20;
  const laneHeight = 28; // a mark and its label above it
  const plotHeight = compact ? 130 : 160;
  const axisHeight = 44;
  const panels = Array.from({ length: panelCount }, (_, i) => {
    const top = margin.top + i * (titleHeight + 2 * laneHeight + 6 + plotHeight + axisHeight);
    const lanes = (['rs', 'edge'] as const).map((protocol, k) => ({ protocol, y: top + titleHeight + k * laneHeight + laneHeight / 2 }));
    const plotTop = top + titleHeight + 2 * laneHeight + 6;
    return { top, lanes, plotTop, plotBottom: plotTop + plotHeight };
  });
  const last = panels[panels.length - 1];
  const height = (last ? last.plotBottom + axisHeight : margin.top) + margin.bottom;
  return { width, height, margin, panels, laneHeight, plotHeight, blockGap: plotHeight / Math.max(1, maxCount) >= 5 ? 1 : 0 };
}

export interface HistogramHandlers {
  variable: AccuracyVariable;
  selectedKey: string | null;
  selectedStrategy: string | null;
  /** "T1 zero, three → …" for a tooltip. */
  describe: (key: string) => string;
  onSelect: (key: string, strategy: string) => void;
}

/** Draw the chart into an <svg> (replaces its content). */
export function drawAccuracyHistogram(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  model: HistogramModel,
  h: HistogramHandlers,
): HistogramLayout {
  const compact = width < 520;
  const L = layoutAccuracyHistogram(width, model.panels.length, model.yMax, compact);
  const svg = freshSvg(svgEl, L.width, L.height);
  const clipId = `gt-hist-clip-${Math.random().toString(36).slice(2, 9)}`;
  const defs = svg.append('defs');

  model.panels.forEach((panel, pi) => {
    const P = L.panels[pi];
    const scale = model.scales[pi];
    const x = scaleLinear()
      .domain(scale.domain)
      .range([L.margin.left, L.width - L.margin.right]);
    const y = scaleLinear().domain([0, model.yMax]).nice().range([P.plotBottom, P.plotTop]);
    const g = svg.append('g').attr('class', 'panel').attr('data-strategy', panel.strategy);
    defs
      .append('clipPath')
      .attr('id', `${clipId}-${pi}`)
      .append('rect')
      .attr('x', L.margin.left)
      .attr('y', P.plotTop)
      .attr('width', L.width - L.margin.left - L.margin.right)
      .attr('height', P.plotBottom - P.plotTop);

    drawPanelTitle(g, L.margin.left, P.top + 14, 13, `${panel.strategy} · ${panel.members.length} ordering${panel.members.length === 1 ? '' : 's'} trained`);

    // protocol lanes
    for (const lane of P.lanes) {
      const m = protocolMark(lane.protocol);
      drawLane(g, L.margin.left, L.width - L.margin.right, lane.y, lane.protocol === 'rs' ? 'RS' : 'EDGE', m.stroke);
      // each mark labelled on the chart (seed 0 / 42 / 1993, hard / easy / median): a lesson talks about them by name.
      // Labels go above their mark, pushed right when they would run into the previous one.
      const laneMarks = panel.marks.filter((k) => (k.role === 'rs' ? 'rs' : 'edge') === lane.protocol).sort((a, b) => a.value - b.value);
      let end = -Infinity;
      for (const mk of laneMarks) {
        const text = mk.label
          .replace(/^RS seed /, 'seed ')
          .replace(/^EDGE /, '')
          .split(' · ')[0];
        const half = (text.length * 5.6) / 2;
        const cx = Math.max(x(mk.value), end + 4 + half);
        end = cx + half;
        g.append('text')
          .attr('class', 'mark-label')
          .attr('x', cx)
          .attr('y', lane.y - 8)
          .attr('text-anchor', 'middle')
          .attr('font-size', 10)
          .attr('fill', roleMark(mk.role).stroke)
          .attr('pointer-events', 'none')
          .text(text);
      }
      for (const mk of laneMarks) {
        const rm = roleMark(mk.role);
        const selected = h.selectedKey === mk.key && h.selectedStrategy === panel.strategy;
        const tipText = `${mk.label}: ${pct(mk.value)}%\n${h.describe(mk.key)}\nclick: its accuracy matrix`;
        const mg = g
          .append('g')
          .attr('class', 'mark')
          .attr('data-key', mk.key)
          .attr('data-role', mk.role)
          .attr('transform', `translate(${x(mk.value)},${lane.y})`)
          .style('cursor', 'pointer')
          .on('mouseenter', (ev: MouseEvent) => showTip(tip, tipText, ev))
          .on('mousemove', (ev: MouseEvent) => showTip(tip, tipText, ev))
          .on('mouseleave', () => showTip(tip, null))
          .on('click', () => h.onSelect(mk.key, panel.strategy));
        drawDropLine(mg, P.plotBottom - lane.y, rm.stroke, 0.3);
        mg.append('path')
          .attr('d', markPath(rm.shape, 6))
          .attr('fill', rm.fill)
          .attr('stroke', selected ? SELECTED_STROKE : rm.stroke)
          .attr('stroke-width', selected ? 2.5 : 1.5);
      }
    }

    // truth: one block per ordering
    const blockH = P.plotBottom - y(1) || 1;
    const bins = model.bins[pi];
    const blocks = bins.flatMap((b) => b.members.map((m, k) => ({ b, m, k })));
    g.append('g')
      .attr('class', 'bars')
      .selectAll('rect')
      .data(blocks)
      .join('rect')
      .attr('class', 'member')
      .attr('data-key', (d) => d.m.key)
      .attr('x', (d) => x(d.b.x0) + 0.5)
      .attr('width', (d) => Math.max(1, x(d.b.x1) - x(d.b.x0) - 1))
      .attr('y', (d) => P.plotBottom - (d.k + 1) * blockH)
      .attr('height', Math.max(0.5, blockH - L.blockGap))
      .attr('fill', (d) => (h.selectedKey === d.m.key && h.selectedStrategy === panel.strategy ? TRUTH_FILL_HOVER : TRUTH_FILL))
      .attr('stroke', (d) => (h.selectedKey === d.m.key && h.selectedStrategy === panel.strategy ? SELECTED_STROKE : null))
      .attr('stroke-width', 2)
      .style('cursor', 'pointer')
      .on('mouseenter', function (ev: MouseEvent, d) {
        select(this).attr('fill', TRUTH_FILL_HOVER);
        showTip(tip, memberTip(d.m, d.b, h), ev);
      })
      .on('mousemove', (ev: MouseEvent, d) => showTip(tip, memberTip(d.m, d.b, h), ev))
      .on('mouseleave', function (_ev, d) {
        if (!(h.selectedKey === d.m.key && h.selectedStrategy === panel.strategy)) select(this).attr('fill', TRUTH_FILL);
        showTip(tip, null);
      })
      .on('click', (_ev, d) => h.onSelect(d.m.key, panel.strategy));

    // the estimates' Gaussians (expected orderings per bin)
    const path = line<{ x: number; y: number }>()
      .x((d) => x(d.x))
      .y((d) => y(d.y));
    for (const [name, gauss] of [
      ['rs', panel.rs],
      ['edge', panel.edge],
    ] as const) {
      if (!gauss) continue;
      const colour = protocolMark(name).stroke;
      const meanLine = () =>
        cg.append('line').attr('x1', x(gauss.mean)).attr('x2', x(gauss.mean)).attr('y1', P.plotBottom).attr('y2', P.plotTop).attr('stroke', colour);
      const pts = gaussianCurve(gauss, panel.members.length, scale.binWidth, scale.domain);
      const cg = g.append('g').attr('class', `estimate estimate-${name}`).attr('clip-path', `url(#${clipId}-${pi})`).style('pointer-events', 'none');
      if (pts) {
        cg.append('path').attr('d', path(pts)).attr('fill', 'none').attr('stroke', colour).attr('stroke-width', 2.5).attr('stroke-linejoin', 'round');
      } else {
        // σ̂ = 0: a point mass, drawn as a spike
        meanLine().attr('stroke-width', 2.5);
      }
      meanLine().attr('stroke-width', 1).attr('stroke-dasharray', '4,3');
      const peak = pts ? Math.max(...pts.map((p) => p.y)) : Infinity;
      if (peak > y.domain()[1]) {
        // the estimate is far narrower than the truth: its peak is cut at the top, say how high it goes (inside the
        // plot, clear of the y axis's tick labels; RS's label one line below EDGE's so the two never overlap)
        drawPeakLabel(
          g,
          name,
          Number.isFinite(peak) ? String(Math.round(peak)) : '∞',
          x(gauss.mean),
          L.margin.left,
          L.width - L.margin.right,
          P.plotTop,
          colour,
        );
      }
    }

    g.append('g')
      .attr('transform', `translate(0,${P.plotBottom})`)
      .call(
        axisBottom(x)
          .ticks(Math.max(3, Math.floor((L.width - L.margin.left) / 70)))
          .tickFormat((d) => (100 * Number(d)).toFixed(scale.domain[1] - scale.domain[0] < 0.05 ? 1 : 0)),
      )
      .attr('font-size', 12);
    g.append('g')
      .attr('transform', `translate(${L.margin.left},0)`)
      .call(
        axisLeft(y)
          .ticks(Math.min(5, Math.max(2, Math.ceil(model.yMax))))
          .tickFormat((d) => (Number.isInteger(Number(d)) ? String(d) : '')),
      )
      .attr('font-size', 12);
    drawAxisTitles(g, {
      x: { text: variableAxisLabel(h.variable), x: (L.margin.left + L.width - L.margin.right) / 2, y: P.plotBottom + 36 },
      y: { text: 'orderings', x: L.margin.left - 34, y: (P.plotTop + P.plotBottom) / 2 },
    });
  });
  return L;
}

function memberTip(m: HistogramMember, b: StackedBin, h: HistogramHandlers): string {
  const lines = [`${pct(m.value)}%${m.label ? ` · ${m.label}` : ''}`, h.describe(m.key)];
  if (m.score !== null) lines.push(`S = ${m.score.toFixed(4)}`);
  lines.push(`bin ${pct(b.x0)}–${pct(b.x1)}%: ${b.members.length} ordering${b.members.length === 1 ? '' : 's'}`, 'click: its accuracy matrix');
  return lines.join('\n');
}
