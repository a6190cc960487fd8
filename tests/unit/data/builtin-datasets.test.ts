// The prepared built-in datasets in public/data/ (made by `node scripts/prepare-data.mjs`, which `npm test` runs
// first), decoded with the app's own loader and checked against reference values that
// scripts/make-dataset-fixtures.py computed independently with Python gzip + numpy (tests/fixtures/datasets.json).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fixture from '../../fixtures/datasets.json';
import { EMOJI, FASHION_MNIST, MNIST } from '../../../src/core/classes/builtin';
import { imageAt, type DecodedDataset, type DecodedSplit } from '../../../src/data/format';
import { BUILTIN_DATASETS, loadBuiltinDataset, READ_ATTEMPTS, type BuiltinDatasetId } from '../../../src/data/registry';

const PUBLIC = join(__dirname, '..', '..', '..', 'public');
const readPublic = async (p: string) => new Uint8Array(readFileSync(join(PUBLIC, p)));
const prepared = (id: BuiltinDatasetId) => existsSync(join(PUBLIC, 'data', id, 'meta.json'));
const SKIP = 'public/data is missing: run "node scripts/prepare-data.mjs" (npm test does it first)';

const cache = new Map<BuiltinDatasetId, Promise<DecodedDataset>>();
function load(id: BuiltinDatasetId): Promise<DecodedDataset> {
  if (!cache.has(id)) cache.set(id, loadBuiltinDataset(id, readPublic));
  return cache.get(id)!;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface SplitFixture {
  count: number;
  perClass: number[];
  imagesSha256: string;
  labelsSha256: string;
  pixelSum: number;
  weightedPixelSum: number;
  perClassPixelSum: number[];
  probes: { index: number; label: number; pixelSum: number; firstNonZero: number; maxPixel: number }[];
}

/** Sums computed the same way as split_summary() in make-dataset-fixtures.py. */
function summarise(split: DecodedSplit, imageSize: number, nClasses: number) {
  let pixelSum = 0;
  let weighted = 0;
  const perClassPixelSum = new Array<number>(nClasses).fill(0);
  for (let i = 0; i < split.count; i++) {
    let s = 0;
    for (let k = 0; k < imageSize; k++) {
      const v = split.images[i * imageSize + k];
      s += v;
      weighted += v * (k + 1);
    }
    pixelSum += s;
    perClassPixelSum[split.labels[i]] += s;
  }
  return { pixelSum, weighted, perClassPixelSum };
}

function checkAgainstFixture(ds: DecodedDataset, which: 'train' | 'test', fx: SplitFixture) {
  const split = ds[which];
  expect(split.count).toBe(fx.count);
  expect(ds.meta[which].perClass).toEqual(fx.perClass);
  expect(sha256(split.images)).toBe(fx.imagesSha256);
  expect(sha256(split.labels)).toBe(fx.labelsSha256);
  const s = summarise(split, ds.imageSize, ds.meta.classes.length);
  expect(s.pixelSum).toBe(fx.pixelSum);
  expect(s.weighted).toBe(fx.weightedPixelSum);
  expect(s.perClassPixelSum).toEqual(fx.perClassPixelSum);
  for (const p of fx.probes) {
    const img = imageAt(ds, which, p.index);
    expect(split.labels[p.index]).toBe(p.label);
    expect(img.reduce((a, b) => a + b, 0)).toBe(p.pixelSum);
    expect(img.findIndex((v) => v !== 0)).toBe(p.firstNonZero);
    expect(Math.max(...img)).toBe(p.maxPixel);
  }
}

describe('registry', () => {
  it('lists fashion-mnist, digits and emoji with their class lists', () => {
    expect(BUILTIN_DATASETS.map((d) => [d.id, d.classListId, d.shape.join('×')])).toEqual([
      ['digits', 'mnist', '8×8×1'],
      ['fashion-mnist', 'fashion-mnist', '28×28×1'],
      ['emoji', 'emoji', '32×32×3'],
    ]);
  });
});

describe.skipIf(!prepared('digits'))('reading a built-in dataset when a fetch fails', () => {
  /** readPublic, but the first `failures` reads of `file` throw `error` */
  function flaky(file: string, failures: number, error: () => unknown) {
    const calls: string[] = [];
    const retried: boolean[] = [];
    let left = failures;
    const read = async (p: string, options?: { retry?: boolean }) => {
      calls.push(p);
      if (p.endsWith(file)) retried.push(options?.retry === true);
      if (p.endsWith(file) && left > 0) {
        left--;
        throw error();
      }
      return readPublic(p);
    };
    return { read, calls, retried };
  }

  it('tries a network failure again (two workers reading one file) and loads the same images', async () => {
    const { read, calls, retried } = flaky('train-images.u8', READ_ATTEMPTS - 1, () => new TypeError('Failed to fetch'));
    const ds = await loadBuiltinDataset('digits', read);
    expect(calls.filter((p) => p.endsWith('train-images.u8'))).toHaveLength(READ_ATTEMPTS);
    // the first try goes through the HTTP cache, the others past it
    expect(retried).toEqual([false, ...Array<boolean>(READ_ATTEMPTS - 1).fill(true)]);
    const ref = await load('digits');
    expect(sha256(ds.train.images)).toBe(sha256(ref.train.images));
  });

  it(`gives up after ${READ_ATTEMPTS} network failures and names the file`, async () => {
    const { read } = flaky('train-images.u8', READ_ATTEMPTS, () => new TypeError('Failed to fetch'));
    await expect(loadBuiltinDataset('digits', read)).rejects.toThrow(/cannot read data\/digits\/train-images\.u8 \(Failed to fetch\)/);
  });

  it('does not try a cancelled load or an HTTP error again', async () => {
    const abort = flaky('train-images.u8', 1, () => new DOMException('The user aborted a request.', 'AbortError'));
    await expect(loadBuiltinDataset('digits', abort.read)).rejects.toThrow(/aborted/);
    expect(abort.calls.filter((p) => p.endsWith('train-images.u8'))).toHaveLength(1);
    const http = flaky('train-images.u8', 1, () => new Error('HTTP 404 Not Found'));
    await expect(loadBuiltinDataset('digits', http.read)).rejects.toThrow(/HTTP 404/);
    expect(http.calls.filter((p) => p.endsWith('train-images.u8'))).toHaveLength(1);
  });
});

describe.skipIf(!prepared('fashion-mnist'))(`Fashion-MNIST (public/data/fashion-mnist)${prepared('fashion-mnist') ? '' : ` — skipped: ${SKIP}`}`, () => {
  const fx = fixture['fashion-mnist'];

  it('has the full 60,000/10,000 split, 28×28 grey, 10 named classes, 6,000/1,000 per class', async () => {
    const ds = await load('fashion-mnist');
    expect(ds.shape).toEqual([28, 28, 1]);
    expect(ds.meta.classes).toEqual(FASHION_MNIST.classes);
    expect(ds.train.count).toBe(60000);
    expect(ds.test.count).toBe(10000);
    expect(ds.meta.train.perClass).toEqual(new Array(10).fill(6000));
    expect(ds.meta.test.perClass).toEqual(new Array(10).fill(1000));
    expect(Math.max(...ds.train.labels)).toBe(9);
    expect(ds.meta.sources[0].license).toBe('MIT');
  });

  it('matches the independent numpy reading of the IDX files (hashes, sums, probes, pixels)', async () => {
    const ds = await load('fashion-mnist');
    checkAgainstFixture(ds, 'train', fx.train);
    checkAgainstFixture(ds, 'test', fx.test);
    for (const which of ['train', 'test'] as const) {
      for (const [i, r, c, v] of fx[which].pixels) expect(imageAt(ds, which, i)[r * 28 + c]).toBe(v);
    }
  });
});

describe.skipIf(!prepared('digits'))(`Digits (public/data/digits)${prepared('digits') ? '' : ` — skipped: ${SKIP}`}`, () => {
  const fx = fixture.digits;

  it('has all 1,797 images, 8×8 grey in 0–255, named like MNIST, split 80/20 per class', async () => {
    const ds = await load('digits');
    expect(ds.shape).toEqual([8, 8, 1]);
    expect(ds.meta.classes).toEqual(MNIST.classes);
    expect(ds.train.count + ds.test.count).toBe(1797);
    const total = ds.meta.train.perClass.map((n, c) => n + ds.meta.test.perClass[c]);
    expect(total).toEqual(fx.total.perClass);
    total.forEach((n, c) => expect(ds.meta.test.perClass[c]).toBe(Math.round(0.2 * n)));
    expect(ds.meta.split).toMatchObject({ method: 'stratified-random', seed: 1993, testFraction: 0.2 });
    expect(Math.max(...ds.train.images)).toBe(255);
    expect(Math.max(...ds.train.labels)).toBe(9);
  });

  it('scales 0–16 to 0–255 as floor((v·255 + 8)/16), like the numpy reference', async () => {
    const ds = await load('digits');
    const a = summarise(ds.train, 64, 10);
    const b = summarise(ds.test, 64, 10);
    expect(a.pixelSum + b.pixelSum).toBe(fx.total.pixelSum);
    expect(a.perClassPixelSum.map((s, c) => s + b.perClassPixelSum[c])).toEqual(fx.total.perClassPixelSum);
    // source row 0 is in whichever split the seed put it; find it by its first source rows
    const where = fx.train.sourceRows[0] === 0 ? 'train' : 'test';
    expect([...imageAt(ds, where, 0)]).toEqual(fx.total.row0.scaled);
    expect(ds[where].labels[0]).toBe(fx.total.row0.label);
  });

  it('splits exactly like numpy RandomState(1993) per class (hashes of both splits)', async () => {
    const ds = await load('digits');
    checkAgainstFixture(ds, 'train', fx.train);
    checkAgainstFixture(ds, 'test', fx.test);
  });
});

describe.skipIf(!prepared('emoji'))(`Emoji objects (public/data/emoji)${prepared('emoji') ? '' : ` — skipped: ${SKIP}`}`, () => {
  it('has ≥ 100 classes from the EMOJI list, with their code points and groups', async () => {
    const ds = await load('emoji');
    const { meta } = ds;
    expect(ds.shape).toEqual([32, 32, 3]);
    expect(meta.classes.length).toBeGreaterThanOrEqual(100);
    meta.classInfo.forEach((ci, y) => {
      const e = EMOJI.emoji[ci.classListIndex];
      expect(ci.name).toBe(meta.classes[y]);
      expect(e.name).toBe(ci.name);
      expect(ci.codepoint).toBe(e.codepoint);
      expect(ci.group).toBe(e.group);
      expect(ci.subgroup).toBe(e.subgroup);
    });
    // dropped + kept = the whole list, each once
    const names = [...meta.classes, ...(meta.dropped ?? []).map((d) => d.name)].sort();
    expect(names).toEqual([...EMOJI.classes].sort());
  });

  it('has ≥ 5 styles by ≥ 5 different artists per class, test styles disjoint from train styles', async () => {
    const ds = await load('emoji');
    const styles = ds.meta.styles!;
    const trainStyles = new Set(styles.filter((s) => s.split === 'train').map((s) => s.id));
    const testStyles = new Set(styles.filter((s) => s.split === 'test').map((s) => s.id));
    expect(testStyles.size).toBeGreaterThanOrEqual(1);
    expect([...testStyles].filter((s) => trainStyles.has(s))).toEqual([]);
    // test artists never appear among the training styles either
    const trainArtists = new Set(styles.filter((s) => s.split === 'train').map((s) => s.artist));
    for (const s of styles.filter((x) => x.split === 'test')) expect(trainArtists.has(s.artist)).toBe(false);

    const n = ds.meta.classes.length;
    const perClass = Array.from({ length: n }, () => ({ styles: new Set<string>(), artists: new Set<string>(), train: 0, test: 0 }));
    for (const which of ['train', 'test'] as const) {
      const split = ds[which];
      expect(split.styles).toHaveLength(split.count); // one style index per image
      for (let i = 0; i < split.count; i++) {
        const st = styles[split.styles![i]];
        expect(st.split).toBe(which);
        const pc = perClass[split.labels[i]];
        expect(pc.styles.has(st.id)).toBe(false); // one rendering per class and style
        pc.styles.add(st.id);
        pc.artists.add(st.artist);
        pc[which]++;
      }
    }
    perClass.forEach((pc) => {
      expect(pc.styles.size).toBeGreaterThanOrEqual(5);
      expect(pc.artists.size).toBeGreaterThanOrEqual(5);
      expect(pc.train).toBeGreaterThanOrEqual(1);
      expect(pc.test).toBeGreaterThanOrEqual(1);
    });
  });

  it('uses permissively licensed art only, and says where each style comes from', async () => {
    const { meta } = await load('emoji');
    for (const s of meta.styles!) {
      expect(['MIT', 'Apache-2.0', 'CC-BY-4.0', 'CC-BY-SA-4.0']).toContain(s.license);
      expect(s.package).toMatch(/^npm:/);
      expect(`${s.name} ${s.artist} ${s.package}`).not.toMatch(/apple|facebook|meta/i);
    }
    expect(meta.sources.map((s) => s.package).sort()).toEqual(meta.styles!.map((s) => s.package).sort());
  });

  it('renders every image on white (no black backgrounds from alpha), none blank', async () => {
    const ds = await load('emoji');
    for (const which of ['train', 'test'] as const) {
      for (let i = 0; i < ds[which].count; i++) {
        const img = imageAt(ds, which, i);
        let dark = 0;
        let ink = 0;
        for (let p = 0; p < 32 * 32; p++) {
          const lum = (img[p * 3] + img[p * 3 + 1] + img[p * 3 + 2]) / 3;
          if (lum < 30) dark++;
          if (lum < 235) ink++;
        }
        // the corner pixels are background (a 1/32 margin around the art)
        const corners = [0, 31, 31 * 32, 32 * 32 - 1].map((p) => Math.min(img[p * 3], img[p * 3 + 1], img[p * 3 + 2]));
        const what = `${which} image ${i} (${ds.meta.classes[ds[which].labels[i]]}, ${ds.meta.styles![ds[which].styles![i]].id})`;
        expect(dark, what).toBeLessThan(0.5 * 32 * 32);
        expect(ink, what).toBeGreaterThan(30);
        expect(Math.min(...corners), what).toBeGreaterThan(200);
      }
    }
  });
});
