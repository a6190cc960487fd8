#!/usr/bin/env node
// Writes a tiny CIFAR-100 in the Hugging Face hub's parquet format, for the tests of src/data/parsers/parquet-cifar.ts
// and the Table-1 spec, no network:
//
//   tests/fixtures/parsers/cifar100-parquet/train-00000-of-00001.parquet   10 images of each of classes 0–5
//   tests/fixtures/parsers/cifar100-parquet/test-00000-of-00001.parquet     5 images of each
//   tests/fixtures/parsers/cifar100-parquet/expected.json                  labels and the SHA-256 of the RGB pixels
//
// The schema is the hub's uoft-cs/cifar100 files' (its datasets `Image` feature): img OPTIONAL struct { bytes OPTIONAL
// BYTE_ARRAY (the PNG file), path OPTIONAL UTF8 (null here) }, fine_label OPTIONAL INT64, coarse_label OPTIONAL INT64
// (CIFAR-100's super-classes of apple … bed: 4, 1, 14, 8, 0, 6); snappy-compressed pages, as the hub's are. Written
// with hyparquet-writer (a devDependency), the PNGs with pngjs; the images are 32×32 RGB, class c bright in its own
// band of rows, with seeded noise. The SHA-256 is of the uint8 N×32×32×3 array before PNG encoding, so the parser is
// checked against the pixels themselves. Deterministic; usage: node scripts/make-parquet-fixture.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { PNG } from 'pngjs';
import { mulberry32 } from './lib/onnx-proto.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'tests', 'fixtures', 'parsers', 'cifar100-parquet');
const COARSE = [4, 1, 14, 8, 0, 6];

function split(perClass, seed) {
  const rand = mulberry32(seed);
  const pixels = new Uint8Array(6 * perClass * 32 * 32 * 3);
  const rows = [];
  for (let c = 0; c < 6; c++)
    for (let i = 0; i < perClass; i++) {
      const k = c * perClass + i;
      const png = new PNG({ width: 32, height: 32 });
      for (let y = 0; y < 32; y++)
        for (let x = 0; x < 32; x++) {
          const band = Math.floor(y / 6) === c;
          for (let ch = 0; ch < 3; ch++) {
            const v = Math.min(255, (band ? 190 : 40) + (ch === c % 3 ? 40 : 0) + Math.floor(rand() * 30));
            pixels[((k * 32 + y) * 32 + x) * 3 + ch] = v;
            png.data[(y * 32 + x) * 4 + ch] = v;
          }
          png.data[(y * 32 + x) * 4 + 3] = 255;
        }
      rows.push({ img: { bytes: new Uint8Array(PNG.sync.write(png, { colorType: 2 })), path: null }, fine: c, coarse: COARSE[c] });
    }
  return { pixels, rows };
}

function file(rows) {
  return parquetWriteBuffer({
    columnData: [
      { name: 'img', data: rows.map((r) => r.img) },
      { name: 'fine_label', data: rows.map((r) => BigInt(r.fine)) },
      { name: 'coarse_label', data: rows.map((r) => BigInt(r.coarse)) },
    ],
    schema: [
      { name: 'schema', num_children: 3 },
      { name: 'img', repetition_type: 'OPTIONAL', num_children: 2 },
      { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
      { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'fine_label', type: 'INT64', repetition_type: 'OPTIONAL' },
      { name: 'coarse_label', type: 'INT64', repetition_type: 'OPTIONAL' },
    ],
    codec: 'SNAPPY',
    createdBy: 'cil-lab scripts/make-parquet-fixture.mjs',
  });
}

mkdirSync(out, { recursive: true });
const expected = {
  _note:
    'Made by scripts/make-parquet-fixture.mjs: CIFAR-100 classes 0–5 in the Hugging Face hub’s parquet schema (img {bytes: PNG, path}, fine_label, coarse_label); sha256 is of the uint8 N×32×32×3 RGB pixels before PNG encoding.',
};
for (const [name, perClass, seed] of [
  ['train', 10, 20240615],
  ['test', 5, 20240616],
]) {
  const { pixels, rows } = split(perClass, seed);
  const path = join(out, `${name}-00000-of-00001.parquet`);
  const bytes = new Uint8Array(file(rows));
  writeFileSync(path, bytes);
  expected[name] = {
    rows: rows.length,
    fine: rows.map((r) => r.fine),
    coarse: rows.map((r) => r.coarse),
    sha256: createHash('sha256').update(pixels).digest('hex'),
    bytes: bytes.length,
  };
  console.log(`[make-parquet-fixture] wrote ${relative(root, path)} (${rows.length} images, ${bytes.length} B)`);
}
writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
