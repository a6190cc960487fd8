/**
 * NumPy `.npy` files (format versions 1.0, 2.0 and 3.0;
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html), read by hand — the header is a tiny
 * Python dict literal, so no package is needed: magic, major, minor, header length (uint16 LE in v1, uint32 LE in
 * v2/v3), an ASCII (v1/v2) or UTF-8 (v3) literal {'descr': …, 'fortran_order': …, 'shape': (…), }, padding, then
 * the raw data. Dtypes f2/f4/f8, i1/i2/i4/i8, u1/u2/u4/u8, either byte order, C or Fortran order. Every failure is
 * an NpyError with one sentence saying what is wrong.
 *
 * Layering: pure TS, no imports.
 */

export class NpyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NpyError';
  }
}

export const NPY_MAGIC: readonly number[] = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Whether the bytes start with the .npy magic string. */
export function isNpy(bytes: Uint8Array): boolean {
  return bytes.length >= NPY_MAGIC.length && NPY_MAGIC.every((b, i) => bytes[i] === b);
}

export interface NpyHeader {
  /** The dtype, e.g. '<f8'. */
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  /** Offset of the first data byte. */
  dataStart: number;
}

/** A shape as numpy prints it: (2, 3), (4,), (). */
export function formatShape(shape: readonly number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

/** An IEEE half-precision value (its 16 bits) as a number. */
export function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The header of a .npy file (the caller has checked the magic string). */
export function readNpyHeader(bytes: Uint8Array): NpyHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 10) throw new NpyError(`The .npy file is truncated: it has ${bytes.length} bytes, fewer than its fixed preamble.`);
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3) throw new NpyError(`The .npy file has format version ${major}.${minor}; versions 1.0, 2.0 and 3.0 are supported.`);
  const lenSize = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenSize) throw new NpyError('The .npy file is truncated inside its header length.');
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = 8 + lenSize;
  const dataStart = headerStart + headerLen;
  if (dataStart > bytes.length)
    throw new NpyError(`The .npy file is truncated: its header says it is ${headerLen} bytes long, but only ${bytes.length - headerStart} bytes follow.`);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(headerStart, dataStart));

  if (/['"]descr['"]\s*:\s*\[/.test(header)) throw new NpyError('The .npy array has a structured (record) dtype; save a plain 2-D float array instead.');
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    throw new NpyError(`The .npy header cannot be read (need 'descr', 'fortran_order' and 'shape'): ${JSON.stringify(header.trim().slice(0, 120))}.`);
  const shape = shapeText
    .split(',')
    .map((s) => s.trim().replace(/L$/, ''))
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : Number.NaN));
  if (shape.some((d) => !Number.isSafeInteger(d))) throw new NpyError(`The .npy header has an unreadable shape (${shapeText.trim()}).`);
  return { descr, fortranOrder: fortran === 'True', shape, dataStart };
}

const KIND_NAMES: Record<string, string> = {
  O: 'Python objects (pickled)',
  U: 'strings',
  S: 'bytes',
  c: 'complex numbers',
  b: 'booleans',
  M: 'dates',
  m: 'time deltas',
  V: 'raw bytes',
};

/** The array's values as float64 in C (row-major) order, and what was odd about the file. */
export function readNpyData(bytes: Uint8Array, header: NpyHeader): { values: Float64Array; warnings: string[] } {
  const { descr, shape, dataStart } = header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dt = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  if (!dt) throw new NpyError(`The .npy dtype ${JSON.stringify(descr)} is not supported; save float32 or float64.`);
  const [, order, kind, sizeText] = dt;
  const size = Number(sizeText);
  const supported = (kind === 'f' && [2, 4, 8].includes(size)) || ((kind === 'i' || kind === 'u') && [1, 2, 4, 8].includes(size));
  if (!supported)
    throw new NpyError(
      `The .npy dtype ${JSON.stringify(descr)}${KIND_NAMES[kind] ? ` holds ${KIND_NAMES[kind]}` : ''} and is not supported; save float32 or float64 (e.g. array.astype("float32")).`,
    );
  const little = order !== '>'; // '|' (one byte) and '=' (native; numpy writes '<' on every platform it supports)

  const count = shape.reduce((a, b) => a * b, 1);
  const need = count * size;
  const have = bytes.length - dataStart;
  if (have < need)
    throw new NpyError(`The .npy file is truncated: a ${formatShape(shape)} array of ${descr} needs ${need} bytes of data but the file has ${have}.`);
  const warnings: string[] = [];
  if (have > need) warnings.push(`The .npy file has ${have - need} unexpected bytes after its data; they were ignored.`);

  const read = (k: number): number => {
    const at = dataStart + k * size;
    if (kind === 'f') {
      if (size === 8) return view.getFloat64(at, little);
      if (size === 4) return view.getFloat32(at, little);
      return halfToNumber(view.getUint16(at, little));
    }
    if (kind === 'i') {
      if (size === 1) return view.getInt8(at);
      if (size === 2) return view.getInt16(at, little);
      if (size === 4) return view.getInt32(at, little);
      return Number(view.getBigInt64(at, little));
    }
    if (size === 1) return view.getUint8(at);
    if (size === 2) return view.getUint16(at, little);
    if (size === 4) return view.getUint32(at, little);
    return Number(view.getBigUint64(at, little));
  };

  // Element k in C order sits at the Fortran offset Σ index[m] · Π_{l<m} shape[l].
  const fortranStrides = shape.map((_, m) => shape.slice(0, m).reduce((a, b) => a * b, 1));
  const fortranOffset = (k: number): number => {
    let offset = 0;
    for (let m = shape.length - 1; m >= 0; m--) {
      offset += (k % shape[m]) * fortranStrides[m];
      k = Math.floor(k / shape[m]);
    }
    return offset;
  };
  const values = new Float64Array(count);
  let inexact = false;
  for (let k = 0; k < count; k++) {
    const x = read(header.fortranOrder ? fortranOffset(k) : k);
    if (size === 8 && kind !== 'f' && !Number.isSafeInteger(x)) inexact = true;
    values[k] = x;
  }
  if (inexact) warnings.push('Some 64-bit integers in the .npy array are beyond 2^53 and were rounded to the nearest double.');
  return { values, warnings };
}
