#!/usr/bin/env node
// Prepares the built-in 8×8 digits in public/data/digits/ (format "cil-lab/dataset" v1, see src/data/format.ts)
// from Debian's python3-sklearn: `apt-get download` + `dpkg -x` (helpers in prepare-fashion-mnist.mjs), then
// usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz: 1,797 rows of 64 pixel values 0–16 then the
// label (the UCI "Optical Recognition of Handwritten Digits" test set, as scikit-learn ships it).
//
// Pixels: v in 0–16 becomes floor((v·255 + 8) / 16) in 0–255 (0 → 0, 8 → 128, 16 → 255; integer arithmetic, so
// no rounding-mode question; ink is high, like Fashion-MNIST).
//
// Split (the file has none): seeded, stratified, 80/20, exactly reproducible in numpy. With
// rs = np.random.RandomState(1993) (src/core/random/random-state.ts, bit-identical to numpy), for each class
// c = 0…9 in turn: idx = the rows with label c, in file order; perm = rs.permutation(len(idx)); the first
// round(0.2·len(idx)) of idx[perm] are test, the rest train. Both splits then keep file order.
// scripts/make-dataset-fixtures.py redoes this with numpy, and tests/unit/data checks the result against it.
//
// Idempotent (build key = hash of this script, the shared helpers and the RandomState code); `--force` rebuilds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  ROOT,
  FORMAT,
  FORMAT_VERSION,
  aptUnpack,
  buildKey,
  dirBytes,
  hasFlag,
  mb,
  perClass,
  say,
  upToDateMeta,
  writeDataset,
} from './prepare-fashion-mnist.mjs';

const ID = 'digits';
const PKG = 'python3-sklearn';
const CSV_REL = 'usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz';
export const DIGITS_SEED = 1993;
export const DIGITS_TEST_FRACTION = 0.2;
// The MNIST class list of src/core/classes/builtin.ts names the digits as words (label order 0–9).
const CLASSES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const RANDOM_STATE_TS = join(ROOT, 'src', 'core', 'random', 'random-state.ts');
const MT_TS = join(ROOT, 'src', 'core', 'random', 'mt19937.ts');

/** Parse digits.csv(.gz): { pixels: Uint8Array N×64 (0–16), labels: Uint8Array N }. */
export function parseDigitsCsv(bytes) {
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const rows = text.split('\n').filter((l) => l.trim() !== '');
  const pixels = new Uint8Array(rows.length * 64);
  const labels = new Uint8Array(rows.length);
  rows.forEach((line, r) => {
    const v = line.split(',').map((s) => Number(s));
    if (v.length !== 65) throw new Error(`digits.csv row ${r + 1}: ${v.length} values, expected 64 pixels + 1 label`);
    for (let k = 0; k < 65; k++) {
      const x = v[k];
      const max = k < 64 ? 16 : 9;
      if (!Number.isInteger(x) || x < 0 || x > max) throw new Error(`digits.csv row ${r + 1}, column ${k + 1}: ${x} is not an integer in 0–${max}`);
    }
    pixels.set(v.slice(0, 64), r * 64);
    labels[r] = v[64];
  });
  return { pixels, labels };
}

async function main() {
  const t0 = performance.now();
  const script = fileURLToPath(import.meta.url);
  const key = buildKey([script, join(ROOT, 'scripts', 'prepare-fashion-mnist.mjs'), RANDOM_STATE_TS, MT_TS], [DIGITS_SEED, DIGITS_TEST_FRACTION]);
  const existing = hasFlag('--force') ? null : upToDateMeta(ID, key);
  if (existing) {
    say(ID, `up to date (public/data/${ID}: ${existing.train.count} train / ${existing.test.count} test, ${mb(dirBytes(ID))})`);
    return;
  }
  const { dir, version, how } = aptUnpack(PKG);
  const { pixels, labels } = parseDigitsCsv(readFileSync(join(dir, CSV_REL)));
  const n = labels.length;
  if (n !== 1797) throw new Error(`digits.csv.gz has ${n} rows, expected 1,797`);

  // Lazy: only a rebuild needs TypeScript (tsx), the up-to-date check above does not.
  const { tsImport } = await import('tsx/esm/api');
  const { createRandomState } = await tsImport(pathToFileURL(RANDOM_STATE_TS).href, import.meta.url);
  const rs = createRandomState(DIGITS_SEED);
  const isTest = new Uint8Array(n);
  for (let c = 0; c < CLASSES.length; c++) {
    const idx = [];
    for (let i = 0; i < n; i++) if (labels[i] === c) idx.push(i);
    const perm = rs.permutation(idx.length);
    const nTest = Math.round(DIGITS_TEST_FRACTION * idx.length);
    for (let k = 0; k < nTest; k++) isTest[idx[perm[k]]] = 1;
  }

  const files = {};
  const meta = {};
  for (const split of ['train', 'test']) {
    const rows = [];
    for (let i = 0; i < n; i++) if (isTest[i] === (split === 'test' ? 1 : 0)) rows.push(i);
    const img = new Uint8Array(rows.length * 64);
    const lbl = new Uint8Array(rows.length);
    rows.forEach((i, r) => {
      for (let k = 0; k < 64; k++) img[r * 64 + k] = Math.floor((pixels[i * 64 + k] * 255 + 8) / 16);
      lbl[r] = labels[i];
    });
    files[`${split}-images.u8`] = img;
    files[`${split}-labels.u8`] = lbl;
    meta[split] = { count: rows.length, images: `${split}-images.u8`, labels: `${split}-labels.u8`, perClass: perClass(lbl, CLASSES.length) };
  }
  const seconds = Number(((performance.now() - t0) / 1000).toFixed(2));
  writeDataset(
    ID,
    {
      format: FORMAT,
      version: FORMAT_VERSION,
      id: ID,
      name: 'Digits (8×8)',
      classListId: 'mnist',
      classes: CLASSES,
      classInfo: CLASSES.map((name, i) => ({ name, classListIndex: i })),
      shape: [8, 8, 1],
      train: meta.train,
      test: meta.test,
      split: {
        method: 'stratified-random',
        seed: DIGITS_SEED,
        testFraction: DIGITS_TEST_FRACTION,
        description:
          'rs = numpy RandomState(1993); for each class c = 0…9: idx = rows with label c in file order, ' +
          'the first round(0.2·len(idx)) of idx[rs.permutation(len(idx))] are test; both splits keep file order',
      },
      sources: [
        {
          name: 'Optical Recognition of Handwritten Digits (UCI; E. Alpaydin & C. Kaynak 1998), test set as shipped in scikit-learn',
          package: `deb:${PKG}`,
          version,
          license: 'CC-BY-4.0',
          url: 'https://archive.ics.uci.edu/dataset/80/optical+recognition+of+handwritten+digits',
          note: `sklearn/datasets/data/digits.csv.gz (scikit-learn itself is BSD-3-Clause; the UCI data is CC BY 4.0); pixels 0–16 scaled to floor((v·255+8)/16)`,
        },
      ],
      build: { key, script: 'scripts/prepare-digits.mjs', seconds },
    },
    files,
  );
  say(
    ID,
    `built public/data/${ID} from ${PKG} ${version} (${how}) in ${seconds}s: ${meta.train.count} train / ${meta.test.count} test ` +
      `(stratified 80/20, seed ${DIGITS_SEED}), 8×8×1, ${mb(dirBytes(ID))}`,
  );
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().catch((e) => {
    console.error(`[prepare-${ID}] FAILED: ${e.message}`);
    process.exit(1);
  });
}
