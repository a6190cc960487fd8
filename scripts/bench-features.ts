/**
 * `npm run bench:features`: feature extraction throughput in Node (images per second), the numbers the closing
 * note asks for: the embedded backbone (its pre-training on the other classes, then its features; the fused wasm
 * kernels) and the tiny fixture encoders through transformers.js + onnxruntime-node (clip-vision-tiny at each
 * precision, dinov2-tiny), with our preprocessing (resize to the model's input, centre crop, normalise) included, on
 * the Ground-truth default's images: Fashion-MNIST classes 0–5, the first N training images per class (default 1000,
 * `--per-class N`). Each measurement is the median of `--repeats` (default 3) after one warm-up. The fixtures are tiny
 * (4 and 16 tokens of width 32 and 24), so their figure is the pipeline's cost (preprocessing, batching, the session
 * call), not a real encoder's; a real CLIP ViT-B/16 is about 17 GFLOPs per image. Prints a table, then one JSON line.
 * Chromium's figures: scripts/bench-features-browser.mjs (`npm run bench:features` runs both). Speed is printed, never asserted.
 */
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { loadBuiltinDataset } from '../src/data/registry';
import { createImageEncoder, type EncoderPrecision } from '../src/engine/clip/image-encoder';
import { fromDecodedDataset } from '../src/engine/dataset';
import { backboneFeatures, trainBackbone } from '../src/engine/features/backbone';
import { extractionRows } from '../src/engine/features/extract';

const root = join(import.meta.dirname, '..');
const arg = (name: string, fill: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fill;
};
const perClass = arg('per-class', 1000);
const repeats = arg('repeats', 3);
const batchSize = arg('batch-size', 16);

const ds = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
const rows = extractionRows(ds, { classes: [0, 1, 2, 3, 4, 5], trainPerClass: perClass, testPerClass: 0 }).train;
const n = rows.length;
const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];

async function timed(f: () => Promise<unknown>): Promise<number> {
  await f(); // warm-up
  const s: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    await f();
    s.push((performance.now() - t) / 1000);
  }
  return median(s);
}

const result: Record<string, { seconds: number; imagesPerSecond: number }> = {};
const pretrain = await timed(() => trainBackbone(ds, [6, 7, 8, 9], 0));
const backbone = await trainBackbone(ds, [6, 7, 8, 9], 0);
result['backbone pre-training (4,000 images × 5 epochs)'] = { seconds: pretrain, imagesPerSecond: (backbone.trainImages * 5) / pretrain };
const extract = await timed(() => backboneFeatures(backbone, ds.train.images, rows));
result['backbone features'] = { seconds: extract, imagesPerSecond: n / extract };

const FIXTURES = resolve(root, 'tests', 'fixtures');
for (const [model, precisions] of [
  ['clip-vision-tiny', ['fp32', 'fp16', 'q8']],
  ['dinov2-tiny', ['fp32', 'q8']],
] as [string, EncoderPrecision[]][]) {
  for (const precision of precisions) {
    const enc = await createImageEncoder({ modelId: model, precision, device: 'cpu', source: { kind: 'self-hosted', path: FIXTURES } });
    const s = await timed(() => enc.encode(ds.train.images, ds.shape, rows, { batchSize }));
    result[`${model} ${precision} (batch ${batchSize})`] = { seconds: s, imagesPerSecond: n / s };
    await enc.dispose();
  }
}

console.log(`bench:features — Node ${process.version}, ${cpus().length} cores, ${n} Fashion-MNIST images (28×28 grey), median of ${repeats}:`);
for (const [k, v] of Object.entries(result))
  console.log(`  ${k.padEnd(48)} ${v.seconds.toFixed(3).padStart(8)} s  ${Math.round(v.imagesPerSecond).toLocaleString('en').padStart(9)} images/s`);
console.log(
  JSON.stringify({
    node: process.version,
    cores: cpus().length,
    images: n,
    results: Object.fromEntries(
      Object.entries(result).map(([k, v]) => [k, { seconds: Math.round(v.seconds * 1000) / 1000, imagesPerSecond: Math.round(v.imagesPerSecond) }]),
    ),
  }),
);
