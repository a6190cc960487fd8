import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SquareMatrix } from '../../../../src/core/orderings/types';
import { parseSimilarityUpload } from '../../../../src/core/similarity/parse-upload';
import { SimilarityError } from '../../../../src/core/similarity/validate';

const DIR = new URL('../../../fixtures/similarity/', import.meta.url);
const file = (name: string) => new Uint8Array(readFileSync(new URL(name, DIR)));
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const expected = JSON.parse(text('expected.json')) as Record<string, number[][]> & { _note: string; classes: string[] };
const CLASSES = expected.classes; // cat, dog, aquarium_fish, maple tree, tiger

function worstDiff(m: SquareMatrix, want: number[][]): number {
  expect(m.n).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < m.n; i++) for (let j = 0; j < m.n; j++) worst = Math.max(worst, Math.abs(m.data[i * m.n + j] - want[i][j]));
  return worst;
}

/** `want` with rows and columns picked in `order`. */
function permute(want: number[][], order: number[]): number[][] {
  return order.map((i) => order.map((j) => want[i][j]));
}

function parseError(name: string, bytes: Uint8Array | ArrayBuffer | string, classNames?: string[]): SimilarityError {
  try {
    parseSimilarityUpload(name, bytes, classNames);
  } catch (e) {
    expect(e).toBeInstanceOf(SimilarityError);
    return e as SimilarityError;
  }
  throw new Error(`expected ${name} to be refused`);
}
const msg = (name: string, bytes: Uint8Array | ArrayBuffer | string, classNames?: string[]) => parseError(name, bytes, classNames).message;

/** A .npy file built by hand: magic, version, header length, dict header padded to 64 bytes, data. */
function npy(header: string, data: Uint8Array, major = 1): Uint8Array {
  const lenSize = major === 1 ? 2 : 4;
  const pre = 8 + lenSize;
  let h = header;
  while ((pre + h.length + 1) % 64 !== 0) h += ' ';
  h += '\n';
  const out = new Uint8Array(pre + h.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  const view = new DataView(out.buffer);
  if (major === 1) view.setUint16(8, h.length, true);
  else view.setUint32(8, h.length, true);
  out.set(new TextEncoder().encode(h), pre);
  out.set(data, pre + h.length);
  return out;
}
const f8 = (values: number[]) => new Uint8Array(Float64Array.from(values).buffer);

describe('fixtures written by numpy (scripts/make-similarity-fixtures.py)', () => {
  it('expected.json says how it was made', () => {
    expect(expected._note).toMatch(/make-similarity-fixtures\.py/);
  });

  const embeddingCases: [string, string, number][] = [
    ['emb_f64.npy', 'cosine_f64', 1e-12],
    ['emb_f64_v2.npy', 'cosine_f64', 1e-12],
    ['emb_f64_v3.npy', 'cosine_f64', 1e-12],
    ['emb_f64_be.npy', 'cosine_f64', 1e-12],
    ['emb_f64_fortran.npy', 'cosine_f64', 1e-12],
    ['emb_f32.npy', 'cosine_f32_numpy', 1e-6],
    ['emb_f32.npy', 'cosine_f32_as_f64', 1e-12],
    ['emb_f32_be.npy', 'cosine_f32_as_f64', 1e-12],
    ['emb_f32_fortran.npy', 'cosine_f32_numpy', 1e-6],
    ['emb_f32_fortran.npy', 'cosine_f32_as_f64', 1e-12],
    ['emb_f16.npy', 'cosine_f16_as_f64', 1e-12],
    ['emb_i4.npy', 'cosine_int', 1e-12],
    ['emb_i8.npy', 'cosine_int', 1e-12],
    ['emb_bare.json', 'cosine_f64', 1e-12],
    ['emb.csv', 'cosine_f64', 1e-12],
    ['emb.tsv', 'cosine_f64', 1e-12],
  ];
  it.each(embeddingCases)('%s → embeddings, cosine = %s within %s', (name, key, tol) => {
    const r = parseSimilarityUpload(name, file(name));
    expect(r.kind).toBe('embeddings');
    expect(r.classNames).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(worstDiff(r.matrix, expected[key])).toBeLessThanOrEqual(tol);
  });

  it.each(['emb_named.json', 'emb_obj.json', 'emb_named.csv', 'emb_pandas.csv'])('%s → embeddings with the class names', (name) => {
    const r = parseSimilarityUpload(name, file(name));
    expect(r.kind).toBe('embeddings');
    expect(r.classNames).toEqual(CLASSES);
    expect(r.warnings).toEqual([]);
    expect(worstDiff(r.matrix, expected.cosine_f64)).toBeLessThanOrEqual(1e-12);
  });

  const matrixCases: [string, string, boolean][] = [
    ['matrix_f64.npy', 'matrix', false],
    ['matrix_f64_fortran.npy', 'matrix', false],
    ['matrix_f32.npy', 'matrix_f32_as_f64', false],
    ['matrix_bare.json', 'matrix', false],
    ['matrix_obj.json', 'matrix', true],
    ['matrix_named.csv', 'matrix', true],
    ['matrix.tsv', 'matrix', false],
    ['matrix_savetxt.txt', 'matrix', false],
  ];
  it.each(matrixCases)('%s → the matrix (%s)', (name, key, named) => {
    const r = parseSimilarityUpload(name, file(name));
    expect(r.kind).toBe('matrix');
    expect(r.classNames).toEqual(named ? CLASSES : undefined);
    expect(r.warnings).toEqual([]);
    expect(worstDiff(r.matrix, expected[key])).toBe(0);
  });

  it('accepts ArrayBuffer, a Uint8Array view into a bigger buffer, and text', () => {
    const bytes = file('emb_f64.npy');
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(worstDiff(parseSimilarityUpload('e.npy', buf as ArrayBuffer).matrix, expected.cosine_f64)).toBeLessThanOrEqual(1e-12);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(worstDiff(parseSimilarityUpload('e.npy', padded.subarray(3)).matrix, expected.cosine_f64)).toBeLessThanOrEqual(1e-12);
    expect(worstDiff(parseSimilarityUpload('m.csv', text('matrix_named.csv')).matrix, expected.matrix)).toBe(0);
  });

  it('sniffs the format when the extension says nothing', () => {
    expect(parseSimilarityUpload('upload', file('emb_f64.npy')).kind).toBe('embeddings');
    expect(parseSimilarityUpload('upload', file('matrix_obj.json')).classNames).toEqual(CLASSES);
    expect(parseSimilarityUpload('upload.dat', file('matrix.tsv')).kind).toBe('matrix');
    expect(parseSimilarityUpload('noext', file('emb_named.csv')).classNames).toEqual(CLASSES);
  });
});

describe('matrix or embeddings', () => {
  it('a square symmetric table is a matrix; the same table as embeddings only when the JSON says so', () => {
    const rows = expected.matrix;
    expect(parseSimilarityUpload('m.json', JSON.stringify(rows), CLASSES).kind).toBe('matrix');
    const r = parseSimilarityUpload('m.json', JSON.stringify({ embeddings: rows }));
    expect(r.kind).toBe('embeddings');
    expect(r.matrix.data[1]).not.toBeCloseTo(rows[0][1], 3);
  });

  it('a square table without a unit diagonal that is not symmetric is read as embeddings, with a warning', () => {
    const rows = [
      [0.5, 0.2, 0.3],
      [0.9, 0.4, 0.1],
      [0.3, 0.1, 0.7],
    ];
    const r = parseSimilarityUpload('t.csv', rows.map((x) => x.join(',')).join('\n'));
    expect(r.kind).toBe('embeddings');
    expect(r.warnings).toEqual([
      'The 3×3 table is not symmetric (line 1, column 2 is 0.2 but line 2, column 1 is 0.9), so it was read as 3 embeddings of dimension 3; if it is meant as a similarity matrix, make it symmetric.',
    ]);
  });

  it('a square table with a unit diagonal that is not symmetric is a broken similarity matrix: an error naming the cells', () => {
    const rows = [
      [1, 0.2, 0.3],
      [0.9, 1, 0.1],
      [0.3, 0.1, 1],
    ];
    expect(() => parseSimilarityUpload('t.csv', rows.map((x) => x.join(',')).join('\n'))).toThrow(
      'The 3×3 similarity matrix is not symmetric: line 1, column 2 is 0.2 but line 2, column 1 is 0.9.',
    );
  });

  it('validation warnings of a matrix come through (diagonal reset, values outside [−1, 1])', () => {
    const r = parseSimilarityUpload(
      'm.json',
      JSON.stringify({
        matrix: [
          [0, 2],
          [2, 0],
        ],
      }),
    );
    expect(r.kind).toBe('matrix');
    expect(Array.from(r.matrix.data)).toEqual([1, 2, 2, 1]);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toMatch(/^2 diagonal entries were not 1 .* distance matrix/);
    expect(r.warnings[1]).toMatch(/^1 pair has a similarity outside \[−1, 1\]/);
  });

  it('a declared matrix that is not symmetric is an error naming the worst cell and its place in the file', () => {
    expect(
      msg(
        'm.json',
        JSON.stringify({
          matrix: [
            [1, 0.5],
            [0.25, 1],
          ],
        }),
      ),
    ).toBe('The matrix is not symmetric: cell (0, 1) is 0.5 but cell (1, 0) is 0.25 (difference 0.25, tolerance 1e-6), at matrix[0][1] of the file.');
    expect(
      msg(
        'm.json',
        JSON.stringify({
          matrix: [
            [1, 0.5, 0],
            [0.5, 1, 0],
          ],
        }),
      ),
    ).toBe('The "matrix" has 2 rows of 3 values; a similarity matrix must be square (2×2).');
  });
});

describe('class names', () => {
  const order = [4, 0, 3, 1, 2];
  const shuffled = order.map((i) => CLASSES[i]);

  it('reorders a named matrix (rows and columns) and named embeddings to the given classes', () => {
    for (const name of ['matrix_named.csv', 'matrix_obj.json', 'emb_named.json', 'emb_named.csv', 'emb_pandas.csv', 'emb_obj.json']) {
      const r = parseSimilarityUpload(name, file(name), shuffled);
      expect(r.classNames).toEqual(shuffled);
      expect(r.warnings).toEqual([]);
      expect(worstDiff(r.matrix, permute(expected.matrix, order))).toBeLessThanOrEqual(1e-12);
    }
  });

  it('matches names ignoring case, spaces, underscores and hyphens, with a warning', () => {
    const loose = ['Tiger', 'cat', 'maple_tree', 'dog', 'aquarium fish'];
    const r = parseSimilarityUpload('m.csv', file('matrix_named.csv'), loose);
    expect(r.classNames).toEqual(loose);
    expect(worstDiff(r.matrix, permute(expected.matrix, order))).toBe(0);
    expect(r.warnings).toEqual(['3 class names matched the file only after ignoring case, spaces, underscores and hyphens (e.g. "Tiger" ↔ "tiger").']);
  });

  it('uses a subset of the file’s classes, with a warning', () => {
    const r = parseSimilarityUpload('e.json', file('emb_named.json'), ['tiger', 'cat']);
    expect(r.matrix.n).toBe(2);
    expect(r.matrix.data[1]).toBeCloseTo(expected.cosine_f64[4][0], 12);
    expect(r.warnings).toEqual(['The file has 5 classes; the 2 of this experiment were used and the rest ignored.']);
  });

  it('missing classes are an error that names them', () => {
    expect(msg('m.csv', file('matrix_named.csv'), ['cat', 'lion', 'dog', 'bear'])).toBe(
      'The file has no entry for 2 of the 4 classes: "lion", "bear" (the file\'s classes are "cat", "dog", "aquarium_fish", "maple tree", "tiger").',
    );
    expect(msg('e.json', file('emb_obj.json'), ['cat', 'wolf'])).toBe(
      'The file has no entry for the class "wolf" (the file\'s classes are "cat", "dog", "aquarium_fish", "maple tree", "tiger").',
    );
  });

  it('without names in the file the row count must match, with a transpose hint', () => {
    expect(msg('e.npy', file('emb_f64.npy'), ['a', 'b', 'c', 'd'])).toBe(
      'The file has 5 rows of 8 values (5 embeddings) but there are 4 classes; it needs one row per class.',
    );
    expect(msg('e.npy', file('emb_transposed.npy'), CLASSES)).toBe(
      'The file has 8 rows of 5 values (8 embeddings) but there are 5 classes; it needs one row per class. If each column is a class, save the transpose (np.save(path, E.T)).',
    );
    expect(msg('m.npy', file('matrix_f64.npy'), ['a', 'b', 'c', 'd', 'e', 'f'])).toBe('The matrix is 5×5 but there are 6 classes; it must be 6×6.');
    const r = parseSimilarityUpload('m.npy', file('matrix_f64.npy'), CLASSES);
    expect(r.classNames).toEqual(CLASSES);
    expect(r.classNames).not.toBe(CLASSES);
  });

  it('a header in another order than the first column: columns are reordered to follow the rows', () => {
    const csv = ',b,a\na,0.5,1\nb,1,0.5\n';
    const r = parseSimilarityUpload('m.csv', csv);
    expect(r.kind).toBe('matrix');
    expect(r.classNames).toEqual(['a', 'b']);
    expect(Array.from(r.matrix.data)).toEqual([1, 0.5, 0.5, 1]);
    expect(r.warnings).toEqual(['The header lists the classes in a different order from the first column; the columns were reordered to match the rows.']);
    expect(msg('m.csv', ',a,c\na,1,0.5\nb,0.5,1\n')).toBe(
      'The header\'s class names and the first column\'s class names differ ("c" only in the header; "b" only in the first column).',
    );
  });

  it('a header names the classes of an unnamed-row matrix; numeric MNIST-like names are recognised', () => {
    const r = parseSimilarityUpload('m.csv', 'x,y\n1,0.25\n0.25,1\n');
    expect(r.classNames).toEqual(['x', 'y']);
    const digits = parseSimilarityUpload('e.csv', '0,0.1,0.2\n1,0.3,0.1\n2,0.2,0.2\n', ['2', '0', '1']);
    expect(digits.classNames).toEqual(['2', '0', '1']);
    expect(digits.matrix.n).toBe(3);
  });

  it('a pandas row index (0, 1, …) is not taken for class names', () => {
    const csv = ',0,1\n0,0.3,0.4\n1,0.5,-0.2\n2,0.1,0.9\n';
    const r = parseSimilarityUpload('e.csv', csv, ['a', 'b', 'c']);
    expect(r.kind).toBe('embeddings');
    expect(r.classNames).toEqual(['a', 'b', 'c']);
    expect(r.warnings).toEqual(['The first column (0, 1, 2, …) was read as a row index, not as class names.']);
  });

  it('pandas column labels 0..D−1 without an index are a header, with a warning', () => {
    const r = parseSimilarityUpload('e.csv', '0,1,2\n0.5,0.25,0.125\n-1.5,2.5,0.75\n');
    expect(r.matrix.n).toBe(2);
    expect(r.warnings).toEqual(['Line 1 (0, 1, 2, …) was read as column labels, not data.']);
    // integer-only tables keep their first line as data
    expect(parseSimilarityUpload('e.csv', '0,1,2\n3,4,5\n').matrix.n).toBe(2);
  });

  it('duplicate class names in the file are an error naming both places', () => {
    expect(msg('e.csv', 'cat,1,2\ndog,3,4\ncat,5,6\n', ['cat', 'dog'])).toBe('The class "cat" appears twice in the file (line 1 and line 3).');
  });

  it('duplicate or empty given classes are an error', () => {
    expect(msg('e.npy', file('emb_f64.npy'), ['a', 'b', 'a'])).toBe('The class "a" is listed twice in the experiment\'s classes.');
    expect(msg('e.npy', file('emb_f64.npy'), [])).toBe('The list of classes is empty.');
  });
});

describe('CSV dialects', () => {
  it('semicolons, quoted names with commas, CRLF, BOM, comments and blank lines', () => {
    const csv = '\uFEFF# exported\r\n"name";"x";"y"\r\n\r\n"tiger, bengal";1;0\r\n"cat ""felis""";0;1\r\n';
    const r = parseSimilarityUpload('e.csv', csv);
    expect(r.kind).toBe('embeddings'); // square and symmetric, but x, y name no class: dimension labels
    expect(r.classNames).toEqual(['tiger, bengal', 'cat "felis"']);
    expect(Array.from(r.matrix.data)).toEqual([1, 0, 0, 1]);
  });

  it('whitespace-separated text with quoted names', () => {
    const r = parseSimilarityUpload('e.txt', '"maple tree"  1 2\n cat\t3 4\n');
    expect(r.classNames).toEqual(['maple tree', 'cat']);
  });

  it('UTF-16 text (Excel "Unicode text")', () => {
    const s = '\uFEFFa\t1\t0\nb\t0\t1\n';
    const bytes = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) new DataView(bytes.buffer).setUint16(i * 2, s.charCodeAt(i), true);
    expect(parseSimilarityUpload('e.txt', bytes).classNames).toEqual(['a', 'b']);
  });
});

describe('bad input: every message says what is wrong and where', () => {
  it('empty files', () => {
    expect(msg('e.csv', new Uint8Array(0))).toBe('The file "e.csv" is empty.');
    expect(msg('e.csv', '  \n\n')).toBe('The file "e.csv" is empty.');
    expect(msg('e.csv', '# only a comment\n')).toBe('The file has no data lines (only blank or # comment lines).');
    expect(msg('e.csv', 'class,x,y\n')).toBe('The file has a header (line 1) but no data lines.');
  });

  it('binary garbage and invalid UTF-8', () => {
    const garbage = new Uint8Array(256);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 97 + 13) % 256;
    expect(msg('sim.csv', garbage)).toBe('The file looks binary (byte 211 is NUL) and is not a .npy file; upload JSON, CSV/TSV or a .npy array.');
    expect(msg('sim.csv', new Uint8Array([0x31, 0x2c, 0x32, 0x0a, 0xc3, 0x28, 0x0a]))).toBe(
      'The file is not UTF-8 text (byte 4 is invalid) and is not a .npy file; upload JSON, CSV/TSV or a .npy array.',
    );
    expect(msg('x.npz', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]))).toBe(
      'The file is a .npz (zip) archive, which is not supported; save one array with np.save("similarity.npy", array).',
    );
    expect(msg('x.npy', new TextEncoder().encode('1,2\n3,4\n'))).toBe(
      'The file is named .npy but does not start with the NumPy magic string "\\x93NUMPY"; it is not a .npy file.',
    );
  });

  it('ragged rows, non-numeric, empty and non-finite cells name the line and column', () => {
    expect(msg('e.csv', '1,2,3\n4,5,6\n7,8\n')).toBe('Line 3 has 2 values but line 1 has 3; every line needs the same number of values.');
    expect(msg('e.csv', '1,2,3\n4,abc,6\n')).toBe('Line 2, column 2 is "abc", not a number.');
    expect(msg('e.csv', 'cat,1,2\ndog,3,x\n')).toBe('Line 2, column 3 is "x", not a number.');
    expect(msg('e.csv', '1,2,3\n4,,6\n')).toBe('Line 2, column 2 is empty; every cell needs a number.');
    expect(msg('e.csv', '1,2\n3,nan\n')).toBe('Line 2, column 2 is "nan"; every value must be a finite number.');
    expect(msg('e.csv', '1;2\n3;0,5\n')).toBe('Line 2, column 2 is "0,5", not a number (decimal commas are not supported: write 0.5, not 0,5).');
    expect(msg('e.csv', '1,2\n"cat,3\n')).toBe('Line 2 has an unterminated quote (").');
    expect(msg('e.txt', '1 2\n3 4"\n')).toBe('Line 2 has an unterminated quote (").');
    expect(msg('e.csv', 'name,a,b\ncat,1,2\ndog,3,4,5\n')).toBe('Line 3 has 4 values but line 2 has 3; every line needs the same number of values.');
    expect(msg('e.csv', 'name,a,b,c,d\ncat,1,2\ndog,3,4\n')).toBe('The header (line 1) has 5 cells but the data lines have 3.');
    expect(msg('e.csv', 'cat\ndog\n')).toBe('Line 1 has class names but no numbers.');
  });

  it('all-zero embeddings name the row and its place', () => {
    expect(msg('e.csv', 'cat,1,2\ndog,0,0\n')).toBe('Line 2 (dog) is all zeros, so it has no direction and its cosine similarity is undefined.');
    expect(msg('e.json', '[[1, 2], [0, 0]]')).toBe('Row 1 is all zeros, so it has no direction and its cosine similarity is undefined.');
    expect(msg('e.npy', npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", f8([1, 2, 0, 0])))).toBe(
      'Row 1 of the array is all zeros, so it has no direction and its cosine similarity is undefined.',
    );
  });

  it('JSON syntax errors give the line, with a hint for NaN', () => {
    const e = parseError('m.json', '[[1, 0.5],\n [0.5, 1],,]');
    expect(e.message).toMatch(/^The file is not valid JSON: .+ \(line 2, column \d+\)\.$/);
    expect(e.location.line).toBe(2);
    expect(e.message).not.toMatch(/" is not valid JSON/); // V8's echo of the text is dropped
    expect(msg('m.json', '{"matrix": [[1]]')).toMatch(/^The file is not valid JSON: .+ \(line 1, column 17\)\.$/);
    expect(msg('m.json', '[[1, 0.5]]\n}')).toMatch(/^The file is not valid JSON: .+ \(line 2, column 1\)\.$/);
    expect(msg('m.json', '[[1, NaN], [NaN, 1]]')).toMatch(
      /^The file is not valid JSON: .*\. It contains NaN or Infinity, which JSON does not allow \(Python's json\.dump writes them for non-finite values\)\.$/,
    );
  });

  it('JSON shape and type errors name the path', () => {
    expect(msg('m.json', '42')).toBe('The JSON must be a 2-D list or an object with "matrix" or "embeddings"; it is a number.');
    expect(msg('m.json', 'null')).toBe('The JSON must be a 2-D list or an object with "matrix" or "embeddings"; it is null.');
    expect(msg('m.json', '[]')).toBe('The JSON list is empty: it has no rows.');
    expect(msg('m.json', '[1, 2, 3]')).toBe('Row 0 is the number 1; the JSON must be a 2-D list (one list of numbers per class).');
    expect(msg('m.json', '[[1, 2], [3]]')).toBe('Row 1 has 1 value but row 0 has 2; every row needs the same length.');
    expect(msg('m.json', '[[1, 2], [3, "4"]]')).toBe('Entry [1][1] is "4", not a number.');
    expect(msg('m.json', '[[1, 2], [3, null]]')).toBe('Entry [1][1] is null, not a number.');
    expect(msg('m.json', '[[1, 2], [3, 1e999]]')).toBe('Entry [1][1] is Infinity; every value must be a finite number.');
    expect(msg('m.json', '[[]]')).toBe('Row 0 is an empty list.');
    expect(msg('m.json', '{"matrix": [[1]], "embeddings": [[1]]}')).toBe('The JSON object has both "matrix" and "embeddings"; keep only one.');
    expect(msg('m.json', '{"matrix": {"a": 1}}')).toBe('"matrix" must be a 2-D list of numbers; it is an object.');
    expect(msg('m.json', '{"matrix": [[1, 0], [0, 1]], "classes": ["a"]}')).toBe('"classes" has 1 name but "matrix" has 2 rows.');
    expect(msg('m.json', '{"matrix": [[1, 0], [0, 1]], "classes": "ab"}')).toBe('"classes" must be a list of class names; it is "ab".');
    expect(msg('m.json', '{"embeddings": [[1, 0], [0, 1]], "labels": ["a", 2]}')).toBe('labels[1] is the number 2; class names must be strings.');
    expect(msg('m.json', '{"embeddings": [[1, 0], [0, "x"]]}')).toBe('embeddings[1][1] is "x", not a number.');
    expect(msg('m.json', '{"matrix": [[1, 0], [0]]}')).toBe('matrix[1] has 1 value but matrix[0] has 2; every row needs the same length.');
    expect(msg('m.json', '{}')).toBe('The JSON object is empty: it names no classes.');
    expect(msg('m.json', '{"cat": [1, 2], "dog": 3}')).toBe(
      '"dog" is the number 3; an object of class names must map each name to a list of numbers (its embedding), or use "matrix" / "embeddings".',
    );
    expect(msg('m.json', '{"cat": [1, 2], "dog": [1, 2, 3]}')).toBe('"dog" has 3 values but "cat" has 2; every row needs the same length.');
    expect(msg('m.json', '{"cat": [1, 2], "dog": [1, true]}')).toBe('"dog"[1] is a boolean true, not a number.');
  });

  it('.npy: truncated anywhere, bad versions, shapes and dtypes', () => {
    const good = file('emb_f64.npy'); // 128-byte header block + 5·8·8 = 320 data bytes
    expect(msg('e.npy', good.subarray(0, 8))).toBe('The .npy file is truncated: it has 8 bytes, fewer than its fixed preamble.');
    expect(msg('e.npy', good.subarray(0, 60))).toBe('The .npy file is truncated: its header says it is 118 bytes long, but only 50 bytes follow.');
    expect(msg('e.npy', good.subarray(0, good.length - 1))).toBe(
      'The .npy file is truncated: a (5, 8) array of <f8 needs 320 bytes of data but the file has 319.',
    );
    expect(msg('e.npy', good.subarray(0, 128))).toBe('The .npy file is truncated: a (5, 8) array of <f8 needs 320 bytes of data but the file has 0.');
    const v9 = good.slice();
    v9[6] = 9;
    expect(msg('e.npy', v9)).toBe('The .npy file has format version 9.0; versions 1.0, 2.0 and 3.0 are supported.');
    expect(msg('e.npy', file('emb_1d.npy'))).toBe(
      'The .npy array has shape (8,); it must be 2-D: classes × classes (a similarity matrix) or classes × dimensions (embeddings).',
    );
    expect(msg('e.npy', file('emb_3d.npy'))).toBe(
      'The .npy array has shape (5, 2, 4); it must be 2-D: classes × classes (a similarity matrix) or classes × dimensions (embeddings).',
    );
    expect(msg('e.npy', file('emb_complex.npy'))).toBe(
      'The .npy dtype "<c16" holds complex numbers and is not supported; save float32 or float64 (e.g. array.astype("float32")).',
    );
    expect(msg('e.npy', file('emb_bool.npy'))).toBe(
      'The .npy dtype "|b1" holds booleans and is not supported; save float32 or float64 (e.g. array.astype("float32")).',
    );
    expect(msg('e.npy', npy("{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }", new Uint8Array(0)))).toBe(
      'The .npy dtype "|O" is not supported; save float32 or float64.',
    );
    expect(msg('e.npy', npy("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }", new Uint8Array(16)))).toBe(
      'The .npy array has a structured (record) dtype; save a plain 2-D float array instead.',
    );
    expect(msg('e.npy', npy("{'descr': '<f8', 'shape': (2, 2), }", new Uint8Array(32)))).toBe(
      "The .npy header cannot be read (need 'descr', 'fortran_order' and 'shape'): \"{'descr': '<f8', 'shape': (2, 2), }\".",
    );
    expect(msg('e.npy', npy("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4), }", new Uint8Array(0)))).toBe(
      'The .npy array is empty: its shape is (0, 4).',
    );
    expect(msg('e.npy', npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, x), }", new Uint8Array(32)))).toBe(
      'The .npy header has an unreadable shape (2, x).',
    );
    expect(msg('e.npy', npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", f8([1, Number.NaN, 0, 1])))).toBe(
      'Element (0, 1) of the array is NaN; every value must be a finite number.',
    );
  });

  it('.npy: small hand-built arrays in every supported dtype, both orders, with extra trailing bytes warned', () => {
    // [[3, 4], [4, 3]] is a symmetric square table → matrix with values outside [−1, 1]; use a 2×3 table instead.
    const values = [1, 2, 3, -2, 0, 5]; // 2×3
    const cases: [string, (v: number[]) => Uint8Array][] = [
      ['<f4', (v) => new Uint8Array(Float32Array.from(v).buffer)],
      ['<i2', (v) => new Uint8Array(Int16Array.from(v).buffer)],
      ['|i1', (v) => new Uint8Array(Int8Array.from(v).buffer)],
      ['<u4', (v) => new Uint8Array(Uint32Array.from(v.map((x) => x + 2)).buffer)],
      ['|u1', (v) => Uint8Array.from(v.map((x) => x + 2))],
      ['<u2', (v) => new Uint8Array(Uint16Array.from(v.map((x) => x + 2)).buffer)],
      ['<i8', (v) => new Uint8Array(BigInt64Array.from(v.map(BigInt)).buffer)],
      ['<u8', (v) => new Uint8Array(BigUint64Array.from(v.map((x) => BigInt(x + 2))).buffer)],
      ['<f2', (v) => new Uint8Array(Uint16Array.from(v.map((x) => ({ 1: 0x3c00, 2: 0x4000, 3: 0x4200, [-2]: 0xc000, 0: 0, 5: 0x4500 })[x]!)).buffer)],
    ];
    for (const [descr, enc] of cases) {
      const shift = descr.includes('u') ? 2 : 0;
      const want = parseSimilarityUpload('w.json', JSON.stringify([values.slice(0, 3), values.slice(3)].map((r) => r.map((x) => x + shift)))).matrix;
      const r = parseSimilarityUpload('e.npy', npy(`{'descr': '${descr}', 'fortran_order': False, 'shape': (2, 3), }`, enc(values)));
      expect(r.matrix, descr).toEqual(want);
      // Fortran order: the same logical array stored column by column
      const colMajor = [0, 3, 1, 4, 2, 5].map((k) => values[k]);
      const rf = parseSimilarityUpload('e.npy', npy(`{'descr': '${descr}', 'fortran_order': True, 'shape': (2, 3), }`, enc(colMajor), 2));
      expect(rf.matrix, `${descr} fortran`).toEqual(want);
    }
    const extra = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", f8([1, 2, 3]));
    expect(parseSimilarityUpload('e.npy', extra).warnings).toEqual(['The .npy file has 8 unexpected bytes after its data; they were ignored.']);
    const huge = npy("{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2), }", new Uint8Array(BigInt64Array.from([2n ** 60n + 1n, 1n]).buffer));
    expect(parseSimilarityUpload('e.npy', huge).warnings).toEqual([
      'Some 64-bit integers in the .npy array are beyond 2^53 and were rounded to the nearest double.',
    ]);
  });
});
