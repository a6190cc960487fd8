/**
 * MNIST-family IDX files (MNIST, Fashion-MNIST, KMNIST, EMNIST…), raw or gzipped.
 *
 * Format (LeCun's page): a 4-byte big-endian magic `00 00 <type> <ndims>`, then ndims big-endian uint32 sizes,
 * then the data row-major. Images are magic 2051 (0x00000803: unsigned bytes, 3 dims N×rows×cols), labels 2049
 * (0x00000801: unsigned bytes, 1 dim N). Pixels are copied as they are (MNIST: 0 = background, 255 = ink);
 * shape is [rows, cols, 1].
 */
import { gunzipBytes, gunzipHead, isGzip } from './gzip';
import { DataFormatError, type NamedFile, type ParsedDataset, type ParsedImages, type ProgressCallback, baseName, bytesText, subProgress } from './types';

export const IDX_IMAGES_MAGIC = 2051;
export const IDX_LABELS_MAGIC = 2049;

const IDX_TYPES: Record<number, string> = {
  0x08: 'unsigned byte',
  0x09: 'signed byte',
  0x0b: 'int16',
  0x0c: 'int32',
  0x0d: 'float32',
  0x0e: 'float64',
};

/** What an IDX header says. */
export interface IdxHeader {
  magic: number;
  /** Element type code (0x08 = unsigned byte). */
  type: number;
  dims: number[];
  /** Byte offset of the data (4 + 4·ndims). */
  dataOffset: number;
}

/** Options shared by the IDX parsers. */
export interface IdxOptions {
  onProgress?: ProgressCallback;
  /** Used in error messages. */
  fileName?: string;
}

/** "0x00000803" */
function hex32(v: number): string {
  return '0x' + (v >>> 0).toString(16).padStart(8, '0');
}

function readU32BE(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/** Names the magic numbers people drop by mistake, for error messages. */
export function describeMagic(bytes: Uint8Array): string {
  if (bytes.length < 4) return `only ${bytesText(bytes.length)}`;
  const m = readU32BE(bytes, 0);
  const known: [number, number, string][] = [
    [0xffff0000, 0x1f8b0000, 'gzip data'],
    [0xffffffff, 0x504b0304, 'a zip archive'],
    [0xffffffff, 0x89504e47, 'a PNG image'],
    [0xffffff00, 0xffd8ff00, 'a JPEG image'],
    [0xffffffff, IDX_IMAGES_MAGIC, 'an IDX image file'],
    [0xffffffff, IDX_LABELS_MAGIC, 'an IDX label file'],
  ];
  for (const [mask, value, what] of known) if ((m & mask) >>> 0 === value) return `${hex32(m)} (${what})`;
  if (bytes[0] === 0 && bytes[1] === 0 && IDX_TYPES[bytes[2]]) {
    return `${hex32(m)} (an IDX file of ${IDX_TYPES[bytes[2]]} with ${bytes[3]} dimensions)`;
  }
  return hex32(m);
}

/** Reads and checks an IDX header (magic 00 00 type ndims, then the sizes). */
export function readIdxHeader(bytes: Uint8Array, fileName?: string): IdxHeader {
  if (bytes.length < 4) {
    throw new DataFormatError(`truncated IDX file: ${bytesText(bytes.length)}, the magic number alone needs 4`, fileName);
  }
  const magic = readU32BE(bytes, 0);
  if (bytes[0] !== 0 || bytes[1] !== 0 || !IDX_TYPES[bytes[2]] || bytes[3] === 0) {
    throw new DataFormatError(
      `bad magic number: expected an IDX file (2051 = 0x00000803 for images, 2049 = 0x00000801 for labels) but found ${describeMagic(bytes)}`,
      fileName,
    );
  }
  const ndims = bytes[3];
  const dataOffset = 4 + 4 * ndims;
  if (bytes.length < dataOffset) {
    throw new DataFormatError(
      `truncated IDX header: ${ndims} dimensions need ${bytesText(dataOffset)} of header, the file has ${bytesText(bytes.length)}`,
      fileName,
    );
  }
  const dims: number[] = [];
  for (let d = 0; d < ndims; d++) dims.push(readU32BE(bytes, 4 + 4 * d));
  return { magic, type: bytes[2], dims, dataOffset };
}

function expectMagic(h: IdxHeader, bytes: Uint8Array, want: number, what: string, fileName?: string): void {
  if (h.magic === want) return;
  let detail = `found ${describeMagic(bytes)}`;
  if (h.type !== 0x08) detail += `; only unsigned-byte IDX data is supported`;
  throw new DataFormatError(`bad magic number: expected ${what} (${want} = ${hex32(want)}) but ${detail}`, fileName);
}

function checkLength(bytes: Uint8Array, h: IdxHeader, what: string, fileName?: string): number {
  const elements = h.dims.reduce((a, b) => a * b, 1);
  const expected = h.dataOffset + elements;
  if (bytes.length < expected) {
    throw new DataFormatError(
      `truncated ${what}: the header declares ${h.dims.join('×')} values, so ${bytesText(expected)} in all, but the file has ${bytesText(bytes.length)}`,
      fileName,
    );
  }
  if (bytes.length > expected) {
    throw new DataFormatError(
      `${what} is longer than its header declares: expected ${bytesText(expected)} (${h.dims.join('×')} values), found ${bytesText(bytes.length)}`,
      fileName,
    );
  }
  return expected;
}

/** Gunzips when the bytes are gzip; `owned` tells whether the result is a fresh buffer. */
function maybeGunzip(bytes: Uint8Array, opts: IdxOptions): { data: Uint8Array; owned: boolean } {
  if (isGzip(bytes)) return { data: gunzipBytes(bytes, opts.onProgress, opts.fileName), owned: true };
  return { data: bytes, owned: false };
}

/** Parses an IDX image file (2051), raw or gzipped, into N×rows×cols×1 bytes. */
export function parseIdxImages(bytes: Uint8Array, opts: IdxOptions = {}): { images: Uint8Array; count: number; shape: [number, number, number] } {
  const { data, owned } = maybeGunzip(bytes, opts);
  const h = readIdxHeader(data, opts.fileName);
  expectMagic(h, data, IDX_IMAGES_MAGIC, 'an IDX image file', opts.fileName);
  const [count, rows, cols] = h.dims;
  if (rows === 0 || cols === 0) {
    throw new DataFormatError(`IDX image file declares ${rows}×${cols} images; need at least 1×1`, opts.fileName);
  }
  const end = checkLength(data, h, 'IDX image file', opts.fileName);
  const images = owned ? data.subarray(h.dataOffset, end) : data.slice(h.dataOffset, end);
  opts.onProgress?.(1);
  return { images, count, shape: [rows, cols, 1] };
}

/** Parses an IDX label file (2049), raw or gzipped. */
export function parseIdxLabels(bytes: Uint8Array, opts: IdxOptions = {}): Uint8Array {
  const { data, owned } = maybeGunzip(bytes, opts);
  const h = readIdxHeader(data, opts.fileName);
  expectMagic(h, data, IDX_LABELS_MAGIC, 'an IDX label file', opts.fileName);
  const end = checkLength(data, h, 'IDX label file', opts.fileName);
  const labels = owned ? data.subarray(h.dataOffset, end) : data.slice(h.dataOffset, end);
  opts.onProgress?.(1);
  return labels;
}

/** Options for pairing IDX files. */
export interface IdxPairOptions {
  onProgress?: ProgressCallback;
  /** Class names (e.g. Fashion-MNIST's), index = label; labels beyond the list are rejected. */
  classNames?: string[];
}

function checkLabels(labels: Uint8Array, classNames: string[] | undefined, fileName: string): void {
  if (!classNames) return;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] >= classNames.length) {
      throw new DataFormatError(
        `label ${labels[i]} at position ${i} has no class name (${classNames.length} names given, labels 0–${classNames.length - 1})`,
        fileName,
      );
    }
  }
}

/** Parses one images file and one labels file (raw or gzipped) that belong together. */
export function parseIdxPair(images: NamedFile, labels: NamedFile, opts: IdxPairOptions = {}): ParsedImages {
  const total = images.bytes.length + labels.bytes.length || 1;
  const split = images.bytes.length / total;
  const img = parseIdxImages(images.bytes, { fileName: images.name, onProgress: subProgress(opts.onProgress, 0, split) });
  const lab = parseIdxLabels(labels.bytes, { fileName: labels.name, onProgress: subProgress(opts.onProgress, split, 1) });
  if (lab.length !== img.count) {
    throw new DataFormatError(
      `label count (${lab.length.toLocaleString('en-US')} in ${labels.name}) ≠ image count (${img.count.toLocaleString('en-US')} in ${images.name})`,
    );
  }
  checkLabels(lab, opts.classNames, labels.name);
  opts.onProgress?.(1);
  return { images: img.images, labels: lab, shape: img.shape, ...(opts.classNames ? { classNames: opts.classNames } : {}) };
}

/** True for names that mark a test split: MNIST's "t10k-…", or "test". */
function isTestName(name: string): boolean {
  return /t10k|test/i.test(baseName(name));
}

/** First bytes of a raw or gzipped file (only the start of a .gz is decompressed). */
function headOf(f: NamedFile, count = 16): Uint8Array {
  return isGzip(f.bytes) ? gunzipHead(f.bytes, count, f.name) : f.bytes.subarray(0, count);
}

/** Magic number of a raw or gzipped IDX file, or null when it does not start like an IDX file. */
export function peekIdxMagic(f: NamedFile): number | null {
  const head = headOf(f, 4);
  if (head.length < 4 || head[0] !== 0 || head[1] !== 0 || !IDX_TYPES[head[2]]) return null;
  return readU32BE(head, 0);
}

/**
 * Pairs IDX files into train (and test) sets: images vs labels by magic number, train vs test by name
 * ("t10k" or "test" in the name = test, as MNIST names them). One images + one labels file is a train set
 * whatever the names.
 */
export function parseIdxFiles(files: NamedFile[], opts: IdxPairOptions = {}): ParsedDataset {
  const images: NamedFile[] = [];
  const labels: NamedFile[] = [];
  for (const f of files) {
    const magic = peekIdxMagic(f);
    if (magic === IDX_IMAGES_MAGIC) images.push(f);
    else if (magic === IDX_LABELS_MAGIC) labels.push(f);
    else {
      throw new DataFormatError(`bad magic number: expected an IDX image (2051) or label (2049) file but found ${describeMagic(headOf(f))}`, f.name);
    }
  }
  const names = (fs: NamedFile[]) => fs.map((f) => f.name).join(', ') || 'none';
  if (images.length === 0) throw new DataFormatError(`no IDX image file (magic 2051) among the files (labels: ${names(labels)})`);
  if (labels.length === 0) throw new DataFormatError(`no IDX label file (magic 2049) among the files (images: ${names(images)})`);
  if (images.length !== labels.length || images.length > 2) {
    throw new DataFormatError(
      `expected one images and one labels file per split (train, and optionally test) but found ${images.length} image file(s) (${names(images)}) and ${labels.length} label file(s) (${names(labels)})`,
    );
  }
  let trainImg = images[0];
  let trainLab = labels[0];
  let testImg: NamedFile | undefined;
  let testLab: NamedFile | undefined;
  if (images.length === 2) {
    const pick = (fs: NamedFile[], kind: string): [NamedFile, NamedFile] => {
      const test = fs.filter((f) => isTestName(f.name));
      if (test.length !== 1) {
        throw new DataFormatError(
          `cannot tell the train ${kind} file from the test one by name (${names(fs)}): name the test file with "t10k" or "test", as MNIST does`,
        );
      }
      return [fs.find((f) => f !== test[0])!, test[0]];
    };
    [trainImg, testImg] = pick(images, 'images');
    [trainLab, testLab] = pick(labels, 'labels');
  }
  const size = (...fs: (NamedFile | undefined)[]) => fs.reduce((s, f) => s + (f ? f.bytes.length : 0), 0);
  const all = size(trainImg, trainLab, testImg, testLab) || 1;
  const cut = size(trainImg, trainLab) / all;
  const train = parseIdxPair(trainImg, trainLab, { classNames: opts.classNames, onProgress: subProgress(opts.onProgress, 0, cut) });
  const test =
    testImg && testLab ? parseIdxPair(testImg, testLab, { classNames: opts.classNames, onProgress: subProgress(opts.onProgress, cut, 1) }) : undefined;
  if (test && (test.shape[0] !== train.shape[0] || test.shape[1] !== train.shape[1])) {
    throw new DataFormatError(`train images are ${train.shape[0]}×${train.shape[1]} but test images are ${test.shape[0]}×${test.shape[1]}`);
  }
  opts.onProgress?.(1);
  return test ? { train, test } : { train };
}
