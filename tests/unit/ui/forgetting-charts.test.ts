import { describe, expect, it } from 'vitest';
import { cpcfFromRun } from '../../../src/core/conformal/from-run';
import {
  ACC_AXIS,
  CPCF_AXIS,
  compareSeries,
  coverageCsv,
  coverageModel,
  cpcfCsv,
  cpcfModel,
  layoutCpcf,
  layoutSetSizes,
  markPath,
  setSizeCsv,
  setSizeModel,
  sizeColour,
} from '../../../src/ui/forgetting/charts';

/** A synthetic recorded run: 3 tasks of one class each, 4 test / 4 calibration rows per task, 3 output units. */
function syntheticRun() {
  const probs: { afterTask: number; split: 'calibration' | 'test'; taskIndex: number; probs: Float32Array; width: number; labels: Int32Array }[] = [];
  for (let t = 0; t < 3; t++) {
    for (let j = 0; j <= t; j++) {
      for (const split of ['calibration', 'test'] as const) {
        const rows: number[] = [];
        for (let n = 0; n < 4; n++) {
          // confident on the newest task, less on older ones (forgetting)
          const conf = j === t ? 0.9 : 0.5 - 0.1 * (t - j) + 0.02 * n;
          const row = [0, 0, 0];
          row[j] = conf;
          const rest = (1 - conf) / 2;
          for (let k = 0; k < 3; k++) if (k !== j) row[k] = rest;
          rows.push(...row);
        }
        probs.push({ afterTask: t, split, taskIndex: j, probs: new Float32Array(rows), width: 3, labels: new Int32Array([j, j, j, j]) });
      }
    }
  }
  const matrix = [
    [1, 0, 0],
    [0.8, 1, 0],
    [0.5, 0.7, 1],
  ];
  return { matrix, testCounts: [4, 4, 4], probs };
}

describe('forgetting charts', () => {
  const report = cpcfFromRun(syntheticRun(), { alpha: 0.1, score: 'aps' });

  it('cpcf model: one point per step j = 2..K, accuracies in %, left axis up to the number of classes', () => {
    const m = cpcfModel(report);
    expect(m.points.map((p) => p.j)).toEqual([2, 3]);
    expect(m.points[0].aPrev).toBeCloseTo(80);
    expect(m.points[1].aPrev).toBeCloseTo(60);
    expect(m.points[1].aNew).toBeCloseTo(100);
    expect(m.points.every((p) => p.cpcf >= 1 && p.cpcf <= 3)).toBe(true);
    expect(m.cpcfMax).toBeGreaterThanOrEqual(2);
    expect(m.cpcfMax).toBeLessThanOrEqual(3);
    expect(m.K).toBe(3);
    expect(m.ticks).toEqual([2, 3]);
    // a run still training: the task axis already spans 2..K of the whole run
    const partial = cpcfModel(report, 6);
    expect(partial.points).toHaveLength(2);
    expect(partial.K).toBe(6);
    expect(partial.ticks).toEqual([2, 3, 4, 5, 6]);
    expect(CPCF_AXIS).toBe('CPCF: mean prediction-set size (classes)');
    expect(ACC_AXIS).toBe('accuracy (%)');
    const csv = cpcfCsv(report);
    expect(csv.rows).toHaveLength(2);
    expect(csv.columns[0]).toBe('task_j');
  });

  it('set-size panels: one per earlier task, shares sum to 1', () => {
    const m = setSizeModel(report);
    expect(m.panels.map((p) => p.task)).toEqual([1, 2]);
    expect(m.panels[0].bars.map((b) => b.j)).toEqual([2, 3]);
    for (const p of m.panels) for (const b of p.bars) expect(b.shares.reduce((a, c) => a + c, 0)).toBeCloseTo(1);
    expect(sizeColour(0, 3)).toBe('#c9ced6');
    expect(sizeColour(1, 3)).not.toBe(sizeColour(3, 3));
    expect(setSizeCsv(report).rows).toHaveLength(3);
    expect(layoutSetSizes(300, 5).columns).toBe(2);
    expect(layoutSetSizes(1000, 2).columns).toBe(2);
  });

  it('coverage model: target 1 − α, values in [0, 1], y axis from ≤ the target', () => {
    const m = coverageModel(report);
    expect(m.target).toBeCloseTo(0.9);
    expect(m.pooled.every((p) => p.coverage >= 0 && p.coverage <= 1)).toBe(true);
    expect(m.perTask).toHaveLength(3);
    expect(m.yMin).toBeLessThanOrEqual(0.85);
    expect(coverageCsv(report).rows).toHaveLength(5);
    // a live run: the task axis reaches K before the later tasks are trained
    const last = m.pooled[m.pooled.length - 1].j;
    expect(m.K).toBe(last);
    expect(coverageModel(report, last + 3).K).toBe(last + 3);
  });

  it('compare series and layout helpers', () => {
    const s = compareSeries(
      [
        { label: 'a', report },
        { label: 'b', report },
      ],
      'aPrev',
      ['#000', '#111'],
    );
    expect(s[1].colour).toBe('#111');
    expect(s[1].dash).not.toBe(s[0].dash);
    expect(s[0].points.map((p) => p.v)).toEqual([80, 60].map((v) => expect.closeTo(v, 6)));
    expect(layoutCpcf(400).height).toBeLessThan(layoutCpcf(900).height);
    expect(markPath('square', 2)).toBe('M-2,-2h4v4h-4Z');
  });
});
