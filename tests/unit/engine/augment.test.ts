/**
 * Training-batch augmentation (src/engine/augment.ts) and its use by the trainer: deterministic bytes from a seeded
 * generator, exact geometry where it can be exact, background replacement that spares the object, values in
 * 0–255; runs with augmentation are deterministic and differ from runs without; runs without it give exactly the
 * R (and losses) they gave before augmentation existed. With the emoji data prepared it also writes a preview,
 * test-results/augment-emoji.png: per row one class, its first training image, 8 augmentations of it, then the
 * class's test renderings (styles never trained on).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { loadBuiltinDataset } from '../../../src/data/registry';
import {
  AUGMENT_STREAM,
  augmentBatch,
  augmentImage,
  augmentSeed,
  borderMedian,
  DRAWS_PER_EXAMPLE,
  IDENTITY_PARAMS,
  resolveAugmentOptions,
  sampleAugmentParams,
  type AugmentParams,
} from '../../../src/engine/augment';
import { selectBackend } from '../../../src/engine/backend';
import { augmentFor, runCommand, RunUsageError } from '../../../src/cli/run';
import { resolveTrainConfig, TrainConfigError } from '../../../src/engine/config';
import { fromDecodedDataset } from '../../../src/engine/dataset';
import { AUGMENT_DEFAULTS, TRAINER_DEFAULTS, type AugmentOptions } from '../../../src/engine/defaults';
import { STREAM } from '../../../src/engine/seeds';
import { trainRun } from '../../../src/engine/trainer';
import type { ImageDataset, ImageSplit, RunCheckpoint, TrainRunConfig } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ZERO: AugmentOptions = { ...AUGMENT_DEFAULTS, shift: 0, scale: 0, rotation: 0, brightness: 0, contrast: 0, saturation: 0, background: 0 };
const params = (p: Partial<AugmentParams>): AugmentParams => ({ ...IDENTITY_PARAMS, ...p });

/** Applies `p` to one image and returns the bytes. */
function apply(img: Uint8Array, shape: [number, number, number], p: Partial<AugmentParams>, tolerance?: number): Uint8Array {
  const out = new Uint8Array(img.length);
  augmentImage(img, 0, shape, params(p), out, 0, tolerance);
  return out;
}

/** A 6-class 12×12 RGB dataset: white background, a class-specific random-colour 6×6 patch in the middle, noise. */
function rgbDataset(): ImageDataset {
  const classes = 6;
  const side = 12;
  const size = side * side * 3;
  const rng = createDefaultRng(11);
  const protos = Array.from({ length: classes }, () => {
    const p = new Float64Array(size).fill(255);
    for (let y = 3; y < 9; y++) for (let x = 3; x < 9; x++) for (let c = 0; c < 3; c++) p[(y * side + x) * 3 + c] = rng.random() * 200;
    return p;
  });
  const split = (perClass: number): ImageSplit => {
    const n = classes * perClass;
    const images = new Uint8Array(n * size);
    const labels = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const c = i % classes;
      labels[i] = c;
      for (let p = 0; p < size; p++) images[i * size + p] = Math.max(0, Math.min(255, Math.round(protos[c][p] + (rng.random() * 2 - 1) * 40)));
    }
    return { images, labels };
  };
  return { shape: [side, side, 3], classNames: Array.from({ length: classes }, (_, c) => `c${c}`), train: split(30), test: split(10) };
}

const haveEmoji = existsSync(join('public', 'data', 'emoji', 'meta.json'));
const loadEmoji = async () => loadBuiltinDataset('emoji', async (p) => new Uint8Array(await readFile(join('public', p))));

describe('augmentation of uint8 images', () => {
  const shape: [number, number, number] = [10, 10, 3];
  const randomImages = (n: number, seed: number): Uint8Array => {
    const r = createDefaultRng(seed);
    return Uint8Array.from({ length: n * 300 }, () => r.integers(0, 256));
  };

  it('is deterministic: the same seed gives the same bytes, another seed others', () => {
    const images = randomImages(5, 1);
    const idx = [4, 0, 2, 2];
    const a = augmentBatch(images, idx, shape, createDefaultRng(9), AUGMENT_DEFAULTS);
    const b = augmentBatch(images, idx, shape, createDefaultRng(9), AUGMENT_DEFAULTS);
    const c = augmentBatch(images, idx, shape, createDefaultRng(10), AUGMENT_DEFAULTS);
    expect(a).toHaveLength(4 * 300);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    // two copies of image 2 in one batch get different draws
    expect(a.subarray(600, 900)).not.toEqual(a.subarray(900, 1200));
  });

  it('draws a fixed number of doubles per example, whatever the options and channels', () => {
    for (const [opts, C] of [
      [AUGMENT_DEFAULTS, 3],
      [ZERO, 3],
      [AUGMENT_DEFAULTS, 1],
    ] as const) {
      let draws = 0;
      const src = createDefaultRng(5);
      const counting = { random: () => (draws++, src.random()) };
      const s: [number, number, number] = [4, 4, C];
      augmentBatch(new Uint8Array(3 * 16 * C), [0, 1, 2], s, counting, opts);
      expect(draws).toBe(3 * DRAWS_PER_EXAMPLE);
    }
  });

  it('is the identity when every magnitude is 0 (RGB and grey)', () => {
    const images = randomImages(3, 2);
    expect(augmentBatch(images, [0, 1, 2], shape, createDefaultRng(1), ZERO)).toEqual(images);
    const grey = syntheticDataset().train.images;
    expect(augmentBatch(grey, [0, 1, 2, 3], [6, 6, 1], createDefaultRng(1), ZERO)).toEqual(grey.subarray(0, 4 * 36));
    expect(apply(images.subarray(0, 300), shape, {})).toEqual(images.subarray(0, 300));
  });

  it('shifts a known pattern by exactly the drawn pixels, filling with the background', () => {
    // white 8×8 RGB with a 2×2 red square at x 3–4, y 2–3
    const s: [number, number, number] = [8, 8, 3];
    const img = new Uint8Array(8 * 8 * 3).fill(255);
    const red = (x: number, y: number) => img.set([200, 10, 20], (y * 8 + x) * 3);
    red(3, 2);
    red(4, 2);
    red(3, 3);
    red(4, 3);
    const out = apply(img, s, { dx: 2, dy: -1 });
    const px = (a: Uint8Array, x: number, y: number) => Array.from(a.subarray((y * 8 + x) * 3, (y * 8 + x) * 3 + 3));
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const inSquare = x >= 5 && x <= 6 && y >= 1 && y <= 2;
        expect(px(out, x, y), `(${x}, ${y})`).toEqual(inSquare ? [200, 10, 20] : [255, 255, 255]);
      }
    }
    // through augmentBatch with shift only: a translation by whole pixels within ±k, nothing else
    const k = 2;
    const seen = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      const b = augmentBatch(img, [0], s, createDefaultRng(seed), { ...ZERO, shift: k });
      const p = sampleAugmentParams(createDefaultRng(seed), { ...ZERO, shift: k });
      expect(Math.abs(p.dx)).toBeLessThanOrEqual(k);
      expect(Math.abs(p.dy)).toBeLessThanOrEqual(k);
      // with |d| ≤ 2 the square stays inside the image
      const want = [
        [3, 2],
        [4, 2],
        [3, 3],
        [4, 3],
      ].map(([x, y]) => `${x + p.dx},${y + p.dy}`);
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) expect(px(b, x, y), `seed ${seed} (${x}, ${y})`).toEqual(want.includes(`${x},${y}`) ? [200, 10, 20] : [255, 255, 255]);
      }
      seen.add(`${p.dx},${p.dy}`);
    }
    expect(seen.size).toBeGreaterThan(3);
  });

  it('fills with the background colour of the image (border median): black for a dark image', () => {
    const s: [number, number, number] = [5, 5, 1];
    const img = new Uint8Array(25);
    img[12] = 250; // centre
    expect(borderMedian(img, 0, s)).toEqual([0]);
    const out = apply(img, s, { dx: -1, dy: 0 });
    expect(out[11]).toBe(250);
    expect(out.reduce((a, b) => a + b, 0)).toBe(250);
  });

  it('turns a pattern by a quarter: counter-clockwise on screen for a positive angle, whole pixels', () => {
    const s: [number, number, number] = [5, 5, 1];
    const img = new Uint8Array(25);
    img[2 * 5 + 4] = 200; // right of centre (x 4, y 2)
    const ccw = apply(img, s, { angle: 90 });
    expect(ccw[0 * 5 + 2]).toBe(200); // → above the centre (x 2, y 0)
    expect(ccw.reduce((a, b) => a + b, 0)).toBe(200);
    const cw = apply(img, s, { angle: -90 });
    expect(cw[4 * 5 + 2]).toBe(200); // → below
    // a pattern with 4-fold symmetry is unchanged by 90°
    const plus = new Uint8Array(25);
    for (const [x, y] of [
      [2, 0],
      [2, 1],
      [2, 2],
      [2, 3],
      [2, 4],
      [0, 2],
      [1, 2],
      [3, 2],
      [4, 2],
    ])
      plus[y * 5 + x] = 180;
    expect(apply(plus, s, { angle: 90 })).toEqual(plus);
    expect(apply(plus, s, { angle: 180 })).toEqual(plus);
  });

  it('samples bilinearly: a small rotation of a single bright pixel, by hand', () => {
    // 5×5 black, pixel (3, 2) = 200; rotate 10°. Output pixel (3, 2) is 1 right of the centre (2, 2); its inverse
    // image is (2 + cos 10°, 2 + sin 10°) = (2.98481, 2.17365): between source x 2–3, y 2–3, fx 0.98481, fy 0.17365.
    // The bright pixel's weight there is fx·(1 − fy) = 0.98481 × 0.82635 = 0.81380 → 200 × 0.81380 = 162.76 → 163.
    // Output (3, 1) (offset (1, −1)): inverse (2 + cos·1 − sin·(−1), 2 + sin·1 + cos·(−1)) = (3.15846, 1.18884):
    // neighbours x 3–4, y 1–2, fx 0.15846, fy 0.18884; weight of (3, 2) = (1 − fx)·fy = 0.84154 × 0.18884
    // = 0.15892 → 31.78 → 32.
    const s: [number, number, number] = [5, 5, 1];
    const img = new Uint8Array(25);
    img[2 * 5 + 3] = 200;
    const out = apply(img, s, { angle: 10 });
    expect(out[2 * 5 + 3]).toBe(163);
    expect(out[1 * 5 + 3]).toBe(32);
    // a linear ramp stays linear under bilinear sampling: v(x, y) = 10x + 40y; output (4, 2) samples
    // (2 + 2 cos 10°, 2 + 2 sin 10°) = (3.96962, 2.34730) → 39.696 + 93.892 = 133.59 → 134
    const ramp = Uint8Array.from({ length: 25 }, (_, i) => 10 * (i % 5) + 40 * Math.floor(i / 5));
    expect(apply(ramp, s, { angle: 10 })[2 * 5 + 4]).toBe(134);
  });

  it('scales about the centre', () => {
    // 2× zoom of a ramp v = 20x on 5 wide: output x samples 2 + (x − 2)/2 → 20·(1 + x/2) = 20 + 10x
    const s: [number, number, number] = [5, 5, 1];
    const ramp = Uint8Array.from({ length: 25 }, (_, i) => 20 * (i % 5));
    const out = apply(ramp, s, { scale: 2 });
    expect(Array.from(out.subarray(10, 15))).toEqual([20, 30, 40, 50, 60]);
  });

  it('replaces the background and leaves the object alone; the rim moves part of the way', () => {
    const s: [number, number, number] = [6, 6, 3];
    const img = new Uint8Array(6 * 6 * 3).fill(255);
    const set = (x: number, y: number, v: number[]) => img.set(v, (y * 6 + x) * 3);
    for (let y = 2; y < 4; y++) for (let x = 2; x < 4; x++) set(x, y, [200, 30, 40]); // object
    set(1, 2, [250, 250, 250]); // near white: d 5 ≤ 24 → fully replaced
    set(1, 3, [219, 231, 255]); // d 36: (48 − 36)/24 = 0.5 of the way
    set(4, 2, [230, 100, 255]); // d 155 > 48: untouched although its blue channel is white
    const out = apply(img, s, { background: [180, 200, 220] });
    const px = (x: number, y: number) => Array.from(out.subarray((y * 6 + x) * 3, (y * 6 + x) * 3 + 3));
    expect(px(0, 0)).toEqual([180, 200, 220]);
    expect(px(5, 5)).toEqual([180, 200, 220]);
    for (let y = 2; y < 4; y++) for (let x = 2; x < 4; x++) expect(px(x, y)).toEqual([200, 30, 40]);
    expect(px(1, 2)).toEqual([175, 195, 215]);
    expect(px(1, 3)).toEqual([219 - 37.5, 231 - 27.5, 255 - 17.5].map(Math.round));
    expect(px(4, 2)).toEqual([230, 100, 255]);
    // a dark background is never replaced (nor a grey image's)
    const dark = new Uint8Array(6 * 6 * 3);
    expect(apply(dark, s, { background: [180, 200, 220] })).toEqual(dark);
    // over many draws, every pixel of the object keeps its bytes when only the background changes
    for (let seed = 0; seed < 20; seed++) {
      const b = augmentBatch(img, [0], s, createDefaultRng(seed), { ...ZERO, background: 1 });
      for (let y = 2; y < 4; y++) for (let x = 2; x < 4; x++) expect(Array.from(b.subarray((y * 6 + x) * 3, (y * 6 + x) * 3 + 3))).toEqual([200, 30, 40]);
      const bg = Array.from(b.subarray(0, 3));
      for (const v of bg) expect(v).toBeGreaterThanOrEqual(AUGMENT_DEFAULTS.backgroundMin);
    }
  });

  it('colour jitter: brightness scales, saturation 0 is grey, contrast 0 is the mean; values stay in 0–255', () => {
    const s: [number, number, number] = [2, 2, 3];
    const img = Uint8Array.from([250, 250, 250, 200, 100, 50, 10, 20, 30, 0, 255, 128]);
    const bright = apply(img, s, { brightness: 1.2 });
    expect(Array.from(bright)).toEqual([255, 255, 255, 240, 120, 60, 12, 24, 36, 0, 255, 154]); // 250·1.2 = 300 → 255, not 44
    const grey = apply(img, s, { saturation: 0 });
    for (let i = 0; i < 4; i++) expect(grey[3 * i]).toBe(grey[3 * i + 1]);
    expect(grey[3]).toBe(Math.round(0.299 * 200 + 0.587 * 100 + 0.114 * 50));
    const flat = apply(img, s, { contrast: 0 });
    expect(new Set(flat).size).toBe(1);
    // extreme magnitudes on random images: every byte in range, the object's colours not wrapped
    const r = createDefaultRng(3);
    const many = Uint8Array.from({ length: 50 * 300 }, () => (r.random() < 0.5 ? r.integers(0, 16) : r.integers(240, 256)));
    const extreme = {
      shift: 3,
      scale: 0.5,
      rotation: 180,
      brightness: 1,
      contrast: 1,
      saturation: 1,
      background: 1,
      backgroundMin: 0,
      backgroundTolerance: 100,
    };
    const out = augmentBatch(
      many,
      Array.from({ length: 50 }, (_, i) => i),
      [10, 10, 3],
      createDefaultRng(4),
      extreme,
    );
    expect(out.every((v) => v >= 0 && v <= 255)).toBe(true);
    // brightness alone on white: a factor ≥ 1 saturates at 255 (a wrapped byte would be small), < 1 darkens
    const white = new Uint8Array(300).fill(255);
    const opts = { ...ZERO, brightness: 1 };
    const w = augmentBatch(white, [0, 0, 0, 0, 0, 0, 0, 0], [10, 10, 3], createDefaultRng(1), opts);
    const drawn = createDefaultRng(1);
    let above = 0;
    for (let k = 0; k < 8; k++) {
      const f = sampleAugmentParams(drawn, opts).brightness;
      if (f > 1) above++;
      expect(w.subarray(k * 300, (k + 1) * 300).every((x) => x === Math.round(Math.min(255, 255 * f)))).toBe(true);
    }
    expect(above).toBeGreaterThan(0);
    expect(above).toBeLessThan(8);
  });

  it('validates options: unknown names and out-of-range values are refused', () => {
    expect(resolveAugmentOptions(undefined)).toBeNull();
    expect(resolveAugmentOptions(false)).toBeNull();
    expect(resolveAugmentOptions(true)).toEqual(AUGMENT_DEFAULTS);
    expect(resolveAugmentOptions({ rotation: 5 })).toEqual({ ...AUGMENT_DEFAULTS, rotation: 5 });
    expect(() => resolveAugmentOptions({ rotaton: 5 } as never)).toThrow(/Unknown augmentation option "rotaton"/);
    expect(() => resolveAugmentOptions({ shift: 1.5 })).toThrow(/augment.shift must be a whole number/);
    expect(() => resolveAugmentOptions({ scale: 1 })).toThrow(/augment.scale must be in \[0, 1\)/);
    expect(() => resolveAugmentOptions({ background: -0.1 })).toThrow(/probability/);
    const cfg = { tasks: [[0, 1]], seed: 0, strategy: 'finetune' } as TrainRunConfig;
    expect(resolveTrainConfig(cfg).augment).toBeNull();
    expect(TRAINER_DEFAULTS.augment).toBe(false);
    expect(resolveTrainConfig({ ...cfg, augment: true }).augment).toEqual(AUGMENT_DEFAULTS);
    expect(() => resolveTrainConfig({ ...cfg, augment: { rotation: 400 } })).toThrow(TrainConfigError);
  });

  it("its seed stream is outside seeds.ts's purpose numbers", () => {
    expect(Object.values(STREAM)).not.toContain(AUGMENT_STREAM);
    expect(augmentSeed(123)).not.toBe(augmentSeed(124));
  });

  it('cil-lab run: --augment on|off, on by default for emoji only', () => {
    expect(augmentFor({}, 'emoji')).toBe(true);
    expect(augmentFor({}, 'digits')).toBe(false);
    expect(augmentFor({}, 'fashion-mnist')).toBe(false);
    expect(augmentFor({ augment: 'off' }, 'emoji')).toBe(false);
    expect(augmentFor({ augment: 'on' }, 'digits')).toBe(true);
    expect(() => augmentFor({ augment: 'maybe' }, 'emoji')).toThrow(RunUsageError);
  });
});

describe('the trainer with augmentation (cpu backend)', () => {
  const rgb = rgbDataset();
  const base = {
    tasks: [
      [0, 1],
      [2, 3],
      [4, 5],
    ],
    seed: 3,
    model: { kind: 'mlp', hidden: [32] },
    epochs: 3,
    batchSize: 16,
    lr: 0.002,
  };

  beforeAll(async () => {
    await selectBackend('cpu', { strict: true });
  });

  it('runs without augmentation give exactly the R and losses they gave before augmentation existed', async () => {
    // recorded on the cpu backend before src/engine/augment.ts was written
    const losses: number[] = [];
    const a = await trainRun(rgb, { ...base, strategy: 'finetune' } as TrainRunConfig, { onProgress: (e) => losses.push(e.loss) });
    expect(a.matrix).toEqual([
      [0.9, 0, 0],
      [0, 0.55, 0],
      [0, 0, 1],
    ]);
    expect(losses.slice(0, 4)).toEqual([0.6389884352684021, 1.0256038904190063, 0.7504116892814636, 0.5966643691062927]);
    expect(losses.slice(-2)).toEqual([1.0164812803268433, 0.9281827807426453]);
    const b = await trainRun(rgb, {
      ...base,
      strategy: 'replay',
      strategyOptions: { memory: 24 },
      model: { kind: 'cnn', filters: [4, 8], dense: 16 },
    } as TrainRunConfig);
    expect(b.matrix).toEqual([
      [0.75, 0, 0],
      [0, 0.9, 0],
      [0, 0, 0.5],
    ]);
    const c = await trainRun(syntheticDataset(), { ...base, strategy: 'ewc', head: 'all', augment: false } as TrainRunConfig);
    expect(c.matrix).toEqual([
      [1, 0, 0],
      [1, 0.25, 0],
      [1, 0.3333333333333333, 0],
    ]);
    expect(c.config.augment).toBeNull();
  });

  it.skipIf(!haveEmoji)('… also on the emoji data', async () => {
    const emoji = fromDecodedDataset(await loadEmoji());
    const tasks = [
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
    ];
    const cfg = {
      ...base,
      tasks,
      epochs: 4,
      model: { kind: 'mlp', hidden: [32] },
      strategy: 'replay',
      strategyOptions: { memory: 20 },
      batchSize: 8,
      head: 'all',
    } as TrainRunConfig;
    const losses: number[] = [];
    const r = await trainRun(emoji, cfg, { onProgress: (e) => losses.push(e.loss) });
    // recorded with the trainer of the commit before augmentation (git archive HEAD src, run with tsx)
    expect(r.matrix).toEqual([
      [0.1, 0],
      [0.1, 0],
    ]);
    expect(r.untrained).toEqual([0, 0.1]);
    expect(losses.slice(0, 2)).toEqual([3.4783120155334473, 6.32917594909668]);
    expect(losses[losses.length - 1]).toBe(3.0083823204040527);
  });

  it('an RGB run with augmentation is deterministic and differs from the run without; evaluation is not augmented', async () => {
    const cfg = { ...base, strategy: 'replay', strategyOptions: { memory: 24 }, augment: true } as TrainRunConfig;
    const lossesA: number[] = [];
    const lossesB: number[] = [];
    const a = await trainRun(rgb, cfg, { onProgress: (e) => lossesA.push(e.loss) });
    const b = await trainRun(rgb, cfg, { onProgress: (e) => lossesB.push(e.loss) });
    expect(b.matrix).toEqual(a.matrix);
    expect(lossesB).toEqual(lossesA);
    expect(a.config.augment).toEqual(AUGMENT_DEFAULTS);
    const lossesOff: number[] = [];
    await trainRun(rgb, { ...cfg, augment: false }, { onProgress: (e) => lossesOff.push(e.loss) });
    expect(lossesOff).toHaveLength(lossesA.length);
    expect(lossesOff).not.toEqual(lossesA);
    // the first batch's loss is the untrained model on the same examples (same batch order): it differs only
    // because the pixels differ
    expect(lossesOff[0]).not.toBe(lossesA[0]);
    // another seed, another run
    const c = await trainRun(rgb, { ...cfg, seed: 4 }, {});
    expect(c.matrix).not.toEqual(a.matrix);
    // a checkpoint resumes an augmented run exactly (each task has its own augmentation generator)
    const cps: RunCheckpoint[] = [];
    const full = await trainRun(rgb, cfg, { onCheckpoint: (cp) => cps.push(cp) });
    const resumed = await trainRun(rgb, cfg, { resumeFrom: cps[0] });
    expect(resumed.matrix).toEqual(full.matrix);
  });

  it("leaves the dataset's bytes alone and no tensors behind", async () => {
    const before = rgb.train.images.slice();
    const { memory } = await import('@tensorflow/tfjs-core');
    const n0 = memory().numTensors;
    await trainRun(rgb, { ...base, strategy: 'agem', strategyOptions: { memory: 24 }, augment: true, epochs: 1 } as TrainRunConfig);
    expect(memory().numTensors).toBe(n0);
    expect(rgb.train.images).toEqual(before);
  });
});

describe.skipIf(!haveEmoji)('on the emoji data', () => {
  it('cil-lab run trains emoji with augmentation unless --augment off', async () => {
    const args = { dataset: 'emoji', classes: '0-3', tasks: '2', epochs: '1', hidden: '8', backend: 'cpu', 'train-per-class': '5', 'test-per-class': '2' };
    const on = JSON.parse(await runCommand(args, { root: process.cwd() }));
    expect(on.config.augment).toEqual(AUGMENT_DEFAULTS);
    const off = JSON.parse(await runCommand({ ...args, augment: 'off' }, { root: process.cwd() }));
    expect(off.config.augment).toBeNull();
    expect(off.order).toEqual(on.order);
  });

  it('writes test-results/augment-emoji.png: 6 classes × (original, 8 augmentations, test renderings)', async () => {
    const d = await loadEmoji();
    const [H, W, C] = d.shape;
    const size = H * W * C;
    const classes = [0, 8, 30, 60, 100, 150].filter((c) => c < d.meta.classes.length);
    const aug = 8;
    const testCols = 2;
    const cols = 1 + aug + 1 + testCols; // one blank column between
    const zoom = 3;
    const cell = W * zoom + 2;
    const png = { width: cols * cell, height: classes.length * cell };
    const rgba = new Uint8Array(png.width * png.height * 4).fill(128);
    const put = (bytes: Uint8Array, offset: number, row: number, col: number) => {
      for (let y = 0; y < H * zoom; y++) {
        for (let x = 0; x < W * zoom; x++) {
          const s = offset + (Math.floor(y / zoom) * W + Math.floor(x / zoom)) * C;
          const o = ((row * cell + 1 + y) * png.width + col * cell + 1 + x) * 4;
          rgba.set([bytes[s], bytes[s + 1], bytes[s + 2], 255], o);
        }
      }
    };
    const rng = createDefaultRng(augmentSeed(1));
    classes.forEach((c, row) => {
      const first = d.train.labels.findIndex((y) => y === c);
      put(d.train.images, first * size, row, 0);
      const out = augmentBatch(d.train.images, new Array(aug).fill(first), d.shape, rng, AUGMENT_DEFAULTS);
      for (let k = 0; k < aug; k++) put(out, k * size, row, 1 + k);
      let col = 0;
      d.test.labels.forEach((y, i) => {
        if (y === c && col < testCols) put(d.test.images, i * size, row, 2 + aug + col++);
      });
    });
    const { PNG } = createRequire(import.meta.url)('pngjs') as { PNG: { sync: { write(p: unknown): Buffer } } };
    mkdirSync('test-results', { recursive: true });
    const file = join('test-results', 'augment-emoji.png');
    writeFileSync(
      file,
      PNG.sync.write({ width: png.width, height: png.height, data: Buffer.from(rgba), depth: 8, colorType: 6, inputColorType: 6, inputHasAlpha: true }),
    );
    expect(existsSync(file)).toBe(true);
  });
});
