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
 *   npx tsx scripts/make-own-classes-fixture.ts --classes 40 --train 30 --test 10 --out /tmp/forty.zip   (drawn classes,
 *   scripts/own-classes-drawings.ts manyClasses: the hundred-class checks and benchmarks; not committed)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSamplesZip } from '../src/data/own-samples-zip';
import { CLASSES, SIZE, draw, manyClasses, png } from './own-classes-drawings';

const TRAIN = 6;
const TEST = 3;

const arg = (flag: string): string | undefined => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const many = arg('--classes');
const out = arg('--out') ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'own-classes', 'four-things.zip');
const classes = many
  ? manyClasses(Number(many), Number(arg('--train') ?? TRAIN), Number(arg('--test') ?? TEST))
  : CLASSES.map((cls, c) => {
      const images = Array.from({ length: TRAIN + TEST }, (_, i) => png(draw(c, i), SIZE, SIZE));
      return { name: cls.name, train: images.slice(0, TRAIN), test: images.slice(TRAIN) };
    });
const zip = writeSamplesZip(classes, { mtime: new Date('2026-01-01T00:00:00Z') });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, zip);
console.log(
  `[make-own-classes-fixture] wrote ${out}: ${classes.length} classes × ${classes[0].train.length} + ${classes[0].test.length} images, ${zip.length} bytes`,
);
