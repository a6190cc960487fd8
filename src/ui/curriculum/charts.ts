/**
 * The Curriculum lab's charts (docs/science.md §8): pure layout and CSV rows (tested in
 * tests/unit/ui/curriculum-charts.test.ts) and d3 drawing into an <svg>.
 *
 * - lead: a bar per strategy and scenario for M2I and for I2M (ACC, %), ACC₀ as a black tick on each bar;
 * - distribution: ACC of every order as a dot (one band per scenario), ACC₀ of the same order as a hollow ring;
 *   M2I and I2M coloured and named;
 * - gain: ACC − ACC₀ of every order (percentage points), orders sorted by ACC₀;
 * - heat map: R of one order (row = after training the i-th dataset, column = tested on a dataset).
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear, type NumberValue } from 'd3-scale';
import { interpolateBlues } from 'd3-scale-chromatic';
import { drawAxes, drawAxisTitles, drawColorLegend, freshSvg, groupedBands, pct, showTip, squareBands } from '../common/chart-kit';
import type { CsvTable } from '../common/chart-export';
import type { LeadRow, OrderPoint, Scenario } from './results';

export const ORDER_STYLE = {
  m2i: { colour: '#0072B2', name: 'M2I (easy → hard)' },
  i2m: { colour: '#D55E00', name: 'I2M (hard → easy)' },
  other: { colour: '#9aa3ad', name: 'another order' },
} as const;
export const ACC0_COLOUR = '#111';

const styleOf = (p: OrderPoint) => (p.m2i ? ORDER_STYLE.m2i : p.i2m ? ORDER_STYLE.i2m : ORDER_STYLE.other);
const SCEN_SHORT: Record<Scenario, string> = { cil: 'CIL', til: 'TIL' };

/** Axis titles in words with units, through the kit's drawAxisTitles: x centred under the plot at y = xTitleY, y along its left edge. */
function titles(
  svg: ReturnType<typeof freshSvg>,
  xText: string,
  yText: string,
  m: { left: number; right: number; top: number; bottom: number },
  width: number,
  height: number,
  xTitleY: number,
): void {
  drawAxisTitles(svg.append('g'), {
    x: { text: xText, x: (m.left + width - m.right) / 2, y: xTitleY },
    y: { text: yText, x: 14, y: (m.top + height - m.bottom) / 2 },
  });
}

/** a share in [0, 1] as a tick in percent, no unit (the axis title has it) */
const percentTick = (v: NumberValue) => `${Math.round(100 * Number(v))}`;

/* ---------- M2I vs I2M bars ---------- */

export interface LeadBar {
  group: string;
  which: 'm2i' | 'i2m';
  acc: number;
  acc0: number;
  label: string;
}

export function leadBars(rows: readonly LeadRow[]): LeadBar[] {
  return rows.flatMap((r) =>
    (['m2i', 'i2m'] as const).map((which) => ({
      group: `${r.strategy} · ${SCEN_SHORT[r.scenario]}`,
      which,
      acc: r[which].acc,
      acc0: r[which].acc0,
      label: r[which].label,
    })),
  );
}

export function leadCsv(rows: readonly LeadRow[]): CsvTable {
  return {
    columns: ['strategy', 'scenario', 'order', 'datasets', 'acc', 'acc0', 'acc_minus_acc0', 'bwt', 'fwt'],
    rows: rows.flatMap((r) =>
      (['m2i', 'i2m'] as const).map((w) => [r.strategy, r.scenario, w, r[w].label, r[w].acc, r[w].acc0, r[w].gain, r[w].bwt ?? '', r[w].fwt ?? '']),
    ),
  };
}

export function drawLead(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, rows: readonly LeadRow[]): void {
  const height = 300;
  const m = { left: 56, right: 10, top: 14, bottom: 64 };
  const svg = freshSvg(svgEl, width, height);
  const bars = leadBars(rows);
  const groups = [...new Set(bars.map((b) => b.group))];
  const { outer: x, inner } = groupedBands(groups, ['m2i', 'i2m'], m.left, width - m.right);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - m.bottom, m.top]);
  drawAxes(svg, m, height, axisBottom(x), axisLeft(y).ticks(5).tickFormat(percentTick));
  titles(svg, 'strategy · scenario', 'ACC (%)', m, width, height, height - 30);
  for (const b of bars) {
    const x0 = (x(b.group) ?? 0) + (inner(b.which) ?? 0);
    const tipText = `${ORDER_STYLE[b.which].name} · ${b.group}\n${b.label}\nACC ${pct(b.acc)} %  ·  ACC₀ ${pct(b.acc0)} %  ·  ACC − ACC₀ ${pct(b.acc - b.acc0)} points`;
    svg
      .append('rect')
      .attr('class', `bar ${b.which}`)
      .attr('x', x0)
      .attr('width', inner.bandwidth())
      .attr('y', y(b.acc))
      .attr('height', y(0) - y(b.acc))
      .attr('fill', ORDER_STYLE[b.which].colour)
      .on('mousemove', (ev: MouseEvent) => showTip(tip, tipText, ev))
      .on('mouseleave', () => showTip(tip, null));
    svg
      .append('line')
      .attr('class', 'acc0')
      .attr('x1', x0 - 2)
      .attr('x2', x0 + inner.bandwidth() + 2)
      .attr('y1', y(b.acc0))
      .attr('y2', y(b.acc0))
      .attr('stroke', ACC0_COLOUR)
      .attr('stroke-width', 3)
      .on('mousemove', (ev: MouseEvent) => showTip(tip, tipText, ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}

/* ---------- distribution of ACC over every order ---------- */

/** Dots stacked in bins of `bin` (ACC units) so equal values do not hide each other: the stack level of each point. */
export function stackLevels(values: readonly number[], bin: number): number[] {
  const seen = new Map<number, number>();
  return values.map((v) => {
    const b = Math.round(v / bin);
    const k = seen.get(b) ?? 0;
    seen.set(b, k + 1);
    return k;
  });
}

export function distributionCsv(points: readonly OrderPoint[]): CsvTable {
  return {
    columns: ['strategy', 'scenario', 'order', 'acc', 'acc0', 'acc_minus_acc0', 'bwt', 'fwt', 'is_m2i', 'is_i2m'],
    rows: points.map((p) => [p.strategy, p.scenario, p.label, p.acc, p.acc0, p.gain, p.bwt ?? '', p.fwt ?? '', p.m2i ? 'yes' : 'no', p.i2m ? 'yes' : 'no']),
  };
}

const pointTip = (p: OrderPoint): string =>
  `${p.label}\n${SCEN_SHORT[p.scenario]} · ${p.strategy}${p.m2i ? ' · M2I' : p.i2m ? ' · I2M' : ''}\nACC ${pct(p.acc)} %  ·  ACC₀ ${pct(p.acc0)} %  ·  ACC − ACC₀ ${pct(p.gain)} points`;

export function drawDistribution(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, points: readonly OrderPoint[]): void {
  const scenarios = [...new Set(points.map((p) => p.scenario))];
  const bandH = 120;
  const m = { left: 56, right: 14, top: 10, bottom: 46 };
  const height = m.top + bandH * Math.max(1, scenarios.length) + m.bottom;
  const svg = freshSvg(svgEl, width, height);
  const lo = Math.min(...points.map((p) => Math.min(p.acc, p.acc0)), 1);
  const hi = Math.max(...points.map((p) => Math.max(p.acc, p.acc0)), 0);
  const pad = Math.max(0.02, (hi - lo) * 0.08);
  const x = scaleLinear()
    .domain([Math.max(0, lo - pad), Math.min(1, hi + pad)])
    .range([m.left, width - m.right])
    .nice();
  const band = scaleBand<string>()
    .domain(scenarios)
    .range([m.top, m.top + bandH * scenarios.length])
    .padding(0.1);
  const yAxis = axisLeft(band).tickFormat((s) => SCEN_SHORT[s as Scenario]);
  drawAxes(svg, m, height, axisBottom(x).ticks(6).tickFormat(percentTick), yAxis);
  titles(svg, width < 520 ? 'accuracy (%)' : 'accuracy (%) — dot: ACC of an order, ring: its ACC₀', 'scenario', m, width, height, height - 8);
  const bin = (x.domain()[1] - x.domain()[0]) / 60;
  for (const s of scenarios) {
    const ps = points.filter((p) => p.scenario === s);
    const top = band(s) ?? 0;
    const mid = top + band.bandwidth() / 2;
    const accLv = stackLevels(
      ps.map((p) => p.acc),
      bin,
    );
    const acc0Lv = stackLevels(
      ps.map((p) => p.acc0),
      bin,
    );
    ps.forEach((p, i) => {
      const st = styleOf(p);
      svg
        .append('circle')
        .attr('class', 'acc0-ring')
        .attr('cx', x(p.acc0))
        .attr('cy', mid + 8 + 6 * acc0Lv[i])
        .attr('r', 3.5)
        .attr('fill', 'none')
        .attr('stroke', p.m2i || p.i2m ? st.colour : ACC0_COLOUR)
        .attr('stroke-width', 1.2)
        .on('mousemove', (ev: MouseEvent) => showTip(tip, pointTip(p), ev))
        .on('mouseleave', () => showTip(tip, null));
      svg
        .append('circle')
        .attr('class', `acc-dot${p.m2i ? ' m2i' : p.i2m ? ' i2m' : ''}`)
        .attr('cx', x(p.acc))
        .attr('cy', mid - 8 - 6 * accLv[i])
        .attr('r', p.m2i || p.i2m ? 5 : 3.5)
        .attr('fill', st.colour)
        .on('mousemove', (ev: MouseEvent) => showTip(tip, pointTip(p), ev))
        .on('mouseleave', () => showTip(tip, null));
      if (p.m2i || p.i2m) {
        svg
          .append('text')
          .attr('x', x(p.acc))
          .attr('y', top + 12)
          .attr('text-anchor', 'middle')
          .attr('font-size', 11)
          .attr('fill', st.colour)
          .text(p.m2i ? 'M2I' : 'I2M');
      }
    });
    svg
      .append('line')
      .attr('x1', m.left)
      .attr('x2', width - m.right)
      .attr('y1', mid)
      .attr('y2', mid)
      .attr('stroke', '#e3e6eb');
  }
}

/* ---------- ACC − ACC₀ per order ---------- */

export function gainOrder(points: readonly OrderPoint[]): OrderPoint[] {
  return [...points].sort((a, b) => a.acc0 - b.acc0 || a.label.localeCompare(b.label));
}

/** A short tick label of an order: its datasets' initials ("Di Fa Fo"; emoji datasets by their category). */
export function shortOrder(label: string): string {
  return label
    .split(' → ')
    .map((name) => name.replace(/^Emoji /, '').slice(0, 2))
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join(' ');
}

export function drawGain(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, points: readonly OrderPoint[]): void {
  const height = 260;
  const m = { left: 56, right: 10, top: 12, bottom: 46 };
  const svg = freshSvg(svgEl, width, height);
  const scenarios = [...new Set(points.map((p) => p.scenario))];
  const orders = [...new Set(gainOrder(points.filter((p) => p.scenario === scenarios[0])).map((p) => p.label))];
  const x = scaleBand<string>()
    .domain(orders)
    .range([m.left, width - m.right])
    .padding(0.15);
  const inner = scaleBand<string>().domain(scenarios).range([0, x.bandwidth()]).padding(0.05);
  const ext = Math.max(0.05, ...points.map((p) => Math.abs(p.gain)));
  const y = scaleLinear()
    .domain([-ext, ext])
    .range([height - m.bottom, m.top])
    .nice();
  const xAxis = axisBottom(x).tickFormat((l) => (x.bandwidth() >= 40 ? shortOrder(String(l)) : ''));
  const axes = drawAxes(svg, m, height, xAxis, axisLeft(y).ticks(5).tickFormat(percentTick));
  axes.x.selectAll('text').attr('font-size', 9);
  svg
    .append('line')
    .attr('x1', m.left)
    .attr('x2', width - m.right)
    .attr('y1', y(0))
    .attr('y2', y(0))
    .attr('stroke', '#333');
  titles(
    svg,
    width < 520 ? 'orders, by ACC₀ (hover a bar)' : 'orders (initials of their datasets), sorted by ACC₀ — hover a bar',
    'ACC − ACC₀ (points)',
    m,
    width,
    height,
    height - 10,
  );
  for (const p of points) {
    const x0 = (x(p.label) ?? 0) + (inner(p.scenario) ?? 0);
    svg
      .append('rect')
      .attr('class', 'gain-bar')
      .attr('x', x0)
      .attr('width', inner.bandwidth())
      .attr('y', Math.min(y(0), y(p.gain)))
      .attr('height', Math.abs(y(p.gain) - y(0)))
      .attr('fill', styleOf(p).colour)
      .attr('opacity', p.scenario === 'til' ? 0.55 : 1)
      .on('mousemove', (ev: MouseEvent) => showTip(tip, pointTip(p), ev))
      .on('mouseleave', () => showTip(tip, null));
  }
}

/* ---------- heat map of R ---------- */

export function heatCsv(p: OrderPoint, datasets: readonly string[]): CsvTable {
  return {
    columns: ['after_training_task', 'after_training_dataset', 'tested_task', 'tested_dataset', 'accuracy', 'scenario'],
    rows: p.matrix.flatMap((row, i) => row.map((v, j) => [i + 1, datasets[p.order[i]], j + 1, datasets[p.order[j]], v, p.scenario])),
  };
}

export function drawHeat(svgEl: SVGSVGElement, tip: HTMLElement | undefined, width: number, p: OrderPoint, names: readonly string[]): void {
  const K = p.matrix.length;
  const left = 120;
  const top = 10;
  const size = Math.max(140, Math.min(width - left - 10, 60 * K + 20, 380));
  const height = top + size + 110;
  const svg = freshSvg(svgEl, width, height);
  const { x, y } = squareBands(K, left, top, size);
  const nameAt = (k: number) => names[p.order[k]];
  p.matrix.forEach((row, i) =>
    row.forEach((v, j) => {
      const text = `after training task ${i + 1} (${nameAt(i)}), tested on task ${j + 1} (${nameAt(j)})\naccuracy ${pct(v)} %${j > i ? ' — not trained yet' : ''}`;
      svg
        .append('rect')
        .attr('class', 'cell')
        .attr('x', x(j) ?? 0)
        .attr('y', y(i) ?? 0)
        .attr('width', x.bandwidth())
        .attr('height', y.bandwidth())
        .attr('fill', interpolateBlues(0.08 + 0.85 * v))
        .attr('stroke', i === j ? '#111' : '#fff')
        .attr('stroke-width', i === j ? 2 : 1)
        .on('mousemove', (ev: MouseEvent) => showTip(tip, text, ev))
        .on('mouseleave', () => showTip(tip, null));
      if (x.bandwidth() >= 34)
        svg
          .append('text')
          .attr('x', (x(j) ?? 0) + x.bandwidth() / 2)
          .attr('y', (y(i) ?? 0) + y.bandwidth() / 2 + 4)
          .attr('text-anchor', 'middle')
          .attr('font-size', 11)
          .attr('fill', v > 0.55 ? '#fff' : '#111')
          .attr('pointer-events', 'none')
          .text(pct(v));
    }),
  );
  svg
    .append('g')
    .attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).tickFormat((k) => `${Number(k) + 1}. ${nameAt(Number(k))}`));
  svg
    .append('g')
    .attr('transform', `translate(0,${top + size})`)
    .call(axisBottom(x).tickFormat((k) => `${Number(k) + 1}`));
  svg
    .append('text')
    .attr('x', left + size / 2)
    .attr('y', top + size + 34)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text('tested on task (the datasets in training order)');
  svg
    .append('text')
    .attr('x', 12)
    .attr('y', top + size / 2)
    .attr('font-size', 12)
    .attr('transform', `rotate(-90 12 ${top + size / 2})`)
    .attr('text-anchor', 'middle')
    .text('after training task');
  drawColorLegend(svg, {
    x: left,
    y: top + size + 50,
    width: Math.min(size, 220),
    height: 10,
    domain: [0, 1],
    interpolator: (t) => interpolateBlues(0.08 + 0.85 * t),
    title: 'accuracy (%)',
    format: (v) => `${Math.round(100 * v)}`,
  });
}
