/**
 * Drawn samples for the Your-classes lab (no camera, no photographs): each image an object's shape in its colour on a
 * light grey table, moved a few pixels and lit a little differently each time, as PNG files a browser's canvas reads
 * back exactly. The lesson's four objects (scripts/make-own-classes-fixture.ts writes tests/fixtures/own-classes/
 * four-things.zip from them), and `manyClasses` for the hundred-class checks: class c of n gets a hue of its own
 * around the colour wheel, one of the four shapes and a size, so the tiny CLIP vision fixture encoder tells most of
 * them apart and confuses some neighbours. Every random choice comes from `default_rng([SEED, class, image])`.
 */
import { zlibSync } from 'fflate';
import { createDefaultRngFromWords } from '../src/core/random/default-rng';
import type { OwnSampleClass } from '../src/data/own-samples-zip';

const SEED = 7;
export const SIZE = 48;

type Shape = (x: number, y: number) => boolean;
interface Drawn {
  name: string;
  rgb: [number, number, number];
  shape: Shape;
}
export const CLASSES: Drawn[] = [
  // a mug: a box with a ring-shaped handle on its right
  {
    name: 'red mug',
    rgb: [205, 40, 35],
    shape: (x, y) => (Math.abs(x + 3) <= 9 && Math.abs(y) <= 11) || (x > 6 && x < 14 && Math.abs(Math.hypot(x - 8, y) - 5) < 2),
  },
  // a cup: a trapezoid, wider at the top
  { name: 'blue cup', rgb: [45, 75, 215], shape: (x, y) => Math.abs(y) <= 11 && Math.abs(x) <= 8 - y / 4 },
  // a duck: a round body and a smaller round head
  { name: 'yellow duck', rgb: [235, 205, 40], shape: (x, y) => Math.hypot(x + 2, y - 5) <= 10 || Math.hypot(x - 7, y + 8) <= 6 },
  // a pen: a long slanted bar
  { name: 'green pen', rgb: [40, 170, 60], shape: (x, y) => Math.abs(x + y) / Math.SQRT2 <= 3 && Math.abs(x - y) / Math.SQRT2 <= 19 },
];

/** One image of class c (`cls`, CLASSES[c] unless given): RGB, SIZE × SIZE. */
export function draw(c: number, i: number, cls: Drawn = CLASSES[c]): Uint8Array {
  const rng = createDefaultRngFromWords([SEED, c, i]);
  const { rgb, shape } = cls;
  const dx = rng.integers(-3, 4);
  const dy = rng.integers(-3, 4);
  const light = 0.95 + 0.1 * rng.random();
  const table = Math.round(210 + 10 * rng.random());
  // the light falls from one side: a gentle gradient across the picture, its direction drawn per image
  const angle = 2 * Math.PI * rng.random();
  const [gx, gy] = [Math.cos(angle) / SIZE, Math.sin(angle) / SIZE];
  const out = new Uint8Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const on = shape(x - SIZE / 2 - dx, y - SIZE / 2 - dy);
      const shade = 1 + 0.06 * ((x - SIZE / 2) * gx + (y - SIZE / 2) * gy);
      for (let k = 0; k < 3; k++) {
        const v = (on ? rgb[k] * light : table) * shade;
        out[(y * SIZE + x) * 3 + k] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  return out;
}

/** CRC-32 (PNG's chunk check). */
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG file of RGB pixels (8 bits, no filter, no colour chunks: a browser's canvas reads back these exact pixels). */
export function png(rgb: Uint8Array, w: number, h: number): Uint8Array {
  const raw = new Uint8Array(h * (w * 3 + 1));
  for (let y = 0; y < h; y++) raw.set(rgb.subarray(y * w * 3, (y + 1) * w * 3), y * (w * 3 + 1) + 1);
  const chunk = (name: string, body: Uint8Array): Uint8Array => {
    const out = new Uint8Array(12 + body.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, body.length);
    for (let k = 0; k < 4; k++) out[4 + k] = name.charCodeAt(k);
    out.set(body, 8);
    v.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, w);
  new DataView(ihdr.buffer).setUint32(4, h);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlibSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** RGB of a hue (0–1) at a saturation and value (HSV). */
function hsv(h: number, s: number, v: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h * 6) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

/** Class c of `n` drawn classes: a hue of its own, one of the four shapes, a size. */
export function drawnClass(c: number, n: number): Drawn {
  const base = CLASSES[c % CLASSES.length].shape;
  const scale = 0.75 + 0.25 * ((c >> 2) % 3);
  return {
    name: `object ${String(c + 1).padStart(3, '0')}`,
    rgb: hsv((c * 0.618034) % 1, 0.55 + (0.4 * ((c * 7) % 5)) / 4, 0.6 + (0.35 * ((c * 3) % 4)) / 3),
    shape: (x, y) => base(x / scale, y / scale),
  };
}

/** `n` drawn classes of `train` + `test` PNGs each (n up to the lab's bound), as the samples zip holds them. */
export function manyClasses(n: number, train: number, test: number): OwnSampleClass[] {
  return Array.from({ length: n }, (_, c) => {
    const cls = drawnClass(c, n);
    const images = Array.from({ length: train + test }, (_, i) => png(draw(c, i, cls), SIZE, SIZE));
    return { name: cls.name, train: images.slice(0, train), test: images.slice(train) };
  });
}
