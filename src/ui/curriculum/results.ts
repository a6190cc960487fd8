/**
 * The Curriculum lab's numbers from its stored results (docs/science.md §8): every trained order read as CIL and as
 * TIL, with the paper's ACC, BWT, FWT, the artefact baseline ACC₀ and ACC − ACC₀ (src/core/curriculum/metrics.ts).
 * Pure; tested in tests/unit/ui/curriculum-charts.test.ts.
 */
import { CURRICULUM_DATASETS } from '../../core/curriculum/catalogue';
import { curriculumMetrics, m2iLead } from '../../core/curriculum/metrics';
import { i2mOrder, m2iOrder, orderKey, sameOrder } from '../../core/curriculum/orders';

export type Scenario = 'cil' | 'til';
export const SCENARIO_NAMES: Readonly<Record<Scenario, string>> = {
  cil: 'class-incremental (one head over all classes)',
  til: 'task-incremental (outputs masked to the task)',
};

/** The part of a stored order run this module reads. */
export interface OrderRunLike {
  order: number[];
  strategy: string;
  cil: number[][];
  til: number[][];
}

export interface OrderPoint {
  key: string;
  order: number[];
  /** e.g. "Digits → Emoji food → Fashion-MNIST" */
  label: string;
  strategy: string;
  scenario: Scenario;
  matrix: number[][];
  acc: number;
  acc0: number;
  gain: number;
  bwt: number | null;
  fwt: number | null;
  m2i: boolean;
  i2m: boolean;
}

export function datasetName(id: string): string {
  return CURRICULUM_DATASETS.find((d) => d.id === id)?.name ?? id;
}

export function orderLabel(order: readonly number[], datasets: readonly string[]): string {
  return order.map((p) => datasetName(datasets[p])).join(' → ');
}

/** Every (order, scenario) point of the runs, given the isolated accuracies. */
export function orderPoints(
  runs: readonly OrderRunLike[],
  isolated: readonly number[],
  datasets: readonly string[],
  scenarios: readonly Scenario[],
): OrderPoint[] {
  const m2i = m2iOrder(isolated);
  const i2m = i2mOrder(isolated);
  const out: OrderPoint[] = [];
  for (const r of runs) {
    for (const scenario of scenarios) {
      const matrix = scenario === 'cil' ? r.cil : r.til;
      const m = curriculumMetrics(matrix, isolated, r.order);
      out.push({
        key: `${r.strategy}|${orderKey(r.order)}|${scenario}`,
        order: r.order.slice(),
        label: orderLabel(r.order, datasets),
        strategy: r.strategy,
        scenario,
        matrix,
        acc: m.acc,
        acc0: m.acc0,
        gain: m.gain,
        bwt: m.bwt,
        fwt: m.fwt,
        m2i: sameOrder(r.order, m2i),
        i2m: sameOrder(r.order, i2m),
      });
    }
  }
  return out;
}

export interface LeadRow {
  strategy: string;
  scenario: Scenario;
  m2i: OrderPoint;
  i2m: OrderPoint;
  deltaAcc: number;
  deltaAcc0: number;
  share: number | null;
}

/** M2I against I2M per strategy and scenario (where both were trained). */
export function leadRows(points: readonly OrderPoint[]): LeadRow[] {
  const out: LeadRow[] = [];
  const keys = [...new Set(points.map((p) => `${p.strategy}|${p.scenario}`))];
  for (const k of keys) {
    const [strategy, scenario] = k.split('|') as [string, Scenario];
    const a = points.find((p) => p.strategy === strategy && p.scenario === scenario && p.m2i);
    const b = points.find((p) => p.strategy === strategy && p.scenario === scenario && p.i2m);
    if (!a || !b) continue;
    out.push({ strategy, scenario, m2i: a, i2m: b, ...m2iLead(a, b) });
  }
  return out;
}
