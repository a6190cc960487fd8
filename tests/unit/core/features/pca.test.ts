/**
 * The 2-D feature map's PCA (src/core/features/pca.ts) against numpy's eigh of the covariance
 * (scripts/make-pca-fixtures.py → tests/fixtures/pca.json), and the rows a map takes.
 */
import { describe, expect, it } from 'vitest';
import { mapRows, pca2 } from '../../../../src/core/features/pca';
import reference from '../../../fixtures/pca.json';

describe('pca2 against numpy', () => {
  for (const c of reference.cases) {
    it(c.name, () => {
      const p = pca2(c.x, c.n, c.d);
      for (let j = 0; j < 2; j++) {
        expect(p.variances[j]).toBeCloseTo(c.variances[j], 8);
        expect(p.explained[j]).toBeCloseTo(c.explained[j], 8);
        for (let k = 0; k < c.d; k++) expect(p.components[j][k]).toBeCloseTo(c.components[j][k], 5);
      }
      for (let r = 0; r < c.n; r++) {
        expect(p.coords[2 * r]).toBeCloseTo(c.coords[r][0], 4);
        expect(p.coords[2 * r + 1]).toBeCloseTo(c.coords[r][1], 4);
      }
    });
  }

  it('refuses what cannot be mapped', () => {
    expect(() => pca2([1, 2], 1, 2)).toThrow(/at least 2 feature vectors/);
    expect(() => pca2([1, 2, 3], 3, 1)).toThrow(/at least 2 dimensions/);
    expect(() => pca2([1, 2, 3], 2, 2)).toThrow(/Expected 2 × 2/);
  });
});

describe('mapRows', () => {
  it('takes the first training rows of each wanted class, at most perClass', () => {
    const labels = [0, 1, 0, 2, 1, 0, 0, 1];
    const split = [0, 0, 1, 0, 0, 0, 0, 0];
    expect([...mapRows(labels, split, [0, 1], 2)]).toEqual([0, 1, 4, 5]);
  });
});
