import { describe, expect, it } from 'vitest';
import { artefactBaselineAccuracy, m2iAccuracy } from '../../../src/core/metrics/m2i';
import { distributionCsv, gainOrder, heatCsv, leadBars, leadCsv, stackLevels } from '../../../src/ui/curriculum/charts';
import { leadRows, orderLabel, orderPoints } from '../../../src/ui/curriculum/results';

const datasets = ['digits', 'fashion-mnist', 'emoji-food'];
const isolated = [0.9, 0.7, 0.3]; // M2I = 0,1,2; I2M = 2,1,0
const R = (d: number): number[][] => [
  [d, 0, 0],
  [d - 0.1, d, 0],
  [d - 0.2, d - 0.1, d],
];
const runs = [
  { order: [0, 1, 2], strategy: 'finetune', cil: R(0.8), til: R(0.9) },
  { order: [2, 1, 0], strategy: 'finetune', cil: R(0.5), til: R(0.6) },
  { order: [1, 0, 2], strategy: 'finetune', cil: R(0.7), til: R(0.75) },
];

describe('curriculum results and charts (pure parts)', () => {
  const points = orderPoints(runs, isolated, datasets, ['cil', 'til']);

  it('every (order, scenario) gets ACC from R and ACC₀ from a_j in that order; M2I and I2M marked', () => {
    expect(points).toHaveLength(6);
    const m2i = points.find((p) => p.m2i && p.scenario === 'cil')!;
    expect(m2i.order).toEqual([0, 1, 2]);
    expect(m2i.acc).toBeCloseTo(m2iAccuracy(R(0.8)), 12);
    expect(m2i.acc0).toBeCloseTo(artefactBaselineAccuracy([0.9, 0.7, 0.3]), 12);
    expect(points.find((p) => p.i2m && p.scenario === 'til')!.acc0).toBeCloseTo(artefactBaselineAccuracy([0.3, 0.7, 0.9]), 12);
    expect(points.filter((p) => p.m2i || p.i2m)).toHaveLength(4);
    expect(orderLabel([2, 0], datasets)).toBe('Emoji food → Digits');
  });

  it('lead rows: M2I − I2M and the share ACC₀ explains, per scenario', () => {
    const rows = leadRows(points);
    expect(rows.map((r) => r.scenario)).toEqual(['cil', 'til']);
    const cil = rows[0];
    expect(cil.deltaAcc).toBeCloseTo(cil.m2i.acc - cil.i2m.acc, 12);
    expect(cil.share).toBeCloseTo(cil.deltaAcc0 / cil.deltaAcc, 12);
    expect(leadBars(rows)).toHaveLength(4);
    expect(leadBars(rows)[0]).toMatchObject({ group: 'finetune · CIL', which: 'm2i' });
    expect(leadCsv(rows).rows).toHaveLength(4);
  });

  it('stack levels keep equal values apart; gain order sorts by ACC₀', () => {
    expect(stackLevels([0.5, 0.5, 0.7, 0.501], 0.01)).toEqual([0, 1, 0, 2]);
    const sorted = gainOrder(points.filter((p) => p.scenario === 'cil'));
    expect(sorted.map((p) => p.acc0)).toEqual([...sorted.map((p) => p.acc0)].sort((a, b) => a - b));
  });

  it('CSV rows carry the numbers the charts show', () => {
    const d = distributionCsv(points);
    expect(d.columns).toContain('acc0');
    expect(d.rows).toHaveLength(6);
    const h = heatCsv(points[0], datasets);
    expect(h.rows).toHaveLength(9);
    expect(h.rows[3].slice(0, 4)).toEqual([2, 'fashion-mnist', 1, 'digits']);
    expect(h.rows[3][4]).toBeCloseTo(0.7, 12);
  });
});

describe('short order labels', () => {
  it('initials of the datasets, emoji by category', async () => {
    const { shortOrder } = await import('../../../src/ui/curriculum/charts');
    expect(shortOrder('Digits → Emoji food → Fashion-MNIST')).toBe('Di Fo Fa');
  });
});
