import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { SimilarityError, checkSimilarity, validateSimilarity } from '../../../../src/core/similarity/validate';

const expected = JSON.parse(readFileSync(new URL('../../../fixtures/similarity/expected.json', import.meta.url), 'utf8')) as {
  matrix: number[][];
  classes: string[];
};

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SimilarityError);
    expect((e as Error).name).toBe('SimilarityError');
    return (e as Error).message;
  }
  throw new Error('expected a SimilarityError');
}

describe('validateSimilarity: good input', () => {
  it('returns an equal copy of a valid matrix (nested rows or SquareMatrix), never the input', () => {
    const m = matrixFromRows(expected.matrix);
    const out = validateSimilarity(m, 5);
    expect(out).toEqual(m);
    expect(out.data).not.toBe(m.data);
    expect(validateSimilarity(expected.matrix)).toEqual(m);
    expect(checkSimilarity(expected.matrix, 5).warnings).toEqual([]);
  });

  it('does not modify its input when it repairs', () => {
    const rows = [
      [0, 0.5],
      [0.5, 0],
    ];
    validateSimilarity(rows);
    expect(rows).toEqual([
      [0, 0.5],
      [0.5, 0],
    ]);
  });
});

describe('validateSimilarity: repairs and warnings', () => {
  it('sets the diagonal to 1, warning beyond 1e-6 (with a distance-matrix hint for 0)', () => {
    const { matrix, warnings } = checkSimilarity([
      [0, 0.2, 0.3],
      [0.2, 0, 0.4],
      [0.3, 0.4, 0],
    ]);
    expect(Array.from(matrix.data)).toEqual([1, 0.2, 0.3, 0.2, 1, 0.4, 0.3, 0.4, 1]);
    expect(warnings).toEqual([
      '3 diagonal entries were not 1 (cell (0, 0) is 0); the diagonal was set to 1. A zero diagonal suggests a distance matrix: upload similarities (e.g. 1 − distance) instead.',
    ]);
    const one = checkSimilarity(
      [
        [1, 0.1],
        [0.1, 0.9],
      ],
      undefined,
      ['cat', 'dog'],
    );
    expect(one.warnings).toEqual(['1 diagonal entry was not 1 (cell (1, 1) (dog) is 0.9); the diagonal was set to 1.']);
    // within 1e-6: silently exact
    const tiny = checkSimilarity([
      [1 - 1e-9, 0.1],
      [0.1, 1],
    ]);
    expect(tiny.warnings).toEqual([]);
    expect(tiny.matrix.data[0]).toBe(1);
  });

  it('averages asymmetry within 1e-6 away, with a warning', () => {
    const { matrix, warnings } = checkSimilarity([
      [1, 0.5 + 4e-7, 0.1],
      [0.5, 1, 0.2],
      [0.1, 0.2, 1],
    ]);
    expect(matrix.data[1]).toBe(matrix.data[3]);
    expect(matrix.data[1]).toBeCloseTo(0.5 + 2e-7, 15);
    expect(warnings).toEqual([
      'The matrix was symmetric only up to 4e-7 (worst at cell (0, 1)); it was made exactly symmetric by averaging it with its transpose.',
    ]);
  });

  it('allows values outside [−1, 1] with a warning naming the most extreme', () => {
    const { matrix, warnings } = checkSimilarity([
      [1, 3, -7],
      [3, 1, 0.5],
      [-7, 0.5, 1],
    ]);
    expect(matrix.data[2]).toBe(-7);
    expect(warnings).toEqual([
      '2 pairs have similarities outside [−1, 1] (the most extreme: cell (0, 2) = -7); they were kept, but cosine similarities never leave [−1, 1].',
    ]);
    expect(
      checkSimilarity([
        [1, 1.5],
        [1.5, 1],
      ]).warnings[0],
    ).toMatch(/^1 pair has a similarity outside \[−1, 1\]/);
  });
});

describe('validateSimilarity: errors (one sentence, saying what and where)', () => {
  it('empty', () => {
    expect(message(() => validateSimilarity([]))).toBe('The similarity matrix is empty: it has no rows.');
    expect(message(() => validateSimilarity({ n: 0, data: new Float64Array(0) }))).toBe('The similarity matrix is empty: it has no rows.');
  });

  it('not square', () => {
    const rows = [
      [1, 0, 0, 0, 0, 0],
      [0, 1, 0, 0, 0, 0],
      [0, 0, 1, 0, 0, 0],
      [0, 0, 0, 1, 0],
      [0, 0, 0, 0, 1, 0],
      [0, 0, 0, 0, 0, 1],
    ];
    expect(message(() => validateSimilarity(rows))).toBe('Row 3 has 5 values; a 6×6 matrix needs 6.');
    expect(message(() => validateSimilarity([[1, 2, 3]]))).toBe('Row 0 has 3 values; a 1×1 matrix needs 1.');
    expect(message(() => validateSimilarity({ n: 3, data: new Float64Array(8) }))).toBe('The matrix holds 8 values; a 3×3 matrix needs 9.');
    expect(message(() => validateSimilarity([1, 2] as unknown as number[][]))).toBe('Row 0 is not a list of numbers.');
    expect(
      message(() =>
        validateSimilarity([
          [1, 'x'],
          [0, 1],
        ] as unknown as number[][]),
      ),
    ).toBe('Cell (0, 1) is "x", not a number.');
  });

  it('wrong size for the class count', () => {
    expect(message(() => validateSimilarity(expected.matrix, 6))).toBe('The matrix is 5×5 but there are 6 classes; it must be 6×6.');
    expect(message(() => validateSimilarity(expected.matrix, 1))).toBe('The matrix is 5×5 but there is 1 class; it must be 1×1.');
    expect(message(() => validateSimilarity(expected.matrix, 0))).toBe('The class count must be a whole number ≥ 1; got 0.');
  });

  it('NaN and Infinity name the cell', () => {
    const rows = expected.matrix.map((r) => r.slice());
    rows[2][4] = Number.NaN;
    expect(message(() => validateSimilarity(rows))).toBe('Cell (2, 4) is NaN; every similarity must be a finite number.');
    rows[2][4] = Number.NEGATIVE_INFINITY;
    expect(message(() => validateSimilarity(rows))).toBe('Cell (2, 4) is -Infinity; every similarity must be a finite number.');
    try {
      validateSimilarity(rows);
    } catch (e) {
      expect((e as SimilarityError).location).toEqual({ row: 2, column: 4 });
    }
    expect(message(() => checkSimilarity(rows, 5, expected.classes))).toBe(
      'Cell (2, 4) (aquarium_fish) is -Infinity; every similarity must be a finite number.',
    );
  });

  it('asymmetry beyond 1e-6 names the worst cell and both values', () => {
    const rows = expected.matrix.map((r) => r.slice());
    rows[1][3] = 0.39; // was 0.3900761815842544: off by 7.6e-5
    rows[4][2] = 0.5; // was 0.287…: the worst
    expect(message(() => validateSimilarity(rows))).toBe(
      'The matrix is not symmetric: cell (2, 4) is 0.2873809655 but cell (4, 2) is 0.5 (difference 0.2126190345, tolerance 1e-6).',
    );
  });
});
