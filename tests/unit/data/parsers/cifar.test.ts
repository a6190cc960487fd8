import { describe, expect, it } from 'vitest';
import expected from '../../../fixtures/parsers/expected.json';
import { cifarFileRole, parseCifar100Bin, parseCifar10Bin, parseCifarArchive, parseCifarFiles, parseLabelNames } from '../../../../src/data/parsers/cifar';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { gzipSync } from 'fflate';
import { fixture, isMonotoneToOne, named, progressLog, sha256 } from './helpers';

const C10 = 'cifar10/cifar-10-batches-bin';
const C100 = 'cifar100/cifar-100-binary';
const E10 = expected.cifar10;
const E100 = expected.cifar100;

/** stored CHW pixel (n, c, y, x) = (29n + 85c + 7y + 3x) % 256 — the HWC output must hold it at [n][y][x][c]. */
function checkHwc(images: Uint8Array, firstIndex: number, count: number): void {
  for (let k = 0; k < count; k++) {
    const n = firstIndex + k;
    for (const [y, x] of [
      [0, 0],
      [0, 31],
      [31, 0],
      [17, 5],
      [31, 31],
    ])
      for (let c = 0; c < 3; c++) expect(images[((k * 32 + y) * 32 + x) * 3 + c]).toBe((29 * n + 85 * c + 7 * y + 3 * x) % 256);
  }
}

describe('CIFAR-10 binary', () => {
  it('one batch: labels, CHW → HWC', () => {
    const r = parseCifar10Bin(fixture(`${C10}/data_batch_1.bin`));
    expect(r.shape).toEqual([32, 32, 3]);
    expect(Array.from(r.labels)).toEqual(E10.train.labels.slice(0, 3));
    expect(r.images.length).toBe(3 * 3072);
    checkHwc(r.images, 0, 3);
    expect(r.coarseLabels).toBeUndefined();
  });
  it('the .bin files with batches.meta.txt: batches in order, test split, names', () => {
    const { log, cb } = progressLog();
    const r = parseCifarFiles(
      ['test_batch.bin', 'data_batch_2.bin', 'batches.meta.txt', 'readme.html', 'data_batch_1.bin'].map((n) => named(`${C10}/${n}`)),
      { onProgress: cb },
    );
    expect(r.variant).toBe('cifar10');
    expect(r.train.classNames).toEqual(E10.classNames);
    expect(Array.from(r.train.labels)).toEqual(E10.train.labels);
    expect(sha256(r.train.images)).toBe(E10.train.sha256);
    expect(Array.from(r.test!.labels)).toEqual(E10.test.labels);
    expect(sha256(r.test!.images)).toBe(E10.test.sha256);
    checkHwc(r.test!.images, E10.test.firstIndex, 2);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('the .tar.gz archive gives the same', () => {
    const { log, cb } = progressLog();
    const r = parseCifarArchive(fixture('cifar10/cifar-10-binary.tar.gz'), { onProgress: cb });
    expect(r.variant).toBe('cifar10');
    expect(sha256(r.train.images)).toBe(E10.train.sha256);
    expect(sha256(r.test!.images)).toBe(E10.test.sha256);
    expect(r.train.classNames).toEqual(E10.classNames);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('without a names file there are no class names', () => {
    const r = parseCifarFiles([named(`${C10}/data_batch_1.bin`)]);
    expect(r.train.classNames).toBeUndefined();
    expect(r.test).toBeUndefined();
  });
  it('a test batch alone becomes the train set', () => {
    const r = parseCifarFiles([named(`${C10}/test_batch.bin`)]);
    expect(Array.from(r.train.labels)).toEqual(E10.test.labels);
  });
});

describe('CIFAR-100 binary', () => {
  it('train.bin: fine and coarse labels, CHW → HWC', () => {
    const r = parseCifar100Bin(fixture(`${C100}/train.bin`));
    expect(Array.from(r.labels)).toEqual(E100.train.labels);
    expect(Array.from(r.coarseLabels!)).toEqual(E100.train.coarseLabels);
    expect(sha256(r.images)).toBe(E100.train.sha256);
    checkHwc(r.images, 0, 3);
  });
  it('the files with both names lists', () => {
    const r = parseCifarFiles(['train.bin', 'test.bin', 'fine_label_names.txt', 'coarse_label_names.txt'].map((n) => named(`${C100}/${n}`)));
    expect(r.variant).toBe('cifar100');
    expect(r.train.classNames).toEqual(E100.classNames);
    expect(r.train.coarseClassNames).toEqual(E100.coarseClassNames);
    expect(Array.from(r.test!.coarseLabels!)).toEqual(E100.test.coarseLabels);
    expect(sha256(r.test!.images)).toBe(E100.test.sha256);
  });
  it('the .tar.gz archive (GNU tar)', () => {
    const r = parseCifarArchive(fixture('cifar100/cifar-100-binary.tar.gz'));
    expect(r.variant).toBe('cifar100');
    expect(sha256(r.train.images)).toBe(E100.train.sha256);
    expect(Array.from(r.test!.labels)).toEqual(E100.test.labels);
    expect(r.test!.classNames).toEqual(E100.classNames);
  });
});

describe('names and roles', () => {
  it('parseLabelNames drops blank lines and CRs', () => {
    expect(parseLabelNames('cat\r\ndog\n\n')).toEqual(['cat', 'dog']);
    expect(parseLabelNames(new TextEncoder().encode('a\nb\n'))).toEqual(['a', 'b']);
  });
  it('cifarFileRole', () => {
    expect(cifarFileRole('x/data_batch_3.bin')).toEqual({ kind: 'batch', variant: 'cifar10', split: 'train', order: 3 });
    expect(cifarFileRole('TEST.BIN')).toEqual({ kind: 'batch', variant: 'cifar100', split: 'test', order: 0 });
    expect(cifarFileRole('coarse_label_names.txt')).toEqual({ kind: 'names', variant: 'cifar100', level: 'coarse' });
    expect(cifarFileRole('readme.html')).toBeNull();
  });
});

describe('CIFAR errors say what is wrong', () => {
  it('truncated batch: expected vs actual bytes', () => {
    const b = fixture(`${C10}/data_batch_1.bin`);
    expect(() => parseCifar10Bin(b.subarray(0, b.length - 100), { fileName: 'data_batch_1.bin' })).toThrow(
      'data_batch_1.bin: truncated CIFAR-10 batch: 3,073-byte records (1 label byte + 3,072 pixel bytes) need 9,219 bytes for 3 records, the file has 9,119 bytes',
    );
    expect(() => parseCifar100Bin(fixture(`${C100}/test.bin`).subarray(0, 3000))).toThrow(
      'truncated CIFAR-100 batch: 3,074-byte records (1 coarse + 1 fine label byte + 3,072 pixel bytes) need 3,074 bytes for 1 records, the file has 3,000 bytes',
    );
    expect(() => parseCifar10Bin(new Uint8Array(0))).toThrow('empty CIFAR-10 batch file');
  });
  it('labels out of range (wrong variant)', () => {
    const b = fixture(`${C10}/data_batch_1.bin`).slice();
    b[3073] = 57;
    expect(() => parseCifar10Bin(b, { fileName: 'data_batch_1.bin' })).toThrow(
      'data_batch_1.bin: record 1 has label 57; CIFAR-10 labels are 0–9 — is this a CIFAR-100 file?',
    );
    const c = fixture(`${C100}/test.bin`).slice();
    c[0] = 25;
    expect(() => parseCifar100Bin(c)).toThrow('record 0 has coarse label 25; CIFAR-100 coarse labels are 0–19');
  });
  it('unknown .bin file / unknown archive member', () => {
    expect(() => parseCifarFiles([named(`${C10}/data_batch_1.bin`), { name: 'extra.bin', bytes: new Uint8Array(3073) }])).toThrow(
      'unknown CIFAR file "extra.bin": expected data_batch_1.bin … data_batch_5.bin, test_batch.bin, batches.meta.txt (CIFAR-10) or train.bin, test.bin',
    );
    const tar = tarOf({ 'cifar/data_batch_1.bin': fixture(`${C10}/data_batch_1.bin`), 'cifar/weights.bin': new Uint8Array(10) });
    expect(() => parseCifarArchive(gzipSync(tar), { fileName: 'mine.tar.gz' })).toThrow(
      'mine.tar.gz: unknown archive member "cifar/weights.bin": expected data_batch_1.bin',
    );
  });
  it('an archive without CIFAR batches', () => {
    const tar = tarOf({ 'docs/readme.txt': new TextEncoder().encode('hi') });
    expect(() => parseCifarArchive(tar, { fileName: 'x.tar' })).toThrow(
      'x.tar: no CIFAR batch files found (found: docs/readme.txt); expected data_batch_1.bin',
    );
  });
  it('mixed variants, wrong names count, duplicates', () => {
    expect(() => parseCifarFiles([named(`${C10}/data_batch_1.bin`), named(`${C100}/test.bin`)])).toThrow(
      'CIFAR-10 and CIFAR-100 files are mixed: data_batch_1.bin, test.bin',
    );
    expect(() => parseCifarFiles([named(`${C10}/data_batch_1.bin`), { name: 'batches.meta.txt', bytes: new TextEncoder().encode('a\nb\n') }])).toThrow(
      'batches.meta.txt lists 2 class names; CIFAR-10 has 10',
    );
    expect(() => parseCifarFiles([named(`${C10}/data_batch_1.bin`), named(`${C100}/fine_label_names.txt`)])).toThrow(
      "the class-name file is CIFAR-100's but the batches are CIFAR-10's",
    );
    expect(() => parseCifarFiles([named(`${C10}/data_batch_1.bin`), named(`${C10}/data_batch_1.bin`)])).toThrow(
      '"data_batch_1.bin" appears twice among the files',
    );
  });
  it('corrupt gzip and non-tar content', () => {
    const gz = fixture('cifar10/cifar-10-binary.tar.gz');
    expect(() => parseCifarArchive(gz.subarray(0, 500), { fileName: 'c.tar.gz' })).toThrow(DataFormatError);
    expect(() => parseCifarArchive(gz.subarray(0, 500), { fileName: 'c.tar.gz' })).toThrow(/^c\.tar\.gz: (corrupt or truncated|truncated) gzip data/);
    expect(() => parseCifarArchive(gzipSync(new Uint8Array(2048).fill(7)), { fileName: 'c.tar.gz' })).toThrow(
      'c.tar.gz: not a tar archive (the first 512-byte block is not a valid tar header)',
    );
  });
});

/** A minimal ustar archive (test helper; the reader is tested on Python-made archives in tar.test.ts). */
function tarOf(files: Record<string, Uint8Array>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, data] of Object.entries(files)) {
    const h = new Uint8Array(512);
    const put = (s: string, at: number) => h.set(new TextEncoder().encode(s), at);
    put(name, 0);
    put('0000644\0', 100);
    put('0000000\0', 108);
    put('0000000\0', 116);
    put(data.length.toString(8).padStart(11, '0') + '\0', 124);
    put('00000000000\0', 136);
    put('        ', 148);
    put('0', 156);
    put('ustar\0', 257);
    put('00', 263);
    const sum = h.reduce((a, b) => a + b, 0);
    put(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(h);
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((s, b) => s + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
