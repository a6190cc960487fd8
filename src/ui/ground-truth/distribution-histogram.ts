/**
 * The whole distribution's histogram (docs/design.md; docs/science.md §9 "The whole distribution"): hundreds of
 * thousands of orderings as bars of counts — 40 equal bins over [min, max], the counts computed in the worker with
 * numpy's binning — never one mark per ordering. Over it, RS's and EDGE's Gaussian estimates as expected orderings per
 * bin (n · binWidth · pdf, the hero chart's convention), and above it one lane per protocol with a mark per ordering
 * it picked (● RS seed, ▼ EDGE hard, ▲ EDGE easy, ● EDGE median) and a lane of the orders the user placed (◆), each
 * at its value with a dashed line down to the axis. The model is pure (tests/unit/ui/distribution-histogram.test.ts);
 * `drawDistributionHistogram` touches the DOM.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { DistributionReport, GaussianReport, PlacedReport } from '../../core/ptm/distribution-report';
import { normalPdf } from '../../core/stats/gaussian';
import { drawAxes, drawAxisTitles, drawDropLine, drawLane, freshSvg, showTip } from '../common/chart-kit';
import { protocolMark } from '../orderings/protocol-marks';
import { drawPeakLabel } from './accuracy-histogram';
import { count, markPath, pct, roleMark, SELECTED_STROKE, TRUTH_FILL, TRUTH_FILL_HOVER, type MarkShape } from './format';

export type DistributionSide = 'aia' | 'final';

/** The placed orders' mark: ◆ in the selection colour. */
export const YOURS_COLOUR = SELECTED_STROKE;

export interface DistributionBin {
  x0: number;
  x1: number;
  count: number;
}

export interface DistributionMarker {
  lane: 'rs' | 'edge' | 'yours';
  /** short text over the mark ("seed 0", "hard", "yours") */
  text: string;
  /** the whole label, for the tooltip */
  label: string;
  value: number;
  percentile: number;
  shape: MarkShape | 'diamond';
  colour: string;
}

export interface DistributionChartModel {
  side: DistributionSide;
  /** orderings summarised */
  total: number;
  exact: boolean;
  bins: DistributionBin[];
  binWidth: number;
  /** x domain (fractions): the bins, the marks and each Gaussian's μ ± 2.5σ, padded */
  domain: [number, number];
  /** the tallest bar */
  maxCount: number;
  /** y domain top: the tallest bar, or a Gaussian's peak up to 1.4 × that */
  yMax: number;
  markers: DistributionMarker[];
  gaussians: { protocol: 'rs' | 'edge'; mean: number; sd: number }[];
  /** the lanes drawn, top to bottom */
  lanes: ('rs' | 'edge' | 'yours')[];
}

/** "1.8e5"-free axis counts: 12 000 → "12 000" (thin space), as the tables print them. */
export const countTick = (v: number): string => (Number.isInteger(v) ? count(v) : '');

function markerOf(lane: 'rs' | 'edge', p: PlacedReport, side: DistributionSide): DistributionMarker {
  const role = lane === 'rs' ? 'rs' : p.label === 'EDGE hard' ? 'edge-hard' : p.label === 'EDGE easy' ? 'edge-easy' : 'edge-median';
  const m = roleMark(role);
  const text = p.label
    .replace(/^RS seed /, 'seed ')
    .replace(/^EDGE /, '')
    .replace(/ \(seed \d+\)$/, '');
  return {
    lane,
    text,
    label: p.label,
    value: side === 'aia' ? p.aia : p.final,
    percentile: side === 'aia' ? p.percentile : p.finalPercentile,
    shape: m.shape,
    colour: m.stroke,
  };
}

/** The chart of one side (AIA or final accuracy) of a report, with the orders placed (`places`, labelled `yours`). */
export function distributionChartModel(
  report: DistributionReport,
  side: DistributionSide,
  places: readonly { text: string; placed: PlacedReport }[] = [],
): DistributionChartModel {
  const s = report.summary[side];
  const { edges, counts } = s.histogram;
  const bins = counts.map((c, i) => ({ x0: edges[i], x1: edges[i + 1], count: c }));
  const binWidth = edges.length > 1 ? edges[1] - edges[0] : 0;
  const markers: DistributionMarker[] = [
    ...(report.rs?.orderings ?? []).map((p) => markerOf('rs', p, side)),
    ...(report.edge?.orderings ?? []).map((p) => markerOf('edge', p, side)),
    ...places.map(({ text, placed }) => ({
      lane: 'yours' as const,
      text,
      label: placed.label,
      value: side === 'aia' ? placed.aia : placed.final,
      percentile: side === 'aia' ? placed.percentile : placed.finalPercentile,
      shape: 'diamond' as const,
      colour: YOURS_COLOUR,
    })),
  ];
  const gaussians: DistributionChartModel['gaussians'] = [];
  for (const [protocol, g] of [
    ['rs', report.rs?.[side]],
    ['edge', report.edge?.[side]],
  ] as ['rs' | 'edge', GaussianReport | undefined][]) {
    if (g && g.sd > 0) gaussians.push({ protocol, mean: g.mean, sd: g.sd });
  }
  let lo = s.min;
  let hi = s.max;
  for (const m of markers) {
    lo = Math.min(lo, m.value);
    hi = Math.max(hi, m.value);
  }
  for (const g of gaussians) {
    lo = Math.min(lo, g.mean - 2.5 * g.sd);
    hi = Math.max(hi, g.mean + 2.5 * g.sd);
  }
  const pad = Math.max(0.002, (hi - lo) * 0.03);
  const domain: [number, number] = [Math.max(0, lo - pad), Math.min(1, hi + pad)];
  const maxCount = Math.max(1, ...counts);
  let peak = maxCount;
  for (const g of gaussians) peak = Math.max(peak, (s.count * binWidth) / (g.sd * Math.sqrt(2 * Math.PI)));
  const lanes = (['rs', 'edge', 'yours'] as const).filter((l) => markers.some((m) => m.lane === l));
  return {
    side,
    total: s.count,
    exact: report.summary.exact,
    bins,
    binWidth,
    domain,
    maxCount,
    yMax: Math.min(peak, 1.4 * maxCount),
    markers,
    gaussians,
    lanes,
  };
}

/** Expected orderings per bin under N(μ, σ²) across the domain: n · binWidth · pdf(x). */
export function expectedCurve(
  g: { mean: number; sd: number },
  n: number,
  binWidth: number,
  domain: [number, number],
  samples = 160,
): { x: number; y: number }[] {
  const pts: { x: number; y: number }[] = [];
  for (let i = 0; i <= samples; i++) {
    const x = domain[0] + ((domain[1] - domain[0]) * i) / samples;
    pts.push({ x, y: n * binWidth * normalPdf(x, { mean: g.mean, std: g.sd }) });
  }
  return pts;
}

/**
 * Labels of one lane's marks, left to right, each pushed right of the one before (`charWidth` px a character):
 * the x of each label's centre, in the order of `xs` (ascending).
 */
export function laneLabelXs(xs: readonly number[], texts: readonly string[], charWidth = 5.6, gap = 4): number[] {
  let end = -Infinity;
  return xs.map((x, i) => {
    const half = (texts[i].length * charWidth) / 2;
    const cx = Math.max(x, end + gap + half);
    end = cx + half;
    return cx;
  });
}

/** The chart's numbers for the ⤓ menu's CSV: the bins and the marks. */
export function distributionCsv(model: DistributionChartModel): { columns: string[]; rows: (string | number | null)[][] } {
  const rows: (string | number | null)[][] = model.bins.map((b) => ['bin', b.x0, b.x1, b.count, null, null]);
  for (const m of model.markers) rows.push([m.lane, m.value, m.value, null, m.label, m.percentile]);
  return { columns: ['kind', 'from', 'to', 'orderings', 'label', 'percentile'], rows };
}

export interface DistributionLayout {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  lanes: { lane: 'rs' | 'edge' | 'yours'; y: number }[];
  plotTop: number;
  plotBottom: number;
}

export function layoutDistribution(width: number, laneCount: number, compact = false): DistributionLayout {
  const margin = { top: 6, right: 14, bottom: 4, left: compact ? 66 : 78 };
  const laneHeight = 26;
  const plotTop = margin.top + laneCount * laneHeight + 6;
  const plotBottom = plotTop + (compact ? 140 : 170);
  const lanes = ['rs', 'edge', 'yours']
    .slice(0, laneCount)
    .map((lane, k) => ({ lane: lane as 'rs' | 'edge' | 'yours', y: margin.top + k * laneHeight + laneHeight / 2 + 4 }));
  return { width, height: plotBottom + 44 + margin.bottom, margin, lanes, plotTop, plotBottom };
}

function markD(shape: MarkShape | 'diamond', r: number): string {
  if (shape !== 'diamond') return markPath(shape, r);
  return `M0,${-r}L${r * 0.8},0L0,${r}L${-r * 0.8},0Z`;
}

/** Draw the chart into an <svg> (replaces its content). */
export function drawDistributionHistogram(
  svgEl: SVGSVGElement,
  tip: HTMLElement | null | undefined,
  width: number,
  model: DistributionChartModel,
  axisLabel: string,
): DistributionLayout {
  const compact = width < 520;
  const L = layoutDistribution(width, model.lanes.length, compact);
  const svg = freshSvg(svgEl, L.width, L.height);
  const x = scaleLinear()
    .domain(model.domain)
    .range([L.margin.left, L.width - L.margin.right]);
  const y = scaleLinear().domain([0, model.yMax]).nice().range([L.plotBottom, L.plotTop]);
  const clipId = `wd-clip-${Math.random().toString(36).slice(2, 9)}`;
  svg
    .append('defs')
    .append('clipPath')
    .attr('id', clipId)
    .append('rect')
    .attr('x', L.margin.left)
    .attr('y', L.plotTop)
    .attr('width', L.width - L.margin.left - L.margin.right)
    .attr('height', L.plotBottom - L.plotTop);

  // the truth: bars of counts
  const share = (c: number) => `${((100 * c) / Math.max(1, model.total)).toFixed(c > 0 && c / model.total < 0.001 ? 3 : 1)}%`;
  const barTip = (b: DistributionBin) =>
    `${pct(b.x0)}–${pct(b.x1)}%: ${count(b.count)} ordering${b.count === 1 ? '' : 's'} (${share(b.count)} of ${count(model.total)}${model.exact ? '' : ' sampled'})`;
  svg
    .append('g')
    .attr('class', 'bars')
    .selectAll('rect')
    .data(model.bins)
    .join('rect')
    .attr('class', 'bin')
    .attr('data-count', (b) => b.count)
    .attr('x', (b) => x(b.x0) + 0.5)
    .attr('width', (b) => Math.max(1, x(b.x1) - x(b.x0) - 1))
    .attr('y', (b) => y(b.count))
    .attr('height', (b) => Math.max(0, L.plotBottom - y(b.count)))
    .attr('fill', TRUTH_FILL)
    .on('mouseenter', function (ev: MouseEvent, b) {
      (this as SVGRectElement).setAttribute('fill', TRUTH_FILL_HOVER);
      showTip(tip, barTip(b), ev);
    })
    .on('mousemove', (ev: MouseEvent, b) => showTip(tip, barTip(b), ev))
    .on('mouseleave', function () {
      (this as SVGRectElement).setAttribute('fill', TRUTH_FILL);
      showTip(tip, null);
    });

  // the protocols' Gaussians, as expected orderings per bin
  const path = line<{ x: number; y: number }>()
    .x((d) => x(d.x))
    .y((d) => y(d.y));
  for (const g of model.gaussians) {
    const colour = protocolMark(g.protocol).stroke;
    const cg = svg.append('g').attr('class', `estimate estimate-${g.protocol}`).attr('clip-path', `url(#${clipId})`).style('pointer-events', 'none');
    cg.append('path')
      .attr('d', path(expectedCurve(g, model.total, model.binWidth, model.domain)))
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 2.5);
    cg.append('line')
      .attr('x1', x(g.mean))
      .attr('x2', x(g.mean))
      .attr('y1', L.plotBottom)
      .attr('y2', L.plotTop)
      .attr('stroke', colour)
      .attr('stroke-dasharray', '4,3');
    // a Gaussian far narrower than the truth is cut at the top: say how high it goes
    const peak = (model.total * model.binWidth) / (g.sd * Math.sqrt(2 * Math.PI));
    if (peak > y.domain()[1]) drawPeakLabel(svg, g.protocol, count(peak), x(g.mean), L.margin.left, L.width - L.margin.right, L.plotTop, colour);
  }

  // the lanes: a mark per ordering placed, labelled
  for (const lane of L.lanes) {
    const colour = lane.lane === 'yours' ? YOURS_COLOUR : protocolMark(lane.lane).stroke;
    drawLane(svg, L.margin.left, L.width - L.margin.right, lane.y, lane.lane === 'rs' ? 'RS' : lane.lane === 'edge' ? 'EDGE' : 'Yours', colour);
    const marks = model.markers.filter((m) => m.lane === lane.lane).sort((a, b) => a.value - b.value);
    const xs = laneLabelXs(
      marks.map((m) => x(m.value)),
      marks.map((m) => m.text),
    );
    marks.forEach((m, i) => {
      svg
        .append('text')
        .attr('class', 'mark-label')
        .attr('x', xs[i])
        .attr('y', lane.y - 8)
        .attr('text-anchor', 'middle')
        .attr('font-size', 10)
        .attr('fill', m.colour)
        .text(m.text);
      const text = `${m.label}: ${pct(m.value)}% · percentile ${m.percentile.toFixed(1)}`;
      const g = svg
        .append('g')
        .attr('class', `mark mark-${m.lane}`)
        .attr('transform', `translate(${x(m.value)},${lane.y})`)
        .on('mouseenter', (ev: MouseEvent) => showTip(tip, text, ev))
        .on('mousemove', (ev: MouseEvent) => showTip(tip, text, ev))
        .on('mouseleave', () => showTip(tip, null));
      drawDropLine(g, L.plotBottom - lane.y, m.colour, 0.45);
      g.append('path').attr('d', markD(m.shape, 6)).attr('fill', m.colour).attr('stroke', m.colour).attr('stroke-width', 1.5);
    });
  }

  const span = model.domain[1] - model.domain[0];
  drawAxes(
    svg,
    { left: L.margin.left, bottom: L.height - L.plotBottom },
    L.height,
    (g) =>
      void g.call(
        axisBottom(x)
          .ticks(Math.max(3, Math.floor((L.width - L.margin.left) / 70)))
          .tickFormat((d) => (100 * Number(d)).toFixed(span < 0.05 ? 1 : 0)),
      ),
    (g) =>
      void g.call(
        axisLeft(y)
          .ticks(5)
          .tickFormat((d) => countTick(Number(d))),
      ),
    12,
  );
  drawAxisTitles(svg, {
    x: { text: axisLabel, x: (L.margin.left + L.width - L.margin.right) / 2, y: L.plotBottom + 36 },
    y: { text: 'orderings', x: 12, y: (L.plotTop + L.plotBottom) / 2 },
  });
  return L;
}
