/**
 * A PNG decoder in plain TypeScript (fflate inflates the image data), for where no `createImageBitmap` is: the
 * command line and the tests read the Your-classes lab's samples zip with it. It gives the RGBA pixels a canvas's
 * `getImageData` gives for the same file when the file is opaque and carries no colour profile (no gAMA, iCCP, cHRM
 * or sRGB chunk the browser would convert by): every non-interlaced PNG (greyscale, RGB, palette, with alpha, 1–16
 * bits; 16-bit samples keep their high byte). Interlaced (Adam7) files are refused with a sentence that says so.
 *
 * The image data is inflated no further than the header promises (a filter byte and `stride` bytes per row): a file
 * whose data goes on past that — a 1×1 header over 1.5 GB of zeros — is refused once it passes the bound, never
 * inflated whole.
 */
import { grouped } from '../../core/config/limits';
import { inflateBounded } from './inflate';
import { DataFormatError } from './types';

export interface DecodedImage {
  width: number;
  height: number;
  /** width × height × 4, RGBA, row-major */
  data: Uint8ClampedArray;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Samples per pixel of each colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && SIGNATURE.every((x, i) => b[i] === x);
}

/** The RGBA pixels of a PNG file; throws a DataFormatError saying what is wrong. */
export function decodePng(bytes: Uint8Array, fileName?: string): DecodedImage {
  const fail = (m: string): never => {
    throw new DataFormatError(m, fileName);
  };
  if (!isPng(bytes)) fail('not a PNG file (its first bytes are not the PNG signature)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let type = -1;
  let palette: Uint8Array | null = null;
  let alphaOfPalette: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  while (at + 8 <= bytes.length) {
    const len = view.getUint32(at);
    const name = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + len);
    if (body.length < len) fail(`the ${name} chunk is cut short (the file is truncated)`);
    if (name === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      depth = body[8];
      type = body[9];
      if (body[12] !== 0) fail('interlaced (Adam7) PNGs are not read here: save the image without interlacing');
    } else if (name === 'PLTE') palette = body;
    else if (name === 'tRNS' && type === 3) alphaOfPalette = body;
    else if (name === 'IDAT') idat.push(body);
    else if (name === 'IEND') break;
    at += 12 + len;
  }
  if (!(width > 0 && height > 0)) fail('no image header (IHDR chunk)');
  const ch = CHANNELS[type];
  if (ch === undefined || ![1, 2, 4, 8, 16].includes(depth)) fail(`colour type ${type} at ${depth} bits is not a PNG format`);
  if (type === 3 && !palette) fail('a palette image without its palette (PLTE chunk)');
  if (width * height > 50_000_000) fail(`${width}×${height} pixels is more than an image of the lab needs`);
  const total = idat.reduce((s, c) => s + c.length, 0);
  const packed = new Uint8Array(total);
  let o = 0;
  for (const c of idat) {
    packed.set(c, o);
    o += c.length;
  }
  const bpp = Math.max(1, (ch * depth) >> 3);
  const stride = Math.ceil((width * ch * depth) / 8);
  const expected = height * (stride + 1);
  const raw = new Uint8Array(expected);
  let got = 0;
  let end;
  try {
    end = inflateBounded(
      packed,
      expected,
      (chunk) => {
        raw.set(chunk, got);
        got += chunk.length;
      },
      { zlib: true },
    );
  } catch {
    return fail('its image data does not inflate (the file is damaged)');
  }
  if (end.end === 'over')
    fail(
      `its image data inflates to more than the ${grouped(expected)} bytes its ${width}×${height} header promises (the file is damaged, or a decompression bomb)`,
    );
  if (got < expected) fail('its image data is shorter than the image (the file is truncated)');
  // undo the per-row filters (PNG spec §9)
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = rows.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev ? prev[i] : 0;
      const c = prev && i >= bpp ? prev[i - bpp] : 0;
      let v = src[i];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (f !== 0) fail(`row ${y} has the unknown filter ${f} (the file is damaged)`);
      cur[i] = v & 255;
    }
  }
  // one sample as 8 bits: 16-bit keeps its high byte, fewer bits are scaled up (palette indices are not)
  const sample = (row: Uint8Array, k: number, scale: boolean): number => {
    if (depth === 8) return row[k];
    if (depth === 16) return row[2 * k];
    const perByte = 8 / depth;
    const v = (row[Math.floor(k / perByte)] >> (8 - depth * ((k % perByte) + 1))) & ((1 << depth) - 1);
    return scale ? Math.round((v * 255) / ((1 << depth) - 1)) : v;
  };
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = rows.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      if (type === 3) {
        const i = sample(row, x, false);
        data[p] = palette![3 * i] ?? 0;
        data[p + 1] = palette![3 * i + 1] ?? 0;
        data[p + 2] = palette![3 * i + 2] ?? 0;
        data[p + 3] = alphaOfPalette?.[i] ?? 255;
      } else if (type === 0 || type === 4) {
        const g = sample(row, x * ch, true);
        data[p] = data[p + 1] = data[p + 2] = g;
        data[p + 3] = type === 4 ? sample(row, x * ch + 1, true) : 255;
      } else {
        data[p] = sample(row, x * ch, true);
        data[p + 1] = sample(row, x * ch + 1, true);
        data[p + 2] = sample(row, x * ch + 2, true);
        data[p + 3] = type === 6 ? sample(row, x * ch + 3, true) : 255;
      }
    }
  }
  return { width, height, data };
}
