/** An uploaded similarity file is bounded before the work it asks for (every size a link, upload or flag can ask for). */
import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS } from '../../../../src/core/config/limits';
import { parseSimilarityUpload } from '../../../../src/core/similarity/parse-upload';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

/** A .npy header for a float64 array of `shape`, with no data after it. */
function npyHeaderOnly(shape: string): Uint8Array {
  let h = `{'descr': '<f8', 'fortran_order': False, 'shape': ${shape}, }`;
  while ((10 + h.length + 1) % 64 !== 0) h += ' ';
  h += '\n';
  const out = new Uint8Array(10 + h.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, h.length, true);
  out.set(new TextEncoder().encode(h), 10);
  return out;
}

describe('upload bounds', () => {
  it('a .npy array with more numbers than the bound is refused from its header, before its data is read', () => {
    expect(message(() => parseSimilarityUpload('e.npy', npyHeaderOnly('(100000, 512)')))).toBe(
      'The file holds 100 000 × 512 = 51 200 000 numbers; at most 25 000 000 can be read in the tab.',
    );
    // at the bound the header passes, and the missing data is what is reported
    expect(message(() => parseSimilarityUpload('e.npy', npyHeaderOnly('(50000, 500)')))).toMatch(/^The \.npy file is truncated/);
    expect(50_000 * 500).toBe(CONFIG_LIMITS.uploadValues);
  });

  it('embeddings of more classes than an experiment can have are refused before the cosine matrix is made', () => {
    const n = CONFIG_LIMITS.classes + 1;
    const csv = Array.from({ length: n }, (_, i) => `c${i},${i + 1},1`).join('\n');
    expect(message(() => parseSimilarityUpload('e.csv', csv))).toBe(
      "The file has 1 001 embeddings to compare; a similarity matrix can have at most 1 000 classes (an experiment's most). Give the experiment's classes, so that only their rows are used.",
    );
    // with the experiment's classes, only their rows are compared
    expect(parseSimilarityUpload('e.csv', csv, ['c3', 'c1000']).matrix.n).toBe(2);
    expect(parseSimilarityUpload('e.csv', csv.split('\n').slice(1).join('\n')).matrix.n).toBe(CONFIG_LIMITS.classes);
  });
});
