/**
 * Reading a zip without trusting it: its central directory (names, methods, sizes, where each member starts) read
 * field by field, and each member inflated **no further than the size its directory entry declares** — a member
 * whose deflate stream goes on past that (a directory that lies, a zip bomb) is refused the moment it does, after at
 * most one slice's worth (./inflate.ts) more; one that stops short is refused too. fflate's
 * `unzipSync` decodes a lying member to its end (into a buffer of the declared size, writing the rest nowhere: minutes
 * of work for a small file), so members are inflated here: small ones with `inflateSync` into a buffer one byte
 * longer than declared (a full buffer means the stream went on), large ones with fflate's streaming `Inflate`, in
 * slices. Callers stream a member (`streamZipEntry`: the .npz reader converts `features` as it inflates, and reads
 * a header without inflating the rest) or take it whole (`zipEntryBytes`).
 *
 * Every failure is a DataFormatError with one sentence.
 */
import { inflateSync } from 'fflate';
import { grouped } from '../../core/config/limits';
import { INFLATE_SLICE, InflateError, inflateBounded } from './inflate';
import { DataFormatError, bytesText } from './types';

/** One member as the central directory declares it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate (others are refused when read) */
  method: number;
  /** bytes of the member's data in the archive */
  compressedSize: number;
  /** bytes it inflates to, as declared */
  size: number;
  /** where its local header starts */
  offset: number;
  /** bit 0 of the flags: encrypted */
  encrypted: boolean;
}

/** The slice when only a member's first bytes are wanted (a header): at most about 1 MB is inflated for it. */
const HEAD_SLICE = 1 << 10;

const COMPRESSION_NAMES: Record<number, string> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'zstd',
  95: 'xz',
  99: 'AES encryption',
};

/** The compression method in words (for a refusal). */
export function compressionName(method: number): string {
  return COMPRESSION_NAMES[method] ?? `method ${method}`;
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
};

/**
 * The members the central directory lists, in its order. Checks the end record's count against the room its
 * directory has (each entry takes at least 46 bytes: a record claiming 65 535 entries in a small file is refused,
 * not walked) and that every entry lies inside the file.
 */
export function readZipDirectory(bytes: Uint8Array, fileName?: string): ZipEntry[] {
  const fail = (m: string): never => {
    throw new DataFormatError(m, fileName);
  };
  let e = bytes.length - 22;
  while (e >= 0 && u32(bytes, e) !== 0x06054b50) {
    if (bytes.length - e > 65_558) break;
    e--;
  }
  if (e < 0 || u32(bytes, e) !== 0x06054b50) fail('corrupt or truncated zip archive (it has no end-of-directory record)');
  let count = u16(bytes, e + 10);
  let cdSize = u32(bytes, e + 12);
  let cdStart = u32(bytes, e + 16);
  let end = e;
  if (e >= 20 && u32(bytes, e - 20) === 0x07064b50) {
    const z = u64(bytes, e - 12);
    if (z + 56 <= bytes.length && u32(bytes, z) === 0x06064b50) {
      count = u64(bytes, z + 32);
      cdSize = u64(bytes, z + 40);
      cdStart = u64(bytes, z + 48);
      end = z;
    }
  }
  const room = Math.floor(Math.min(cdSize, Math.max(0, end - cdStart)) / 46);
  if (count > room)
    fail(`corrupt zip archive: its end record says it has ${grouped(count)} entries, but its central directory has room for at most ${grouped(room)}`);
  const entries: ZipEntry[] = [];
  let at = cdStart;
  for (let k = 0; k < count; k++) {
    if (at + 46 > end || u32(bytes, at) !== 0x02014b50) fail(`corrupt zip archive: entry ${k + 1} of its central directory is damaged`);
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    let compressedSize = u32(bytes, at + 20);
    let size = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    let offset = u32(bytes, at + 42);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x800 ? new TextDecoder().decode(nameBytes) : latin1(nameBytes);
    // zip64: the sizes and offset that are 0xFFFFFFFF follow in the extra field 0x0001, in this order
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = u16(bytes, x);
      const len = u16(bytes, x + 2);
      if (id === 0x0001) {
        let f = x + 4;
        if (size === 0xffffffff && f + 8 <= x + 4 + len) ((size = u64(bytes, f)), (f += 8));
        if (compressedSize === 0xffffffff && f + 8 <= x + 4 + len) ((compressedSize = u64(bytes, f)), (f += 8));
        if (offset === 0xffffffff && f + 8 <= x + 4 + len) offset = u64(bytes, f);
      }
      x += 4 + len;
    }
    if (offset + 30 > bytes.length) fail(`corrupt or truncated zip archive: member "${name}" starts past the end of the file`);
    entries.push({ name, method, compressedSize, size, offset, encrypted: (flags & 1) === 1 });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The member's compressed bytes (after its local header), checked to lie inside the file. */
function dataOf(bytes: Uint8Array, entry: ZipEntry, fileName?: string): Uint8Array {
  const at = entry.offset;
  if (u32(bytes, at) !== 0x04034b50)
    throw new DataFormatError(`corrupt zip archive: member "${entry.name}" has no local header where its directory says`, fileName);
  const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28);
  if (start + entry.compressedSize > bytes.length)
    throw new DataFormatError(`corrupt or truncated zip archive: member "${entry.name}" runs past the end of the file`, fileName);
  return bytes.subarray(start, start + entry.compressedSize);
}

function checkReadable(entry: ZipEntry, fileName?: string): void {
  if (entry.encrypted) throw new DataFormatError(`zip member "${entry.name}" is encrypted; zip it again without a password`, fileName);
  if (entry.method !== 0 && entry.method !== 8)
    throw new DataFormatError(
      `zip member "${entry.name}" is compressed with ${compressionName(entry.method)}; only stored and deflate zips can be read — zip it again with standard settings`,
      fileName,
    );
}

const lies = (entry: ZipEntry, fileName?: string) =>
  new DataFormatError(
    `zip member "${entry.name}" inflates to more than the ${bytesText(entry.size)} its directory declares (a damaged zip, or a zip bomb); nothing past that was read`,
    fileName,
  );
const short = (entry: ZipEntry, got: number, fileName?: string) =>
  new DataFormatError(
    `zip member "${entry.name}" inflates to ${bytesText(got)}, its directory declares ${bytesText(entry.size)} (the zip is damaged)`,
    fileName,
  );
const damaged = (entry: ZipEntry, e: unknown, fileName?: string) =>
  new DataFormatError(`zip member "${entry.name}" does not inflate (${e instanceof Error ? e.message : String(e)}): the zip is damaged`, fileName);

/**
 * Feeds the member's bytes to `onChunk` as they inflate, in order, never more than its declared size; `onChunk`
 * returns false to stop early (the rest is not inflated). Throws a DataFormatError when the stream goes past the
 * declared size, ends before it (unless stopped), or is damaged. An exception from `onChunk` goes through as it is.
 */
export function streamZipEntry(bytes: Uint8Array, entry: ZipEntry, onChunk: (chunk: Uint8Array) => boolean | void, fileName?: string, slice?: number): void {
  checkReadable(entry, fileName);
  const data = dataOf(bytes, entry, fileName);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw short(entry, data.length, fileName);
    const step = slice ?? INFLATE_SLICE;
    for (let at = 0; at < data.length; at += step) if (onChunk(data.subarray(at, Math.min(data.length, at + step))) === false) return;
    return;
  }
  let result;
  try {
    result = inflateBounded(data, entry.size, onChunk, slice === undefined ? {} : { slice });
  } catch (e) {
    if (e instanceof InflateError) throw damaged(entry, e, fileName);
    throw e;
  }
  if (result.end === 'over') throw lies(entry, fileName);
  if (result.end === 'ended' && result.bytes !== entry.size) throw short(entry, result.bytes, fileName);
}

/** The member's bytes, exactly its declared size (see streamZipEntry for what is refused). */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, fileName?: string): Uint8Array {
  checkReadable(entry, fileName);
  const data = dataOf(bytes, entry, fileName);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw short(entry, data.length, fileName);
    return data;
  }
  if (data.length <= INFLATE_SLICE) {
    // one byte more than declared: a stream that fills it went on past the declared size (and at most INFLATE_SLICE × 1 032
    // bytes were decoded, into nowhere, on the way)
    let out: Uint8Array;
    try {
      out = inflateSync(data, { out: new Uint8Array(entry.size + 1) });
    } catch (e) {
      // a stored block past the end of the buffer is refused by the copy
      if (e instanceof RangeError) throw lies(entry, fileName);
      throw damaged(entry, e, fileName);
    }
    if (out.length > entry.size) throw lies(entry, fileName);
    if (out.length !== entry.size) throw short(entry, out.length, fileName);
    return out;
  }
  const out = new Uint8Array(entry.size);
  let at = 0;
  streamZipEntry(
    bytes,
    entry,
    (chunk) => {
      out.set(chunk, at);
      at += chunk.length;
    },
    fileName,
  );
  return out;
}

/** The first `count` bytes of a member (fewer when it is shorter), inflating no more than needed. */
export function zipEntryHead(bytes: Uint8Array, entry: ZipEntry, count: number, fileName?: string): Uint8Array {
  const want = Math.min(count, entry.size);
  const out = new Uint8Array(want);
  let at = 0;
  streamZipEntry(
    bytes,
    entry,
    (chunk) => {
      const take = chunk.subarray(0, want - at);
      out.set(take, at);
      at += take.length;
      return at < want;
    },
    fileName,
    HEAD_SLICE,
  );
  return at === want ? out : out.subarray(0, at);
}
