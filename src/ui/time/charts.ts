/**
 * The Time lab's charts (docs/science.md §4, §7): pure models and CSV rows (tested in tests/unit/ui/time-charts.test.ts)
 * and d3 drawing into an <svg>.
 *
 * - heat map of R: row = trained through bucket i, column = tested on bucket j; the diagonal (in-domain) outlined
 *   solid, the super-diagonal (next-domain) dashed; the cells a protocol does not use as a test greyed.
 * - protocols: in-domain vs next-domain averages, iid beside streaming (the paper's central claim).
 * - distance: mean accuracy against test distance j − i, one line per protocol.
 * - composition: the training buffer's make-up by source bucket after every bucket, one small panel per α.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { cellUsed, type DistancePoint, type StreamMetrics, type StreamProtocol } from '../../core/stream/metrics';
import { alphaLabel, type AlphaSpec } from '../../core/stream/reservoir';
import { accuracyBlue, drawAxes, drawAxisTitles, drawMatrixFrame, freshSvg, groupedBands, pct, showTip } from '../common/chart-kit';
import type { CsvTable } from '../common/chart-export';
import { taskColours } from '../common/palette';

export const PROTOCOL_STYLE: Readonly<Record<StreamProtocol, { colour: string; dash: string; name: string }>> = {
  iid: { colour: '#0072B2', dash: '', name: 'iid (70/30 split of each bucket)' },
  streaming: { colour: '#D55E00', dash: '6,3', name: 'streaming (train on bucket i, test on i+1)' },
};

const GREY = '#e3e6eb';

/* ---------- heat map of R ---------- */

export interface HeatCell {
  i: number;
  j: number;
  value: number;
  /** a test the protocol uses (else greyed: training data under streaming) */
  used: boolean;
  diagonal: boolean;
  superDiagonal: boolean;
}

/** Cells of R (rows 0..rows−1 of a K×K matrix; a live run has fewer rows). */
export function heatCells(R: number[][], protocol: StreamProtocol): HeatCell[] {
  const out: HeatCell[] = [];
  R.forEach((row, i) => row.forEach((value, j) => out.push({ i, j, value, used: cellUsed(protocol, i, j), diagonal: i === j, superDiagonal: j === i + 1 })));
  return out;
}

export function heatCsv(R: number[][], protocol: StreamProtocol): CsvTable {
  return {
    columns: ['trained_through_bucket', 'tested_on_bucket', 'accuracy', 'protocol', 'used_as_test'],
    rows: heatCells(R, protocol).map((c) => [c.i + 1, c.j + 1, c.value, protocol, c.used ? 'yes' : 'no (training data)']),
  };
}

export function cellTip(c: HeatCell, protocol: StreamProtocol): string {
  const what = c.diagonal ? 'in-domain' : c.superDiagonal ? 'next-domain' : c.j > c.i ? `${c.j - c.i} buckets ahead` : `${c.i - c.j} buckets back`;
  const note = c.used ? '' : '\ngreyed: the streaming protocol trained on this bucket, so it is not a test';
  return `trained through bucket ${c.i + 1}, tested on bucket ${c.j + 1} (${what})\naccuracy ${pct(c.value)} %  ·  ${protocol}${note}`;
}

export function layoutHeat(width: number, K: number): { size: number; cell: number; left: number; top: number; height: number } {
  const left = 62;
  const top = 10;
  const size = Math.max(120, Math.min(width - left - 10, 40 * K + 40, 420));
  return { size, cell: size / K, left, top, height: top + size + 110 };
}

export function drawHeat(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, R: number[][], K: number, protocol: StreamProtocol): void {
  const L = layoutHeat(width, K);
  const svg = freshSvg(svgEl, width, L.height);
  const idx = Array.from({ length: K }, (_, k) => k);
  const x = scaleBand<number>()
    .domain(idx)
    .range([L.left, L.left + L.size]);
  const y = scaleBand<number>()
    .domain(idx)
    .range([L.top, L.top + L.size]);
  const g = svg.append('g');
  for (const c of heatCells(R, protocol)) {
    const fill = c.used ? accuracyBlue(c.value) : GREY;
    g.append('rect')
      .attr('class', c.used ? 'cell' : 'cell unused')
      .attr('x', x(c.j) as number)
      .attr('y', y(c.i) as number)
      .attr('width', x.bandwidth())
      .attr('height', y.bandwidth())
      .attr('fill', fill)
      .attr('stroke', '#fff')
      .on('mousemove', (ev: MouseEvent) => showTip(tip, cellTip(c, protocol), ev))
      .on('mouseleave', () => showTip(tip, null));
    if (x.bandwidth() >= 28) {
      g.append('text')
        .attr('x', (x(c.j) as number) + x.bandwidth() / 2)
        .attr('y', (y(c.i) as number) + y.bandwidth() / 2 + 4)
        .attr('text-anchor', 'middle')
        .attr('font-size', 10)
        .attr('pointer-events', 'none')
        .attr('fill', c.used ? (c.value > 0.6 ? '#fff' : '#1d2330') : '#7b8494')
        .text(pct(c.value, 0));
    }
  }
  // the outlines: diagonal solid, super-diagonal dashed
  for (let i = 0; i < K; i++) {
    for (const [j, dash, colour] of [
      [i, '', '#1d2330'],
      [i + 1, '4,2', '#D55E00'],
    ] as [number, string, string][]) {
      if (j >= K) continue;
      g.append('rect')
        .attr('class', j === i ? 'outline-diag' : 'outline-super')
        .attr('x', (x(j) as number) + 1)
        .attr('y', (y(i) as number) + 1)
        .attr('width', x.bandwidth() - 2)
        .attr('height', y.bandwidth() - 2)
        .attr('fill', 'none')
        .attr('stroke', colour)
        .attr('stroke-width', 2)
        .attr('stroke-dasharray', dash)
        .attr('pointer-events', 'none');
    }
  }
  svg
    .append('g')
    .attr('transform', `translate(0,${L.top + L.size})`)
    .call(axisBottom(x).tickFormat((d) => String(Number(d) + 1)));
  svg
    .append('g')
    .attr('transform', `translate(${L.left},0)`)
    .call(axisLeft(y).tickFormat((d) => String(Number(d) + 1)));
  drawMatrixFrame(
    svg,
    { left: L.left, top: L.top, size: L.size, rowTitleX: 16 },
    { columns: 'tested on bucket j (time →)', rows: 'trained through bucket i', legend: 'accuracy R[i][j] (%)' },
  );
}

/* ---------- iid vs streaming: in-domain and next-domain ---------- */

export interface ProtocolBar {
  protocol: StreamProtocol;
  metric: 'inDomain' | 'nextDomain';
  /** null: the protocol cannot measure it (streaming's in-domain is training data) */
  value: number | null;
}

export const BAR_METRICS: readonly ('inDomain' | 'nextDomain')[] = ['inDomain', 'nextDomain'];
export const BAR_METRIC_NAMES = { inDomain: 'In-domain average (diagonal)', nextDomain: 'Next-domain average (super-diagonal)' } as const;

export function protocolBars(metrics: Partial<Record<StreamProtocol, StreamMetrics>>): ProtocolBar[] {
  const out: ProtocolBar[] = [];
  for (const metric of BAR_METRICS) {
    for (const protocol of ['iid', 'streaming'] as const) {
      const m = metrics[protocol];
      if (m) out.push({ protocol, metric, value: m[metric] });
    }
  }
  return out;
}

export function barsCsv(metrics: Partial<Record<StreamProtocol, StreamMetrics>>): CsvTable {
  const keys = ['inDomain', 'nextDomain', 'backwardTransfer', 'forwardTransfer', 'accuracy'] as const;
  return {
    columns: ['protocol', ...keys.map((k) => `${k}_average`)],
    rows: (['iid', 'streaming'] as const).filter((p) => metrics[p]).map((p) => [p, ...keys.map((k) => (metrics[p] as StreamMetrics)[k])]),
  };
}

export function drawBars(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, bars: ProtocolBar[]): void {
  const height = 260;
  const m = { top: 14, right: 10, bottom: 44, left: 52 };
  const svg = freshSvg(svgEl, width, height);
  const { outer: x0, inner: x1 } = groupedBands(BAR_METRICS as string[], ['iid', 'streaming'], m.left, width - m.right);
  const y = scaleLinear()
    .domain([0, 100])
    .range([height - m.bottom, m.top]);
  const xAxis = axisBottom(x0).tickFormat((d) => (d === 'inDomain' ? 'In-domain (diagonal)' : 'Next-domain (super-diagonal)'));
  drawAxes(svg, m, height, xAxis, axisLeft(y).ticks(5));
  drawAxisTitles(svg, { y: { x: 14, y: (height - m.bottom + m.top) / 2, text: 'average accuracy (%)' } });
  for (const b of bars) {
    const bx = (x0(b.metric) as number) + (x1(b.protocol) as number);
    const st = PROTOCOL_STYLE[b.protocol];
    if (b.value === null) {
      svg
        .append('rect')
        .attr('class', 'bar na')
        .attr('x', bx)
        .attr('y', y(100))
        .attr('width', x1.bandwidth())
        .attr('height', y(0) - y(100))
        .attr('fill', 'none')
        .attr('stroke', GREY)
        .attr('stroke-dasharray', '3,3')
        .on('mousemove', (ev: MouseEvent) => showTip(tip, `${b.protocol}: no in-domain test — the streaming protocol trains on all of each bucket`, ev))
        .on('mouseleave', () => showTip(tip, null));
      svg
        .append('text')
        .attr('x', bx + x1.bandwidth() / 2)
        .attr('y', y(50))
        .attr('text-anchor', 'middle')
        .attr('font-size', 10)
        .attr('fill', '#7b8494')
        .attr('transform', `rotate(-90 ${bx + x1.bandwidth() / 2} ${y(50)})`)
        .text('not measurable (training data)');
      continue;
    }
    svg
      .append('rect')
      .attr('class', 'bar')
      .attr('x', bx)
      .attr('y', y(100 * b.value))
      .attr('width', x1.bandwidth())
      .attr('height', y(0) - y(100 * b.value))
      .attr('fill', st.colour)
      .on('mousemove', (ev: MouseEvent) => showTip(tip, `${st.name}\n${BAR_METRIC_NAMES[b.metric]}: ${pct(b.value)} %`, ev))
      .on('mouseleave', () => showTip(tip, null));
    svg
      .append('text')
      .attr('x', bx + x1.bandwidth() / 2)
      .attr('y', y(100 * b.value) - 3)
      .attr('text-anchor', 'middle')
      .attr('font-size', 11)
      .text(pct(b.value));
  }
}

/* ---------- accuracy against test distance ---------- */

export function distanceCsv(series: Partial<Record<StreamProtocol, DistancePoint[]>>): CsvTable {
  const rows: (string | number)[][] = [];
  for (const p of ['iid', 'streaming'] as const) for (const d of series[p] ?? []) rows.push([p, d.distance, d.mean, d.count]);
  return { columns: ['protocol', 'distance_j_minus_i', 'mean_accuracy', 'cells'], rows };
}

/** The x range of the distance chart: every distance any series has, at least −1..1. */
export function distanceDomain(series: Partial<Record<StreamProtocol, DistancePoint[]>>): [number, number] {
  const all = Object.values(series).flatMap((s) => (s ?? []).map((d) => d.distance));
  return [Math.min(-1, ...all), Math.max(1, ...all)];
}

export function drawDistance(
  svgEl: SVGSVGElement,
  tip: HTMLElement | undefined,
  width: number,
  series: Partial<Record<StreamProtocol, DistancePoint[]>>,
): void {
  const height = 260;
  const m = { top: 14, right: 14, bottom: 44, left: 52 };
  const svg = freshSvg(svgEl, width, height);
  const [lo, hi] = distanceDomain(series);
  const x = scaleLinear()
    .domain([lo, hi])
    .range([m.left, width - m.right]);
  const y = scaleLinear()
    .domain([0, 100])
    .range([height - m.bottom, m.top]);
  const xAxis = axisBottom(x)
    .ticks(hi - lo)
    .tickFormat((d) => String(d).replace('-', '−'));
  drawAxes(svg, m, height, xAxis, axisLeft(y).ticks(5));
  svg
    .append('line')
    .attr('x1', x(0))
    .attr('x2', x(0))
    .attr('y1', m.top)
    .attr('y2', height - m.bottom)
    .attr('stroke', '#b9c0cc')
    .attr('stroke-dasharray', '2,3');
  drawAxisTitles(svg, {
    x: { x: (m.left + width - m.right) / 2, y: height - 8, text: 'test distance j − i (buckets; > 0 = the future)' },
    y: { x: 14, y: (height - m.bottom + m.top) / 2, text: 'mean accuracy (%)' },
  });
  for (const p of ['iid', 'streaming'] as const) {
    const pts = series[p];
    if (!pts || pts.length === 0) continue;
    const st = PROTOCOL_STYLE[p];
    const path = line<DistancePoint>()
      .x((d) => x(d.distance))
      .y((d) => y(100 * d.mean));
    svg
      .append('path')
      .attr('class', `series-${p}`)
      .attr('d', path(pts))
      .attr('fill', 'none')
      .attr('stroke', st.colour)
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', st.dash);
    for (const d of pts) {
      svg
        .append('circle')
        .attr('class', 'pt')
        .attr('cx', x(d.distance))
        .attr('cy', y(100 * d.mean))
        .attr('r', 4)
        .attr('fill', st.colour)
        .on('mousemove', (ev: MouseEvent) =>
          showTip(tip, `${p}: j − i = ${d.distance}\nmean accuracy ${pct(d.mean)} % over ${d.count} cell${d.count === 1 ? '' : 's'}`, ev),
        )
        .on('mouseleave', () => showTip(tip, null));
    }
  }
}

/* ---------- the buffer's composition by source bucket ---------- */

export interface CompositionPanel {
  label: string;
  /** shares[t][j]: share of the buffer after bucket t that comes from bucket j (rows sum to 1, or 0 when empty) */
  shares: number[][];
}

export function compositionPanel(label: string, composition: number[][]): CompositionPanel {
  return {
    label,
    shares: composition.map((row) => {
      const n = row.reduce((a, b) => a + b, 0);
      return row.map((c) => (n > 0 ? c / n : 0));
    }),
  };
}

export function sweepPanels(sweep: { alpha: AlphaSpec; composition: number[][] }[]): CompositionPanel[] {
  return sweep.map((s) => compositionPanel(alphaLabel(s.alpha), s.composition));
}

export function compositionCsv(panels: CompositionPanel[]): CsvTable {
  const rows: (string | number)[][] = [];
  for (const p of panels) p.shares.forEach((row, t) => row.forEach((s, j) => rows.push([p.label, t + 1, j + 1, s])));
  return { columns: ['buffer', 'after_bucket', 'from_bucket', 'share'], rows };
}

/** Panels in 2 (phone) or 4 columns, and room under them for the legend (K swatches of 72 px, wrapping). */
export function layoutPanels(width: number, n: number, K = 5): { cols: number; pw: number; ph: number; height: number } {
  const cols = width < 520 ? 2 : 4;
  const pw = Math.floor(width / cols);
  const ph = 150;
  const legendRows = Math.ceil(K / Math.max(1, Math.floor((width - 8) / 72))) + (width < 520 ? 2 : 1);
  return { cols, pw, ph, height: Math.ceil(n / cols) * ph + 14 + 16 * legendRows };
}

export function drawComposition(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, panels: CompositionPanel[], K: number): void {
  const L = layoutPanels(width, panels.length, K);
  const svg = freshSvg(svgEl, width, L.height);
  const colours = taskColours(K);
  const m = { top: 18, right: 8, bottom: 30, left: 36 };
  panels.forEach((p, k) => {
    const ox = (k % L.cols) * L.pw;
    const oy = Math.floor(k / L.cols) * L.ph;
    const g = svg.append('g').attr('class', 'panel').attr('transform', `translate(${ox},${oy})`);
    const x = scaleBand<number>()
      .domain(Array.from({ length: K }, (_, t) => t))
      .range([m.left, L.pw - m.right])
      .padding(0.15);
    const y = scaleLinear()
      .domain([0, 1])
      .range([L.ph - m.bottom, m.top]);
    g.append('text').attr('x', m.left).attr('y', 12).attr('font-size', 11).attr('font-weight', 600).text(p.label);
    drawAxes(
      g,
      m,
      L.ph,
      axisBottom(x)
        .tickFormat((d) => String(Number(d) + 1))
        .tickSizeOuter(0),
      axisLeft(y)
        .ticks(2)
        .tickFormat((d) => `${Math.round(100 * Number(d))}%`),
      9,
    );
    p.shares.forEach((row, t) => {
      let acc = 0;
      row.forEach((s, j) => {
        if (s <= 0) return;
        g.append('rect')
          .attr('class', 'seg')
          .attr('x', x(t) as number)
          .attr('width', x.bandwidth())
          .attr('y', y(acc + s))
          .attr('height', y(acc) - y(acc + s))
          .attr('fill', colours[j])
          .on('mousemove', (ev: MouseEvent) => showTip(tip, `${p.label}\nafter bucket ${t + 1}: ${pct(s)} % of the buffer from bucket ${j + 1}`, ev))
          .on('mouseleave', () => showTip(tip, null));
        acc += s;
      });
    });
  });
  // the legend under the panels: what the axes are, then one swatch per source bucket (wrapping on a phone)
  const perRow = Math.max(1, Math.floor((width - 8) / 72));
  const ly = Math.ceil(panels.length / L.cols) * L.ph + 14;
  const notes =
    width < 520
      ? ['x: after bucket t · y: share of the buffer (%)', 'colour: the bucket a sample came from']
      : ['x: after bucket t · y: share of the buffer (%) · colour: the bucket a sample came from'];
  notes.forEach((t, q) =>
    svg
      .append('text')
      .attr('x', 4)
      .attr('y', ly + 12 * q)
      .attr('font-size', 11)
      .attr('fill', '#5b6372')
      .text(t),
  );
  const sy = ly + 12 * notes.length;
  colours.forEach((c, j) => {
    const lx = 4 + (j % perRow) * 72;
    const yy = sy + Math.floor(j / perRow) * 16;
    svg
      .append('rect')
      .attr('class', 'legend-swatch')
      .attr('x', lx)
      .attr('y', yy - 1)
      .attr('width', 12)
      .attr('height', 12)
      .attr('fill', c);
    svg
      .append('text')
      .attr('x', lx + 16)
      .attr('y', yy + 9)
      .attr('font-size', 11)
      .text(`bucket ${j + 1}`);
  });
}
