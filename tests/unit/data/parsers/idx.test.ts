import { describe, expect, it } from 'vitest';
import { gzipSync } from 'fflate';
import expected from '../../../fixtures/parsers/expected.json';
import { parseIdxFiles, parseIdxImages, parseIdxLabels, parseIdxPair, readIdxHeader } from '../../../../src/data/parsers/idx';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { fixture, isMonotoneToOne, named, progressLog, sha256 } from './helpers';

const E = expected.idx;
const RAW = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte', 't10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte'];

describe('IDX images and labels', () => {
  it('reads the header', () => {
    const h = readIdxHeader(fixture('idx/train-images-idx3-ubyte'));
    expect(h).toEqual({ magic: 2051, type: 8, dims: [6, 5, 4], dataOffset: 16 });
  });
  it('parses raw images: N×rows×cols×1, pixels as stored', () => {
    const r = parseIdxImages(fixture('idx/train-images-idx3-ubyte'));
    expect(r.count).toBe(6);
    expect(r.shape).toEqual([5, 4, 1]);
    expect(sha256(r.images)).toBe(E.train.sha256);
    // pixel (n, y, x) = (37n + 11y + 3x) % 256, rows = 5, cols = 4
    for (let n = 0; n < 6; n++)
      for (let y = 0; y < 5; y++) for (let x = 0; x < 4; x++) expect(r.images[(n * 5 + y) * 4 + x]).toBe((37 * n + 11 * y + 3 * x) % 256);
  });
  it('parses gzipped files to the same bytes', () => {
    for (const name of RAW) {
      const raw = name.includes('images') ? parseIdxImages(fixture(`idx/${name}`)).images : parseIdxLabels(fixture(`idx/${name}`));
      const gz = name.includes('images') ? parseIdxImages(fixture(`idx/${name}.gz`)).images : parseIdxLabels(fixture(`idx/${name}.gz`));
      expect(Array.from(gz)).toEqual(Array.from(raw));
    }
    expect(Array.from(parseIdxLabels(fixture('idx/train-labels-idx1-ubyte.gz')))).toEqual(E.train.labels);
  });
  it('does not alias the caller’s raw buffer', () => {
    const bytes = fixture('idx/train-labels-idx1-ubyte');
    const labels = parseIdxLabels(bytes);
    bytes[8] = 99;
    expect(labels[0]).toBe(E.train.labels[0]);
  });
  it('pairs images with labels, with class names', () => {
    const names = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const r = parseIdxPair(named('idx/train-images-idx3-ubyte.gz'), named('idx/train-labels-idx1-ubyte'), { classNames: names });
    expect(r.shape).toEqual(E.shape);
    expect(Array.from(r.labels)).toEqual(E.train.labels);
    expect(r.classNames).toEqual(names);
    expect(sha256(r.images)).toBe(E.train.sha256);
  });
});

describe('parseIdxFiles (train/test pairing)', () => {
  it('pairs four raw files in any order', () => {
    const files = [...RAW].reverse().map((n) => named(`idx/${n}`));
    const r = parseIdxFiles(files);
    expect(Array.from(r.train.labels)).toEqual(E.train.labels);
    expect(Array.from(r.test!.labels)).toEqual(E.test.labels);
    expect(sha256(r.test!.images)).toBe(E.test.sha256);
  });
  it('pairs four .gz files (and a raw/gz mix), reporting progress', () => {
    const { log, cb } = progressLog();
    const r = parseIdxFiles(
      RAW.map((n, i) => named(`idx/${n}${i % 2 ? '.gz' : ''}`)),
      { onProgress: cb },
    );
    expect(sha256(r.train.images)).toBe(E.train.sha256);
    expect(r.test!.images.length).toBe(3 * 5 * 4);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('one images + one labels file is a train set whatever the names', () => {
    const r = parseIdxFiles([named('idx/t10k-labels-idx1-ubyte.gz'), named('idx/t10k-images-idx3-ubyte.gz')]);
    expect(r.test).toBeUndefined();
    expect(Array.from(r.train.labels)).toEqual(E.test.labels);
  });
});

describe('IDX errors say what is wrong', () => {
  const images = () => fixture('idx/train-images-idx3-ubyte');
  it('bad magic: labels where images are expected', () => {
    expect(() => parseIdxImages(fixture('idx/train-labels-idx1-ubyte'), { fileName: 'x-images' })).toThrow(
      'x-images: bad magic number: expected an IDX image file (2051 = 0x00000803) but found 0x00000801 (an IDX label file)',
    );
    expect(() => parseIdxLabels(images())).toThrow('bad magic number: expected an IDX label file (2049 = 0x00000801) but found 0x00000803 (an IDX image file)');
  });
  it('bad magic: not an IDX file at all', () => {
    const pngish = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(() => parseIdxImages(pngish)).toThrow(DataFormatError);
    expect(() => parseIdxImages(pngish)).toThrow(
      'bad magic number: expected an IDX file (2051 = 0x00000803 for images, 2049 = 0x00000801 for labels) but found 0x89504e47 (a PNG image)',
    );
  });
  it('bad magic: IDX of another element type', () => {
    const b = images();
    b[2] = 0x0d; // float32
    expect(() => parseIdxImages(b)).toThrow(
      'expected an IDX image file (2051 = 0x00000803) but found 0x00000d03 (an IDX file of float32 with 3 dimensions); only unsigned-byte IDX data is supported',
    );
  });
  it('truncated file: expected vs actual bytes', () => {
    expect(() => parseIdxImages(images().subarray(0, 126), { fileName: 'train-images' })).toThrow(
      'train-images: truncated IDX image file: the header declares 6×5×4 values, so 136 bytes in all, but the file has 126 bytes',
    );
    expect(() => parseIdxLabels(fixture('idx/train-labels-idx1-ubyte').subarray(0, 12))).toThrow(
      'truncated IDX label file: the header declares 6 values, so 14 bytes in all, but the file has 12 bytes',
    );
    expect(() => parseIdxImages(images().subarray(0, 10))).toThrow('truncated IDX header: 3 dimensions need 16 bytes of header, the file has 10 bytes');
    expect(() => parseIdxImages(new Uint8Array(2))).toThrow('truncated IDX file: 2 bytes, the magic number alone needs 4');
  });
  it('extra bytes after the data', () => {
    const b = new Uint8Array(140);
    b.set(images());
    expect(() => parseIdxImages(b)).toThrow('IDX image file is longer than its header declares: expected 136 bytes (6×5×4 values), found 140 bytes');
  });
  it('truncated or corrupt gzip', () => {
    const gz = fixture('idx/train-images-idx3-ubyte.gz');
    expect(() => parseIdxImages(gz.subarray(0, gz.length - 30), { fileName: 'a.gz' })).toThrow(/^a\.gz: (corrupt or truncated gzip data|truncated gzip data)/);
    const bad = gz.slice();
    bad[12] ^= 0xff;
    bad[13] ^= 0xff;
    expect(() => parseIdxImages(bad)).toThrow(DataFormatError);
  });
  it('label count ≠ image count', () => {
    expect(() => parseIdxPair(named('idx/train-images-idx3-ubyte'), named('idx/t10k-labels-idx1-ubyte'))).toThrow(
      'label count (3 in t10k-labels-idx1-ubyte) ≠ image count (6 in train-images-idx3-ubyte)',
    );
  });
  it('a label without a class name', () => {
    expect(() => parseIdxPair(named('idx/train-images-idx3-ubyte'), named('idx/train-labels-idx1-ubyte'), { classNames: ['a', 'b'] })).toThrow(
      'train-labels-idx1-ubyte: label 4 at position 1 has no class name (2 names given, labels 0–1)',
    );
  });
  it('pairing problems', () => {
    expect(() => parseIdxFiles([named('idx/train-images-idx3-ubyte')])).toThrow(
      'no IDX label file (magic 2049) among the files (images: train-images-idx3-ubyte)',
    );
    expect(() => parseIdxFiles([named('idx/train-labels-idx1-ubyte.gz')])).toThrow('no IDX image file (magic 2051)');
    const a = named('idx/train-images-idx3-ubyte');
    const b = { ...named('idx/t10k-images-idx3-ubyte'), name: 'more-images' };
    const l1 = named('idx/train-labels-idx1-ubyte');
    const l2 = named('idx/t10k-labels-idx1-ubyte');
    expect(() => parseIdxFiles([a, b, l1, l2])).toThrow(
      'cannot tell the train images file from the test one by name (train-images-idx3-ubyte, more-images): name the test file with "t10k" or "test", as MNIST does',
    );
    expect(() => parseIdxFiles([a, l1, l2])).toThrow(
      'expected one images and one labels file per split (train, and optionally test) but found 1 image file(s) (train-images-idx3-ubyte) and 2 label file(s)',
    );
    expect(() => parseIdxFiles([a, l1, { name: 'notes.txt', bytes: new TextEncoder().encode('hello') }])).toThrow(
      'notes.txt: bad magic number: expected an IDX image (2051) or label (2049) file but found 0x68656c6c',
    );
    expect(() => parseIdxFiles([a, l1, { name: 'x.gz', bytes: gzipSync(new TextEncoder().encode('hello')) }])).toThrow('x.gz: bad magic number');
  });
  it('train and test image sizes must agree', () => {
    const other = new Uint8Array(16 + 3 * 2 * 2);
    other.set([0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2]);
    expect(() =>
      parseIdxFiles([
        named('idx/train-images-idx3-ubyte'),
        named('idx/train-labels-idx1-ubyte'),
        { name: 't10k-images', bytes: other },
        named('idx/t10k-labels-idx1-ubyte'),
      ]),
    ).toThrow('train images are 5×4 but test images are 2×2');
  });
});
