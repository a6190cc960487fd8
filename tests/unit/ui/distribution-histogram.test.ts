/**
 * The whole distribution's histogram model (src/ui/ground-truth/distribution-histogram.ts), pure: bars are the
 * worker's counts (every ordering, never one mark each), the marks sit in their lanes at their values, the domain
 * holds everything drawn, a Gaussian far narrower than the truth is cut at 1.4 × the tallest bar, and lane labels
 * never overlap.
 */
import { describe, expect, it } from 'vitest';
import type { DistributionReport, PlacedReport } from '../../../src/core/ptm/distribution-report';
import {
  countTick,
  distributionChartModel,
  distributionCsv,
  expectedCurve,
  laneLabelXs,
  layoutDistribution,
} from '../../../src/ui/ground-truth/distribution-histogram';

const placed = (label: string, aia: number, percentile: number): PlacedReport => ({
  label,
  order: [],
  tasks: [],
  aia,
  final: 0.5,
  percentile,
  finalPercentile: 50,
  aboveWorstPoints: 0,
  belowBestPoints: 0,
});

function report(): DistributionReport {
  const side = (min: number, max: number, counts: number[]) => ({
    count: counts.reduce((a, b) => a + b, 0),
    min,
    max,
    mean: (min + max) / 2,
    sd: 0.01,
    quantiles: {},
    histogram: { edges: counts.map((_, i) => min + ((max - min) * i) / counts.length).concat(max), counts },
    worst: { order: [], tasks: [], aia: min, final: 0.5, ties: 1 },
    best: { order: [], tasks: [], aia: max, final: 0.5, ties: 1 },
  });
  return {
    summary: {
      method: 'm',
      orderings: 100,
      omega: '100',
      exact: true,
      what: 'all 100 orderings',
      path: '',
      states: 1,
      ties: '',
      aia: side(0.6, 0.7, [10, 30, 40, 20]),
      final: side(0.5, 0.5, [100]),
    },
    rs: {
      orderings: [placed('RS seed 0', 0.64, 30), placed('RS seed 42', 0.66, 55)],
      aia: { mean: 0.65, sd: 0.0001, jsd: 0.5, w1: 1 },
      final: { mean: 0.5, sd: 0, jsd: null, w1: 0 },
    },
    edge: {
      orderings: [placed('EDGE hard', 0.61, 5), placed('EDGE easy', 0.69, 97), placed('EDGE median (seed 0)', 0.58, 0)],
      aia: { mean: 0.63, sd: 0.04, jsd: 0.1, w1: 2 },
      final: { mean: 0.5, sd: 0, jsd: null, w1: 0 },
    },
    places: [],
  };
}

describe('distributionChartModel', () => {
  it('bars are the counts; marks in their lanes with their shapes; yours only when placed', () => {
    const m = distributionChartModel(report(), 'aia', [{ text: 'yours', placed: placed('given order', 0.675, 80) }]);
    expect(m.bins.map((b) => b.count)).toEqual([10, 30, 40, 20]);
    expect(m.bins.reduce((a, b) => a + b.count, 0)).toBe(100);
    expect(m.binWidth).toBeCloseTo(0.025, 12);
    expect(m.lanes).toEqual(['rs', 'edge', 'yours']);
    expect(m.markers.map((k) => [k.lane, k.text, k.shape])).toEqual([
      ['rs', 'seed 0', 'circle'],
      ['rs', 'seed 42', 'circle'],
      ['edge', 'hard', 'down'],
      ['edge', 'easy', 'up'],
      ['edge', 'median', 'circle'],
      ['yours', 'yours', 'diamond'],
    ]);
    // the domain holds the bars, EDGE's median below the truth's minimum and each Gaussian's μ ± 2.5σ
    expect(m.domain[0]).toBeLessThan(0.58);
    expect(m.domain[1]).toBeGreaterThan(0.7);
    // RS's σ̂ = 0.0001 would peak at 100 · 0.025 / (0.0001 √2π) ≈ 10 000 orderings: cut at 1.4 × the tallest bar
    expect(m.maxCount).toBe(40);
    expect(m.yMax).toBeCloseTo(56, 12);
    expect(distributionChartModel(report(), 'aia').lanes).toEqual(['rs', 'edge']);
  });

  it('expected orderings per bin integrate to n over the domain', () => {
    const pts = expectedCurve({ mean: 0.65, sd: 0.02 }, 1000, 0.01, [0.5, 0.8], 600);
    const dx = pts[1].x - pts[0].x;
    const area = pts.reduce((s, p) => s + p.y, 0) * dx;
    expect(area / 0.01).toBeCloseTo(1000, 0);
  });

  it('the CSV lists the bins and the marks with their percentiles', () => {
    const csv = distributionCsv(distributionChartModel(report(), 'aia'));
    expect(csv.columns).toEqual(['kind', 'from', 'to', 'orderings', 'label', 'percentile']);
    expect(csv.rows.filter((r) => r[0] === 'bin')).toHaveLength(4);
    expect(csv.rows.find((r) => r[4] === 'EDGE easy')).toEqual(['edge', 0.69, 0.69, null, 'EDGE easy', 97]);
  });
});

describe('layout helpers', () => {
  it('lane labels are pushed right of the one before, never overlapping', () => {
    const texts = ['seed 1993', 'seed 0', 'seed 42'];
    const xs = laneLabelXs([100, 104, 108], texts);
    for (let i = 1; i < xs.length; i++)
      expect(xs[i] - (texts[i].length * 5.6) / 2).toBeGreaterThanOrEqual(xs[i - 1] + (texts[i - 1].length * 5.6) / 2 + 4 - 1e-9);
    expect(xs[0]).toBe(100);
  });
  it('one lane per protocol above the plot; ticks as counts', () => {
    const L = layoutDistribution(640, 3);
    expect(L.lanes.map((l) => l.lane)).toEqual(['rs', 'edge', 'yours']);
    expect(L.lanes[2].y).toBeLessThan(L.plotTop);
    expect(countTick(35000)).toBe('35\u2009000');
    expect(countTick(2.5)).toBe('');
  });
});
