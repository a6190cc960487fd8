import { describe, expect, it } from 'vitest';
import { classMeanPrototypes } from '../../../../src/core/similarity/prototypes';
import { cosineSimilarity } from '../../../../src/core/similarity/cosine';

// A tiny synthetic dataset: 7 "images" of 4 pixels in 3 classes, one of them blank.
const images = new Uint8Array([
  255,
  0,
  0,
  0, // class 0: direction (1, 0, 0, 0)
  128,
  128,
  0,
  0, // class 0: (1, 1, 0, 0)/√2
  0,
  0,
  0,
  0, // class 1: blank, left out
  0,
  10,
  20,
  30, // class 1: (0, 1, 2, 3)/√14
  0,
  0,
  0,
  255, // class 1: (0, 0, 0, 1)
  3,
  4,
  0,
  0, // class 2: (0.6, 0.8, 0, 0)
  1,
  1,
  1,
  1, // class 2: (0.5, 0.5, 0.5, 0.5)
]);
const labels = new Uint8Array([0, 0, 1, 1, 1, 2, 2]);

describe('classMeanPrototypes (pixels, L2-normalised per image, then averaged per class)', () => {
  const p = classMeanPrototypes(images, labels, 4, 3);

  it('by hand: the mean of the unit images of each class', () => {
    const s2 = Math.SQRT1_2;
    const s14 = 1 / Math.sqrt(14);
    const expected = [
      [(1 + s2) / 2, s2 / 2, 0, 0],
      [0, s14 / 2, (2 * s14) / 2, (3 * s14 + 1) / 2],
      [(0.6 + 0.5) / 2, (0.8 + 0.5) / 2, 0.25, 0.25],
    ];
    expect(p.dim).toBe(4);
    expect(p.counts).toEqual([2, 2, 2]);
    expect(p.blank).toEqual([0, 1, 0]);
    p.rows.forEach((row, c) => {
      expect(row).toBeInstanceOf(Float32Array);
      row.forEach((v, k) => expect(v).toBeCloseTo(expected[c][k], 7));
    });
  });

  it('numpy: equals P computed as X/‖X‖ averaged per class (float32), and the cosine matrix of P', () => {
    // python3: X = imgs[labels == c]; X = X[‖X‖ > 0] / ‖X‖; P[c] = X.mean(0); U = P/‖P‖; U @ U.T
    const numpyP = [
      [0.8535534143447876, 0.3535533845424652, 0.0, 0.0],
      [0.0, 0.13363061845302582, 0.26726123690605164, 0.9008918404579163],
      [0.550000011920929, 0.6499999761581421, 0.25, 0.25],
    ];
    const numpySim = [
      [1, 0.05387773315109877, 0.8209494269750031],
      [0.05387773315109877, 1, 0.4329888610853054],
      [0.8209494269750031, 0.4329888610853054, 1],
    ];
    p.rows.forEach((row, c) => expect(Array.from(row)).toEqual(numpyP[c]));
    const sim = cosineSimilarity(p.rows);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(sim.data[i * 3 + j]).toBeCloseTo(numpySim[i][j], 7);
  });

  it('the pixel scale does not matter (each image is normalised)', () => {
    // a faint and a bright copy of the same image have the same direction: their mean is that unit vector
    const a = classMeanPrototypes(new Uint8Array([0, 0, 0, 255, 0, 0, 0, 5]), new Uint8Array([0, 0]), 4, 1);
    expect(Array.from(a.rows[0])).toEqual([0, 0, 0, 1]);
  });

  it('a class without images gets a zero row and count 0; bad inputs are named', () => {
    const q = classMeanPrototypes(images, labels, 4, 4);
    expect(q.counts[3]).toBe(0);
    expect(Array.from(q.rows[3])).toEqual([0, 0, 0, 0]);
    expect(() => classMeanPrototypes(images, labels, 5, 3)).toThrow(/need 35 pixel values/);
    expect(() => classMeanPrototypes(images, labels, 4, 2)).toThrow(/label 2; labels must be 0\.\.1/);
  });
});
