/**
 * The Your-classes lab's per-class bars and matrix cells (pure): the accuracy on every class after the last update,
 * the best it had before, and whether it was forgotten; R as rounded percentages with the class names as headers.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { forgettingPerTask, FORGETTING_WORDS } from '../../core/own-classes/verdict';
import type { OrderingsOverview } from '../../core/own-classes/order-states';
import type { OwnOrderingsResult } from '../../core/own-classes/orders';
import type { CsvTable } from '../common/chart-export';
import { accuracyBlue, drawAxisTitles, drawMatrixFrame, freshSvg, showTip, squareBands } from '../common/chart-kit';

export interface ClassBar {
  name: string;
  /** accuracy now, 0–1, and as the label says it */
  accuracy: number;
  label: string;
  /** its best accuracy before the last step (null for the newest class) */
  before: number | null;
  forgotten: boolean;
}

const pct = (x: number): string => `${Math.round(x * 100)} %`;

export function classBars(matrix: readonly (readonly number[])[], classes: readonly string[]): ClassBar[] {
  const K = matrix.length;
  if (K === 0) return [];
  const f = forgettingPerTask(matrix);
  return classes.slice(0, K).map((name, j) => {
    const before = j < K - 1 ? Math.max(...matrix.slice(j, K - 1).map((r) => r[j])) : null;
    return { name, accuracy: matrix[K - 1][j], label: pct(matrix[K - 1][j]), before, forgotten: f[j] >= FORGETTING_WORDS };
  });
}

/** R's cells as text: '' above the diagonal (classes not taught yet). */
export function matrixCells(matrix: readonly (readonly number[])[]): string[][] {
  return matrix.map((row, i) => row.map((x, j) => (j > i ? '' : pct(x))));
}

/**
 * A histogram of a number over orderings (final accuracy or AIA, 0–1): 20 bins over the range the values span
 * (widened to at least 5 points so a narrow spread still reads), counts per bin, and the bin of the taught order.
 */
export interface OrderingsHistogram {
  lo: number;
  hi: number;
  bins: number[];
  taughtBin: number;
}

export function orderingsHistogram(values: ArrayLike<number>, taught: number, binCount = 20): OrderingsHistogram {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    min = Math.min(min, values[i]);
    max = Math.max(max, values[i]);
  }
  min = Math.min(min, taught);
  max = Math.max(max, taught);
  const pad = Math.max(0, 0.05 - (max - min)) / 2;
  const lo = Math.max(0, Math.floor((min - pad) * 100) / 100);
  const hi = Math.min(1, Math.max(lo + 0.01, Math.ceil((max + pad) * 100) / 100));
  const bin = (x: number) => Math.max(0, Math.min(binCount - 1, Math.floor(((x - lo) / (hi - lo)) * binCount + 1e-9)));
  const bins = new Array<number>(binCount).fill(0);
  for (let i = 0; i < values.length; i++) bins[bin(values[i])]++;
  return { lo, hi, bins, taughtBin: bin(taught) };
}

/** The values the histogram shows: AIA for a closed-form head, final accuracy for a trained one. */
export function histogramValues(r: OwnOrderingsResult): { values: Float64Array; taught: number; label: string } {
  return r.metric === 'aia'
    ? { values: r.overview.aias, taught: r.overview.taught.aia, label: 'average incremental accuracy, AIA (%)' }
    : { values: r.overview.finals, taught: r.overview.taught.final, label: 'final accuracy (%)' };
}

/** The histogram's numbers as CSV: one row per bin. */
export function histogramCsv(h: OrderingsHistogram, label: string): CsvTable {
  const w = (h.hi - h.lo) / h.bins.length;
  return {
    columns: ['bin_from_pct', 'bin_to_pct', 'orderings', 'taught_order_here', 'metric'],
    rows: h.bins.map((n, k) => [round1(100 * (h.lo + k * w)), round1(100 * (h.lo + (k + 1) * w)), n, k === h.taughtBin ? 'yes' : '', label]),
  };
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

/** The histogram as bars: x the metric (%), y orderings, the taught order's bin outlined and marked "yours". */
export function drawOrderingsHistogram(
  svgEl: SVGSVGElement,
  tip: HTMLElement | undefined,
  width: number,
  h: OrderingsHistogram,
  label: string,
  overview: Pick<OrderingsOverview, 'exact'>,
): void {
  const m = { top: 14, right: 12, bottom: 44, left: 56 };
  const height = 200;
  const svg = freshSvg(svgEl, width, height);
  const x = scaleLinear()
    .domain([h.lo * 100, h.hi * 100])
    .range([m.left, width - m.right]);
  const maxN = Math.max(1, ...h.bins);
  const y = scaleLinear()
    .domain([0, maxN])
    .nice()
    .range([height - m.bottom, m.top]);
  const w = (h.hi - h.lo) / h.bins.length;
  h.bins.forEach((n, k) => {
    const x0 = x(100 * (h.lo + k * w));
    const x1 = x(100 * (h.lo + (k + 1) * w));
    svg
      .append('rect')
      .attr('class', k === h.taughtBin ? 'bin taught' : 'bin')
      .attr('x', x0 + 0.5)
      .attr('width', Math.max(1, x1 - x0 - 1))
      .attr('y', y(n))
      .attr('height', y(0) - y(n))
      .attr('fill', k === h.taughtBin ? '#E69F00' : '#56B4E9')
      .attr('stroke', k === h.taughtBin ? '#1d2330' : 'none')
      .on('mousemove', (ev: MouseEvent) =>
        showTip(
          tip,
          `${round1(100 * (h.lo + k * w))}–${round1(100 * (h.lo + (k + 1) * w))} %: ${n.toLocaleString('en')} orderings${k === h.taughtBin ? ' (yours is here)' : ''}`,
          ev,
        ),
      )
      .on('mouseleave', () => showTip(tip, null));
  });
  const tx = x(100 * (h.lo + (h.taughtBin + 0.5) * w));
  svg
    .append('text')
    .attr('x', tx)
    .attr('y', m.top - 2)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', '#1d2330')
    .text('yours');
  // whole percentages only (a narrow range would otherwise repeat a rounded label)
  const ticks = x.ticks(Math.max(2, Math.floor((width - m.left) / 60))).filter((v) => Number.isInteger(v));
  svg
    .append('g')
    .attr('transform', `translate(0,${height - m.bottom})`)
    .call(
      axisBottom(x)
        .tickValues(ticks.length >= 2 ? ticks : [Math.ceil(h.lo * 100), Math.floor(h.hi * 100)])
        .tickFormat((d) => String(d)),
    );
  svg.append('g').attr('transform', `translate(${m.left},0)`).call(axisLeft(y).ticks(4, 's'));
  drawAxisTitles(svg, {
    x: { x: (m.left + width - m.right) / 2, y: height - 8, text: label },
    y: { x: 14, y: (m.top + height - m.bottom) / 2, text: overview.exact ? 'orderings' : 'sampled orderings' },
  });
}

/** R as a heat map (many classes: a table would not fit): row i after teaching class i, column j tested on class j. */
export function drawOwnHeat(
  svgEl: SVGSVGElement,
  tip: HTMLElement | undefined,
  width: number,
  matrix: readonly (readonly number[])[],
  names: readonly string[],
): void {
  const K = matrix.length;
  const left = 64;
  const top = 8;
  const size = Math.max(160, Math.min(width - left - 12, 560));
  const height = top + size + 104;
  const svg = freshSvg(svgEl, width, height);
  const { idx, x, y } = squareBands(K, left, top, size);
  // one path per colour step of 5 points (a hundred classes are 5 050 cells: one element each would take the page
  // a long time to lay out again), and one transparent box that finds the cell under the pointer
  const step = x.bandwidth();
  const paths = new Map<number, string[]>();
  for (let i = 0; i < K; i++)
    for (let j = 0; j <= i; j++) {
      const level = Math.round(matrix[i][j] * 20);
      if (!paths.has(level)) paths.set(level, []);
      paths.get(level)!.push(`M${x(j)!.toFixed(2)},${y(i)!.toFixed(2)}h${step.toFixed(2)}v${step.toFixed(2)}h${(-step).toFixed(2)}z`);
    }
  const g = svg.append('g').attr('class', 'cells');
  for (const [level, d] of [...paths].sort((a, b) => a[0] - b[0]))
    g.append('path')
      .attr('class', 'cell-level')
      .attr('data-level', level * 5)
      .attr('d', d.join(''))
      .attr('fill', accuracyBlue(level / 20));
  svg
    .append('rect')
    .attr('class', 'hover')
    .attr('x', left)
    .attr('y', top)
    .attr('width', size)
    .attr('height', size)
    .attr('fill', 'transparent')
    .on('mousemove', (ev: MouseEvent) => {
      const r = (ev.currentTarget as SVGRectElement).getBoundingClientRect();
      const j = Math.floor(((ev.clientX - r.left) / r.width) * K);
      const i = Math.floor(((ev.clientY - r.top) / r.height) * K);
      if (i < 0 || j < 0 || i >= K || j > i) return showTip(tip, null);
      showTip(tip, `after “${names[i]}” (class ${i + 1}), tested on “${names[j]}” (class ${j + 1}): ${Math.round(matrix[i][j] * 100)} %`, ev);
    })
    .on('mouseleave', () => showTip(tip, null));
  const every = Math.max(1, Math.ceil(K / Math.max(2, Math.floor(size / 28))));
  // every `every`-th class and the last, unless the last would crowd the one before it
  const ticks = idx.filter((k) => k % every === 0 || (k === K - 1 && (K - 1) % every >= every / 2));
  svg
    .append('g')
    .attr('transform', `translate(0,${top + size})`)
    .call(
      axisBottom(x)
        .tickValues(ticks)
        .tickFormat((d) => String(Number(d) + 1)),
    );
  svg
    .append('g')
    .attr('transform', `translate(${left},0)`)
    .call(
      axisLeft(y)
        .tickValues(ticks)
        .tickFormat((d) => String(Number(d) + 1)),
    );
  drawMatrixFrame(
    svg,
    { left, top, size, rowTitleX: 14 },
    { columns: 'tested on class j (in teaching order)', rows: 'after teaching class i', legend: 'accuracy R[i][j] (%), in steps of 5' },
  );
}

/** R's cells as CSV (the heat map's and the table's numbers). */
export function matrixCsv(matrix: readonly (readonly number[])[], names: readonly string[]): CsvTable {
  const rows: (string | number)[][] = [];
  matrix.forEach((row, i) => row.forEach((v, j) => j <= i && rows.push([i + 1, names[i], j + 1, names[j], v])));
  return { columns: ['after_class', 'after_name', 'tested_on_class', 'tested_on_name', 'accuracy'], rows };
}

export interface ProtocolRow {
  /** 'Truth', 'EDGE hard · images', 'RS seed 0', … */
  label: string;
  kind: 'truth' | 'taught' | 'edge' | 'edge-names' | 'rs';
  /** the class order in words (the truth: how many orderings) */
  order: string;
  /** its final accuracy and AIA, "final · AIA" (the truth: their ranges) */
  accuracy: string;
}

/**
 * The orderings view's table: the truth's range (or the sample's), the taught order, EDGE's two orderings on the
 * image prototypes (and on the class names' CLIP text embeddings, when there are some) and RS's, each with its final
 * accuracy and AIA (long orders cut to their first classes).
 */
export function protocolRows(r: OwnOrderingsResult, names: readonly string[]): ProtocolRow[] {
  const o = r.overview;
  const order = (x: readonly number[]) =>
    x.length > 8
      ? `${x
          .slice(0, 4)
          .map((c) => names[c])
          .join(' → ')} → … (${x.length} classes)`
      : x.map((c) => names[c]).join(' → ');
  const both = (p: { final: number; aia: number }) => `${pct(p.final)} · ${pct(p.aia)}`;
  const range = (a: { min: number; max: number }) => (pct(a.min) === pct(a.max) ? `${pct(a.min)} in all` : `${pct(a.min)} – ${pct(a.max)}`);
  const edgeRows = (e: NonNullable<OwnOrderingsResult['namesEdge']>, kind: 'edge' | 'edge-names', basis: string): ProtocolRow[] => [
    { label: `EDGE hard · ${basis}`, kind, order: order(e.hard.order), accuracy: both(e.hard) },
    { label: `EDGE easy · ${basis}`, kind, order: order(e.easy.order), accuracy: both(e.easy) },
  ];
  const taught = Array.from({ length: names.length }, (_, k) => k);
  return [
    {
      label: o.exact ? 'Truth' : 'Sample',
      kind: 'truth',
      order: o.exact ? `all ${o.orderings.toLocaleString('en')} orderings` : `${o.orderings.toLocaleString('en')} orderings drawn at random`,
      accuracy: `${range(o.final)} · ${range(o.aia)}`,
    },
    { label: 'Yours', kind: 'taught', order: order(taught), accuracy: both(o.taught) },
    ...edgeRows(r.edge, 'edge', 'images'),
    ...(r.namesEdge ? edgeRows(r.namesEdge, 'edge-names', 'names') : []),
    ...r.rs.map((x): ProtocolRow => ({ label: `RS seed ${x.seed}`, kind: 'rs', order: order(x.order), accuracy: both(x) })),
  ];
}
