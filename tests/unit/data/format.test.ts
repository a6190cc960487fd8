import { describe, expect, it } from 'vitest';
import { datasetFiles, decodeDataset, DatasetFormatError, imageAt, parseDatasetMeta, type DatasetMeta } from '../../../src/data/format';
import { loadBuiltinDataset } from '../../../src/data/registry';

/** A tiny valid dataset: 3 classes, 2×2 grey, 4 train / 2 test images. */
function tiny(): { meta: DatasetMeta; buffers: Record<string, Uint8Array> } {
  const meta: DatasetMeta = {
    format: 'cil-lab/dataset',
    version: 1,
    id: 'tiny',
    name: 'Tiny',
    classListId: 'mnist',
    classes: ['zero', 'one', 'two'],
    classInfo: [
      { name: 'zero', classListIndex: 0 },
      { name: 'one', classListIndex: 1 },
      { name: 'two', classListIndex: 2 },
    ],
    shape: [2, 2, 1],
    train: { count: 4, images: 'train-images.u8', labels: 'train-labels.u8', perClass: [2, 1, 1] },
    test: { count: 2, images: 'test-images.u8', labels: 'test-labels.u8', perClass: [0, 1, 1] },
    split: { method: 'original', description: 'test fixture' },
    sources: [{ name: 'made up', package: 'none', version: '0', license: 'MIT' }],
    build: { key: 'k', script: 'none' },
  };
  const buffers = {
    'train-images.u8': Uint8Array.from({ length: 16 }, (_, i) => i),
    'train-labels.u8': Uint8Array.from([0, 1, 0, 2]),
    'test-images.u8': Uint8Array.from({ length: 8 }, (_, i) => 100 + i),
    'test-labels.u8': Uint8Array.from([2, 1]),
  };
  return { meta, buffers };
}

/** The tiny dataset with emoji-like styles: style 0 and 1 train, style 2 test. */
function tinyStyled(): { meta: DatasetMeta; buffers: Record<string, Uint8Array> } {
  const { meta, buffers } = tiny();
  const style = (id: string, split: 'train' | 'test') => ({ id, name: id, artist: id, package: 'npm:x', version: '1', license: 'MIT', split });
  meta.styles = [style('a', 'train'), style('b', 'train'), style('c', 'test')];
  meta.train.styles = 'train-styles.u8';
  meta.test.styles = 'test-styles.u8';
  meta.split = { method: 'by-style', description: 'styles' };
  buffers['train-styles.u8'] = Uint8Array.from([0, 1, 1, 0]);
  buffers['test-styles.u8'] = Uint8Array.from([2, 2]);
  return { meta, buffers };
}

describe('decodeDataset', () => {
  it('returns typed-array views with the right counts and images', () => {
    const { meta, buffers } = tiny();
    const ds = decodeDataset(meta, buffers);
    expect(ds.imageSize).toBe(4);
    expect(ds.shape).toEqual([2, 2, 1]);
    expect(ds.train.count).toBe(4);
    expect(ds.test.count).toBe(2);
    expect([...ds.train.labels]).toEqual([0, 1, 0, 2]);
    expect([...imageAt(ds, 'train', 1)]).toEqual([4, 5, 6, 7]);
    expect([...imageAt(ds, 'test', 1)]).toEqual([104, 105, 106, 107]);
    expect(() => imageAt(ds, 'test', 2)).toThrow(/out of range/);
    expect(datasetFiles(ds.meta)).toEqual(['train-images.u8', 'train-labels.u8', 'test-images.u8', 'test-labels.u8']);
  });

  it('rejects a truncated image buffer, saying which file and how many bytes', () => {
    const { meta, buffers } = tiny();
    buffers['train-images.u8'] = buffers['train-images.u8'].subarray(0, 15);
    expect(() => decodeDataset(meta, buffers)).toThrow(DatasetFormatError);
    expect(() => decodeDataset(meta, buffers)).toThrow(/train-images\.u8 has 15 bytes, expected 16 \(4 images × 2×2×1\): truncated/);
  });

  it('rejects an image buffer that is too long', () => {
    const { meta, buffers } = tiny();
    buffers['test-images.u8'] = new Uint8Array(9);
    expect(() => decodeDataset(meta, buffers)).toThrow(/test-images\.u8 has 9 bytes, expected 8 .*too long/);
  });

  it('rejects a label out of range, naming the image', () => {
    const { meta, buffers } = tiny();
    buffers['train-labels.u8'] = Uint8Array.from([0, 1, 3, 2]);
    expect(() => decodeDataset(meta, buffers)).toThrow(/label 3 at image 2 is out of range \(3 classes: 0–2\)/);
  });

  it('rejects a label file of the wrong length', () => {
    const { meta, buffers } = tiny();
    buffers['test-labels.u8'] = Uint8Array.from([2]);
    expect(() => decodeDataset(meta, buffers)).toThrow(/test-labels\.u8 has 1 labels, expected 2/);
  });

  it('rejects per-class counts that differ from meta.json', () => {
    const { meta, buffers } = tiny();
    buffers['train-labels.u8'] = Uint8Array.from([0, 1, 1, 2]);
    expect(() => decodeDataset(meta, buffers)).toThrow(/class 0 \("zero"\) has 1 images in train-labels\.u8, meta\.json says 2/);
  });

  it('rejects a missing file', () => {
    const { meta, buffers } = tiny();
    delete buffers['test-labels.u8'];
    expect(() => decodeDataset(meta, buffers)).toThrow(/file test-labels\.u8 is missing/);
  });

  it('decodes style indices and rejects a test-only style among training images', () => {
    const { meta, buffers } = tinyStyled();
    const ds = decodeDataset(meta, buffers);
    expect([...(ds.train.styles ?? [])]).toEqual([0, 1, 1, 0]);
    buffers['train-styles.u8'] = Uint8Array.from([0, 2, 1, 0]);
    expect(() => decodeDataset(meta, buffers)).toThrow(/image 1 is in style "c", which is a test-only style/);
    buffers['train-styles.u8'] = Uint8Array.from([0, 7, 1, 0]);
    expect(() => decodeDataset(meta, buffers)).toThrow(/style 7 at image 1 is out of range \(3 styles\)/);
  });
});

describe('parseDatasetMeta', () => {
  it('rejects other formats and versions with a fix', () => {
    const { meta } = tiny();
    expect(() => parseDatasetMeta({ ...meta, format: 'other' })).toThrow(/"format" must be "cil-lab\/dataset"/);
    expect(() => parseDatasetMeta({ ...meta, version: 2 })).toThrow(/unsupported version 2.*prepare-data\.mjs --force/);
    expect(() => parseDatasetMeta('nope')).toThrow(/must be a JSON object/);
  });

  it('rejects bad shapes, class lists and counts', () => {
    const { meta } = tiny();
    expect(() => parseDatasetMeta({ ...meta, shape: [2, 2, 2] })).toThrow(/"shape" must be \[height, width, channels\]/);
    expect(() => parseDatasetMeta({ ...meta, shape: [0, 2, 1] })).toThrow(/"shape"/);
    expect(() => parseDatasetMeta({ ...meta, classes: [] })).toThrow(/"classes" must be a non-empty array/);
    expect(() => parseDatasetMeta({ ...meta, classes: ['a', 'a', 'b'] })).toThrow(/duplicate/);
    expect(() => parseDatasetMeta({ ...meta, train: { ...meta.train, count: 5 } })).toThrow(/"perClass" sums to 4 but "count" is 5/);
    expect(() => parseDatasetMeta({ ...meta, train: { ...meta.train, images: '../x' } })).toThrow(/plain file name/);
    expect(() => parseDatasetMeta({ ...meta, classes: Array.from({ length: 300 }, (_, i) => `c${i}`) })).toThrow(/at most 256/);
  });

  it('rejects a styles file without a style table', () => {
    const { meta } = tiny();
    expect(() => parseDatasetMeta({ ...meta, train: { ...meta.train, styles: 'train-styles.u8' } })).toThrow(/no style table/);
  });
});

describe('loadBuiltinDataset (injected reader)', () => {
  const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

  it('reads files through the reader at data/<id>/… and checks the id, shape and class names', async () => {
    const { meta, buffers } = tiny();
    const digitsMeta = { ...meta, id: 'digits', shape: [8, 8, 1] as [number, number, number] };
    const big: Record<string, Uint8Array> = {
      'train-images.u8': new Uint8Array(4 * 64),
      'train-labels.u8': buffers['train-labels.u8'],
      'test-images.u8': new Uint8Array(2 * 64),
      'test-labels.u8': buffers['test-labels.u8'],
    };
    const asked: string[] = [];
    const reader = (files: Record<string, Uint8Array>) => async (p: string) => {
      asked.push(p);
      const f = p.replace(/^data\/digits\//, '');
      if (!(f in files)) throw new Error('ENOENT');
      return files[f];
    };
    const ds = await loadBuiltinDataset('digits', reader({ ...big, 'meta.json': enc(digitsMeta) }));
    expect(ds.train.count).toBe(4);
    expect(asked).toContain('data/digits/meta.json');
    expect(asked).toContain('data/digits/train-images.u8');

    await expect(loadBuiltinDataset('digits', reader({ ...big, 'meta.json': enc({ ...digitsMeta, id: 'emoji' }) }))).rejects.toThrow(
      /describes dataset "emoji", not "digits"/,
    );
    await expect(loadBuiltinDataset('digits', reader({ ...big, 'meta.json': enc({ ...digitsMeta, shape: [28, 28, 1] }) }))).rejects.toThrow(
      /shape 28×28×1, expected 8×8×1/,
    );
    const wrongName = { ...digitsMeta, classes: ['zero', 'uno', 'two'], classInfo: [...digitsMeta.classInfo] };
    wrongName.classInfo[1] = { name: 'uno', classListIndex: 1 };
    await expect(loadBuiltinDataset('digits', reader({ ...big, 'meta.json': enc(wrongName) }))).rejects.toThrow(
      /class 1 "uno" is not entry 1 of the "mnist" class list \("one"\)/,
    );
    await expect(loadBuiltinDataset('digits', reader({ ...big, 'meta.json': new TextEncoder().encode('{oops') }))).rejects.toThrow(
      /meta\.json is not valid JSON/,
    );
    await expect(loadBuiltinDataset('digits', reader({ 'meta.json': enc(digitsMeta) }))).rejects.toThrow(
      /cannot read data\/digits\/train-images\.u8 \(ENOENT\); run "node scripts\/prepare-data\.mjs"/,
    );
    await expect(loadBuiltinDataset('cifar-10', reader(big))).rejects.toThrow(/Unknown built-in dataset "cifar-10"/);
  });
});
