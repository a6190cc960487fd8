/**
 * The bytes (or text) of an uploaded similarity file → RawTable: a .npy array (formats/npy.ts), else text —
 * UTF-8 or UTF-16 with a byte-order mark — read as JSON (upload-json.ts) or as a delimited table (upload-text.ts),
 * by the file's extension or, for other names, by its first character.
 */
import { NpyError, formatShape, isNpy, readNpyData, readNpyHeader } from '../formats/npy';
import { tooManyValues } from './upload-limits';
import { readJson } from './upload-json';
import type { RawTable } from './upload-table';
import { readTable } from './upload-text';
import { SimilarityError } from './validate';

export function readAny(fileName: string, ext: string, input: Uint8Array | ArrayBuffer | string, classNames?: readonly string[]): RawTable {
  if (typeof input === 'string') return readText(fileName, ext, input, classNames);
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length === 0) throw new SimilarityError(`The file ${JSON.stringify(fileName)} is empty.`);
  if (isNpy(bytes)) return readNpyTable(bytes);
  if (ext === 'npz' || startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]))
    throw new SimilarityError('The file is a .npz (zip) archive, which is not supported; save one array with np.save("similarity.npy", array).');
  if (ext === 'npy') throw new SimilarityError('The file is named .npy but does not start with the NumPy magic string "\\x93NUMPY"; it is not a .npy file.');
  return readText(fileName, ext, decodeText(bytes), classNames);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence, or −1. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const extra = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (extra < 0) return i;
    for (let k = 1; k <= extra; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += extra + 1;
  }
  return -1;
}

function decodeText(bytes: Uint8Array): string {
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes);
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes);
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new SimilarityError(`The file looks binary (byte ${nul} is NUL) and is not a .npy file; upload JSON, CSV/TSV or a .npy array.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new SimilarityError(
      `The file is not UTF-8 text${at >= 0 ? ` (byte ${at} is invalid)` : ''} and is not a .npy file; upload JSON, CSV/TSV or a .npy array.`,
    );
  }
}

function readText(fileName: string, ext: string, text: string, classNames?: readonly string[]): RawTable {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new SimilarityError(`The file ${JSON.stringify(fileName)} is empty.`);
  if (ext === 'json') return readJson(text);
  if (['csv', 'tsv', 'tab', 'txt', 'dat', 'ssv'].includes(ext)) return readTable(text, ext, classNames);
  const first = text.trimStart()[0];
  return first === '[' || first === '{' ? readJson(text) : readTable(text, ext, classNames);
}

/** A 2-D .npy array (formats/npy.ts) as a table: classes × classes, or classes × dimensions. */
function readNpyTable(bytes: Uint8Array): RawTable {
  try {
    const header = readNpyHeader(bytes);
    const { shape } = header;
    if (shape.length !== 2)
      throw new SimilarityError(
        `The .npy array has shape ${formatShape(shape)}; it must be 2-D: classes × classes (a similarity matrix) or classes × dimensions (embeddings).`,
      );
    const [nRows, nCols] = shape;
    if (nRows === 0 || nCols === 0) throw new SimilarityError(`The .npy array is empty: its shape is (${nRows}, ${nCols}).`);
    tooManyValues(nRows, nCols); // before the data is read
    const { values, warnings } = readNpyData(bytes, header);
    return {
      source: '.npy',
      nRows,
      nCols,
      values,
      where: (i, j) => (j === undefined ? `row ${i} of the array` : `element (${i}, ${j}) of the array`),
      locate: (i, j) => ({ row: i, column: j }),
      warnings,
    };
  } catch (e) {
    throw e instanceof NpyError ? new SimilarityError(e.message) : e;
  }
}
