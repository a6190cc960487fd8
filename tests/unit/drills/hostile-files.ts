/**
 * Hostile files of the new surfaces (not a test file), made at run time in milliseconds — nothing large is stored:
 * PNG bombs (a small header over gigabytes of zeros), honest .npz files at the bounds (a 10 000 × 10 000 float64
 * `features` array that deflates to under a megabyte), .npz files whose small members are wrong, and zips whose
 * directory lies about a member's size. Used by the unit drills (tests/unit/drills/hostile-surfaces.test.ts), the
 * regression tests of the parsers and the CLI, and the Data tab's responsiveness test (tests/e2e/drills-uploads.spec.ts).
 *
 * Zeros are deflated the way zlib does at level 9 (about 1 KB per MB), fast: one megabyte of zeros is compressed once
 * with a sync flush (a byte-aligned, non-final block that refers to nothing before it), and that block is repeated;
 * a final empty block ends the stream.
 */
import { constants, crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';
import { joinChunks } from '../../../src/data/bytes';
import { rawZip } from './broken-upload-corpus';

const MB = 1 << 20;
const ZERO_MB = new Uint8Array(MB);
/** One MB of zeros as a non-final, byte-aligned deflate block. */
const ZERO_BLOCK = new Uint8Array(deflateRawSync(ZERO_MB, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
/** The final empty block (fixed Huffman, end of block). */
const FINAL = new Uint8Array(deflateRawSync(new Uint8Array(0)));

const concat = (parts: readonly Uint8Array[]): Uint8Array =>
  joinChunks(
    parts,
    parts.reduce((n, p) => n + p.length, 0),
  );

/** CRC-32 of `prefix` followed by `zeros` zero bytes. */
function crcOf(prefix: Uint8Array, zeros: number): number {
  let c = zlibCrc32(prefix);
  for (let left = zeros; left > 0; left -= MB) c = zlibCrc32(left >= MB ? ZERO_MB : ZERO_MB.subarray(0, left), c);
  return c >>> 0;
}

/** A raw deflate stream of `prefix` then `zeros` zero bytes, with the CRC-32 and size of what it inflates to. */
export function deflatedZeros(zeros: number, prefix: Uint8Array = new Uint8Array(0)): { data: Uint8Array; crc: number; size: number } {
  const whole = Math.floor(zeros / MB);
  const rest = zeros - whole * MB;
  const head = new Uint8Array(deflateRawSync(concat([prefix, ZERO_MB.subarray(0, rest)]), { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
  const parts: Uint8Array[] = [head];
  for (let i = 0; i < whole; i++) parts.push(ZERO_BLOCK);
  parts.push(FINAL);
  return { data: concat(parts), crc: crcOf(prefix, zeros), size: prefix.length + zeros };
}

// ─────────────────────────────── PNG ───────────────────────────────

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  dv.setUint32(8 + body.length, zlibCrc32(out.subarray(4, 8 + body.length)) >>> 0);
  return out;
}

/** Adler-32 of `zeros` zero bytes (a stays 1, b grows by 1 per byte). */
const adlerOfZeros = (zeros: number): number => (((zeros % 65521) << 16) | 1) >>> 0;

/**
 * A PNG whose header says `width`×`height` (8-bit RGB) and whose image data inflates to `inflated` zero bytes: 1×1
 * over 1.5 GB is the bomb (1.5 MB of file), 1×1 over 4 bytes an honest black pixel.
 */
export function pngOverZeros(inflated: number, width = 1, height = 1): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 8; // bits
  ihdr[9] = 2; // RGB
  const raw = deflatedZeros(inflated);
  const adler = new Uint8Array(4);
  new DataView(adler.buffer).setUint32(0, adlerOfZeros(inflated));
  const zlib = concat([new Uint8Array([0x78, 0xda]), raw.data, adler]);
  return concat([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib), chunk('IEND', new Uint8Array(0))]);
}

/** The bytes an honest 8-bit RGB `width`×`height` image's data inflates to (a filter byte per row). */
export const pngRawBytes = (width: number, height: number): number => height * (1 + 3 * width);

// ─────────────────────────────── .npz ───────────────────────────────

/** A .npy preamble (format 1.0, numpy's padding to 64 bytes). */
export function npyHeader(descr: string, shape: readonly number[]): Uint8Array {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${dims}, }`;
  while ((10 + dict.length + 1) % 64 !== 0) dict += ' ';
  dict += '\n';
  const out = new Uint8Array(10 + dict.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, dict.length, true);
  for (let i = 0; i < dict.length; i++) out[10 + i] = dict.charCodeAt(i);
  return out;
}

/** One member of a hand-made .npz: stored bytes, or a header over zeros (deflated). `declared` makes the directory lie. */
export type NpzMember =
  { name: string; bytes: Uint8Array; declared?: number } | { name: string; descr: string; shape: readonly number[]; zeros: number; declared?: number };

/** A zip of .npy members as np.savez_compressed writes them (large zero members deflated, small ones stored). */
export function npzOf(members: readonly NpzMember[]): Uint8Array {
  return rawZip(
    members.map((m) => {
      if ('bytes' in m) return { name: m.name, data: m.bytes, method: 0 as const, size: m.declared ?? m.bytes.length, crc: zlibCrc32(m.bytes) >>> 0 };
      const z = deflatedZeros(m.zeros, npyHeader(m.descr, m.shape));
      return { name: m.name, data: z.data, method: 8 as const, size: m.declared ?? z.size, crc: z.crc };
    }),
  );
}

/** `labels` as int64, `split` as uint8 and `class_names` as <U…, the small members of a feature file. */
export function labelsNpy(labels: ArrayLike<number>): Uint8Array {
  const data = new BigInt64Array(labels.length);
  for (let i = 0; i < labels.length; i++) data[i] = BigInt(labels[i]);
  return concat([npyHeader('<i8', [labels.length]), new Uint8Array(data.buffer)]);
}
export function splitNpy(split: ArrayLike<number>): Uint8Array {
  return concat([npyHeader('|u1', [split.length]), Uint8Array.from(split)]);
}
export function namesNpy(names: readonly string[]): Uint8Array {
  const width = Math.max(1, ...names.map((n) => n.length));
  const data = new Uint32Array(names.length * width);
  names.forEach((n, i) => [...n].forEach((ch, j) => (data[i * width + j] = ch.codePointAt(0)!)));
  return concat([npyHeader(`<U${width}`, [names.length]), new Uint8Array(data.buffer)]);
}

/**
 * An honest feature file of `rows` × `dims` zeros (`dtype` f8: 800 MB at 10 000 × 10 000, the values bound; f4: 400
 * MB at 100 000 × 1 000), labels row mod `classes`, every fifth row of each class test, named classes. `bad` breaks one small member
 * the way a careless export does (a label past the names, a split of 7, a labels array one short, duplicate names).
 */
export function honestNpz(
  rows: number,
  dims: number,
  opts: { dtype?: 'f8' | 'f4'; classes?: number; bad?: 'label' | 'split' | 'labels-short' | 'names-duplicate'; featuresLast?: boolean } = {},
): Uint8Array {
  const classes = opts.classes ?? 10;
  const size = opts.dtype === 'f4' ? 4 : 8;
  const labels = Array.from({ length: rows - (opts.bad === 'labels-short' ? 1 : 0) }, (_, i) => i % classes);
  if (opts.bad === 'label') labels[rows - 1] = classes + 5;
  const split: number[] = Array.from({ length: rows }, (_, i) => (Math.floor(i / classes) % 5 === 0 ? 1 : 0));
  if (opts.bad === 'split') split[3] = 7;
  const names = Array.from({ length: classes }, (_, k) => `class ${opts.bad === 'names-duplicate' && k === 1 ? 0 : k}`);
  const features: NpzMember = { name: 'features.npy', descr: `<${opts.dtype ?? 'f8'}`, shape: [rows, dims], zeros: rows * dims * size };
  const small: NpzMember[] = [
    { name: 'labels.npy', bytes: labelsNpy(labels) },
    { name: 'split.npy', bytes: splitNpy(split) },
    { name: 'class_names.npy', bytes: namesNpy(names) },
  ];
  // np.savez writes the members in the order given; features first is what most exports do
  return npzOf(opts.featuresLast ? [...small, features] : [features, ...small]);
}

/**
 * A feature file whose zip directory lies: `features.npy` declares `declared` bytes but its stream inflates to its
 * header and `zeros` zero bytes (a `rows` × `dims` float64 array's worth by default: 800 MB under a directory that
 * says 8 MB).
 */
export function lyingNpz(declared = 8_000_000, rows = 10_000, dims = 10_000, zeros = rows * dims * 8): Uint8Array {
  return npzOf([
    { name: 'features.npy', descr: '<f8', shape: [rows, dims], zeros, declared },
    { name: 'labels.npy', bytes: labelsNpy(Array.from({ length: rows }, (_, i) => i % 10)) },
    { name: 'split.npy', bytes: splitNpy(Array.from({ length: rows }, (_, i) => (Math.floor(i / 10) % 5 === 0 ? 1 : 0))) },
  ]);
}

/** An image-folder zip whose one member says `declared` bytes and inflates to `inflated` zeros (a PNG name, not a PNG). */
export function lyingImageZip(declared: number, inflated: number): Uint8Array {
  const z = deflatedZeros(inflated);
  const png = pngOverZeros(4, 1, 1);
  return rawZip([
    { name: 'set/a/1.png', data: png, method: 0, size: png.length, crc: zlibCrc32(png) >>> 0 },
    { name: 'set/b/1.png', data: z.data, method: 8, size: declared, crc: z.crc },
  ]);
}
