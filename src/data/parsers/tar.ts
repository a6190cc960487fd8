/**
 * A tiny tar reader (POSIX ustar, plus the GNU long-name and pax `path` records that GNU tar and Python's tarfile
 * write for long names) — enough for the CIFAR archives. Members are returned as views into the input, no copies.
 *
 * Layout: 512-byte headers (name 0–99, size 124–135 in octal, checksum 148–155, type 156, magic "ustar" 257,
 * prefix 345–499), each followed by the member's data padded to 512 bytes; two zero blocks end the archive.
 */
import { DataFormatError, bytesText } from './types';

/** One archive member: its path inside the archive and its bytes (a view into the archive). */
export interface TarEntry {
  name: string;
  type: 'file' | 'directory';
  bytes: Uint8Array;
}

const BLOCK = 512;
const decoder = new TextDecoder();

function cString(b: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && b[end] !== 0) end++;
  return decoder.decode(b.subarray(at, end));
}

/** Octal field (NUL/space terminated), or GNU base-256 when the high bit of the first byte is set. */
function numberField(b: Uint8Array, at: number, len: number): number {
  if (b[at] & 0x80) {
    let v = b[at] & 0x7f;
    for (let i = 1; i < len; i++) v = v * 256 + b[at + i];
    return v;
  }
  const s = cString(b, at, len).trim();
  return s === '' ? 0 : parseInt(s, 8);
}

/** True when the block starts like a tar header (valid checksum). */
export function looksLikeTar(bytes: Uint8Array): boolean {
  return bytes.length >= BLOCK && checksumOk(bytes.subarray(0, BLOCK));
}

function checksumOk(h: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  const stored = numberField(h, 148, 8);
  return Number.isFinite(stored) && stored === sum && sum !== 8 * 0x20;
}

/** pax extended header records "<len> key=value\n"; returns the `path` value if present. */
function paxPath(data: Uint8Array): string | undefined {
  const text = decoder.decode(data);
  for (const line of text.split('\n')) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** Reads every file and directory member of a tar archive. */
export function readTar(bytes: Uint8Array, fileName?: string): TarEntry[] {
  const entries: TarEntry[] = [];
  let off = 0;
  let longName: string | undefined;
  while (off + BLOCK <= bytes.length) {
    const h = bytes.subarray(off, off + BLOCK);
    if (h.every((v) => v === 0)) break; // end-of-archive marker
    if (!checksumOk(h)) {
      throw new DataFormatError(
        off === 0
          ? 'not a tar archive (the first 512-byte block is not a valid tar header)'
          : `corrupt tar archive: bad header checksum at byte ${off.toLocaleString('en-US')}`,
        fileName,
      );
    }
    const prefix = cString(h, 257, 5) === 'ustar' ? cString(h, 345, 155) : '';
    const rawName = cString(h, 0, 100);
    const name = longName ?? (prefix ? `${prefix}/${rawName}` : rawName);
    const size = numberField(h, 124, 12);
    const type = String.fromCharCode(h[156] || 0x30);
    const start = off + BLOCK;
    if (start + size > bytes.length) {
      throw new DataFormatError(
        `truncated tar archive: member "${name}" declares ${bytesText(size)} but only ${bytesText(bytes.length - start)} remain`,
        fileName,
      );
    }
    const data = bytes.subarray(start, start + size);
    off = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    longName = undefined;
    if (type === '0' || type === '7') entries.push({ name, type: 'file', bytes: data });
    else if (type === '5') entries.push({ name: name.replace(/\/+$/, ''), type: 'directory', bytes: data });
    // links, devices, fifos and global pax headers ('g') carry no image data: skipped.
  }
  return entries;
}
