/**
 * The broken-upload corpus of the issue-16 drills (not a test file): every file is generated here, at run time, from
 * a few lines of code — nothing large is stored in the repository. Used by tests/unit/drills/broken-uploads.test.ts
 * (the parsers) and tests/e2e/drills-uploads.spec.ts (the page, through the real file inputs).
 *
 * Three upload targets: the Data page (IDX / CIFAR / image-folder zip → src/data/parsers), a similarity file
 * (JSON / CSV / .npy → src/core/similarity/parse-upload.ts) and a results file (CSV / JSON → src/core/results-import).
 *
 * The zip bombs are written by hand (a raw zip writer below), so that their headers can lie and their deflate
 * streams can be huge when inflated yet tiny and quick to make: a fixed-Huffman block of back-references
 * (length 258, distance 1), 13 bits per 258 zero bytes — 1.1 GB of zeros from 5.5 MB.
 */
import { zipSync } from 'fflate';
import { PNG } from 'pngjs';

export type UploadTarget = 'data' | 'similarity' | 'results';

export interface CorpusFile {
  name: string;
  bytes: Uint8Array;
}

export interface CorpusCase {
  id: string;
  target: UploadTarget;
  files: CorpusFile[];
  /** What it is, in a few words (printed in the figure table). */
  what: string;
  /** The message must match this (a broken file); absent: the file is odd but valid and must load. */
  message?: RegExp;
}

const enc = new TextEncoder();
const text = (s: string) => enc.encode(s);

// ─────────────────────────────── small valid images ───────────────────────────────

/** A w×h PNG of one colour (pngjs), a real image every decoder reads. */
export function solidPng(w = 4, h = 4, rgb: [number, number, number] = [200, 30, 30]): Uint8Array {
  const png = new PNG({ width: w, height: h });
  for (let p = 0; p < w * h; p++) png.data.set([...rgb, 255], 4 * p);
  return new Uint8Array(PNG.sync.write(png));
}

/** A PNG whose header declares `w`×`h` (e.g. 100 000 × 100 000) but whose data is one tiny IDAT: decoders must refuse it. */
export function hugeHeaderPng(w: number, h: number): Uint8Array {
  const small = solidPng(2, 2);
  const out = small.slice();
  const dv = new DataView(out.buffer);
  // IHDR data starts at 16 (8 signature + 4 length + 4 type)
  dv.setUint32(16, w);
  dv.setUint32(20, h);
  // fix the IHDR CRC (over type + data, bytes 12..29)
  dv.setUint32(29, crc32(out.subarray(12, 29)));
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ─────────────────────────────── raw zip writer ───────────────────────────────

export interface RawZipEntry {
  name: string;
  /** The stored bytes (already deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
  /** The uncompressed size the headers declare. */
  size: number;
  /** Point the central entry at another entry's local header (overlapping zip bombs). */
  sameDataAs?: number;
  /** The CRC-32 the headers declare (default 0: fflate does not check it; numpy does). */
  crc?: number;
}

/**
 * A zip archive written field by field, so headers can say anything. `count` overrides the entry count of the end
 * record; `zip64Count` adds a zip64 end record declaring that many entries.
 */
export function rawZip(entries: RawZipEntry[], opts: { count?: number; zip64Count?: number } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  const push = (b: Uint8Array) => {
    parts.push(b);
    at += b.length;
  };
  const offsets: number[] = [];
  entries.forEach((e, k) => {
    if (e.sameDataAs !== undefined) {
      offsets.push(offsets[e.sameDataAs]);
      return;
    }
    offsets.push(at);
    const name = text(e.name);
    const h = new DataView(new ArrayBuffer(30));
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(8, e.method, true);
    h.setUint32(14, e.crc ?? 0, true); // crc (fflate does not check it)
    h.setUint32(18, e.data.length, true);
    h.setUint32(22, e.size >>> 0, true);
    h.setUint16(26, name.length, true);
    push(new Uint8Array(h.buffer));
    push(name);
    push(e.data);
    void k;
  });
  const cdStart = at;
  entries.forEach((e, k) => {
    const src = e.sameDataAs !== undefined ? entries[e.sameDataAs] : e;
    const name = text(e.name);
    const h = new DataView(new ArrayBuffer(46));
    h.setUint32(0, 0x02014b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, 20, true);
    h.setUint16(10, src.method, true);
    h.setUint32(16, src.crc ?? 0, true);
    h.setUint32(20, src.data.length, true);
    h.setUint32(24, e.size >>> 0, true);
    h.setUint16(28, name.length, true);
    h.setUint32(42, offsets[k], true);
    push(new Uint8Array(h.buffer));
    push(name);
  });
  const cdSize = at - cdStart;
  if (opts.zip64Count !== undefined) {
    const z = new DataView(new ArrayBuffer(56));
    const zAt = at;
    z.setUint32(0, 0x06064b50, true);
    z.setBigUint64(4, 44n, true);
    z.setUint16(12, 45, true);
    z.setUint16(14, 45, true);
    z.setBigUint64(24, BigInt(opts.zip64Count), true);
    z.setBigUint64(32, BigInt(opts.zip64Count), true);
    z.setBigUint64(40, BigInt(cdSize), true);
    z.setBigUint64(48, BigInt(cdStart), true);
    push(new Uint8Array(z.buffer));
    const l = new DataView(new ArrayBuffer(20));
    l.setUint32(0, 0x07064b50, true);
    l.setBigUint64(8, BigInt(zAt), true);
    l.setUint32(16, 1, true);
    push(new Uint8Array(l.buffer));
  }
  const n = opts.count ?? entries.length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, Math.min(n, 0xffff), true);
  end.setUint16(10, Math.min(n, 0xffff), true);
  end.setUint32(12, cdSize, true);
  end.setUint32(16, cdStart, true);
  push(new Uint8Array(end.buffer));
  const out = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A raw deflate stream that inflates to `bytes` zero bytes (rounded up to 1 + 258·k): one fixed-Huffman block, a
 * literal 0, then back-references of length 258 at distance 1, then end-of-block.
 */
export function zeroBomb(bytes: number): { data: Uint8Array; size: number } {
  const k = Math.max(0, Math.ceil((bytes - 1) / 258));
  const out = new Uint8Array(Math.ceil((3 + 8 + 13 * k + 7) / 8) + 1);
  let bitPos = 0;
  const bits = (value: number, n: number) => {
    // LSB-first packing
    for (let i = 0; i < n; i++) {
      if ((value >>> i) & 1) out[bitPos >>> 3] |= 1 << (bitPos & 7);
      bitPos++;
    }
  };
  const huff = (code: number, n: number) => {
    // Huffman codes are sent most significant bit first
    for (let i = n - 1; i >= 0; i--) bits((code >>> i) & 1, 1);
  };
  bits(1, 1); // BFINAL
  bits(1, 2); // BTYPE = 01, fixed Huffman
  huff(0b00110000, 8); // literal 0
  for (let i = 0; i < k; i++) {
    huff(0b11000101, 8); // length code 285 = 258
    huff(0, 5); // distance code 0 = distance 1
  }
  huff(0, 7); // end of block (256)
  return { data: out.subarray(0, Math.ceil(bitPos / 8)), size: 1 + 258 * k };
}

// ─────────────────────────────── the corpus ───────────────────────────────

const MB = 1_000_000;

/** A valid two-class image zip (the control case, and the base of several broken ones). */
export function goodZip(): Uint8Array {
  return zipSync({
    'shapes/red/1.png': solidPng(4, 4, [220, 20, 20]),
    'shapes/red/2.png': solidPng(4, 4, [200, 40, 40]),
    'shapes/blue/1.png': solidPng(4, 4, [20, 20, 220]),
  });
}

function npy(header: string, data: Uint8Array, headerLenOverride?: number): Uint8Array {
  let h = header;
  while ((10 + h.length + 1) % 64 !== 0) h += ' ';
  h += '\n';
  const out = new Uint8Array(10 + h.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, headerLenOverride ?? h.length, true);
  out.set(text(h), 10);
  out.set(data, 10 + h.length);
  return out;
}

function utf16le(s: string, bom: boolean): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + 2 * s.length);
  let o = 0;
  if (bom) {
    out[0] = 0xff;
    out[1] = 0xfe;
    o = 2;
  }
  for (let i = 0; i < s.length; i++) {
    out[o++] = s.charCodeAt(i) & 0xff;
    out[o++] = s.charCodeAt(i) >>> 8;
  }
  return out;
}

/** Seeded bytes (xorshift32): "binary garbage" that is the same on every run. */
export function garbage(n: number, seed = 16): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Every case. Big ones (the bombs) are made on demand: call the function. */
export function brokenUploadCorpus(): CorpusCase[] {
  const png = solidPng();
  const good = goodZip();
  const cases: CorpusCase[] = [];
  const add = (c: CorpusCase) => cases.push(c);

  // ── zip bombs ──
  const big = zeroBomb(1_100 * MB);
  add({
    id: 'zip-bomb-one-entry',
    target: 'data',
    what: `one entry inflating to ${Math.round(big.size / MB)} MB (${(big.data.length / MB).toFixed(1)} MB zipped)`,
    files: [
      {
        name: 'bomb.zip',
        bytes: rawZip([
          { name: 'a/1.png', data: png, method: 0, size: png.length },
          { name: 'b/bomb.png', data: big.data, method: 8, size: big.size },
        ]),
      },
    ],
    message: /at most 1 000 000 000 bytes/,
  });
  const mid = zeroBomb(120 * MB);
  add({
    id: 'zip-bomb-overlapping',
    target: 'data',
    what: `40 entries sharing one ${Math.round(mid.size / MB)} MB stream (${((40 * mid.size) / 1e9).toFixed(1)} GB in all)`,
    files: [
      {
        name: 'overlap.zip',
        bytes: rawZip([
          { name: 'a/0.png', data: mid.data, method: 8, size: mid.size },
          ...Array.from({ length: 39 }, (_, i) => ({
            name: `${i % 2 ? 'a' : 'b'}/${i + 1}.png`,
            data: mid.data,
            method: 8 as const,
            size: mid.size,
            sameDataAs: 0,
          })),
        ]),
      },
    ],
    message: /at most 1 000 000 000 bytes/,
  });
  const lie = zeroBomb(50 * MB);
  add({
    id: 'zip-size-lies-low',
    target: 'data',
    what: `header says 100 bytes, inflates to ${Math.round(lie.size / MB)} MB`,
    files: [
      {
        name: 'lie-low.zip',
        bytes: rawZip([
          { name: 'a/1.png', data: png, method: 0, size: png.length },
          { name: 'b/1.png', data: lie.data, method: 8, size: 100 },
        ]),
      },
    ],
    message: /./,
  });
  add({
    id: 'zip-size-lies-high',
    target: 'data',
    what: 'header says 4 GB for a 70-byte PNG',
    files: [
      {
        name: 'lie-high.zip',
        bytes: rawZip([
          { name: 'a/1.png', data: png, method: 0, size: png.length },
          { name: 'b/1.png', data: png, method: 0, size: 0xfffffff0 },
        ]),
      },
    ],
    message: /at most 1 000 000 000 bytes/,
  });
  add({
    id: 'zip-entry-count-bomb',
    target: 'data',
    what: '20 000 tiny entries (0-byte images)',
    files: [
      {
        name: 'many.zip',
        bytes: rawZip(
          Array.from({ length: 20_000 }, (_, i) => ({ name: `${i % 2 ? 'a' : 'b'}/${i}.png`, data: new Uint8Array(0), method: 0 as const, size: 0 })),
        ),
      },
    ],
    message: /no readable images|empty/i,
  });
  add({
    id: 'zip-count-lies',
    target: 'data',
    what: 'end record says 65 535 entries, the zip has 2',
    files: [
      {
        name: 'count.zip',
        bytes: rawZip(
          [
            { name: 'a/1.png', data: png, method: 0, size: png.length },
            { name: 'b/1.png', data: png, method: 0, size: png.length },
          ],
          { count: 65_535 },
        ),
      },
    ],
    message: /entries/,
  });
  add({
    id: 'zip64-count-lies',
    target: 'data',
    what: 'zip64 end record says 4 294 967 295 entries',
    files: [
      {
        name: 'count64.zip',
        bytes: rawZip(
          [
            { name: 'a/1.png', data: png, method: 0, size: png.length },
            { name: 'b/1.png', data: png, method: 0, size: png.length },
          ],
          { zip64Count: 0xffffffff },
        ),
      },
    ],
    message: /entries|corrupt/i,
  });
  add({
    id: 'zip-decoded-bomb',
    target: 'data',
    what: '330 000 entries sharing one 83-byte PNG (1 GB once decoded at 32×32)',
    files: [
      {
        name: 'decoded-bomb.zip',
        bytes: rawZip(
          [
            { name: 'a/0.png', data: png, method: 0, size: png.length },
            ...Array.from({ length: 329_999 }, (_, i) => ({
              name: `${i % 2 ? 'a' : 'b'}/${i + 1}.png`,
              data: png,
              method: 0 as const,
              size: png.length,
              sameDataAs: 0,
            })),
          ],
          { zip64Count: 330_000 },
        ),
      },
    ],
    message: /at most 1 000 000 000 bytes/,
  });
  add({
    id: 'zip-nested',
    target: 'data',
    what: 'class folders holding zips',
    files: [{ name: 'nested.zip', bytes: zipSync({ 'a/inner.zip': good, 'b/inner.zip': good }) }],
    message: /no images/i,
  });
  add({
    id: 'zip-truncated',
    target: 'data',
    what: 'first half of a valid zip',
    files: [{ name: 'truncated.zip', bytes: good.subarray(0, Math.floor(good.length / 2)) }],
    message: /corrupt|truncated/i,
  });
  add({
    id: 'zip-truncated-tail',
    target: 'data',
    what: 'valid zip missing its last 10 bytes',
    files: [{ name: 'tail.zip', bytes: good.subarray(0, good.length - 10) }],
    message: /corrupt|truncated/i,
  });
  add({
    id: 'zip-path-traversal',
    target: 'data',
    what: '../x.png, ../../etc/x.png, /abs/x.png',
    files: [{ name: 'traversal.zip', bytes: zipSync({ '../x.png': png, '../../etc/y.png': png, '/abs/z.png': png }) }],
    message: /no images|class folder|top of the zip/i,
  });
  add({
    id: 'zip-duplicate-names',
    target: 'data',
    what: 'two entries named a/1.png',
    files: [
      {
        name: 'dup.zip',
        bytes: rawZip([
          { name: 'a/1.png', data: png, method: 0, size: png.length },
          { name: 'a/1.png', data: solidPng(4, 4, [0, 255, 0]), method: 0, size: png.length },
          { name: 'b/1.png', data: png, method: 0, size: png.length },
        ]),
      },
    ],
    message: /no readable images|no images|have this name|1 class folder/i,
  });
  add({
    id: 'zip-duplicate-names-kept',
    target: 'data',
    what: 'a duplicate name among good images (the rest loads)',
    files: [
      {
        name: 'dup-ok.zip',
        bytes: rawZip([
          { name: 'a/1.png', data: png, method: 0, size: png.length },
          { name: 'a/2.png', data: png, method: 0, size: png.length },
          { name: 'a/2.png', data: png, method: 0, size: png.length },
          { name: 'b/1.png', data: png, method: 0, size: png.length },
        ]),
      },
    ],
  });
  add({
    id: 'zip-not-images',
    target: 'data',
    what: 'text bytes named .png',
    files: [{ name: 'fake.zip', bytes: zipSync({ 'a/1.png': text('hello'), 'b/1.png': text('<svg onload=alert(1)>') }) }],
    message: /no readable images/i,
  });
  add({
    id: 'zip-zero-byte-images',
    target: 'data',
    what: '0-byte .png files',
    files: [{ name: 'zero.zip', bytes: zipSync({ 'a/1.png': new Uint8Array(0), 'b/1.png': new Uint8Array(0) }) }],
    message: /no readable images/i,
  });
  add({
    id: 'zip-huge-png-header',
    target: 'data',
    what: 'PNG declaring 100 000 × 100 000',
    files: [{ name: 'huge.zip', bytes: zipSync({ 'a/1.png': hugeHeaderPng(100_000, 100_000), 'b/1.png': png }) }],
    message: /decode|100000|100 000|pixels/i,
  });
  add({
    id: 'zip-empty-archive',
    target: 'data',
    what: 'an empty zip (end record only)',
    files: [{ name: 'empty.zip', bytes: rawZip([]) }],
    message: /no images/i,
  });
  add({
    id: 'data-zero-bytes',
    target: 'data',
    what: 'a 0-byte file',
    files: [{ name: 'nothing.gz', bytes: new Uint8Array(0) }],
    message: /cannot tell|empty|0 bytes/i,
  });
  add({ id: 'data-garbage', target: 'data', what: '64 KB of random bytes', files: [{ name: 'garbage.bin', bytes: garbage(65_536) }], message: /cannot tell/i });
  add({ id: 'data-png-as-upload', target: 'data', what: 'a bare .png (not a zip)', files: [{ name: 'cat.png', bytes: png }], message: /cannot tell/i });
  add({
    id: 'data-idx-lies',
    target: 'data',
    what: 'IDX header declaring 2^31 images of 28×28',
    files: [
      {
        name: 'train-images-idx3-ubyte',
        bytes: (() => {
          const b = new Uint8Array(16 + 784);
          const dv = new DataView(b.buffer);
          dv.setUint32(0, 2051);
          dv.setUint32(4, 0x7fffffff);
          dv.setUint32(8, 28);
          dv.setUint32(12, 28);
          return b;
        })(),
      },
    ],
    message: /label|truncated|bytes/i,
  });
  add({
    id: 'data-gzip-truncated',
    target: 'data',
    what: 'a gzip header and nothing else',
    files: [{ name: 'train-images-idx3-ubyte.gz', bytes: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]) }],
    message: /gzip|truncated|corrupt|0 bytes/i,
  });

  // ── similarity uploads ──
  add({
    id: 'npy-shape-lies',
    target: 'similarity',
    what: '.npy header says (100000, 100000), 72 bytes of data',
    files: [{ name: 'sim.npy', bytes: npy("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }", new Uint8Array(72)) }],
    message: /at most|numbers/i,
  });
  add({
    id: 'npy-data-short',
    target: 'similarity',
    what: '.npy header says (3, 3), 16 bytes of data',
    files: [{ name: 'sim.npy', bytes: npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }", new Uint8Array(16)) }],
    message: /truncated/i,
  });
  add({
    id: 'npy-header-length-lies',
    target: 'similarity',
    what: '.npy header length says 65 535 bytes',
    files: [{ name: 'sim.npy', bytes: npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", new Uint8Array(32), 65_535) }],
    message: /truncated/i,
  });
  add({
    id: 'npy-shape-overflow',
    target: 'similarity',
    what: '.npy shape (2^62, 4)',
    files: [{ name: 'sim.npy', bytes: npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", new Uint8Array(32)) }],
    message: /shape|at most|numbers/i,
  });
  add({
    id: 'npy-object-dtype',
    target: 'similarity',
    what: '.npy of pickled objects',
    files: [{ name: 'sim.npy', bytes: npy("{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }", new Uint8Array(32)) }],
    message: /not supported/i,
  });
  add({
    id: 'csv-million-columns',
    target: 'similarity',
    what: 'CSV with one row of 1 000 000 columns',
    files: [{ name: 'wide.csv', bytes: text(`${Array(1_000_000).fill('0.5').join(',')}\n`) }],
    message: /./,
  });
  add({
    id: 'csv-utf16-bom',
    target: 'similarity',
    what: 'UTF-16 LE CSV with a byte-order mark (valid)',
    files: [{ name: 'sim16.csv', bytes: utf16le('1,0.5\n0.5,1\n', true) }],
  });
  add({
    id: 'csv-utf16-no-bom',
    target: 'similarity',
    what: 'UTF-16 LE CSV without a byte-order mark',
    files: [{ name: 'sim16.csv', bytes: utf16le('1,0.5\n0.5,1\n', false) }],
    message: /binary|UTF/i,
  });
  add({
    id: 'csv-garbage',
    target: 'similarity',
    what: '4 KB of random bytes named .csv',
    files: [{ name: 'garbage.csv', bytes: garbage(4096, 7) }],
    message: /binary|UTF-8/i,
  });
  add({
    id: 'json-garbage',
    target: 'similarity',
    what: '4 KB of random bytes named .json',
    files: [{ name: 'garbage.json', bytes: garbage(4096, 8) }],
    message: /binary|UTF-8/i,
  });
  add({
    id: 'json-deep',
    target: 'similarity',
    what: 'JSON nested 100 000 deep',
    files: [{ name: 'deep.json', bytes: text(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) }],
    message: /./,
  });
  add({
    id: 'json-deep-object',
    target: 'similarity',
    what: 'JSON objects nested 100 000 deep',
    files: [{ name: 'deep-object.json', bytes: text(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) }],
    message: /./,
  });
  add({ id: 'sim-zero-bytes', target: 'similarity', what: 'a 0-byte .csv', files: [{ name: 'empty.csv', bytes: new Uint8Array(0) }], message: /empty/i });

  // ── results files ──
  add({
    id: 'results-million-columns',
    target: 'results',
    what: 'CSV header of 1 000 000 columns',
    files: [
      { name: 'wide-results.csv', bytes: text(`${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n${Array(1_000_000).fill('1').join(',')}\n`) },
    ],
    message: /./,
  });
  add({
    id: 'results-utf16',
    target: 'results',
    what: 'UTF-16 LE results CSV with a byte-order mark',
    files: [{ name: 'results16.csv', bytes: utf16le('method,order,final_accuracy\newc,"[0, 1]",0.5\n', true) }],
    message: /./,
  });
  add({
    id: 'results-garbage-json',
    target: 'results',
    what: '4 KB of random bytes named .json',
    files: [{ name: 'garbage.json', bytes: garbage(4096, 9) }],
    message: /./,
  });
  add({
    id: 'results-deep-json',
    target: 'results',
    what: 'JSON nested 100 000 deep',
    files: [{ name: 'deep.json', bytes: text(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) }],
    message: /./,
  });
  add({
    id: 'results-deep-order',
    target: 'results',
    what: 'a run whose order is nested 100 000 deep',
    files: [{ name: 'deep-order.json', bytes: text(`[{"method":"x","acc":0.5,"order":${'['.repeat(100_000)}1${']'.repeat(100_000)}}]`) }],
    message: /./,
  });
  add({ id: 'results-zero-bytes', target: 'results', what: 'a 0-byte .csv', files: [{ name: 'empty.csv', bytes: new Uint8Array(0) }], message: /./ });
  return cases;
}
