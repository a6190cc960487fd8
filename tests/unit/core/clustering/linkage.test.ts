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
    expect(() => linkage(matrixFromRows([[0, NaN], [NaN, 0]]), 'average')).toThrow(/finite/);
    expect(() => linkage(matrixFromRows([[0, 1], [1, 0]]), 'ward' as LinkageMethod)).toThrow(/Unknown linkage/);
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

  it('N = 1000 runs in well under 100 ms', () => {
    let s = 12345;
    const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const n = 1000;
    const data = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) data[i * n + j] = data[j * n + i] = rand();
    const m = { n, data };
    for (const method of LINKAGE_METHODS) linkage(m, method); // warm up
    for (const method of LINKAGE_METHODS) {
      const times: number[] = [];
      for (let r = 0; r < 3; r++) {
        const t0 = performance.now();
        linkage(m, method);
        times.push(performance.now() - t0);
      }
      expect(Math.min(...times), method).toBeLessThan(100);
    }
  });
});
