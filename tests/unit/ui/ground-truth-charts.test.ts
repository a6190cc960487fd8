import { describe, expect, it } from 'vitest';
import { deriveGroundTruth, type PlanLike, type RunRecord } from '../../../src/core/ground-truth/derive';
import { normalCdf } from '../../../src/core/stats/gaussian';
import { pearson } from '../../../src/core/stats/pearson';
import {
  accuracyDomain,
  autoXAxis,
  binTarget,
  binThresholds,
  gaussianCurve,
  histogramCsv,
  histogramModel,
  histogramPanels,
  layoutAccuracyHistogram,
  peakLabelPlacement,
  stackMembers,
  Y_HEADROOM,
  type HistogramPanel,
} from '../../../src/ui/ground-truth/accuracy-histogram';
import { count, duration, fixed, markPath, orderingText, pct, progressText, pValue, roleMark, variableAxisLabel } from '../../../src/ui/ground-truth/format';
import { cellTextColour, cellTip, layoutMatrixHeatmap, matrixCsv, taskCaption } from '../../../src/ui/ground-truth/matrix-heatmap';
import { extremeKey, parseTrainingSeeds, parseWidths, runsTable } from '../../../src/ui/ground-truth/page-inputs';
import { layoutSampleCount, sampleCountCsv, sampleCountModel } from '../../../src/ui/ground-truth/sample-count-chart';
import { layoutScatter, leadRole, scatterCsv, scatterModel, scatterTitle } from '../../../src/ui/ground-truth/score-scatter';
import { leastSquares } from '../../../src/core/stats/least-squares';

const run = (orderingKey: string, value: number, strategy = 'finetune', seed = 0): RunRecord => ({
  orderingKey,
  strategy,
  seed,
  matrix: [],
  testCounts: [],
  finalAccuracy: value,
  aia: value,
});

/** 12 truth orderings t0..t11 with S = i; RS = t0..t2, EDGE = t3 (hard), t4 (easy), t5 (median). */
function plan12(): PlanLike {
  const roles: Record<string, string[]> = { t0: ['rs'], t1: ['rs'], t2: ['rs'], t3: ['edge-hard'], t4: ['edge-easy'], t5: ['edge-median'] };
  return {
    orderings: Array.from({ length: 12 }, (_, i) => ({ key: `t${i}`, tasks: [[i]], roles: ['truth', ...(roles[`t${i}`] ?? [])] as never, score: i })),
    exhaustive: true,
    truthLabel: 'all 12 orderings',
  };
}
const VALUES = [0.61, 0.64, 0.58, 0.52, 0.71, 0.6, 0.63, 0.66, 0.59, 0.62, 0.57, 0.65];

function stats(n = 12, strategies = ['finetune']) {
  const runs = strategies.flatMap((s, k) => VALUES.slice(0, n).map((v, i) => run(`t${i}`, v + 0.01 * k, s)));
  return deriveGroundTruth({ runs, plan: plan12(), variable: 'final', strategies, sampleCount: { maxL: 6, repeats: 3 } });
}

describe('format', () => {
  it('percentages, fixed numbers, p-values and counts', () => {
    expect(pct(0.6234)).toBe('62.3');
    expect(pct(0.05, 2)).toBe('5.00');
    expect(pct(null)).toBe('–');
    expect(pct(NaN)).toBe('–');
    expect(fixed(-0.1234, 2)).toBe('−0.12');
    expect(pValue(0.0004)).toBe('< 0.001');
    expect(pValue(0.04567)).toBe('0.046');
    expect(count(2520)).toBe('2\u2009520');
    expect(count(90)).toBe('90');
  });
  it('durations and the progress line', () => {
    expect(duration(41)).toBe('0:41');
    expect(duration(3725)).toBe('1:02:05');
    expect(duration(null)).toBe('–');
    expect(progressText(37, 90, 1, 41)).toBe('37 / 90 orderings · 0:41 left');
    expect(progressText(74, 180, 2, 80)).toBe('74 / 180 runs (90 orderings × 2) · 1:20 left');
    expect(progressText(90, 90, 1, 0)).toBe('90 / 90 orderings');
    expect(progressText(3, 90, 1, null)).toBe('3 / 90 orderings');
  });
  it('marks: ▼ EDGE hard, ▲ easy, ● median and RS, in the protocol colours', () => {
    expect(roleMark('edge-hard')).toMatchObject({ protocol: 'edge', shape: 'down', fill: '#e69f00' });
    expect(roleMark('edge-easy').shape).toBe('up');
    expect(roleMark('edge-median').shape).toBe('circle');
    expect(roleMark('rs')).toMatchObject({ protocol: 'rs', shape: 'circle', fill: '#1f77b4' });
    expect(markPath('down', 6)).toBe('M-6,-4.2L6,-4.2L0,5.4Z');
    expect(markPath('circle', 4)).toContain('A3,3');
  });
  it('axis labels with units, and an ordering in class names', () => {
    expect(variableAxisLabel('final')).toBe('final accuracy (%)');
    expect(variableAxisLabel('aia')).toBe('average incremental accuracy (%)');
    expect(orderingText([[0, 3], [1]], ['zero', 'one', 'two', 'three'])).toBe('T1 zero, three → T2 one');
  });
});

describe('accuracy histogram', () => {
  it('bins on nice percentage steps covering the domain', () => {
    const t = binThresholds([0.5234, 0.7012], 18);
    expect(t[0]).toBeLessThanOrEqual(0.5234);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(0.7012);
    const steps = t.slice(1).map((v, i) => +(v - t[i]).toFixed(9));
    expect(new Set(steps).size).toBe(1);
    expect([0.005, 0.01, 0.02]).toContain(steps[0]);
    // a narrow truth far from another strategy's: the step follows the narrow one
    const fine = binThresholds([0.2, 0.85], 19, 0.24);
    expect(+(fine[1] - fine[0]).toFixed(9)).toBe(0.01);
    expect(fine[0]).toBeLessThanOrEqual(0.2);
    expect(fine[fine.length - 1]).toBeGreaterThanOrEqual(0.85);
    // never more than maxBins bins
    expect(binThresholds([0, 1], 40, 0.001, 50).length - 1).toBeLessThanOrEqual(50);
    expect(binTarget(90)).toBe(19);
    expect(binTarget(1)).toBe(8);
    expect(binTarget(100000)).toBe(40);
  });

  it('stacks each ordering into its bin, half-open except the last, ascending', () => {
    const members = [0.5, 0.55, 0.52, 0.6, 0.58].map((value, i) => ({ key: `k${i}`, value, score: null }));
    const bins = stackMembers(members, [0.5, 0.55, 0.6]);
    expect(bins.map((b) => b.members.map((m) => m.value))).toEqual([
      [0.5, 0.52],
      [0.55, 0.58, 0.6],
    ]);
  });

  it('the domain covers members, marks and the estimates’ μ ± 2.5σ, inside [0, 1]', () => {
    const p: HistogramPanel = {
      strategy: 's',
      members: [{ key: 'a', value: 0.6, score: null }],
      marks: [{ key: 'b', value: 0.7, role: 'rs', label: 'RS' }],
      rs: { mean: 0.65, std: 0.01 },
      edge: { mean: 0.5, std: 0.3 },
    };
    const [lo, hi] = accuracyDomain([p]);
    expect(lo).toBe(0);
    expect(hi).toBe(1);
    expect(accuracyDomain([])).toEqual([0, 1]);
    const q = { ...p, rs: null, edge: null };
    const [a, b] = accuracyDomain([q]);
    expect(a).toBeLessThan(0.6);
    expect(b).toBeGreaterThan(0.7);
  });

  it('a Gaussian curve is in expected orderings per bin: its area is n', () => {
    const g = { mean: 0.6, std: 0.03 };
    const pts = gaussianCurve(g, 90, 0.01, [0.4, 0.8], 400)!;
    const dx = pts[1].x - pts[0].x;
    const area = pts.reduce((s, p) => s + p.y, 0) * (dx / 0.01);
    expect(area).toBeCloseTo(90 * (normalCdf(0.8, g) - normalCdf(0.4, g)), 0);
    expect(gaussianCurve({ mean: 0.6, std: 0 }, 90, 0.01, [0.4, 0.8])).toBeNull();
  });

  it('the model of derived statistics: one panel per strategy, every truth ordering in one block', () => {
    const s = stats(12, ['finetune', 'replay']);
    const m = histogramModel(s, 12);
    expect(m.panels.map((p) => p.strategy)).toEqual(['finetune', 'replay']);
    expect(m.bins[0].reduce((a, b) => a + b.members.length, 0)).toBe(12);
    expect(m.panels[0].marks.map((k) => k.role)).toEqual(['rs', 'rs', 'rs', 'edge-hard', 'edge-easy', 'edge-median']);
    expect(m.panels[0].rs).not.toBeNull();
    expect(m.domain[0]).toBe(m.thresholds[0]);
    expect(m.yMax).toBeGreaterThanOrEqual(m.maxCount);
    expect(m.yMax).toBeLessThanOrEqual(Y_HEADROOM * m.maxCount);
    // while filling: only trained orderings are blocks, estimates wait for their draws
    const partial = histogramPanels(stats(2));
    expect(partial[0].members).toHaveLength(2);
    expect(partial[0].rs).toBeNull();
  });

  it('layout: panels stacked, each with two lanes above its plot', () => {
    const L = layoutAccuracyHistogram(800, 2, 10);
    expect(L.panels).toHaveLength(2);
    expect(L.panels[0].lanes.map((l) => l.protocol)).toEqual(['rs', 'edge']);
    expect(L.panels[1].top).toBeGreaterThan(L.panels[0].plotBottom);
    expect(L.height).toBeGreaterThan(L.panels[1].plotBottom);
    expect(L.blockGap).toBe(1);
    expect(layoutAccuracyHistogram(800, 1, 200).blockGap).toBe(0);
    expect(layoutAccuracyHistogram(390, 1, 10, true).margin.left).toBeLessThan(L.margin.left);
  });

  it('CSV: one row per evaluated ordering', () => {
    const c = histogramCsv(stats());
    expect(c.columns).toEqual(['strategy', 'ordering', 'roles', 'label', 'final_accuracy', 'S', 'seeds']);
    expect(c.rows).toHaveLength(12);
    expect(c.rows[0]).toEqual(['finetune', 't0', 'truth rs', '', 0.61, 0, 1]);
  });
});

describe('S-vs-A scatter', () => {
  it('least squares', () => {
    const f = leastSquares([0, 1, 2], [1, 3, 5])!;
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(1, 12);
    expect(leastSquares([1, 1], [0, 1])).toBeNull();
    expect(leastSquares([1], [1])).toBeNull();
  });
  it('the model carries Pearson R from the statistics, and a title that says it', () => {
    const m = scatterModel(stats());
    const r = pearson(
      VALUES.map((_, i) => i),
      VALUES,
    );
    expect(m.panels[0].r).toBe(r.statistic);
    expect(m.panels[0].points).toHaveLength(12);
    expect(scatterTitle(m.panels[0])).toMatch(/^finetune · Pearson R = [−\d.]+ \(p = \d\.\d{3}, n = 12\)$/);
    const few = scatterModel(stats(2));
    expect(scatterTitle(few.panels[0])).toBe('finetune · Pearson R: not defined yet (see below)');
    expect(few.panels[0].reason).toBe('needs at least 3 evaluated truth orderings; 2 so far');
    expect(m.yDomain[0]).toBeLessThan(Math.min(...VALUES));
  });
  it('layout: two panels a row when wide enough', () => {
    expect(layoutScatter(900, 2).columns).toBe(2);
    expect(layoutScatter(500, 2).columns).toBe(1);
    expect(layoutScatter(900, 1).columns).toBe(1);
    expect(layoutScatter(500, 3).height).toBe(3 * layoutScatter(500, 3).panelHeight);
  });
  it('lead role: EDGE before RS; none for a plain truth ordering', () => {
    expect(leadRole(['truth', 'rs', 'edge-easy'])).toBe('edge-easy');
    expect(leadRole(['truth'])).toBeNull();
  });
  it('CSV', () => {
    expect(scatterCsv(stats()).rows).toHaveLength(12);
  });
});

describe('sample-count chart', () => {
  it('series per strategy, protocol and metric; missing strategies say why', () => {
    const m = sampleCountModel(stats(12, ['finetune', 'replay']));
    expect(m.series).toHaveLength(8);
    expect(m.maxL).toBe(6);
    expect(m.strategies.map((s) => s.dash)).toEqual(['', '7,4']);
    const rsJsd = m.series.find((s) => s.protocol === 'rs' && s.metric === 'jsd')!;
    expect(rsJsd.points.map((p) => p.L)).toEqual([1, 2, 3, 4, 5, 6]);
    const edge = m.series.find((s) => s.protocol === 'edge' && s.metric === 'w1')!;
    expect(edge.points[0].L).toBe(3);
    expect(m.yMax.jsd).toBeGreaterThan(0);
    const none = sampleCountModel(stats(5));
    expect(none.series).toHaveLength(0);
    expect(none.missing[0].reason).toMatch(/at least 10 truth values; 5 so far/);
    expect(sampleCountCsv(stats()).rows.length).toBe(2 * (6 + 4));
  });
  it('layout: side by side when wide, else stacked', () => {
    expect(layoutSampleCount(800).columns).toBe(2);
    const narrow = layoutSampleCount(390);
    expect(narrow.columns).toBe(1);
    expect(narrow.height).toBe(2 * narrow.panelHeight);
  });
});

describe('accuracy-matrix heat map', () => {
  it('cells between 26 and 64 px', () => {
    expect(layoutMatrixHeatmap(1000, 3).cell).toBe(64);
    expect(layoutMatrixHeatmap(200, 10).cell).toBe(26);
    const L = layoutMatrixHeatmap(300, 3);
    expect(L.width).toBe(L.margin.left + 3 * L.cell + L.margin.right);
  });
  it('text: black on pale cells, white on dark ones', () => {
    expect(cellTextColour(0.05)).toBe('#000000');
    expect(cellTextColour(0.95)).toBe('#ffffff');
  });
  it('captions and tooltips name the tasks’ classes', () => {
    expect(taskCaption(1, [1, 5], ['zero', 'one', 'two', 'three', 'four', 'five'])).toBe('T2 one, five');
    const tip = cellTip(0, 1, 0.5, [[0], [1]], ['zero', 'one']);
    expect(tip).toBe('after training T1, tested on T2 one (not trained yet)\naccuracy 50.0%');
    expect(
      matrixCsv([
        [0.9, 0],
        [0.4, 0.8],
      ]),
    ).toEqual({
      columns: ['after_task', 'task_1', 'task_2'],
      rows: [
        [1, 0.9, 0],
        [2, 0.4, 0.8],
      ],
    });
  });
});

describe('page inputs', () => {
  it('layer widths and training seeds', () => {
    expect(parseWidths('256, 128')).toEqual([256, 128]);
    expect(parseWidths('')).toEqual([]);
    expect(() => parseWidths('256, x')).toThrow(/Layer width "x"/);
    expect(parseTrainingSeeds('0 1, 2')).toEqual([0, 1, 2]);
    expect(() => parseTrainingSeeds('')).toThrow(/at least one/);
    expect(() => parseTrainingSeeds('1, 1')).toThrow(/listed twice/);
  });
  it('runs table and the extremes', () => {
    const t = runsTable(
      [
        {
          orderingKey: '0,1|2,3',
          strategy: 'finetune',
          seed: 0,
          finalAccuracy: 0.5,
          aia: 0.7,
          matrix: [
            [1, 0],
            [0.2, 0.8],
          ],
          testCounts: [10, 10],
          backend: 'wasm',
          seconds: 1.5,
          createdAt: 0,
        },
      ],
      () => 1.25,
    );
    expect(t.rows[0]).toEqual(['0,1|2,3', 'finetune', 0, 1.25, 0.5, 0.7, '[[1,0],[0.2,0.8]]', '10 10', 'wasm', 1.5, '', '1970-01-01T00:00:00.000Z']);
    expect(t.rows[0]).toHaveLength(t.columns.length);
    expect(
      extremeKey(
        [
          { key: 'a', value: 0.5 },
          { key: 'b', value: null },
          { key: 'c', value: 0.2 },
        ],
        'min',
      ),
    ).toBe('c');
    expect(
      extremeKey(
        [
          { key: 'a', value: 0.5 },
          { key: 'c', value: 0.2 },
        ],
        'max',
      ),
    ).toBe('a');
    expect(extremeKey([], 'max')).toBeNull();
  });
});

describe('accuracy histogram: an x axis per strategy, labels clear of the axis', () => {
  /** finetune spread over ~20 points, a second strategy packed within one point far above it */
  function apart() {
    const runs = [...VALUES.map((v, i) => run(`t${i}`, v, 'finetune')), ...VALUES.map((_, i) => run(`t${i}`, 0.95 + 0.0005 * i, 'replay'))];
    return deriveGroundTruth({ runs, plan: plan12(), variable: 'final', strategies: ['finetune', 'replay'], sampleCount: false });
  }

  it('auto: shared while the strategies overlap, one x axis each when one would be a sliver of the shared axis', () => {
    expect(autoXAxis(histogramPanels(stats(12, ['finetune', 'replay'])))).toBe('shared');
    expect(autoXAxis(histogramPanels(stats(12, ['finetune'])))).toBe('shared');
    const s = apart();
    expect(autoXAxis(histogramPanels(s))).toBe('own');
    const own = histogramModel(s, 12, 'auto');
    expect(own.xAxis).toBe('own');
    // each panel's axis fits its own values: the packed strategy gets bins across its own narrow range
    const [ft, rp] = own.scales;
    expect(rp.domain[1] - rp.domain[0]).toBeLessThan((ft.domain[1] - ft.domain[0]) / 4);
    expect(own.bins[1].filter((b) => b.members.length > 0).length).toBeGreaterThan(2);
    expect(own.bins[1].reduce((a, b) => a + b.members.length, 0)).toBe(12);
    // the reader's choice wins: one shared axis, every panel with the same bins
    const shared = histogramModel(s, 12, 'shared');
    expect(shared.xAxis).toBe('shared');
    expect(shared.scales[0]).toEqual(shared.scales[1]);
    expect(shared.bins[1].filter((b) => b.members.length > 0).length).toBeLessThanOrEqual(2);
  });

  it('a cut peak’s label stays inside the plot: flipped away from the y axis, never past the right edge', () => {
    // EDGE prefers the left of its mean line; near the y axis (x = 92) it goes right instead
    expect(peakLabelPlacement(300, 80, 'end', 92, 700)).toEqual({ x: 296, anchor: 'end' });
    expect(peakLabelPlacement(120, 80, 'end', 92, 700)).toEqual({ x: 124, anchor: 'start' });
    // RS prefers the right; at the right edge it goes left
    expect(peakLabelPlacement(300, 80, 'start', 92, 700)).toEqual({ x: 304, anchor: 'start' });
    expect(peakLabelPlacement(680, 80, 'start', 92, 700)).toEqual({ x: 676, anchor: 'end' });
    // too wide for either side: kept inside the plot
    const p = peakLabelPlacement(150, 400, 'end', 92, 400);
    expect(p.anchor === 'end' ? p.x - 400 : p.x).toBeGreaterThanOrEqual(92);
  });
});
