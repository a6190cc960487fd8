import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import expected from '../../../fixtures/parsers/expected.json';
import { listImageFolderZip, parseImageFolderZip, resizeToRgb, sniffImageType } from '../../../../src/data/parsers/image-folder-zip';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { decodeFixturePng, fixture, isMonotoneToOne, progressLog } from './helpers';

const E = expected.zip;
type Rgba = { width: number; height: number; data: number[] };
const rgbaOf = (path: string) => (E.rgba as Record<string, Rgba>)[path];

describe('listImageFolderZip', () => {
  it('finds the class folders under the wrapper folder, ignoring junk', () => {
    const { log, cb } = progressLog();
    const l = listImageFolderZip(fixture('zip/shapes.zip'), { onProgress: cb });
    expect(l.classNames).toEqual(E.classNames);
    expect(l.entries.map((e) => e.path)).toEqual(E.paths);
    expect(l.entries.map((e) => e.label)).toEqual(E.labels);
    expect(l.entries.map((e) => e.className)).toEqual(['circle', 'circle', 'square', 'triangle', 'triangle']);
    expect(l.entries[3].fileName).toBe('t1.png');
    expect(l.skipped.map((s) => s.path)).toEqual(E.skipped); // readme.txt; __MACOSX, .DS_Store, Thumbs.db silently ignored
    expect(l.skipped[0].reason).toBe('not a supported image type (.txt)');
    for (const e of l.entries) expect(sniffImageType(e.bytes)).toBe('png');
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('classes at the top level (no wrapper) work too, sorted by code point like Python', () => {
    const png = fixture('zip/shapes.zip'); // any bytes with a PNG signature will do for listing
    const onePng = listImageFolderZip(png).entries[0].bytes;
    const z = zipSync({ 'b/1.png': onePng, 'B/2.PNG': onePng, 'a/x.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]) });
    const l = listImageFolderZip(z);
    expect(l.classNames).toEqual(['B', 'a', 'b']);
    expect(l.entries.map((e) => `${e.label}:${e.path}`)).toEqual(['0:B/2.PNG', '1:a/x.jpg', '2:b/1.png']);
  });
});

describe('listImageFolderZip errors say what is wrong', () => {
  const cases: [string, string][] = [
    ['zip/one-class.zip', 'one-class.zip: found 1 class folder ("cats"); need at least 2 — one folder per class'],
    [
      'zip/image-at-root.zip',
      'image-at-root.zip: "stray.png" is at the top of the zip, not inside a class folder: put each class\'s images in a folder named after the class',
    ],
    ['zip/empty-class.zip', 'empty-class.zip: class folder "birds" contains no images (png, jpg, jpeg, webp, gif, bmp): every class folder needs at least one'],
    ['zip/no-images.zip', 'no-images.zip: no images (png, jpg, jpeg, webp, gif, bmp) found in the zip (found: notes/a.txt, notes/b.csv)'],
    [
      'zip/bzip2.zip',
      'bzip2.zip: zip member "cats/a.png" is compressed with bzip2; only stored and deflate zips can be read — re-zip the folder with standard settings',
    ],
    ['zip/fake-png.zip', 'fake-png.zip: class folder "dogs" contains no readable images'],
  ];
  for (const [file, message] of cases) {
    it(file, () => {
      const name = file.slice(4);
      expect(() => listImageFolderZip(fixture(file), { fileName: name })).toThrow(DataFormatError);
      expect(() => listImageFolderZip(fixture(file), { fileName: name })).toThrow(message);
    });
  }
  it('not a zip / truncated zip', () => {
    expect(() => listImageFolderZip(fixture('idx/train-labels-idx1-ubyte'))).toThrow(
      'not a zip archive: expected it to start with 50 4b 03 04 ("PK\\x03\\x04") but found 00 00 08 01',
    );
    const z = fixture('zip/shapes.zip');
    expect(() => listImageFolderZip(z.subarray(0, z.length - 30))).toThrow(/^corrupt or truncated zip archive/);
  });
  it('a folder holding only non-images counts as an empty class', () => {
    const onePng = listImageFolderZip(fixture('zip/shapes.zip')).entries[0].bytes;
    const z = zipSync({ 'a/1.png': onePng, 'b/2.png': onePng, 'c/notes.txt': new Uint8Array([65]) });
    expect(() => listImageFolderZip(z)).toThrow('class folder "c" contains no images');
  });
});

describe('parseImageFolderZip (decoder injected)', () => {
  it('decodes, resizes to RGB and labels every image', async () => {
    const { log, cb } = progressLog();
    const seen: string[] = [];
    const r = await parseImageFolderZip(fixture('zip/shapes.zip'), {
      size: [5, 6], // the fixture PNGs are 6 wide × 5 high: identity resize
      decodeImage: (bytes, entry) => {
        seen.push(entry.path);
        return decodeFixturePng(bytes);
      },
      onProgress: cb,
    });
    expect(seen).toEqual(E.paths);
    expect(r.shape).toEqual([5, 6, 3]);
    expect(r.classNames).toEqual(E.classNames);
    expect(Array.from(r.labels)).toEqual(E.labels);
    expect(r.labels).toBeInstanceOf(Uint8Array);
    // each image's RGB equals the PNG's RGBA without alpha (PIL convert('RGB'))
    E.paths.forEach((path, k) => {
      const src = rgbaOf(path).data;
      const rgb = src.filter((_, i) => i % 4 !== 3);
      expect(Array.from(r.images.subarray(k * 90, (k + 1) * 90))).toEqual(rgb);
    });
    expect(r.skipped.map((s) => s.path)).toEqual(E.skipped);
    expect(isMonotoneToOne(log)).toBe(true);
  });
  it('composites transparent pixels over a background when asked', async () => {
    const r = await parseImageFolderZip(fixture('zip/shapes.zip'), {
      size: [5, 6],
      decodeImage: decodeFixturePng,
      background: [255, 255, 255],
    });
    expect(Array.from(r.images.subarray(0, 3))).toEqual([255, 255, 255]); // pixel (0,0) has alpha 0
  });
  it('a decoder failure names the file, or is skipped when asked', async () => {
    const failing = (bytes: Uint8Array, entry: { path: string }) => {
      if (entry.path.endsWith('c2.png')) throw new Error('broken IDAT');
      return decodeFixturePng(bytes);
    };
    await expect(parseImageFolderZip(fixture('zip/shapes.zip'), { size: [4, 4], decodeImage: failing, fileName: 's.zip' })).rejects.toThrow(
      's.zip: cannot decode "shapes/circle/c2.png": broken IDAT',
    );
    const r = await parseImageFolderZip(fixture('zip/shapes.zip'), { size: [4, 4], decodeImage: failing, skipUndecodable: true });
    expect(Array.from(r.labels)).toEqual([0, 1, 2, 2]);
    expect(r.images.length).toBe(4 * 4 * 4 * 3);
    expect(r.skipped.find((s) => s.path.endsWith('c2.png'))!.reason).toBe('cannot decode: broken IDAT');
  });
  it('skipping every image of a class is still an error', async () => {
    const noSquares = (bytes: Uint8Array, entry: { className: string }) => {
      if (entry.className === 'square') throw new Error('unsupported');
      return decodeFixturePng(bytes);
    };
    await expect(parseImageFolderZip(fixture('zip/shapes.zip'), { size: [4, 4], decodeImage: noSquares, skipUndecodable: true })).rejects.toThrow(
      'class folder "square" has no image that could be decoded',
    );
  });
  it('a decoder that returns the wrong number of bytes is caught', async () => {
    await expect(
      parseImageFolderZip(fixture('zip/shapes.zip'), {
        size: [4, 4],
        decodeImage: () => ({ data: new Uint8Array(10), width: 2, height: 2 }),
      }),
    ).rejects.toThrow('cannot decode "shapes/circle/c1.png": decoder returned 10 bytes for 2×2 RGBA');
  });
  it('rejects a bad target size', async () => {
    await expect(parseImageFolderZip(fixture('zip/shapes.zip'), { size: [0, 4], decodeImage: decodeFixturePng })).rejects.toThrow(
      'image size must be two positive integers [height, width], got [0, 4]',
    );
  });
});

describe('resizeToRgb', () => {
  const rgba = (w: number, h: number, f: (x: number, y: number) => [number, number, number, number]) => {
    const d = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d.set(f(x, y), (y * w + x) * 4);
    return d;
  };
  it('same size = drop alpha, exactly', () => {
    const src = rgba(3, 2, (x, y) => [x * 10, y * 20, 7, 128]);
    expect(Array.from(resizeToRgb(src, 3, 2, [2, 3]))).toEqual([0, 0, 7, 10, 0, 7, 20, 0, 7, 0, 20, 7, 10, 20, 7, 20, 20, 7]);
  });
  it('halving = 2×2 box average', () => {
    // 4×2 source, red = 0, 10, 20, 30 on row 0 and 40, 50, 60, 70 on row 1 → 2×1: (0+10+40+50)/4 = 25, (20+30+60+70)/4 = 45
    const src = rgba(4, 2, (x, y) => [x * 10 + y * 40, 0, 0, 255]);
    expect(Array.from(resizeToRgb(src, 4, 2, [1, 2]))).toEqual([25, 0, 0, 45, 0, 0]);
  });
  it('shrinking by a non-integer factor uses fractional coverage', () => {
    // 3 → 2 pixels, red 0, 90, 180: out0 covers [0, 1.5) = (0·1 + 90·0.5)/1.5 = 30; out1 covers [1.5, 3) = (90·0.5 + 180)/1.5 = 150
    const src = rgba(3, 1, (x) => [x * 90, 0, 0, 255]);
    expect(Array.from(resizeToRgb(src, 3, 1, [1, 2]))).toEqual([30, 0, 0, 150, 0, 0]);
  });
  it('doubling = bilinear with half-pixel centres', () => {
    // 2 → 4, red 0 and 100: centres at −0.25→clamped 0, 0.25, 0.75, 1.25→clamped 1 → 0, 25, 75, 100
    const src = rgba(2, 1, (x) => [x * 100, 0, 0, 255]);
    expect(Array.from(resizeToRgb(src, 2, 1, [1, 4]))).toEqual([0, 0, 0, 25, 0, 0, 75, 0, 0, 100, 0, 0]);
  });
  it('a constant image stays constant at any size', () => {
    const src = rgba(7, 5, () => [200, 100, 50, 255]);
    for (const [h, w] of [
      [1, 1],
      [3, 11],
      [32, 32],
      [5, 7],
    ] as [number, number][]) {
      const out = resizeToRgb(src, 7, 5, [h, w]);
      for (let i = 0; i < out.length; i += 3) expect([out[i], out[i + 1], out[i + 2]]).toEqual([200, 100, 50]);
    }
  });
  it('composites over the background', () => {
    const src = rgba(1, 1, () => [0, 0, 0, 51]); // alpha 0.2 of black over white → 255·0.8 = 204
    expect(Array.from(resizeToRgb(src, 1, 1, [1, 1], { background: [255, 255, 255] }))).toEqual([204, 204, 204]);
  });
  it('rejects bad sizes', () => {
    expect(() => resizeToRgb(new Uint8Array(8), 2, 2, [1, 1])).toThrow('expected 2×2×4 = 16 RGBA bytes, got 8');
    expect(() => resizeToRgb(new Uint8Array(16), 2, 2, [1.5, 1])).toThrow('target size must be positive integers');
  });
});

describe('a zip with two entries of the same name', () => {
  /** A zip whose entry `from` is renamed `to` (same length) in its local header and central directory. */
  function renamed(files: Record<string, Uint8Array>, from: string, to: string): Uint8Array {
    const z = zipSync(files, { level: 0 });
    const a = new TextEncoder().encode(from);
    const b = new TextEncoder().encode(to);
    expect(a.length).toBe(b.length);
    let hits = 0;
    for (let i = 0; i + a.length <= z.length; i++) {
      if (a.every((v, k) => z[i + k] === v)) {
        z.set(b, i);
        hits++;
      }
    }
    expect(hits).toBe(2); // local header + central directory
    return z;
  }
  const png = () => listImageFolderZip(fixture('zip/shapes.zip')).entries[0].bytes;
  const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);

  it('leaves every copy out and lists the name once, with why; the other images keep their names', () => {
    const z = renamed({ 'cat/1.png': png(), 'cat/2.png': jpg, 'cat/9.png': png(), 'dog/1.png': png() }, 'cat/9.png', 'cat/2.png');
    const l = listImageFolderZip(z);
    expect(l.classNames).toEqual(['cat', 'dog']);
    expect(l.entries.map((e) => e.path)).toEqual(['cat/1.png', 'dog/1.png']);
    expect(l.skipped).toEqual([
      { path: 'cat/2.png', reason: '2 entries of the zip have this name, so none of them is used (which is which cannot be told): re-zip the folder' },
    ]);
  });

  it('a duplicated non-image is listed once too (the Data page keys its list by path)', () => {
    const z = renamed({ 'cat/1.png': png(), 'dog/1.png': png(), 'dog/a.txt': jpg, 'dog/b.txt': jpg }, 'dog/b.txt', 'dog/a.txt');
    const l = listImageFolderZip(z);
    expect(l.skipped.map((s) => s.path)).toEqual(['dog/a.txt']);
    expect(new Set(l.skipped.map((s) => s.path)).size).toBe(l.skipped.length);
  });
});
