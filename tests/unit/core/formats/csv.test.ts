import { describe, expect, it } from 'vitest';
import { readDelimited, sniffDelimiter } from '../../../../src/core/formats/csv';
import { placeJsonError, jsonErrorOffset } from '../../../../src/core/formats/json-errors';
import { NpyError, formatShape, isNpy, readNpyData, readNpyHeader } from '../../../../src/core/formats/npy';
import { parseCsv } from '../../../../src/core/results-import/parse-csv';
import { parseJson, parseJsonLines } from '../../../../src/core/results-import/parse-json';

describe('readDelimited: the one CSV reader', () => {
  it('numbers records by the line they start on, skipping blank and # lines, BOM stripped', () => {
    const r = readDelimited('\uFEFFa,b\r\n\r\n# note\r\n"x\ny",2\n  # indented note\n3,"4"\n');
    expect(r.delimiter).toBe(',');
    expect(r.records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 4, cells: ['x\ny', '2'] },
      { line: 7, cells: ['3', '4'] },
    ]);
  });

  it('a comment line with an odd number of quotes does not swallow the lines after it', () => {
    expect(readDelimited('# the "best\na,b\n').records).toEqual([{ line: 2, cells: ['a', 'b'] }]);
  });

  it('guesses the delimiter from the first record', () => {
    expect(sniffDelimiter('a\tb,c', true)).toBe('\t');
    expect(sniffDelimiter('0,5;0,25', true)).toBe(';');
    expect(sniffDelimiter('a,b', true)).toBe(',');
    expect(sniffDelimiter('1 2 3', true)).toBe(' ');
    expect(sniffDelimiter('1 2 3', false)).toBe(',');
    expect(readDelimited('x;y\n"a;b";2\n').records[1].cells).toEqual(['a;b', '2']);
  });

  it('whitespace-separated text with quoted fields', () => {
    expect(readDelimited('"maple tree"  1 2\n cat\t3  4\n', { whitespace: true }).records).toEqual([
      { line: 1, cells: ['maple tree', '1', '2'] },
      { line: 2, cells: ['cat', '3', '4'] },
    ]);
    expect(readDelimited('"say ""hi""" 1\n', { delimiter: ' ' }).records[0].cells).toEqual(['say "hi"', '1']);
  });

  it('marks a quote that is never closed, on the line where it opens', () => {
    const r = readDelimited('a,b\n"x,1\n2,3\n');
    expect(r.records).toHaveLength(2);
    expect(r.records[1]).toMatchObject({ line: 2, quoteError: 'unterminated' });
    expect(readDelimited('1 2\n3 4"\n', { whitespace: true }).records[1]).toMatchObject({ line: 2, quoteError: 'unterminated' });
    // a quote inside a field is a character, as in RFC 4180 and d3-dsv
    expect(readDelimited('a"b,1\n').records).toEqual([{ line: 1, cells: ['a"b', '1'] }]);
    // text after a closing quote would be cut by d3-dsv: marked
    expect(readDelimited('"q"r,1\n"ok",2\n').records.map((r) => r.quoteError)).toEqual(['text after quote', undefined]);
  });

  it('trims cells when asked', () => {
    expect(readDelimited(' a , 1 \n', { trim: true }).records[0].cells).toEqual(['a', '1']);
    expect(readDelimited(' a , 1 \n').records[0].cells).toEqual([' a ', ' 1 ']);
  });
});

describe('results import on the shared readers', () => {
  it('CSV: an unclosed quote is a problem on its line; rows before it are kept', () => {
    const f = parseCsv('method,order,final_accuracy\newc,"1 0,0.5\nlwf,0 1,0.6\n');
    expect(f.rows).toEqual([]);
    expect(f.problems).toEqual([{ where: 'line 2', line: 2, reason: 'a quote (") opens here and is never closed' }]);
    const g = parseCsv('method,order,final_accuracy\nlwf,0 1,0.6\newc,"1 0,0.5\n');
    expect(g.rows.map((r) => r.line)).toEqual([2]);
    expect(g.problems.map((p) => p.line)).toEqual([3]);
  });

  it('JSON: a syntax error says its line and column', () => {
    const f = parseJson('[\n  {"order": [0, 1], "acc": 0.5},\n  {"order": [1, 0] "acc": 0.4}\n]');
    expect(f.problems).toHaveLength(1);
    expect(f.problems[0]).toMatchObject({ where: 'line 3', line: 3 });
    expect(f.problems[0].reason).toMatch(/^not valid JSON \(.+, at line 3, column 20\)$/);
    const l = parseJsonLines('{"order": [0, 1], "acc": 0.5}\n  {"order": [1, 0], "acc" 0.4}\n');
    expect(l.problems[0]).toMatchObject({ line: 2 });
    expect(l.problems[0].reason).toMatch(/^not valid JSON \(.+, at column 27\)$/);
  });
});

describe('json-errors', () => {
  it('finds the offset of the first syntax error', () => {
    expect(jsonErrorOffset('[1, 2]')).toBe(-1);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('{"a": "\\x"}')).toBe(8);
    expect(jsonErrorOffset('[1,]')).toBe(3);
  });
  it('names the line and column whether or not the engine does', () => {
    const text = '{\n  "a": 1,\n  "b" 2\n}';
    let err: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
    expect(placeJsonError(text, err)).toMatchObject({ line: 3, column: 7 });
    expect(placeJsonError(text, new SyntaxError('Unexpected token'))).toEqual({ reason: 'Unexpected token', line: 3, column: 7, engineSaysWhere: false });
    expect(placeJsonError('[1', new SyntaxError('JSON.parse: end of data at line 1 column 3 of the JSON data'))).toEqual({
      reason: 'end of data',
      line: 1,
      column: 3,
      engineSaysWhere: true,
    });
  });
});

describe('npy', () => {
  const npy = (header: string, data: Uint8Array) => {
    let h = header;
    while ((10 + h.length + 1) % 64 !== 0) h += ' ';
    h += '\n';
    const out = new Uint8Array(10 + h.length + data.length);
    out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
    new DataView(out.buffer).setUint16(8, h.length, true);
    out.set(new TextEncoder().encode(h), 10);
    out.set(data, 10 + h.length);
    return out;
  };
  const f8 = (xs: number[]) => new Uint8Array(new Float64Array(xs).buffer);

  it('reads any number of dimensions, Fortran order turned to C order', () => {
    const bytes = npy("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3, 2), }", f8([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    expect(isNpy(bytes)).toBe(true);
    const header = readNpyHeader(bytes);
    expect(header.shape).toEqual([2, 3, 2]);
    // C index (i, j, k) ↔ Fortran offset i + 2j + 6k
    expect(Array.from(readNpyData(bytes, header).values)).toEqual([0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11]);
    expect(formatShape([4])).toBe('(4,)');
  });

  it('fails with an NpyError that says why', () => {
    const bytes = npy("{'descr': '<c16', 'fortran_order': False, 'shape': (1, 1), }", new Uint8Array(16));
    expect(() => readNpyData(bytes, readNpyHeader(bytes))).toThrow(NpyError);
    expect(() => readNpyData(bytes, readNpyHeader(bytes))).toThrow('The .npy dtype "<c16" holds complex numbers and is not supported');
  });
});
