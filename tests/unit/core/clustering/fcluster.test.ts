import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/clustering.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { linkage, LINKAGE_METHODS } from '../../../../src/core/clustering/linkage';
import { createCutter, fclusterMaxclust, fclusterMaxclustMany, leavesList } from '../../../../src/core/clustering/fcluster';

type MethodData = { Z: number[][]; leaves: number[]; maxclust: Record<string, number[]> };

function zFromRows(rows: number[][]): Float64Array {
  return Float64Array.from(rows.flat());
}

describe('fcluster maxclust (scipy-compatible labels)', () => {
  it("equals scipy fcluster(Z, g, 'maxclust') exactly, on scipy's own Z", () => {
    let checked = 0;
    for (const c of fixture.cases) {
      for (const method of LINKAGE_METHODS) {
        const d = (c.methods as unknown as Record<string, MethodData>)[method];
        const z = zFromRows(d.Z);
        for (const [g, labels] of Object.entries(d.maxclust)) {
          expect(Array.from(fclusterMaxclust(z, c.n, Number(g))), `${c.name} ${method} g=${g}`).toEqual(labels);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('equals scipy on our own Z, cutting one dendrogram at many granularities', () => {
    for (const c of fixture.cases) {
      for (const method of LINKAGE_METHODS) {
        const d = (c.methods as unknown as Record<string, MethodData>)[method];
        const z = linkage(matrixFromRows(c.dist), method);
        const gs = Object.keys(d.maxclust).map(Number);
        const many = fclusterMaxclustMany(z, c.n, gs);
        gs.forEach((g, i) => expect(Array.from(many[i]), `${c.name} ${method} g=${g}`).toEqual(d.maxclust[String(g)]));
      }
    }
  });

  it('leaf order equals scipy leaves_list', () => {
    for (const c of fixture.cases) {
      for (const method of LINKAGE_METHODS) {
        const d = (c.methods as unknown as Record<string, MethodData>)[method];
        const z = zFromRows(d.Z);
        expect(Array.from(leavesList(z, c.n))).toEqual(d.leaves);
        expect(Array.from(createCutter(z, c.n).leafOrder())).toEqual(d.leaves);
      }
    }
  });

  it('distinct merge distances give exactly min(g, n) clusters', () => {
    const c = fixture.cases.find((x) => x.n === 60)!;
    const cutter = createCutter(linkage(matrixFromRows(c.dist), 'complete'), c.n);
    for (let g = 1; g <= 70; g++) expect(Math.max(...cutter.maxclust(g))).toBe(Math.min(g, c.n));
  });

  it('n = 1 and invalid g', () => {
    expect(Array.from(fclusterMaxclust(new Float64Array(0), 1, 3))).toEqual([1]);
    expect(() => fclusterMaxclust(new Float64Array(0), 1, 0)).toThrow(/positive integer/);
    expect(() => fclusterMaxclust(new Float64Array(4), 3, 2)).toThrow(/rows/);
  });
});
