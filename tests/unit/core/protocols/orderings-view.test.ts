import { describe, expect, it } from 'vitest';
import fixture from './dendrogram9.fixture';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { computeOrderingsView } from '../../../../src/core/protocols/orderings-view';
import { edgeLinkage, edgeOrderings } from '../../../../src/core/protocols/edge';
import { runProtocols } from '../../../../src/core/protocols/run';

const names = Array.from({ length: 9 }, (_, i) => `c${i}`);

describe('computeOrderingsView: EDGE’s dendrogram for the heat map', () => {
  const view = computeOrderingsView(
    { classes: names, taskSizes: [3, 3, 3], similarity: { kind: 'matrix', rows: fixture.sim }, options: { protocols: ['rs', 'edge', 'edge+'] } },
    {},
  );
  it('is scipy’s complete linkage of 1 − Sim with its leaves_list', () => {
    expect(view.dendrogram.method).toBe('complete');
    expect(view.dendrogram.linkage).toHaveLength(8);
    view.dendrogram.linkage.forEach((row, i) => {
      expect([row[0], row[1], row[3]]).toEqual([fixture.Z[i][0], fixture.Z[i][1], fixture.Z[i][3]]);
      expect(row[2]).toBeCloseTo(fixture.Z[i][2], 12);
    });
    expect(view.dendrogram.leaves).toEqual(fixture.leaves);
    expect(view.taskSizes).toEqual([3, 3, 3]);
  });

  it('EDGE cut that same clustering: the orderings equal a run that clusters on its own', () => {
    const sim = matrixFromRows(fixture.sim);
    const own = runProtocols(sim, [3, 3, 3], { protocols: ['rs', 'edge', 'edge+'] });
    expect(view.sequences).toEqual(own.sequences);
    const z = edgeLinkage(sim);
    expect(edgeOrderings(sim, [3, 3, 3], { dendrogram: z })).toEqual(edgeOrderings(sim, [3, 3, 3]));
    expect(() => edgeOrderings(sim, [3, 3, 3], { dendrogram: z.subarray(4) })).toThrow(/7 rows; 9 classes need 8/);
  });
});
