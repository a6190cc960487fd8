import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../../../src/core/similarity/cosine';
import { SimilarityError } from '../../../../src/core/similarity/validate';
import type { SquareMatrix } from '../../../../src/core/orderings/types';

const expected = JSON.parse(readFileSync(new URL('../../../fixtures/similarity/expected.json', import.meta.url), 'utf8')) as Record<string, number[][]> & {
  _note: string;
  classes: string[];
};

function expectClose(m: SquareMatrix, want: number[][], tol: number): void {
  expect(m.n).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < m.n; i++) for (let j = 0; j < m.n; j++) worst = Math.max(worst, Math.abs(m.data[i * m.n + j] - want[i][j]));
  expect(worst).toBeLessThanOrEqual(tol);
}

function expectCleanSimilarity(m: SquareMatrix): void {
  for (let i = 0; i < m.n; i++) {
    expect(m.data[i * m.n + i]).toBe(1);
    for (let j = 0; j < m.n; j++) {
      expect(m.data[i * m.n + j]).toBe(m.data[j * m.n + i]);
      expect(Math.abs(m.data[i * m.n + j])).toBeLessThanOrEqual(1);
    }
  }
}

describe('cosineSimilarity against numpy (tests/fixtures/similarity/expected.json)', () => {
  it('the fixture says how it was made', () => {
    expect(expected._note).toMatch(/make-similarity-fixtures\.py/);
  });

  it('float64 rows match numpy to 1e-12', () => {
    const m = cosineSimilarity(expected.embeddings);
    expectClose(m, expected.cosine_f64, 1e-12);
    expectCleanSimilarity(m);
  });

  it('Float32Array rows match numpy float32 arithmetic to 1e-6 (and float64 arithmetic on them to 1e-12)', () => {
    const rows = expected.embeddings.map((r) => Float32Array.from(r));
    const m = cosineSimilarity(rows);
    expectClose(m, expected.cosine_f32_numpy, 1e-6);
    expectClose(m, expected.cosine_f32_as_f64, 1e-12);
    expectCleanSimilarity(m);
  });

  it('Float64Array rows work too', () => {
    expectClose(cosineSimilarity(expected.embeddings.map((r) => Float64Array.from(r))), expected.cosine_f64, 1e-12);
  });
});

describe('cosineSimilarity by hand', () => {
  it('orthogonal, opposite and scaled vectors', () => {
    const m = cosineSimilarity([
      [1, 0],
      [0, 3],
      [-2, 0],
      [5, 5],
    ]);
    const h = Math.SQRT1_2;
    const want = [
      [1, 0, -1, h],
      [0, 1, 0, h],
      [-1, 0, 1, -h],
      [h, h, -h, 1],
    ];
    expectClose(m, want, 1e-15);
    expectCleanSimilarity(m);
  });

  it('is scale invariant and neither overflows nor underflows', () => {
    const base = [
      [1, 2, 3],
      [3, -1, 0.5],
    ];
    const ref = cosineSimilarity(base).data[1];
    for (const s of [1e-300, 1e-150, 1e150, 1e300]) {
      const m = cosineSimilarity(base.map((r) => r.map((x) => x * s)));
      expect(m.data[1]).toBeCloseTo(ref, 14);
    }
  });

  it('a single row gives [[1]]', () => {
    expect(cosineSimilarity([[0.3, -4]])).toEqual({ n: 1, data: Float64Array.from([1]) });
  });
});

describe('cosineSimilarity errors', () => {
  it('zero-norm row names the row index (and the class when names are given)', () => {
    const rows = [
      [1, 2],
      [0, 0],
    ];
    expect(() => cosineSimilarity(rows)).toThrow(SimilarityError);
    expect(() => cosineSimilarity(rows)).toThrow('Row 1 of the embedding table is all zeros, so it has no direction and its cosine similarity is undefined.');
    expect(() => cosineSimilarity(rows, ['cat', 'dog'])).toThrow(/^Row 1 \(dog\) of the embedding table is all zeros/);
    try {
      cosineSimilarity(rows);
    } catch (e) {
      expect((e as SimilarityError).location).toEqual({ row: 1 });
    }
  });

  it('empty table, empty rows, ragged rows, non-finite cells', () => {
    expect(() => cosineSimilarity([])).toThrow('The embedding table is empty: it has no rows.');
    expect(() => cosineSimilarity([[]])).toThrow('Row 0 of the embedding table has no values.');
    expect(() =>
      cosineSimilarity([
        [1, 2],
        [1, 2, 3],
      ]),
    ).toThrow('Row 1 of the embedding table has 3 values but row 0 has 2; every embedding needs the same length.');
    expect(() =>
      cosineSimilarity([
        [1, 2],
        [1, Number.NaN],
      ]),
    ).toThrow('Embedding cell (1, 1) is NaN; every value must be a finite number.');
    expect(() => cosineSimilarity([[1, Number.POSITIVE_INFINITY]], ['cat'])).toThrow(
      'Embedding cell (0, 1) (cat) is Infinity; every value must be a finite number.',
    );
  });
});
