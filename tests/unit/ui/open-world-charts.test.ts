import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../../src/core/ood/schedule';
import { summarizeResults } from '../../../src/core/ood/schedule';
import { assignmentColumns, confidenceBars, rocPoints, scoreHistogram, stepCurves, table1, type StepView } from '../../../src/ui/open-world/charts';

const r = (step: number, detector: string, oodSet: string, auroc: number, fpr95: number): StepResult => ({
  step,
  detector,
  oodSet,
  auroc,
  fpr95,
  auprIn: 0.5,
  auprOut: 0.5,
  idCount: 10,
  oodCount: 5,
});
const steps: StepView[] = [
  {
    step: 0,
    steps: 3,
    accuracy: 0.9,
    results: [r(0, 'msp', 'near', 0.8, 0.6), r(0, 'msp', 'far', 0.9, 0.4), r(0, 'energy', 'near', 0.7, 0.7), r(0, 'energy', 'far', 0.95, 0.2)],
    confidence: { tasks: [0.95], ood: { near: 0.7, far: 0.6 } },
    assignment: { near: [1], far: [1] },
  },
  {
    step: 1,
    steps: 3,
    accuracy: 0.7,
    results: [r(1, 'msp', 'near', 0.6, 0.8), r(1, 'msp', 'far', 0.7, 0.5), r(1, 'energy', 'near', 0.5, 0.9), r(1, 'energy', 'far', 0.8, 0.3)],
    confidence: { tasks: [0.6, 0.9], ood: { near: 0.8, far: 0.5 } },
    assignment: { near: [0.25, 0.75], far: [0.5, 0.5] },
  },
];

describe('Open-world chart models', () => {
  it('step curves: per detector the mean over the chosen sets, in %, at steps 1..; accuracy dashed', () => {
    const m = stepCurves(steps, 3, ['msp', 'energy'], 'auroc', ['near', 'far']);
    expect(m.series.map((s) => s.id)).toEqual(['msp', 'energy', 'accuracy']);
    expect(m.series[0].points.map((p) => [p.x, +p.y.toFixed(6)])).toEqual([
      [1, 85],
      [2, 65],
    ]);
    expect(m.series[2].dash).not.toBe('');
    expect(m.series[2].points.map((p) => p.y)).toEqual([90, 70]);
    expect(m.xTicks).toEqual([1, 2, 3]);
    expect(m.yLabel).toMatch(/AUROC \(%\)/);
    const one = stepCurves(steps, 3, ['energy'], 'fpr95', ['far']);
    expect(one.series[0].points.map((p) => +p.y.toFixed(6))).toEqual([20, 30]);
  });
  it('confidence bars: tasks then OOD sets; assignment columns per step', () => {
    const bars = confidenceBars(steps[1], 3);
    expect(bars.map((b) => [b.label, +b.value.toFixed(6), b.kind])).toEqual([
      ['task 1', 60, 'task'],
      ['task 2', 90, 'task'],
      ['near', 80, 'ood'],
      ['far', 50, 'ood'],
    ]);
    expect(assignmentColumns(steps, 'near')).toEqual([
      { step: 1, shares: [100] },
      { step: 2, shares: [25, 75] },
    ]);
  });
  it('Table 1: means over steps per set and over sets, best per column', () => {
    const t = table1(summarizeResults(steps.flatMap((s) => s.results)), ['near', 'far']);
    expect(t.rows.map((x) => x.label)).toEqual(['MSP', 'Energy']);
    expect(t.rows[0].cells.map((c) => [+c.auroc.toFixed(6), +c.fpr95.toFixed(6)])).toEqual([
      [70, 70],
      [80, 45],
    ]);
    expect(+t.rows[0].mean.auroc.toFixed(6)).toBe(75);
    expect(t.best[0]).toEqual({ auroc: 0, fpr95: 0 }); // near: MSP better on both
    expect(t.best[1]).toEqual({ auroc: 1, fpr95: 1 }); // far: Energy better on both
  });
  it('ROC points in % from (0,0) to (100,100), capped; histograms share one range and sum to 100', () => {
    const id = Array.from({ length: 1000 }, (_, i) => i / 1000 + 0.2);
    const ood = Array.from({ length: 800 }, (_, i) => i / 1000);
    const p = rocPoints(id, ood, 50);
    expect(p).toHaveLength(50);
    expect(p[0]).toEqual({ x: 0, y: 0 });
    expect(p[49]).toEqual({ x: 100, y: 100 });
    const h = scoreHistogram(id, ood, 12);
    expect(h.edges).toHaveLength(13);
    expect(h.id.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 9);
    expect(h.ood.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 9);
    expect(scoreHistogram([1, 1], [1], 4).edges[0]).toBe(0.5);
  });
});
