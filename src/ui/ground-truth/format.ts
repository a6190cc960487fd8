/**
 * Number formats and protocol marks of the Ground-truth lab (DESIGN.md: percentages with one decimal, counts with
 * thin-space thousands, the same mark means the same thing in every chart). Pure: tested in
 * tests/unit/ui/ground-truth-charts.test.ts.
 */
import type { AccuracyVariable, OrderingRole } from '../../core/ground-truth/derive';
import { protocolMark } from '../orderings/protocol-marks';

/** A fraction as a percentage with `digits` decimals ("62.3"); "–" for null/NaN. */
export function pct(v: number | null | undefined, digits = 1): string {
  return typeof v === 'number' && Number.isFinite(v) ? (100 * v).toFixed(digits) : '–';
}

/** A number with `digits` decimals and a true minus sign; "–" for null/NaN. */
export function fixed(v: number | null | undefined, digits = 3): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits).replace(/^-/, '−') : '–';
}

/** A p-value: three significant decimals, "< 0.001" below that. */
export function pValue(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return '–';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

/** A count with thin-space thousands (2 520). */
export function count(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function duration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * The progress line: "37 / 90 orderings · 0:41 left" when every ordering is one run (one strategy, one seed),
 * else "74 / 180 runs (90 orderings × 2) · 1:20 left".
 */
export function progressText(done: number, total: number, runsPerOrdering: number, etaSeconds: number | null): string {
  const perOrdering = Math.max(1, runsPerOrdering);
  const head =
    perOrdering === 1
      ? `${count(done)} / ${count(total)} orderings`
      : `${count(done)} / ${count(total)} runs (${count(Math.round(total / perOrdering))} orderings × ${perOrdering})`;
  return etaSeconds === null || done >= total ? head : `${head} · ${duration(etaSeconds)} left`;
}

/** The axis label of A(O). */
export function variableAxisLabel(v: AccuracyVariable): string {
  return v === 'final' ? 'final accuracy (%)' : 'average incremental accuracy (%)';
}

/** "Final accuracy" / "Average incremental accuracy" (for titles). */
export function variableTitle(v: AccuracyVariable): string {
  return v === 'final' ? 'Final accuracy' : 'Average incremental accuracy';
}

export type MarkShape = 'down' | 'up' | 'circle';

/** How a protocol ordering is marked: ▼ EDGE hard (aims at min S), ▲ EDGE easy, ● RS and EDGE median. */
export interface RoleMark {
  protocol: 'rs' | 'edge';
  shape: MarkShape;
  fill: string;
  stroke: string;
  name: string;
}

export function roleMark(role: Exclude<OrderingRole, 'truth'>): RoleMark {
  const protocol = role === 'rs' ? 'rs' : 'edge';
  const m = protocolMark(protocol);
  const shape: MarkShape = role === 'edge-hard' ? 'down' : role === 'edge-easy' ? 'up' : 'circle';
  const name = role === 'rs' ? 'RS' : role === 'edge-hard' ? 'EDGE hard' : role === 'edge-easy' ? 'EDGE easy' : 'EDGE median';
  return { protocol, shape, fill: m.fill, stroke: m.stroke, name };
}

/** SVG path of a mark of radius r centred at 0,0. */
export function markPath(shape: MarkShape, r = 6): string {
  const f = (v: number) => String(Math.round(v * 100) / 100);
  if (shape === 'down') return `M${f(-r)},${f(-r * 0.7)}L${f(r)},${f(-r * 0.7)}L0,${f(r * 0.9)}Z`;
  if (shape === 'up') return `M${f(-r)},${f(r * 0.7)}L${f(r)},${f(r * 0.7)}L0,${f(-r * 0.9)}Z`;
  const c = f(r * 0.75);
  return `M${c},0A${c},${c} 0 1,1 -${c},0A${c},${c} 0 1,1 ${c},0Z`;
}

/** Grey of the truth bars (DESIGN.md: truth = grey bars). */
export const TRUTH_FILL = '#b8bec9';
export const TRUTH_FILL_HOVER = '#6b7380';
/** The selected ordering's outline. */
export const SELECTED_STROKE = '#d1006f';

/** "0,3|1,5|2,4" with class names: "T1 zero, three → T2 one, five → T3 two, four". */
export function orderingText(tasks: readonly (readonly number[])[], classNames: readonly string[]): string {
  return tasks.map((t, i) => `T${i + 1} ${t.map((c) => classNames[c] ?? String(c)).join(', ')}`).join(' → ');
}
