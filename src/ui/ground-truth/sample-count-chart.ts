/**
 * The sample-count study (docs/science.md §2 "Sample-count study"; EDGE paper App. E.5, Fig. A6): how close the Gaussian
 * estimate gets to the truth (JSD in bits, W1 in accuracy points) as the number of evaluated orderings L grows,
 * for RS (L random orderings; blue circles) and EDGE plus random (EDGE's three orderings and L − 3 random ones;
 * orange triangles), each averaged over seeded repeats. Two panels, JSD and W1; one line per strategy and protocol,
 * strategies told apart by the line's dash (legend in the component). Pure helpers tested in
 * tests/unit/ui/ground-truth-charts.test.ts.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { GroundTruthStats } from '../../core/ground-truth/derive';
import { drawAxisTitles, drawPanelTitle, freshSvg, showTip, type PanelGridLayout } from '../common/chart-kit';
import { protocolMark } from '../orderings/protocol-marks';
import { fixed, markPath } from './format';

export type QualityMetric = 'jsd' | 'w1';

export interface SeriesPoint {
  L: number;
  mean: number;
  std: number;
}

export interface SampleCountSeries {
  strategy: string;
  protocol: 'rs' | 'edge';
  metric: QualityMetric;
  /** The strategy's dash pattern ('' = solid). */
  dash: string;
  points: SeriesPoint[];
}

export interface SampleCountModel {
  series: SampleCountSeries[];
  maxL: number;
  /** y top per metric. */
  yMax: Record<QualityMetric, number>;
  strategies: { strategy: string; dash: string; repeats: number; provisional: boolean; truthCount: number }[];
  /** Strategies without a study, with why. */
  missing: { strategy: string; reason: string }[];
}

export const STRATEGY_DASHES = ['', '7,4', '2,3', '10,3,2,3', '4,4', '1,2'];

/** The study of every strategy that has one, as plottable series. */
export function sampleCountModel(stats: GroundTruthStats): SampleCountModel {
  const series: SampleCountSeries[] = [];
  const strategies: SampleCountModel['strategies'] = [];
  const missing: SampleCountModel['missing'] = [];
  let maxL = 1;
  const yMax: Record<QualityMetric, number> = { jsd: 0, w1: 0 };
  stats.strategies.forEach((s, i) => {
    const study = s.sampleCount.value;
    if (!study) {
      missing.push({ strategy: s.strategy, reason: s.sampleCount.reason ?? '' });
      return;
    }
    const dash = STRATEGY_DASHES[i % STRATEGY_DASHES.length];
    strategies.push({ strategy: s.strategy, dash, repeats: study.repeats, provisional: study.provisional, truthCount: study.truthCount });
    for (const protocol of ['rs', 'edge'] as const) {
      for (const metric of ['jsd', 'w1'] as const) {
        const points: SeriesPoint[] = [];
        for (const p of study.points) {
          const q = p[protocol];
          if (!q) continue;
          const mean = metric === 'jsd' ? q.jsd : q.w1;
          const std = metric === 'jsd' ? q.jsdStd : q.w1Std;
          if (!Number.isFinite(mean)) continue;
          points.push({ L: p.L, mean, std });
          maxL = Math.max(maxL, p.L);
          yMax[metric] = Math.max(yMax[metric], mean);
        }
        if (points.length) series.push({ strategy: s.strategy, protocol, metric, dash, points });
      }
    }
  });
  return { series, maxL, yMax: { jsd: yMax.jsd > 0 ? yMax.jsd * 1.08 : 1, w1: yMax.w1 > 0 ? yMax.w1 * 1.08 : 1 }, strategies, missing };
}

export type SampleCountLayout = PanelGridLayout;

/** JSD and W1 side by side when each gets ≥ 280 px, else stacked. */
export function layoutSampleCount(width: number): SampleCountLayout {
  const columns = width >= 560 ? 2 : 1;
  const panelWidth = Math.floor(width / columns);
  const margin = { top: 24, right: 14, bottom: 42, left: 52 };
  const panelHeight = margin.top + 190 + margin.bottom;
  return { width, height: panelHeight * (columns === 2 ? 1 : 2), columns, panelWidth, panelHeight, margin };
}

export const METRIC_LABEL: Record<QualityMetric, { title: string; axis: string }> = {
  jsd: { title: 'JSD to the truth (lower is better)', axis: 'JSD (bits)' },
  w1: { title: 'W1 to the truth (lower is better)', axis: 'W1 (accuracy points)' },
};

export function drawSampleCount(svgEl: SVGSVGElement, tip: HTMLElement | null | undefined, width: number, model: SampleCountModel): SampleCountLayout {
  const L = layoutSampleCount(width);
  const svg = freshSvg(svgEl, L.width, L.height);
  (['jsd', 'w1'] as const).forEach((metric, i) => {
    const ox = L.columns === 2 ? i * L.panelWidth : 0;
    const oy = L.columns === 2 ? 0 : i * L.panelHeight;
    const { margin } = L;
    const x = scaleLinear()
      .domain([1, Math.max(2, model.maxL)])
      .range([ox + margin.left, ox + L.panelWidth - margin.right]);
    const y = scaleLinear()
      .domain([0, model.yMax[metric]])
      .nice()
      .range([oy + L.panelHeight - margin.bottom, oy + margin.top]);
    const g = svg.append('g').attr('class', 'panel').attr('data-metric', metric);
    drawPanelTitle(g, ox + margin.left, oy + 15, 13, METRIC_LABEL[metric].title);
    g.append('line')
      .attr('x1', x(3))
      .attr('x2', x(3))
      .attr('y1', oy + margin.top)
      .attr('y2', oy + L.panelHeight - margin.bottom)
      .attr('stroke', '#e3e6eb')
      .attr('stroke-dasharray', '3,3');
    g.append('text')
      .attr('x', x(3) + 4)
      .attr('y', oy + margin.top + 10)
      .attr('font-size', 11)
      .attr('fill', '#5b6474')
      .text('L = 3: EDGE alone');
    const path = line<SeriesPoint>()
      .x((d) => x(d.L))
      .y((d) => y(d.mean));
    for (const s of model.series.filter((v) => v.metric === metric)) {
      const colour = protocolMark(s.protocol).stroke;
      const sg = g.append('g').attr('class', `series series-${s.protocol}`).attr('data-strategy', s.strategy);
      sg.append('path')
        .attr('d', path(s.points))
        .attr('fill', 'none')
        .attr('stroke', colour)
        .attr('stroke-width', 2)
        .attr('stroke-dasharray', s.dash || null);
      const tipOf = (p: SeriesPoint) =>
        `${s.strategy} · ${s.protocol === 'rs' ? 'RS' : 'EDGE + random'} · L = ${p.L}\n${METRIC_LABEL[metric].axis}: ${fixed(p.mean, metric === 'jsd' ? 3 : 2)} ± ${fixed(p.std, metric === 'jsd' ? 3 : 2)} (mean ± std over repeats)`;
      sg.selectAll('path.pt')
        .data(s.points)
        .join('path')
        .attr('class', 'pt')
        .attr('d', markPath(s.protocol === 'rs' ? 'circle' : 'up', 5))
        .attr('transform', (p) => `translate(${x(p.L)},${y(p.mean)})`)
        .attr('fill', colour)
        .attr('stroke', '#fff')
        .attr('stroke-width', 0.8)
        .on('mouseenter', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
        .on('mousemove', (ev: MouseEvent, p) => showTip(tip, tipOf(p), ev))
        .on('mouseleave', () => showTip(tip, null));
    }
    const xt = Math.min(model.maxL, Math.max(3, Math.floor((L.panelWidth - margin.left) / 36)));
    g.append('g')
      .attr('transform', `translate(0,${oy + L.panelHeight - margin.bottom})`)
      .call(
        axisBottom(x)
          .ticks(xt)
          .tickFormat((d) => (Number.isInteger(Number(d)) ? String(d) : '')),
      )
      .attr('font-size', 12);
    g.append('g')
      .attr('transform', `translate(${ox + margin.left},0)`)
      .call(axisLeft(y).ticks(5))
      .attr('font-size', 12);
    drawAxisTitles(g, {
      x: { text: 'L, orderings evaluated', x: ox + (margin.left + L.panelWidth - margin.right) / 2, y: oy + L.panelHeight - 8 },
      y: { text: METRIC_LABEL[metric].axis, x: ox + 14, y: oy + (margin.top + L.panelHeight - margin.bottom) / 2 },
    });
  });
  return L;
}

/** The chart's numbers for the ⤓ menu's CSV: one row per strategy, protocol, metric and L. */
export function sampleCountCsv(stats: GroundTruthStats): { columns: string[]; rows: (string | number | null)[][] } {
  const model = sampleCountModel(stats);
  const rows = model.series.flatMap((s) => s.points.map((p) => [s.strategy, s.protocol, s.metric, p.L, p.mean, p.std]));
  return { columns: ['strategy', 'protocol', 'metric', 'L', 'mean', 'std_over_repeats'], rows };
}
