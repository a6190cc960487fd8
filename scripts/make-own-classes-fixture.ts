/**
 * The recorded sample set of the lesson "Teach it three things, then a fourth" (src/core/lessons/lessons.ts):
 * tests/fixtures/own-classes/four-things.zip, in the Your-classes lab's samples-zip format (src/data/own-samples-zip.ts,
 * the lab's own Export zip): four classes taught in order (a red mug, a blue cup, a yellow duck, then a green pen), each 6
 * training and 3 test images of 48 × 48 px, PNG (a format the command line decodes too: src/data/parsers/png.ts).
 *
 * Each image is drawn, not photographed: the object's shape in its colour on a light grey table, moved a few pixels
 * and lit a little differently each time (brightness, the grey of the table, the side the light falls from), so the tiny CLIP vision fixture encoder
 * (tests/fixtures/clip-vision-tiny) tells the four apart the way CLIP tells real objects apart. Every random choice
 * comes from `default_rng([SEED, class, image])`; the zip's file dates are fixed, so the same script writes the same
 * bytes.
 *
 *   npx tsx scripts/make-own-classes-fixture.ts [--out tests/fixtures/own-classes/four-things.zip]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zlibSync } from 'fflate';
import { createDefaultRngFromWords } from '../src/core/random/default-rng';
import { writeSamplesZip } from '../src/data/own-samples-zip';

const SEED = 7;
const SIZE = 48;
const TRAIN = 6;
const TEST = 3;

type Shape = (x: number, y: number) => boolean;
const CLASSES: { name: string; rgb: [number, number, number]; shape: Shape }[] = [
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

/** One image of class c: RGB, SIZE × SIZE. */
function draw(c: number, i: number): Uint8Array {
  const rng = createDefaultRngFromWords([SEED, c, i]);
  const { rgb, shape } = CLASSES[c];
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
function png(rgb: Uint8Array, w: number, h: number): Uint8Array {
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

const argOut = process.argv.indexOf('--out');
const out = argOut > 0 ? process.argv[argOut + 1] : join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'own-classes', 'four-things.zip');
const classes = CLASSES.map((cls, c) => {
  const images = Array.from({ length: TRAIN + TEST }, (_, i) => png(draw(c, i), SIZE, SIZE));
  return { name: cls.name, train: images.slice(0, TRAIN), test: images.slice(TRAIN) };
});
const zip = writeSamplesZip(classes, { mtime: new Date('2026-01-01T00:00:00Z') });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, zip);
console.log(`[make-own-classes-fixture] wrote ${out}: ${CLASSES.length} classes × ${TRAIN} + ${TEST} images, ${zip.length} bytes`);
