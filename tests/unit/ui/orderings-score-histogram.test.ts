import { describe, expect, it } from 'vitest';
import type { SequenceReport } from '../../../src/core/protocols/types';
import { layoutScoreHistogram } from '../../../src/ui/orderings/score-histogram';

const seq = (protocol: string, score: number): SequenceReport =>
  ({ protocol, label: protocol, score, aim: 'random', pairMean: 0, tasks: [] }) as unknown as SequenceReport;
const dist = { kind: 'exact', min: 1, max: 2, bins: [{ x0: 1, x1: 2, count: 3 }] } as unknown as Parameters<typeof layoutScoreHistogram>[1];

describe('S over Ω layout (the lane label was cut at 390 px)', () => {
  it('the left margin holds the longest lane label; the lanes are in the fixed order', () => {
    const all = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'].map((p) => seq(p, 1.5));
    const L = layoutScoreHistogram(366, dist, all);
    expect(L.lanes.map((l) => l.name)).toEqual(['Random seeds', 'EDGE', 'EDGE+', 'AS baseline', 'MS baseline', 'Exact extreme of S']);
    // "Exact extreme of S": 18 characters of 12 px text, right-aligned 8 px left of the plot, start inside the figure
    expect(L.margin.left - 8 - 18 * 7).toBeGreaterThanOrEqual(0);
    const few = layoutScoreHistogram(366, dist, [seq('edge', 1.5)]);
    expect(few.margin.left).toBeLessThan(L.margin.left);
  });

  it('a narrow figure gets the short x-axis title; a wide one the full title', () => {
    const all = ['rs', 'exact'].map((p) => seq(p, 1.5));
    expect(layoutScoreHistogram(366, dist, all).xTitle).toBe('S (paper Eq. 5)  →  easier');
    expect(layoutScoreHistogram(700, dist, all).xTitle).toBe('S, similarity of adjacent tasks (paper Eq. 5)  →  easier');
  });
});
