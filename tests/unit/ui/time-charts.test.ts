import { describe, expect, it } from 'vitest';
import {
  barsCsv,
  cellTip,
  compositionCsv,
  compositionPanel,
  distanceCsv,
  distanceDomain,
  heatCells,
  heatCsv,
  layoutHeat,
  layoutPanels,
  protocolBars,
  sweepPanels,
} from '../../../src/ui/time/charts';
import { rowLabel, toRgba } from '../../../src/ui/time/samples';
import { streamMetrics } from '../../../src/core/stream/metrics';

const R = [
  [0.9, 0.6, 0.4],
  [0.8, 0.9, 0.7],
  [0.7, 0.8, 0.9],
];

describe('Time lab chart helpers', () => {
  it('heat cells mark the diagonal, super-diagonal and the cells streaming does not use', () => {
    const iid = heatCells(R, 'iid');
    expect(iid).toHaveLength(9);
    expect(iid.every((c) => c.used)).toBe(true);
    const st = heatCells(R, 'streaming');
    expect(st.filter((c) => c.used).map((c) => [c.i, c.j])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(st.filter((c) => c.diagonal)).toHaveLength(3);
    expect(st.filter((c) => c.superDiagonal).map((c) => [c.i, c.j])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(cellTip(st[0], 'streaming')).toMatch(/greyed/);
    expect(cellTip(st[1], 'streaming')).toMatch(/next-domain[\s\S]*60\.0 %/);
    // a live run: fewer rows than K
    expect(heatCells(R.slice(0, 1), 'iid')).toHaveLength(3);
  });
  it('heat CSV rows are 1-based and say which cells are tests', () => {
    const t = heatCsv(R, 'streaming');
    expect(t.columns[0]).toBe('trained_through_bucket');
    expect(t.rows[1]).toEqual([1, 2, 0.6, 'streaming', 'yes']);
    expect(t.rows[0][4]).toBe('no (training data)');
  });
  it('bars: streaming in-domain is null (not measurable), iid has both', () => {
    const m = { iid: streamMetrics(R, 'iid'), streaming: streamMetrics(R, 'streaming') };
    const b = protocolBars(m);
    expect(b.map((x) => [x.protocol, x.metric])).toEqual([
      ['iid', 'inDomain'],
      ['streaming', 'inDomain'],
      ['iid', 'nextDomain'],
      ['streaming', 'nextDomain'],
    ]);
    expect(b[1].value).toBeNull();
    expect(b[2].value).toBeCloseTo(0.65, 12);
    const csv = barsCsv(m);
    expect(csv.rows).toHaveLength(2);
    expect(csv.rows[1][1]).toBeNull();
  });
  it('distance domain spans every distance, at least −1..1; CSV one row per point', () => {
    expect(distanceDomain({})).toEqual([-1, 1]);
    const s = {
      iid: [
        { distance: -2, mean: 0.7, count: 1 },
        { distance: 0, mean: 0.9, count: 3 },
      ],
      streaming: [{ distance: 2, mean: 0.4, count: 1 }],
    };
    expect(distanceDomain(s)).toEqual([-2, 2]);
    expect(distanceCsv(s).rows).toEqual([
      ['iid', -2, 0.7, 1],
      ['iid', 0, 0.9, 3],
      ['streaming', 2, 0.4, 1],
    ]);
  });
  it('composition panels turn counts into shares; the sweep has one panel per α', () => {
    const p = compositionPanel('x', [
      [10, 0],
      [4, 6],
      [0, 0],
    ]);
    expect(p.shares).toEqual([
      [1, 0],
      [0.4, 0.6],
      [0, 0],
    ]);
    const panels = sweepPanels([
      { alpha: { kind: 'fixed', value: 2 }, composition: [[5]] },
      { alpha: { kind: 'dynamic', c: 1 }, composition: [[5]] },
    ]);
    expect(panels.map((q) => q.label)).toEqual(['α = 2', 'α = 1·i/k (FIFO)']);
    expect(compositionCsv([p]).rows).toContainEqual(['x', 2, 2, 0.6]);
  });
  it('layouts fit the width', () => {
    const h = layoutHeat(390, 5);
    expect(h.left + h.size).toBeLessThanOrEqual(390);
    expect(layoutPanels(390, 9).cols).toBe(2);
    expect(layoutPanels(1000, 9, 5)).toMatchObject({ cols: 4, height: 3 * 150 + 14 + 16 * 2 });
    expect(layoutPanels(390, 9, 10).height).toBeGreaterThan(layoutPanels(390, 9, 3).height);
  });
  it('sample pixels and row labels', () => {
    const px = toRgba(Uint8Array.from([0, 128, 255, 7]), [2, 2, 1]);
    expect(Array.from(px.slice(4, 8))).toEqual([128, 128, 128, 255]);
    expect(rowLabel(2, 0.5, 'drift')).toBe('bucket 3 · look 50 % along the drift');
    expect(rowLabel(0, 0.5, 'mixed')).toMatch(/mixed looks/);
  });
});
