import { describe, expect, it } from 'vitest';
import { gzipSync } from 'fflate';
import expected from '../../../fixtures/parsers/expected.json';
import { detectFormat, parseUserFiles } from '../../../../src/data/parsers/detect';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { decodeFixturePng, fixture, isMonotoneToOne, named, progressLog, sha256 } from './helpers';

const C10 = 'cifar10/cifar-10-batches-bin';
const C100 = 'cifar100/cifar-100-binary';

describe('detectFormat (name + magic bytes)', () => {
  it('IDX raw and gzipped', () => {
    expect(detectFormat(named('idx/train-images-idx3-ubyte'))).toEqual({ kind: 'idx-images', gzipped: false });
    expect(detectFormat(named('idx/t10k-labels-idx1-ubyte.gz'))).toEqual({ kind: 'idx-labels', gzipped: true });
    // the name does not matter for IDX
    expect(detectFormat({ name: 'whatever', bytes: fixture('idx/train-images-idx3-ubyte.gz') })).toEqual({ kind: 'idx-images', gzipped: true });
  });
  it('CIFAR batches by name, and by content when renamed', () => {
    expect(detectFormat(named(`${C10}/data_batch_2.bin`))).toEqual({ kind: 'cifar-bin', variant: 'cifar10', split: 'train', byName: true });
    expect(detectFormat(named(`${C100}/test.bin`))).toEqual({ kind: 'cifar-bin', variant: 'cifar100', split: 'test', byName: true });
    expect(detectFormat({ name: 'my-batch', bytes: fixture(`${C10}/data_batch_1.bin`) })).toEqual({
      kind: 'cifar-bin',
      variant: 'cifar10',
      split: 'train',
      byName: false,
    });
    expect(detectFormat({ name: 'cifar100-test.dat', bytes: fixture(`${C100}/test.bin`) })).toEqual({
      kind: 'cifar-bin',
      variant: 'cifar100',
      split: 'test',
      byName: false,
    });
    expect(detectFormat(named(`${C10}/batches.meta.txt`))).toEqual({ kind: 'cifar-names', variant: 'cifar10' });
  });
  it('archives: .tar.gz by name or by the tar header inside, plain .tar, zip', () => {
    expect(detectFormat(named('cifar10/cifar-10-binary.tar.gz'))).toEqual({ kind: 'cifar-archive', gzipped: true });
    expect(detectFormat({ name: 'download', bytes: fixture('cifar100/cifar-100-binary.tar.gz') })).toEqual({
      kind: 'cifar-archive',
      gzipped: true,
    });
    expect(detectFormat(named('zip/shapes.zip'))).toEqual({ kind: 'image-folder-zip' });
  });
  it('unknown files say what they start with', () => {
    const d = detectFormat({ name: 'photo.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0]) });
    expect(d).toEqual({
      kind: 'unknown',
      reason: '9 bytes starting with 0x89504e47 (a PNG image): not gzip, zip, tar, IDX (magic 2051/2049) or whole CIFAR records (3,073 or 3,074 bytes each)',
    });
    const g = detectFormat({ name: 'x.gz', bytes: gzipSync(new TextEncoder().encode('hello world')) });
    expect(g).toEqual({ kind: 'unknown', reason: 'gzip file whose content starts with 0x68656c6c, neither IDX nor tar' });
  });
});

describe('parseUserFiles dispatches', () => {
  it('IDX files (.gz) with class names', async () => {
    const { log, cb } = progressLog();
    const names = Array.from({ length: 10 }, (_, k) => `c${k}`);
    const r = await parseUserFiles(
      ['train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz', 't10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'].map((n) => named(`idx/${n}`)),
      { classNames: names, onProgress: cb },
    );
    expect(r.format).toBe('idx');
    expect(sha256(r.train.images)).toBe(expected.idx.train.sha256);
    expect(Array.from(r.test!.labels)).toEqual(expected.idx.test.labels);
    expect(r.train.classNames).toEqual(names);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('CIFAR-10 .bin files with names', async () => {
    const r = await parseUserFiles(['data_batch_1.bin', 'data_batch_2.bin', 'test_batch.bin', 'batches.meta.txt'].map((n) => named(`${C10}/${n}`)));
    expect(r.format).toBe('cifar10');
    expect(sha256(r.train.images)).toBe(expected.cifar10.train.sha256);
    expect(r.test!.classNames).toEqual(expected.cifar10.classNames);
  });
  it('renamed CIFAR-100 files, recognised by content', async () => {
    const r = await parseUserFiles([
      { name: 'c100-train', bytes: fixture(`${C100}/train.bin`) },
      { name: 'c100-test', bytes: fixture(`${C100}/test.bin`) },
    ]);
    expect(r.format).toBe('cifar100');
    expect(Array.from(r.train.labels)).toEqual(expected.cifar100.train.labels);
    expect(Array.from(r.test!.coarseLabels!)).toEqual(expected.cifar100.test.coarseLabels);
  });
  it('a CIFAR archive', async () => {
    const { log, cb } = progressLog();
    const r = await parseUserFiles([named('cifar100/cifar-100-binary.tar.gz')], { onProgress: cb });
    expect(r.format).toBe('cifar100');
    expect(sha256(r.test!.images)).toBe(expected.cifar100.test.sha256);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('an image-folder zip, with the injected decoder', async () => {
    const r = await parseUserFiles([named('zip/shapes.zip')], { decodeImage: decodeFixturePng, imageSize: [8, 8] });
    expect(r.format).toBe('image-folder');
    expect(r.train.shape).toEqual([8, 8, 3]);
    expect(r.train.classNames).toEqual(expected.zip.classNames);
    expect(r.test).toBeUndefined();
    expect(r.skipped!.map((s) => s.path)).toEqual(expected.zip.skipped);
  });
  it('errors: nothing, unknown, mixed kinds, zip without a decoder', async () => {
    await expect(parseUserFiles([])).rejects.toThrow('no files given');
    await expect(parseUserFiles([{ name: 'notes.txt', bytes: new TextEncoder().encode('hello') }])).rejects.toThrow(
      "notes.txt: cannot tell what this file is: 5 bytes starting with 0x68656c6c: not gzip, zip, tar, IDX (magic 2051/2049) or whole CIFAR records (3,073 or 3,074 bytes each). Expected MNIST-style IDX files (.gz or raw), CIFAR binary files (.bin or the .tar.gz), CIFAR-100's parquet files from the Hugging Face hub, or a .zip with one folder of images per class",
    );
    await expect(parseUserFiles([named('idx/train-images-idx3-ubyte'), named(`${C10}/data_batch_1.bin`)])).rejects.toThrow(
      'give one kind of data at a time (IDX files, CIFAR .bin files, one archive, or one zip); got train-images-idx3-ubyte (IDX), data_batch_1.bin (CIFAR .bin)',
    );
    await expect(parseUserFiles([named('zip/shapes.zip'), named('zip/one-class.zip')])).rejects.toThrow(DataFormatError);
    await expect(parseUserFiles([named('zip/shapes.zip')])).rejects.toThrow(
      'a .zip of images needs options.decodeImage to turn image files into pixels (createImageBitmap in the browser)',
    );
  });
  it('errors from the parsers come through', async () => {
    const imgs = named('idx/train-images-idx3-ubyte');
    await expect(parseUserFiles([imgs, named('idx/t10k-labels-idx1-ubyte')])).rejects.toThrow(
      'label count (3 in t10k-labels-idx1-ubyte) ≠ image count (6 in train-images-idx3-ubyte)',
    );
    const gz = fixture('cifar10/cifar-10-binary.tar.gz');
    await expect(parseUserFiles([{ name: 'cifar-10-binary.tar.gz', bytes: gz.subarray(0, 900) }])).rejects.toThrow(
      /^cifar-10-binary\.tar\.gz: corrupt or truncated gzip data/,
    );
  });
});

describe('IDX files named like IDX files with a wrong magic number', () => {
  it('go to the IDX parser, whose message names the bad magic number', async () => {
    const bad = new Uint8Array([0, 0, 8, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 7]);
    expect(detectFormat({ name: 'train-images-idx3-ubyte', bytes: bad })).toEqual({ kind: 'idx-images', gzipped: false });
    expect(detectFormat({ name: 'train-labels-idx1-ubyte', bytes: bad })).toEqual({ kind: 'idx-labels', gzipped: false });
    await expect(
      parseUserFiles([
        { name: 'train-images-idx3-ubyte', bytes: bad },
        { name: 'train-labels-idx1-ubyte', bytes: new Uint8Array([0, 0, 8, 1, 0, 0, 0, 1, 0]) },
      ]),
    ).rejects.toThrow(/magic number/);
  });
});
