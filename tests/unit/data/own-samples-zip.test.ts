import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readSamplesZip, writeSamplesZip } from '../../../src/data/own-samples-zip';
import { listImageFolderZip } from '../../../src/data/parsers/image-folder-zip';
import { OWN_LIMITS } from '../../../src/core/labs/own-classes/section';

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
  it('round-trips one class, and every number of classes up to the lab’s most', () => {
    for (let k = 1; k <= OWN_LIMITS.classes; k++) {
      const set = Array.from({ length: k }, (_, c) => ({ name: `thing ${c}`, train: [jpeg(c), png(c + 1)], test: [jpeg(c + 2)] }));
      expect(readSamplesZip(writeSamplesZip(set), `${k}.zip`), `${k} classes`).toEqual(set);
    }
    // a class named like the split folders is still a class
    const odd = [{ name: 'train', train: [jpeg(1)], test: [jpeg(2)] }];
    expect(readSamplesZip(writeSamplesZip(odd))).toEqual(odd);
  });
  it('finds the class folders above train/ and test/ in a zip without classes.txt', () => {
    const bytes = zipSync({ export: { mug: { train: { '1.jpg': jpeg(1), '2.jpg': jpeg(2) }, test: { '1.jpg': jpeg(3) } } } });
    expect(readSamplesZip(bytes).map((c) => [c.name, c.train.length, c.test.length])).toEqual([['mug', 2, 1]]);
  });
  it('refuses a sample that is not an image, instead of leaving it out', () => {
    const bytes = zipSync({
      s: { 'classes.txt': new TextEncoder().encode('a\n'), a: { train: { '1.png': png(1), '2.png': new Uint8Array([1, 2, 3]) }, test: { '1.png': png(2) } } },
    });
    expect(() => readSamplesZip(bytes, 'set.zip')).toThrow(
      'set.zip: "s/a/train/2.png": not an image despite its .png name; a sample that cannot be read is not left out silently — remove it or replace it',
    );
  });
});
