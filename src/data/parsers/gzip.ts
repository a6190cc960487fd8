/**
 * gunzip with progress (fflate's streaming Gunzip fed in slices), into a buffer preallocated from the gzip
 * trailer's ISIZE so a 160 MB CIFAR archive is not held twice while it is being joined.
 */
import { Gunzip } from 'fflate';
import { DataFormatError, type ProgressCallback, bytesText } from './types';

/** True when the bytes start with the gzip magic 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

const SLICE = 1 << 20;

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE, as gzip's trailer) of the bytes. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let k = 0; k < 256; k++) {
      let c = k;
      for (let j = 0; j < 8; j++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[k] = c >>> 0;
    }
  }
  const t = crcTable;
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Decompresses a (possibly multi-member) gzip stream. fflate's streaming decoder does not notice every
 * truncation, so the last member is checked against the gzip trailer (CRC-32 and ISIZE = size mod 2^32):
 * a cut-off download fails here with DataFormatError instead of yielding short data.
 */
export function gunzipBytes(bytes: Uint8Array, onProgress?: ProgressCallback, fileName?: string): Uint8Array {
  if (!isGzip(bytes)) throw new DataFormatError('not a gzip file (does not start with 1f 8b)', fileName);
  if (bytes.length < 18) {
    throw new DataFormatError(`truncated gzip file: ${bytesText(bytes.length)}, a gzip stream needs at least 18`, fileName);
  }
  const n = bytes.length;
  const u32le = (at: number) => (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
  const trailerCrc = u32le(n - 8);
  const isize = u32le(n - 4);
  // ISIZE is only a hint for the buffer (it is garbage in a truncated file): trust it up to a plausible ratio.
  let out = new Uint8Array(isize <= 16 * n + (1 << 20) ? Math.max(isize, 1024) : 4 * n);
  let length = 0;
  let lastMemberStart = 0;
  const stream = new Gunzip((chunk) => {
    if (length + chunk.length > out.length) {
      const bigger = new Uint8Array(Math.max(out.length * 2, length + chunk.length));
      bigger.set(out.subarray(0, length));
      out = bigger;
    }
    out.set(chunk, length);
    length += chunk.length;
  });
  stream.onmember = () => {
    lastMemberStart = length;
  };
  try {
    for (let at = 0; at < n; at += SLICE) {
      const end = Math.min(n, at + SLICE);
      stream.push(bytes.subarray(at, end), end === n);
      onProgress?.((0.95 * end) / n);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new DataFormatError(`corrupt or truncated gzip data (${why})`, fileName);
  }
  const last = out.subarray(lastMemberStart, length);
  if (last.length >>> 0 !== isize || crc32(last) !== trailerCrc) {
    throw new DataFormatError(
      `corrupt or truncated gzip data: ${bytesText(last.length)} decompressed, but the gzip trailer says ${bytesText(isize)} (mod 2^32) and its CRC-32 ${trailerCrc === crc32(last) ? 'matches' : 'does not match'} — is the download complete?`,
      fileName,
    );
  }
  onProgress?.(1);
  return length === out.length ? out : out.subarray(0, length);
}

/**
 * The first `count` bytes of a gzip stream (fewer if it is shorter), decompressing only as much as needed —
 * for sniffing what is inside a large .gz. Returns what it got if the stream is cut short; throws
 * DataFormatError only when the very start is not valid deflate data.
 */
export function gunzipHead(bytes: Uint8Array, count: number, fileName?: string): Uint8Array {
  if (!isGzip(bytes)) throw new DataFormatError('not a gzip file (does not start with 1f 8b)', fileName);
  const parts: Uint8Array[] = [];
  let got = 0;
  const stream = new Gunzip((chunk) => {
    parts.push(chunk);
    got += chunk.length;
  });
  const step = 1 << 16;
  try {
    for (let at = 0; at < bytes.length && got < count; at += step) {
      const end = Math.min(bytes.length, at + step);
      stream.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch (e) {
    if (got === 0) {
      const why = e instanceof Error ? e.message : String(e);
      throw new DataFormatError(`corrupt gzip data (${why})`, fileName);
    }
  }
  const out = new Uint8Array(Math.min(count, got));
  let at = 0;
  for (const p of parts) {
    if (at >= out.length) break;
    const take = p.subarray(0, out.length - at);
    out.set(take, at);
    at += take.length;
  }
  return out;
}
