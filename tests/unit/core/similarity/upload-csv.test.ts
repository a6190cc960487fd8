/** The similarity upload on the project's one CSV reader (src/core/formats/csv.ts): what RFC 4180 quoting changes. */
import { describe, expect, it } from 'vitest';
import { parseSimilarityUpload } from '../../../../src/core/similarity/parse-upload';
import { SimilarityError } from '../../../../src/core/similarity/validate';

function fails(name: string, text: string): SimilarityError {
  try {
    parseSimilarityUpload(name, text);
  } catch (e) {
    return e as SimilarityError;
  }
  throw new Error('expected a SimilarityError');
}

describe('quoted cells', () => {
  it('a quoted class name may hold the delimiter, a quote and a line break', () => {
    const r = parseSimilarityUpload('e.csv', 'name,x,y\n"tiger, ""bengal""",1,0\n"two\nlines",0,1\n"cat",1,1\n');
    expect(r.classNames).toEqual(['tiger, "bengal"', 'two\nlines', 'cat']);
  });

  it('text after a closing quote is an error on its line, not a silently cut cell', () => {
    const e = fails('e.csv', 'a,1,2\n"b"x,3,4\n');
    expect(e.message).toBe('Line 2 has text after a closing quote (").');
    expect(e.location).toEqual({ line: 2 });
  });

  it('an unterminated quote is named on the line where it opens, even with lines after it', () => {
    expect(fails('e.csv', '1,2\n"cat,3\n4,5\n6,7\n').message).toBe('Line 2 has an unterminated quote (").');
  });
});
