import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/clustering.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { linkage, linkageRows, linkageSize, LINKAGE_METHODS, type LinkageMethod } from '../../../../src/core/clustering/linkage';

type Case = (typeof fixture.cases)[number];

function methodData(c: Case, method: LinkageMethod) {
  return (c.methods as unknown as Record<string, { Z: number[][]; leaves: number[]; maxclust: Record<string, number[]> }>)[method];
}

describe('linkage (scipy-compatible Z)', () => {
  it('fixture was made by scipy and says so', () => {
    expect(fixture._note).toMatch(/scipy/);
    expect(fixture.cases.length).toBeGreaterThanOrEqual(10);
  });

  for (const method of LINKAGE_METHODS) {
    it(`${method}: Z equals scipy linkage(squareform(D), '${method}') on every fixture matrix`, () => {
      for (const c of fixture.cases) {
        const z = linkage(matrixFromRows(c.dist), method);
        const want = methodData(c, method).Z;
        expect(linkageSize(z)).toBe(c.n);
        const rows = linkageRows(z);
        expect(rows.length).toBe(want.length);
        rows.forEach((row, i) => {
          expect([row[0], row[1], row[3]], `${c.name} row ${i}`).toEqual([want[i][0], want[i][1], want[i][3]]);
          expect(row[2], `${c.name} row ${i} distance`).toBe(want[i][2]); // bit-identical to scipy
        });
      }
    });
  }

  it('n = 1 gives an empty Z; bad input is rejected', () => {
    expect(linkage(matrixFromRows([[0]]), 'complete').length).toBe(0);
    expect(() =>
      linkage(
        matrixFromRows([
          [0, NaN],
          [NaN, 0],
        ]),
        'average',
      ),
    ).toThrow(/finite/);
    expect(() =>
      linkage(
        matrixFromRows([
          [0, 1],
          [1, 0],
        ]),
        'ward' as LinkageMethod,
      ),
    ).toThrow(/Unknown linkage/);
  });

  it('merge distances are non-decreasing and cluster ids follow scipy conventions', () => {
    const c = fixture.cases.find((x) => x.n === 60)!;
    for (const method of LINKAGE_METHODS) {
      const rows = linkageRows(linkage(matrixFromRows(c.dist), method));
      const used = new Set<number>();
      rows.forEach((r, i) => {
        if (i > 0) expect(r[2]).toBeGreaterThanOrEqual(rows[i - 1][2]);
        expect(r[0]).toBeLessThan(r[1]);
        expect(r[1]).toBeLessThan(c.n + i);
        expect(used.has(r[0]) || used.has(r[1])).toBe(false);
        used.add(r[0]);
        used.add(r[1]);
      });
      expect(rows[rows.length - 1][3]).toBe(c.n);
    }
  });
});
