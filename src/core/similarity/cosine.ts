/**
 * Cosine similarity of class embeddings (docs/science.md §1 EDGE, §6): L2-normalise every row, then take dot products,
 * Sim(i, j) = ⟨xᵢ/‖xᵢ‖, xⱼ/‖xⱼ‖⟩ — what the paper does with CLIP text embeddings, and what
 * `E / np.linalg.norm(E, axis=1, keepdims=True) @ (…).T` gives in numpy.
 *
 * Arithmetic is float64 whatever the input type (float32 rows are widened exactly first).
 * The result is exactly symmetric (the upper triangle is computed and mirrored), its diagonal is exactly 1, and
 * entries are clamped to [−1, 1] (rounding can push a dot product of unit vectors past ±1 by an ulp).
 * A zero (or non-finite) row cannot be normalised: SimilarityError naming the row.
 */
import type { SquareMatrix } from '../orderings/types';
import { SimilarityError } from './validate';

/**
 * Class×class cosine similarity of the rows of an N×D embedding table.
 * @param embeddings one row per class, all of the same length D ≥ 1.
 * @param classNames optional, only to name a class in error messages.
 */
export function cosineSimilarity(embeddings: number[][] | Float32Array[] | ReadonlyArray<ArrayLike<number>>, classNames?: readonly string[]): SquareMatrix {
  const rows = embeddings as ReadonlyArray<ArrayLike<number>>;
  const n = rows.length;
  const name = (i: number): string => (classNames && classNames[i] !== undefined ? ` (${classNames[i]})` : '');
  if (n === 0) throw new SimilarityError('The embedding table is empty: it has no rows.');
  const dim = rows[0].length;
  if (dim === 0) throw new SimilarityError('Row 0 of the embedding table has no values.', { row: 0 });

  // Unit rows, float64, contiguous.
  const unit = new Float64Array(n * dim);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    if (r.length !== dim)
      throw new SimilarityError(
        `Row ${i}${name(i)} of the embedding table has ${r.length} values but row 0 has ${dim}; every embedding needs the same length.`,
        { row: i },
      );
    let ss = 0;
    let scale = 0;
    for (let k = 0; k < dim; k++) {
      const x = Number(r[k]);
      if (!Number.isFinite(x))
        throw new SimilarityError(
          `Embedding cell (${i}, ${k})${name(i)} is ${typeof r[k] === 'number' ? String(x) : JSON.stringify(r[k])}; every value must be a finite number.`,
          { row: i, column: k },
        );
      unit[i * dim + k] = x;
      scale = Math.max(scale, Math.abs(x));
    }
    if (scale === 0)
      throw new SimilarityError(`Row ${i}${name(i)} of the embedding table is all zeros, so it has no direction and its cosine similarity is undefined.`, {
        row: i,
      });
    // Scale by the largest |x| first so the sum of squares can neither overflow nor underflow.
    for (let k = 0; k < dim; k++) {
      const x = unit[i * dim + k] / scale;
      ss += x * x;
    }
    const norm = scale * Math.sqrt(ss);
    for (let k = 0; k < dim; k++) unit[i * dim + k] /= norm;
  }

  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    data[i * n + i] = 1;
    const a = i * dim;
    for (let j = i + 1; j < n; j++) {
      const b = j * dim;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += unit[a + k] * unit[b + k];
      const v = dot > 1 ? 1 : dot < -1 ? -1 : dot;
      data[i * n + j] = v;
      data[j * n + i] = v;
    }
  }
  return { n, data };
}
