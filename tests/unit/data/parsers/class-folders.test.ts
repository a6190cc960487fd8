/**
 * ImageNet-R and CUB-200 from the visitor's own archive layouts (src/data/parsers/class-folders.ts, image-folder-zip.ts
 * with split folders, detect.ts): PILOT's train/ and test/ folders of ImageNet-R's WordNet-id class folders, and
 * CUB-200-2011's numbered folders with its images.txt and train_test_split.txt, come out as two splits named as the
 * app's class lists name them; a plain class-folder zip keeps its names and one split.
 */
import { zipSync } from 'fflate';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { classNamesOfFolders } from '../../../../src/data/parsers/class-folders';
import { parseUserFiles } from '../../../../src/data/parsers/detect';
import { decodePng } from '../../../../src/data/parsers/png';

/** A 4×4 PNG of one grey level. */
function png(v: number): Uint8Array {
  const p = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < 16; i++) p.data.set([v, v, v, 255], i * 4);
  return new Uint8Array(PNG.sync.write(p));
}
const decodeImage = (b: Uint8Array) => decodePng(b);
const opts = { decodeImage, imageSize: [4, 4] as const };
const enc = (s: string) => new TextEncoder().encode(s);

describe('class folders named as the class lists', () => {
  it('ImageNet-R’s WordNet ids and CUB’s numbered folders; anything else keeps its names', () => {
    expect(classNamesOfFolders(['n01443537', 'n01484850'])).toEqual({ list: 'imagenet-r', names: ['goldfish', 'great white shark'] });
    expect(classNamesOfFolders(['001.Black_footed_Albatross', '002.Laysan_Albatross'])).toEqual({
      list: 'cub200',
      names: ['Black_footed_Albatross', 'Laysan_Albatross'],
    });
    expect(classNamesOfFolders(['n01443537', 'cat'])).toBeNull();
    expect(classNamesOfFolders(['001.Cat', '002.Dog'])).toBeNull();
  });

  it('PILOT’s imagenet-r/train and imagenet-r/test: two splits, named', async () => {
    const z = zipSync({
      'imagenet-r/train/n01443537/a.png': png(10),
      'imagenet-r/train/n01443537/b.png': png(20),
      'imagenet-r/train/n01484850/c.png': png(30),
      'imagenet-r/test/n01443537/d.png': png(40),
      'imagenet-r/test/n01484850/e.png': png(50),
    });
    const u = await parseUserFiles([{ name: 'imagenet-r.zip', bytes: z }], opts);
    expect(u.format).toBe('image-folder');
    expect(u.train.classNames).toEqual(['goldfish', 'great white shark']);
    expect(Array.from(u.train.labels)).toEqual([0, 0, 1]);
    expect(Array.from(u.test!.labels)).toEqual([0, 1]);
    // the test images are d (40) and e (50), in that order
    expect([u.test!.images[0], u.test!.images[48]]).toEqual([40, 50]);
  });

  it('CUB-200-2011 with images.txt and train_test_split.txt: its own split', async () => {
    const z = zipSync({
      'CUB_200_2011/images/001.Black_footed_Albatross/x_1.png': png(10),
      'CUB_200_2011/images/001.Black_footed_Albatross/x_2.png': png(20),
      'CUB_200_2011/images/002.Laysan_Albatross/y_1.png': png(30),
      'CUB_200_2011/images/002.Laysan_Albatross/y_2.png': png(40),
      'CUB_200_2011/images.txt': enc(
        '1 001.Black_footed_Albatross/x_1.png\n2 001.Black_footed_Albatross/x_2.png\n3 002.Laysan_Albatross/y_1.png\n4 002.Laysan_Albatross/y_2.png\n',
      ),
      'CUB_200_2011/train_test_split.txt': enc('1 1\n2 0\n3 0\n4 1\n'),
    });
    const u = await parseUserFiles([{ name: 'CUB_200_2011.zip', bytes: z }], opts);
    expect(u.train.classNames).toEqual(['Black_footed_Albatross', 'Laysan_Albatross']);
    expect(Array.from(u.train.labels)).toEqual([0, 1]);
    expect([u.train.images[0], u.train.images[48]]).toEqual([10, 40]);
    expect(Array.from(u.test!.labels)).toEqual([0, 1]);
    expect([u.test!.images[0], u.test!.images[48]]).toEqual([20, 30]);
  });

  it('a plain class-folder zip: one split, its own names', async () => {
    const z = zipSync({ 'cats/1.png': png(1), 'dogs/2.png': png(2) });
    const u = await parseUserFiles([{ name: 'pets.zip', bytes: z }], opts);
    expect(u.train.classNames).toEqual(['cats', 'dogs']);
    expect(u.test).toBeUndefined();
  });
});
