/**
 * The Data tab's feature map (src/ui/data/feature-map.ts): the rows it maps (training rows, at most perClass per
 * class), its coordinates equal to the PCA of those rows, axis titles with the variance shares, the separation figure
 * (1 for well separated classes, about chance for classes of the same distribution), and the CSV.
 */
import { describe, expect, it } from 'vitest';
import { pca2 } from '../../../src/core/features/pca';
import type { FeatureSet } from '../../../src/core/features/feature-set';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { classColours, featureMap, featureMapCsv, mapScales } from '../../../src/ui/data/feature-map';

/** k classes of m rows each in d dimensions; class c centred at `spread`·e_c, plus uniform noise (a sum of three, sd 1). */
function blobs(k: number, m: number, d: number, spread: number, seed = 0): FeatureSet {
  const rng = createDefaultRng(seed);
  const n = k * m + k; // one test row per class
  const features = new Float32Array(n * d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = i % k;
    labels[i] = c;
    split[i] = i >= k * m ? 1 : 0;
    for (let j = 0; j < d; j++) features[i * d + j] = (rng.random() + rng.random() + rng.random() - 1.5) * 2 + (j === c ? spread : 0);
  }
  return { features, n, d, labels, split, classNames: Array.from({ length: k }, (_, c) => `c${c}`) };
}

describe('featureMap', () => {
  it('maps at most perClass training rows per class with their PCA coordinates', () => {
    const set = blobs(3, 40, 6, 8);
    const m = featureMap(set, [0, 2], 25);
    expect(m.points.length).toBe(50);
    expect(m.classes.map((c) => [c.label, c.name, c.count])).toEqual([
      [0, 'c0', 25],
      [2, 'c2', 25],
    ]);
    expect(m.hidden).toBe(set.n - 50);
    expect(m.points.every((p) => set.split[p.row] === 0 && [0, 2].includes(set.labels[p.row]))).toBe(true);
    const x = m.points.flatMap((p) => Array.from(set.features.subarray(p.row * 6, p.row * 6 + 6)));
    const p = pca2(x, 50, 6);
    expect(Array.from(m.coords)).toEqual(Array.from(p.coords));
    expect(m.xTitle).toBe(`PC1 (${(100 * p.explained[0]).toFixed(1)} % of the variance)`);
    expect(m.explained[0]).toBeGreaterThan(m.explained[1]);
  });

  it('says how well the map separates the classes', () => {
    expect(featureMap(blobs(4, 60, 8, 12)).separation).toBe(1);
    const mixed = featureMap(blobs(4, 60, 8, 0)).separation;
    expect(mixed).toBeLessThan(0.6);
  });

  it('has scales inside the frame, distinct colours and a CSV of every point', () => {
    const m = featureMap(blobs(3, 10, 4, 5));
    const f = { width: 400, height: 300, margin: { top: 10, right: 10, bottom: 40, left: 50 } };
    const s = mapScales(m, f);
    for (const p of m.points) {
      expect(s.x(p.x)).toBeGreaterThanOrEqual(50);
      expect(s.x(p.x)).toBeLessThanOrEqual(390);
      expect(s.y(p.y)).toBeGreaterThanOrEqual(10);
      expect(s.y(p.y)).toBeLessThanOrEqual(260);
    }
    expect(new Set(classColours(12)).size).toBe(12);
    const csv = featureMapCsv(m);
    expect(csv.columns).toEqual(['row', 'label', 'class_name', 'pc1', 'pc2']);
    expect(csv.rows.length).toBe(30);
    expect(csv.rows[0]).toEqual([m.points[0].row, 0, 'c0', m.points[0].x, m.points[0].y]);
  });
});
