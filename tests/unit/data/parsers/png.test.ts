/**
 * The PNG decoder (src/data/parsers/png.ts) against pngjs on files pngjs writes (its adaptive filtering uses every row
 * filter) in each colour type it writes, and on the lesson's recorded sample set; damaged and interlaced files are
 * refused in one sentence; image data is never inflated past what the header promises (a PNG bomb).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readSamplesZip } from '../../../../src/data/own-samples-zip';
import { decodePng, isPng } from '../../../../src/data/parsers/png';
import { DataFormatError } from '../../../../src/data/parsers/types';
import { pngOverZeros, pngRawBytes } from '../../drills/hostile-files';

type PngWrite = (p: { width: number; height: number; data: Buffer }, o?: Record<string, unknown>) => Buffer;
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { write: PngWrite; read(b: Buffer): { width: number; height: number; data: Buffer } } };
};

/** A w×h RGBA picture with gradients and seeded noise (every filter has something to do). */
function picture(w: number, h: number, seed: number): Buffer {
  const data = Buffer.alloc(w * h * 4);
  let s = seed;
  for (let i = 0; i < w * h; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const x = i % w;
    const y = Math.floor(i / w);
    data[4 * i] = (x * 7 + (s & 15)) & 255;
    data[4 * i + 1] = (y * 5) & 255;
    data[4 * i + 2] = (x * y + (s >> 8)) & 255;
    data[4 * i + 3] = 128 + ((s >> 4) & 127);
  }
  return data;
}

describe('decodePng', () => {
  for (const [name, colorType, bitDepth] of [
    ['RGB, 8 bits', 2, 8],
    ['RGBA, 8 bits', 6, 8],
    ['grey, 8 bits', 0, 8],
    ['grey and alpha, 8 bits', 4, 8],
  ] as const) {
    it(`reads ${name} as pngjs does`, () => {
      const file = PNG.sync.write({ width: 37, height: 23, data: picture(37, 23, colorType + bitDepth) }, { colorType, bitDepth, inputHasAlpha: true });
      const want = PNG.sync.read(file);
      const got = decodePng(new Uint8Array(file));
      expect([got.width, got.height]).toEqual([37, 23]);
      expect(isPng(new Uint8Array(file))).toBe(true);
      expect(Buffer.from(got.data)).toEqual(want.data);
    });
  }

  it("reads every image of the lesson's recorded sample set as pngjs does", () => {
    for (const c of readSamplesZip(readFileSync('tests/fixtures/own-classes/four-things.zip')))
      for (const b of [...c.train, ...c.test]) expect(Buffer.from(decodePng(b).data)).toEqual(PNG.sync.read(Buffer.from(b)).data);
  });

  it('refuses what it cannot read, in one sentence', () => {
    const file = new Uint8Array(PNG.sync.write({ width: 4, height: 4, data: picture(4, 4, 1) }));
    expect(() => decodePng(new Uint8Array([1, 2, 3]), 'x.png')).toThrow(/x\.png: not a PNG file/);
    const interlaced = file.slice();
    interlaced[8 + 8 + 12] = 1; // IHDR's interlace byte
    expect(() => decodePng(interlaced)).toThrow(/interlaced/);
    expect(() => decodePng(file.slice(0, 40))).toThrow(DataFormatError);
  });

  it('inflates no further than the header promises: a 1×1 image over 1.5 GB of zeros is refused, an honest one read', () => {
    expect(pngRawBytes(1, 1)).toBe(4);
    const honest = decodePng(pngOverZeros(4, 1, 1));
    expect([honest.width, honest.height, ...honest.data]).toEqual([1, 1, 0, 0, 0, 255]);
    // one byte more than a 3×2 image's rows is already a damaged file
    expect(() => decodePng(pngOverZeros(pngRawBytes(3, 2) + 1, 3, 2), 'x.png')).toThrow(
      'x.png: its image data inflates to more than the 20 bytes its 3×2 header promises (the file is damaged, or a decompression bomb)',
    );
    const bomb = pngOverZeros(1_500_000_000);
    expect(bomb.length).toBeLessThan(1_600_000);
    expect(() => decodePng(bomb, 'bomb.png')).toThrow(/inflates to more than the 4 bytes its 1×1 header promises/);
    expect(() => decodePng(pngOverZeros(pngRawBytes(3, 2) - 1, 3, 2))).toThrow(/shorter than the image/);
  });
});
