/** Shared helpers of the parser tests (not a test file). */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzlibSync } from 'fflate';
import type { NamedFile } from '../../../../src/data/parsers/types';
import type { DecodedImage } from '../../../../src/data/parsers/image-folder-zip';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/parsers');

/** Bytes of a fixture file as a fresh Uint8Array. */
export function fixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, path)));
}

/** A fixture as a NamedFile named by its base name (as a browser File would be). */
export function named(path: string): NamedFile {
  return { name: path.slice(path.lastIndexOf('/') + 1), bytes: fixture(path) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Records every progress value. */
export function progressLog(): { log: number[]; cb: (f: number) => void } {
  const log: number[] = [];
  return { log, cb: (f) => log.push(f) };
}

/** Progress went from ≥ 0 to exactly 1 without going backwards. */
export function isMonotoneToOne(log: number[]): boolean {
  if (log.length === 0 || log[log.length - 1] !== 1) return false;
  for (let i = 0; i < log.length; i++) {
    if (!(log[i] >= 0 && log[i] <= 1)) return false;
    if (i > 0 && log[i] < log[i - 1] - 1e-12) return false;
  }
  return true;
}

/**
 * Decoder for the fixture PNGs only (8-bit RGBA, filter 0 on every row, as scripts/make-parser-fixtures.py
 * writes them) — stands in for createImageBitmap, which Node lacks.
 */
export function decodeFixturePng(bytes: Uint8Array): DecodedImage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (data[8] !== 8 || data[9] !== 6) throw new Error('fixture decoder handles 8-bit RGBA only');
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const joined = new Uint8Array(idat.reduce((s, d) => s + d.length, 0));
  let o = 0;
  for (const d of idat) {
    joined.set(d, o);
    o += d.length;
  }
  const raw = unzlibSync(joined);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width * 4 + 1)] !== 0) throw new Error('fixture decoder handles filter 0 only');
    data.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4);
  }
  return { data, width, height };
}
