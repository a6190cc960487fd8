import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readSamplesZip, writeSamplesZip } from '../../../src/data/own-samples-zip';
import { listImageFolderZip } from '../../../src/data/parsers/image-folder-zip';

// bytes with a JPEG or PNG signature (the zip reader checks signatures; nothing here decodes pixels)
const jpeg = (k: number) => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, k, k + 1, k + 2]);
const png = (k: number) => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, k]);

describe('the samples zip', () => {
  const classes = [
    { name: 'zebra mug', train: [jpeg(1), jpeg(2)], test: [jpeg(3)] },
    { name: 'apple', train: [png(4)], test: [png(5), png(6)] },
    { name: 'Käse', train: [jpeg(7)], test: [] },
  ];
  it('round-trips classes in taught order with their train and test samples', () => {
    const back = readSamplesZip(writeSamplesZip(classes));
    expect(back.map((c) => c.name)).toEqual(['zebra mug', 'apple', 'Käse']);
    expect(back).toEqual(classes);
  });
  it('is the Data tab’s image-folder format: one folder per class', () => {
    const bytes = writeSamplesZip(classes);
    expect(
      Object.keys(unzipSync(bytes))
        .filter((p) => !p.endsWith('/'))
        .sort(),
    ).toEqual([
      'your-classes/Käse/train/001.jpg',
      'your-classes/apple/test/001.png',
      'your-classes/apple/test/002.png',
      'your-classes/apple/train/001.png',
      'your-classes/classes.txt',
      'your-classes/zebra mug/test/001.jpg',
      'your-classes/zebra mug/train/001.jpg',
      'your-classes/zebra mug/train/002.jpg',
    ]);
    expect(listImageFolderZip(bytes).classNames).toEqual(['Käse', 'apple', 'zebra mug']);
  });
  it('reads a plain image-folder zip (sorted classes, every image for training)', () => {
    const bytes = zipSync({ b: { '1.jpg': jpeg(1) }, a: { '1.png': png(2), 'x/2.png': png(3) } });
    const back = readSamplesZip(bytes);
    expect(back.map((c) => [c.name, c.train.length, c.test.length])).toEqual([
      ['a', 2, 0],
      ['b', 1, 0],
    ]);
  });
  it('says what is wrong with a classes.txt that does not match the folders', () => {
    const bytes = zipSync({ 'classes.txt': new TextEncoder().encode('a\nc\n'), b: { '1.jpg': jpeg(1) }, a: { '1.png': png(2) } });
    expect(() => readSamplesZip(bytes, 'set.zip')).toThrow(/classes\.txt lists 2 classes \(a, c\) but the zip has the class folders a, b/);
    expect(() => readSamplesZip(new Uint8Array([1, 2, 3]), 'x.zip')).toThrow(/not a zip/);
  });
});
