/**
 * Drawing logic of the "S over Ω" chart (docs/architecture.md: a chart's d3 code lives in a plain .ts beside its
 * component). Grey bars = the distribution of S over every ordering (or a uniform sample, labelled so); above them
 * one lane per protocol with a mark per ordering: ▼ aims at hard (min S), ▲ at easy (max S), ● random.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import type { ScoreDistribution } from '../../core/orderings/score-distribution';
import type { SequenceReport } from '../../core/protocols/types';
import { drawDropLine, drawLane, freshSvg } from '../common/chart-kit';
import { protocolMark } from './protocol-marks';

export interface HistogramLayout {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  lanes: { protocol: string; name: string; y: number; marks: SequenceReport[] }[];
  laneHeight: number;
  plotTop: number;
  plotBottom: number;
  domain: [number, number];
  xTitle: string;
}

const LANE_ORDER = ['rs', 'edge', 'edge+', 'as', 'ms', 'exact'];

/** Pure layout: which lanes, where, and the x domain covering the histogram and every mark. */
export function layoutScoreHistogram(width: number, dist: ScoreDistribution, sequences: SequenceReport[]): HistogramLayout {
  const laneHeight = 18;
  const protocols = LANE_ORDER.filter((p) => sequences.some((s) => s.protocol === p));
  const names = protocols.map((p) => protocolMark(p).name.replace(/ \(.*\)$/, ''));
  // the lane labels sit left of the plot, right-aligned: the margin fits the longest (12 px text, ≤ 7 px a character),
  // so "Exact extreme of S" is not cut at the figure's edge (cut at 390 px)
  const margin = { top: 8, right: 16, bottom: 44, left: Math.max(64, 8 + 7 * Math.max(0, ...names.map((n) => n.length)) + 4) };
  const lanes = protocols.map((p, i) => ({
    protocol: p,
    name: names[i],
    y: margin.top + i * laneHeight + laneHeight / 2,
    marks: sequences.filter((s) => s.protocol === p),
  }));
  const plotTop = margin.top + lanes.length * laneHeight + 8;
  const plotHeight = 150;
  const lo = Math.min(dist.min, ...sequences.map((s) => s.score));
  const hi = Math.max(dist.max, ...sequences.map((s) => s.score));
  const pad = (hi - lo) * 0.02 || 0.01;
  return {
    width,
    height: plotTop + plotHeight + margin.bottom,
    margin,
    lanes,
    laneHeight,
    plotTop,
    plotBottom: plotTop + plotHeight,
    domain: [lo - pad, hi + pad],
    // the x axis's title, shorter where the full one would not fit under the plot
    xTitle: width - margin.left - margin.right >= 330 ? 'S, similarity of adjacent tasks (paper Eq. 5)  →  easier' : 'S (paper Eq. 5)  →  easier',
  };
}

function symbolPath(aim: SequenceReport['aim'], r = 6): string {
  if (aim === 'hard') return `M${-r},${-r * 0.7}L${r},${-r * 0.7}L0,${r * 0.9}Z`;
  if (aim === 'easy') return `M${-r},${r * 0.7}L${r},${r * 0.7}L0,${-r * 0.9}Z`;
  return `M${r * 0.75},0A${r * 0.75},${r * 0.75} 0 1,1 ${-r * 0.75},0A${r * 0.75},${r * 0.75} 0 1,1 ${r * 0.75},0Z`;
}

function pct(f: number | undefined): string {
  return f === undefined ? '' : `, lower S than ${(100 * (1 - f)).toFixed(1)}% of orderings`;
}

/** Draw into an <svg> element (replaces its content). */
export function drawScoreHistogram(svgEl: SVGSVGElement, width: number, dist: ScoreDistribution, sequences: SequenceReport[]): void {
  const L = layoutScoreHistogram(width, dist, sequences);
  const svg = freshSvg(svgEl, L.width, L.height);
  const x = scaleLinear()
    .domain(L.domain)
    .range([L.margin.left, L.width - L.margin.right]);
  const maxCount = Math.max(...dist.bins.map((b) => b.count));
  const y = scaleLinear().domain([0, maxCount]).nice().range([L.plotBottom, L.plotTop]);

  // lanes: a label, a faint guide, one mark per ordering
  const lane = svg.append('g').attr('class', 'lanes');
  for (const l of L.lanes) {
    const m = protocolMark(l.protocol);
    drawLane(lane, L.margin.left, L.width - L.margin.right, l.y, l.name, '#1d2330');
    for (const s of l.marks) {
      const g = lane
        .append('g')
        .attr('transform', `translate(${x(s.score)},${l.y})`)
        .attr('data-label', s.label);
      drawDropLine(g, L.plotBottom - l.y, m.stroke, 0.35);
      g.append('path').attr('d', symbolPath(s.aim)).attr('fill', m.fill).attr('stroke', m.stroke).attr('stroke-width', 1.5);
      g.append('title').text(`${s.label}: S = ${s.score.toFixed(4)}${pct(s.fractionBelow)}`);
    }
  }

  // the distribution: grey bars
  svg
    .append('g')
    .attr('class', 'bars')
    .selectAll('rect')
    .data(dist.bins)
    .join('rect')
    .attr('x', (b) => x(b.x0) + 0.5)
    .attr('width', (b) => Math.max(1, x(b.x1) - x(b.x0) - 1))
    .attr('y', (b) => y(b.count))
    .attr('height', (b) => L.plotBottom - y(b.count))
    .attr('fill', '#b8bec9')
    .append('title')
    .text((b) => `S ${b.x0.toFixed(4)} – ${b.x1.toFixed(4)}: ${b.count.toLocaleString('en')} orderings`);

  svg
    .append('g')
    .attr('transform', `translate(0,${L.plotBottom})`)
    .call(axisBottom(x).ticks(Math.max(3, Math.floor(width / 90))))
    .attr('font-size', 12);
  svg
    .append('g')
    .attr('transform', `translate(${L.margin.left},0)`)
    .call(
      axisLeft(y)
        .ticks(4)
        .tickFormat((d) => Number(d).toLocaleString('en')),
    )
    .attr('font-size', 12);
  svg
    .append('text')
    .attr('x', (L.margin.left + L.width - L.margin.right) / 2)
    .attr('y', L.height - 8)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text(L.xTitle);
  svg
    .append('text')
    .attr('transform', `translate(${L.margin.left - 44},${(L.plotTop + L.plotBottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text(dist.kind === 'exact' ? 'orderings' : 'orderings in sample');
}
