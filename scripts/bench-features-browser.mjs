#!/usr/bin/env node
/**
 * `npm run bench:features` runs this after the Node half (scripts/bench-features.ts): feature extraction
 * throughput in Chromium, on the app's own path — a feature job (src/engine/features/job.ts) on a training worker of the
 * harness page (tests/e2e/harness/), in Debian's /usr/bin/chromium — for the embedded backbone (its pre-training and
 * extraction on the fused wasm kernels) and the tiny CLIP-vision fixture at each precision on onnxruntime-web's wasm
 * (self-hosted from public/models/cil-lab/, runtime from public/ort/). Fashion-MNIST classes 0–5, the first
 * `--per-class N` (default 1000) training images of each; one run each after a warm-up of the same job (the encoder
 * then loaded, the dataset fetched). Prints one line per source and a JSON line `{"results": [...]}`. Printed, never asserted.
 */
import { openHarness, withHarnessBrowser } from './bench-harness.mjs';

const arg = (name, fill) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fill;
};
const perClass = arg('per-class', 1000);
const rows = { classes: [0, 1, 2, 3, 4, 5], trainPerClass: perClass, testPerClass: 0 };
const dataset = { kind: 'builtin', id: 'fashion-mnist' };
const encoder = (precision) => ({
  source: 'encoder',
  model: 'clip-vision-tiny',
  revision: 'main',
  precision,
  weights: { kind: 'self-hosted', path: '/models/cil-lab/' },
  device: 'wasm',
  allowRemote: false,
  wasmPaths: '/ort/',
});
const SOURCES = [
  ['backbone (pre-training + extraction)', { source: 'backbone', seed: 0 }],
  ['clip-vision-tiny fp32 (batch 16)', encoder('fp32')],
  ['clip-vision-tiny fp16 (batch 16)', encoder('fp16')],
  ['clip-vision-tiny q8 (batch 16)', encoder('q8')],
];

const results = await withHarnessBrowser(async (browser, url) => {
  const page = await openHarness(browser, url);
  const out = [];
  for (const [label, source] of SOURCES) {
    const input = { dataset, rows, source, batchSize: 16 };
    const run = () =>
      page.evaluate(
        (i) =>
          window.harness.featureBench(i).then(
            (x) => x,
            (e) => ({ error: String(e?.message ?? e) }),
          ),
        input,
      );
    await run(); // warm-up
    const r = await run();
    if ('error' in r) {
      console.log(`chromium ${label}: unavailable (${r.error})`);
      continue;
    }
    out.push({
      source: label,
      where: 'chromium',
      device: r.device,
      images: r.n,
      seconds: Math.round(r.seconds * 1000) / 1000,
      imagesPerSecond: Math.round(r.imagesPerSecond ?? 0),
    });
    console.log(
      `chromium ${label.padEnd(40)} ${r.seconds.toFixed(3).padStart(8)} s job  ${Math.round(r.imagesPerSecond ?? 0)
        .toLocaleString('en')
        .padStart(9)} images/s extraction (${r.device})`,
    );
  }
  return { chromium: browser.version(), out };
});
console.log(JSON.stringify({ chromium: results.chromium, images: 6 * perClass, results: results.out }));
