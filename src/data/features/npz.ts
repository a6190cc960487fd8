/**
 * Feature sets as NumPy `.npz` files: the file `cil-lab features --out F.npz` writes, the app's features download
 * and what the feature upload reads. A researcher opens it with `np.load(F)`:
 *
 *   features     float32 (n, d)   one row per image
 *   labels       int64   (n,)     the dataset's class index
 *   split        uint8   (n,)     0 = train, 1 = test
 *   class_names  <U…     (C,)     name of class k at index k
 *
 * Written as `np.savez` writes (a zip of .npy members, stored, not compressed); read from `np.savez` or
 * `np.savez_compressed` files, with any float dtype for `features` and any integer dtype for `labels`/`split`
 * (`split` may be missing: every row is then train, and the caller must hold out a test split itself).
 *
 * Read in the order that refuses a bad file cheapest, never trusting the zip (../parsers/zip.ts: no member inflates
 * past the size its directory declares): the directory (the declared sizes against the bound: a zip bomb is refused
 * before anything inflates), the `features` header alone (its shape and dtype against the bounds and its declared
 * size), then the small members whole — `labels`, `split`, `class_names` — checked together (checkFeatureRows), and
 * only then `features`, converted to float32 as it inflates (an 800 MB float64 array is never held as such). Every
 * failure is a FeatureSetError with one sentence.
 */
import { zipSync } from 'fflate';
import { readNpyHeader, isNpy, formatShape, halfToNumber, NpyError, type NpyHeader } from '../../core/formats/npy';
import {
  checkFeatureRows,
  checkFeatureSet,
  checkFeatureShape,
  FEATURE_LIMITS,
  FeatureSetError,
  firstNonFinite,
  nonFiniteError,
  type FeatureSet,
} from '../../core/features/feature-set';
import { grouped } from '../../core/config/limits';
import { DataFormatError } from '../parsers/types';
import { readZipDirectory, streamZipEntry, zipEntryBytes, zipEntryHead, type ZipEntry } from '../parsers/zip';

/** The members read from an .npz (a file may hold others, which are ignored). */
const MEMBERS = ['features', 'labels', 'split', 'class_names'] as const;
/** Bytes all wanted members may inflate to, as their directory entries declare: the feature bound as float64, and room for the rest. */
export const NPZ_INFLATED_LIMIT = FEATURE_LIMITS.values * 8 + 64 * FEATURE_LIMITS.rows + 4_000_000;

/** Whether the bytes start like a zip (an .npz is a zip). */
export function isNpz(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

function npyHeaderText(descr: string, shape: readonly number[]): string {
  // numpy's own layout: the dict, spaces, a newline, the whole preamble a multiple of 64 bytes
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${formatShape(shape)}, }`;
  const unpadded = 10 + dict.length + 1;
  return dict + ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
}

/** One .npy file (format 1.0) of raw little-endian data. */
export function npyBytes(descr: string, shape: readonly number[], data: Uint8Array): Uint8Array {
  const header = npyHeaderText(descr, shape);
  const out = new Uint8Array(10 + header.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(data, 10 + header.length);
  return out;
}

function littleEndianBytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength); // every platform the app runs on is little-endian
}

/** Class names as a '<U' array: UTF-32 LE code points, each name padded with zeros to the longest. */
function unicodeArray(names: readonly string[]): { descr: string; data: Uint8Array } {
  const points = names.map((s) => Array.from(s, (ch) => ch.codePointAt(0)!));
  const width = Math.max(1, ...points.map((p) => p.length));
  const data = new Uint32Array(names.length * width);
  points.forEach((p, i) => data.set(p, i * width));
  return { descr: `<U${width}`, data: littleEndianBytes(data) };
}

/** The .npz bytes of a feature set (checked first). */
export function writeFeaturesNpz(set: FeatureSet): Uint8Array {
  checkFeatureSet(set);
  const labels64 = new BigInt64Array(set.n);
  for (let i = 0; i < set.n; i++) labels64[i] = BigInt(set.labels[i]);
  const names = unicodeArray(set.classNames);
  return zipSync(
    {
      'features.npy': npyBytes('<f4', [set.n, set.d], littleEndianBytes(set.features)),
      'labels.npy': npyBytes('<i8', [set.n], littleEndianBytes(labels64)),
      'split.npy': npyBytes('|u1', [set.n], set.split),
      'class_names.npy': npyBytes(names.descr, [set.classNames.length], names.data),
    },
    { level: 0 },
  );
}

type Dtype = { kind: string; size: number; little: boolean };

function dtypeOf(member: string, header: NpyHeader): Dtype {
  const m = /^([<>|=])([a-zA-Z])(\d+)$/.exec(header.descr);
  if (!m) throw new FeatureSetError(`${member}.npy has dtype ${JSON.stringify(header.descr)}, which cannot be read here.`);
  return { kind: m[2], size: Number(m[3]), little: m[1] !== '>' };
}

/** The dtype of a numeric member, checked: integers for labels and split, floats (or small integers) for features. */
function numericDtype(member: string, header: NpyHeader, integers: boolean): Dtype {
  const t = dtypeOf(member, header);
  const ok = integers
    ? (t.kind === 'i' || t.kind === 'u' || t.kind === 'b') && [1, 2, 4, 8].includes(t.size)
    : (t.kind === 'f' && [2, 4, 8].includes(t.size)) || ((t.kind === 'i' || t.kind === 'u') && t.size <= 4);
  if (!ok)
    throw new FeatureSetError(
      `${member}.npy has dtype ${header.descr}; save it as ${integers ? 'integers (e.g. .astype("int64"))' : 'float32 (e.g. .astype("float32"))'}.`,
    );
  if (header.fortranOrder && header.shape.length > 1)
    throw new FeatureSetError(`${member}.npy is stored in Fortran order; save np.ascontiguousarray(${member}).`);
  return t;
}

/** DataView readers by dtype (kind and size; 64-bit integers as numbers, halves through halfToNumber). */
const READERS: Record<string, (view: DataView, at: number, little: boolean) => number> = {
  f2: (v, at, le) => halfToNumber(v.getUint16(at, le)),
  f4: (v, at, le) => v.getFloat32(at, le),
  f8: (v, at, le) => v.getFloat64(at, le),
  i1: (v, at) => v.getInt8(at),
  i2: (v, at, le) => v.getInt16(at, le),
  i4: (v, at, le) => v.getInt32(at, le),
  i8: (v, at, le) => Number(v.getBigInt64(at, le)),
  u1: (v, at) => v.getUint8(at),
  u2: (v, at, le) => v.getUint16(at, le),
  u4: (v, at, le) => v.getUint32(at, le),
  u8: (v, at, le) => Number(v.getBigUint64(at, le)),
  b1: (v, at) => v.getUint8(at),
};

/** One value of dtype `t` at byte `at` of `view` (numericDtype has checked `t` is one of READERS). */
function valueAt(view: DataView, at: number, t: Dtype): number {
  return READERS[`${t.kind}${t.size}`](view, at, t.little);
}

/** A small member's values (labels, split), C order, checked to fit an Int32Array / Uint8Array. */
function readIntegers<T extends Int32Array | Uint8Array>(member: string, bytes: Uint8Array, header: NpyHeader, out: T): T {
  const t = numericDtype(member, header, true);
  const count = out.length;
  const need = count * t.size;
  if (bytes.length - header.dataStart < need)
    throw new FeatureSetError(`${member}.npy is truncated: ${formatShape(header.shape)} of ${header.descr} needs ${grouped(need)} bytes of data.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset + header.dataStart, need);
  for (let i = 0; i < count; i++) {
    const x = valueAt(view, i * t.size, t);
    if (x < -2_147_483_648 || x > 2_147_483_647) throw new FeatureSetError(`${member}.npy entry ${i} is ${x}, too large to be a class index or split.`);
    if (out instanceof Uint8Array && (x < 0 || x > 255)) throw new FeatureSetError(`${member}.npy entry ${i} is ${x}; use 0 for train and 1 for test.`);
    out[i] = x;
  }
  return out;
}

function readClassNames(bytes: Uint8Array, header: NpyHeader): string[] {
  const m = /^([<>|=])([US])(\d+)$/.exec(header.descr);
  if (!m) {
    const hint = header.descr === '|O' ? ' (an object array, which would need pickle)' : '';
    throw new FeatureSetError(`class_names.npy has dtype ${header.descr}${hint}; save np.array(names, dtype=str).`);
  }
  if (header.shape.length !== 1) throw new FeatureSetError(`class_names.npy has shape ${formatShape(header.shape)}; it must be a 1-D array of names.`);
  const [count] = header.shape;
  if (count > FEATURE_LIMITS.classes)
    throw new FeatureSetError(`class_names.npy names ${grouped(count)} classes, more than the ${grouped(FEATURE_LIMITS.classes)} allowed.`);
  const width = Number(m[3]);
  const unit = m[2] === 'U' ? 4 : 1;
  if (bytes.length - header.dataStart < count * width * unit) throw new FeatureSetError('class_names.npy is truncated.');
  const view = new DataView(bytes.buffer, bytes.byteOffset + header.dataStart);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let j = 0; j < width; j++) {
      const code = unit === 4 ? view.getUint32((i * width + j) * 4, m[1] !== '>') : view.getUint8(i * width + j);
      if (code === 0) break;
      if (code > 0x10ffff) throw new FeatureSetError(`class_names.npy entry ${i} holds an invalid character.`);
      s += String.fromCodePoint(code);
    }
    names.push(s);
  }
  return names;
}

/** The most bytes a .npy preamble may take (numpy pads it to 64; a longer one is not a feature file's). */
const NPY_HEADER_MAX = 65_536;

/** A member's .npy header, read from its first bytes (nothing more is inflated). */
function headerOf(bytes: Uint8Array, entry: ZipEntry, name: string, fileName: string): NpyHeader {
  const head = zipEntryHead(bytes, entry, NPY_HEADER_MAX);
  if (!isNpy(head)) throw new FeatureSetError(`${name}.npy in ${fileName} is not a .npy array.`);
  try {
    return readNpyHeader(head);
  } catch (e) {
    throw new FeatureSetError(`${name}.npy in ${fileName}: ${(e as NpyError).message}`);
  }
}

/**
 * The values of `features` (after its header, at `dataStart`) as float32, converted as the member inflates: chunks
 * are cut anywhere, so the bytes of a value split across two chunks are carried over. Every value is checked finite
 * on the way.
 */
function readFeatureValues(bytes: Uint8Array, entry: ZipEntry, header: NpyHeader, n: number, d: number): Float32Array {
  const t = numericDtype('features', header, false);
  const count = n * d;
  const out = new Float32Array(count);
  const carry = new Uint8Array(8);
  let carried = 0;
  let skip = header.dataStart;
  let done = 0;
  const fastF4 = t.kind === 'f' && t.size === 4 && t.little;
  const fastF8 = t.kind === 'f' && t.size === 8 && t.little;
  const take = (chunk: Uint8Array): boolean => {
    let c = chunk;
    if (skip > 0) {
      const s = Math.min(skip, c.length);
      skip -= s;
      c = c.subarray(s);
    }
    if (c.length === 0) return true;
    const from = done;
    if (carried > 0) {
      const fill = Math.min(t.size - carried, c.length);
      carry.set(c.subarray(0, fill), carried);
      carried += fill;
      c = c.subarray(fill);
      if (carried < t.size) return true;
      out[done] = valueAt(new DataView(carry.buffer), 0, t);
      done++;
      carried = 0;
    }
    const whole = Math.min(Math.floor(c.length / t.size), count - done);
    if (fastF4 || fastF8) {
      // a typed view needs its alignment: a chunk that starts mid-value (after a carry) is copied to a fresh buffer
      let bytesOf = c;
      if (c.byteOffset % t.size !== 0) {
        bytesOf = new Uint8Array(whole * t.size); // a copy (a Node Buffer's slice() is a view at the same offset)
        bytesOf.set(c.subarray(0, whole * t.size));
      }
      out.set(fastF4 ? new Float32Array(bytesOf.buffer, bytesOf.byteOffset, whole) : new Float64Array(bytesOf.buffer, bytesOf.byteOffset, whole), done);
    } else {
      const view = new DataView(c.buffer, c.byteOffset, whole * t.size);
      for (let i = 0; i < whole; i++) out[done + i] = valueAt(view, i * t.size, t);
    }
    done += whole;
    const bad = firstNonFinite(out, from, done);
    if (bad >= 0) throw nonFiniteError(bad, d, out[bad]);
    const rest = c.subarray(whole * t.size);
    if (done < count) {
      carry.set(rest.subarray(0, t.size));
      carried = Math.min(rest.length, t.size);
    }
    return done < count;
  };
  streamZipEntry(bytes, entry, take); // its errors are prefixed with the file's name by readFeaturesNpz
  if (done < count) {
    const need = count * t.size;
    throw new FeatureSetError(`features.npy is truncated: ${formatShape(header.shape)} of ${header.descr} needs ${grouped(need)} bytes of data.`);
  }
  return out;
}

/**
 * Reads a feature set from .npz bytes and checks it (checkFeatureSet). Without `class_names`, classes are named
 * "class 0", "class 1", … up to the largest label; without `split`, every row is train.
 */
export function readFeaturesNpz(bytes: Uint8Array, fileName = 'the .npz file'): FeatureSet {
  if (!isNpz(bytes)) throw new FeatureSetError(`${fileName} is not an .npz file (a zip of .npy arrays, as np.savez writes).`);
  try {
    return readNpz(bytes, fileName);
  } catch (e) {
    if (e instanceof DataFormatError) throw new FeatureSetError(`${fileName} cannot be read: ${e.message}.`);
    throw e;
  }
}

function readNpz(bytes: Uint8Array, fileName: string): FeatureSet {
  const entries = new Map<string, ZipEntry>();
  let declared = 0;
  for (const entry of readZipDirectory(bytes)) {
    const name = entry.name.replace(/\.npy$/, '');
    if (!(MEMBERS as readonly string[]).includes(name)) continue;
    if (entries.has(name)) throw new FeatureSetError(`${fileName} holds two "${name}" arrays; save it again with np.savez.`);
    entries.set(name, entry);
    declared += entry.size;
    if (declared > NPZ_INFLATED_LIMIT)
      throw new FeatureSetError(`${fileName}'s arrays would inflate to more than ${grouped(NPZ_INFLATED_LIMIT)} bytes, more than a feature set may hold.`);
  }
  const small = (name: string): { bytes: Uint8Array; header: NpyHeader } | null => {
    const entry = entries.get(name);
    if (!entry) return null;
    const b = zipEntryBytes(bytes, entry);
    if (!isNpy(b)) throw new FeatureSetError(`${name}.npy in ${fileName} is not a .npy array.`);
    try {
      return { bytes: b, header: readNpyHeader(b) };
    } catch (e) {
      throw new FeatureSetError(`${name}.npy in ${fileName}: ${(e as NpyError).message}`);
    }
  };
  // 1. the features' header alone: shape, dtype and the bytes its member declares
  const fEntry = entries.get('features');
  if (!fEntry) throw new FeatureSetError(`${fileName} has no "features" array; save it with np.savez(F, features=X, labels=y, split=s, class_names=names).`);
  const fHeader = headerOf(bytes, fEntry, 'features', fileName);
  if (fHeader.shape.length !== 2) throw new FeatureSetError(`"features" has shape ${formatShape(fHeader.shape)}; it must be 2-D (rows × dimensions).`);
  const [n, d] = fHeader.shape;
  checkFeatureShape(n, d);
  const fType = numericDtype('features', fHeader, false);
  if (fEntry.size - fHeader.dataStart < n * d * fType.size)
    throw new FeatureSetError(
      `features.npy is truncated: ${formatShape(fHeader.shape)} of ${fHeader.descr} needs ${grouped(n * d * fType.size)} bytes of data.`,
    );
  // 2. the small members whole, checked together
  const l = small('labels');
  if (!l) throw new FeatureSetError(`${fileName} has no "labels" array (one class index per row of features).`);
  if (l.header.shape.length !== 1 || l.header.shape[0] !== n)
    throw new FeatureSetError(`"labels" has shape ${formatShape(l.header.shape)}; it must be (${n},), one per row of features.`);
  const s = small('split');
  if (s && (s.header.shape.length !== 1 || s.header.shape[0] !== n))
    throw new FeatureSetError(`"split" has shape ${formatShape(s.header.shape)}; it must be (${n},), one per row of features.`);
  const labels = readIntegers('labels', l.bytes, l.header, new Int32Array(n));
  const split = s ? readIntegers('split', s.bytes, s.header, new Uint8Array(n)) : new Uint8Array(n);
  const c = small('class_names');
  let classNames: string[];
  if (c) classNames = readClassNames(c.bytes, c.header);
  else {
    let max = -1;
    for (let i = 0; i < n; i++) max = Math.max(max, labels[i]);
    if (max + 1 > FEATURE_LIMITS.classes)
      throw new FeatureSetError(`"labels" go up to ${max}, more than the ${grouped(FEATURE_LIMITS.classes)} classes allowed.`);
    classNames = Array.from({ length: max + 1 }, (_, k) => `class ${k}`);
  }
  checkFeatureRows({ n, d, labels, split, classNames });
  // 3. the large member, last
  const features = readFeatureValues(bytes, fEntry, fHeader, n, d);
  return { features, n, d, labels, split, classNames };
}
