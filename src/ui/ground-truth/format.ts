/**
 * Protocol marks and labels of the Ground-truth lab (docs/design.md: the same mark means the same thing in every
 * chart); the number formats are ../common/format.ts, re-exported here. Pure: tested in
 * tests/unit/ui/ground-truth-charts.test.ts.
 */
import type { AccuracyVariable, OrderingRole } from '../../core/ground-truth/derive';
import { protocolMark } from '../orderings/protocol-marks';

// the shared number formats (percent, fixed, p-value, count, m:ss, the progress line): ../common/format.ts
export { count, duration, fixed, pct, progressText, pValue } from '../common/format';

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

/** Grey of the truth bars (docs/design.md: truth = grey bars). */
export const TRUTH_FILL = '#b8bec9';
export const TRUTH_FILL_HOVER = '#6b7380';
/** The selected ordering's outline. */
export const SELECTED_STROKE = '#d1006f';

/** "0,3|1,5|2,4" with class names: "T1 zero, three → T2 one, five → T3 two, four". */
export function orderingText(tasks: readonly (readonly number[])[], classNames: readonly string[]): string {
  return tasks.map((t, i) => `T${i + 1} ${t.map((c) => classNames[c] ?? String(c)).join(', ')}`).join(' → ');
}
