#!/usr/bin/env node
/**
 * `node scripts/bench-train-browser.mjs`: milliseconds per training step in Chromium for each TensorFlow.js backend
 * (webgpu, webgl, wasm, cpu) — the CPCF paper's MLP 784-256-128-10, batch 64, Adam; forward + backward + update with
 * the loss read back, exactly as scripts/bench-train.ts measures it in Node. It runs in a Web Worker of the
 * training-worker harness page (tests/e2e/harness/bench.worker.ts), built with Vite and served locally
 * (tests/e2e/harness/serve-harness.mjs), in Debian's /usr/bin/chromium with --enable-unsafe-webgpu (WebGPU on
 * SwiftShader here: no GPU).
 *
 * Then the same step on the fused kernels the trainer uses on wasm (`step: 'fused'`; src/engine/kernels/fused-mlp.ts).
 * Prints one line per backend and, last, `{"results": [{"backend", "where": "chromium", "step", "msPerStep"}]}`.
 * `--with-node` first runs the Node half (`tsx scripts/bench-train.ts`, when it exists) and prints the merged
 * JSON last: that is `npm run bench:train`.
 */
import { nodeHalf, openHarness, withHarnessBrowser } from './bench-harness.mjs';

const BACKENDS = ['webgpu', 'webgl', 'wasm', 'cpu'];
const withNode = process.argv.includes('--with-node');

async function browserResults() {
  return withHarnessBrowser(async (browser, url) => {
    const results = [];
    const page = await openHarness(browser, url);
    const version = browser.version();
    for (const backend of BACKENDS) {
      const r = await page.evaluate(
        (b) =>
          window.harness.bench(b).then(
            (x) => x,
            (e) => ({ error: String(e?.message ?? e) }),
          ),
        backend,
      );
      if ('error' in r) {
        console.log(`chromium ${backend}: unavailable (${r.error})`);
        continue;
      }
      const ms = Math.round(r.msPerStep * 100) / 100;
      results.push({ backend, where: 'chromium', step: 'tfjs', msPerStep: ms });
      console.log(
        `chromium ${backend}: ${r.msPerStep.toFixed(2)} ms/step over ${r.steps} steps (MLP 784-256-128-10, batch 64, Adam; Chromium ${version}, in a worker)`,
      );
    }
    // the fused step the trainer takes on wasm (src/engine/kernels/fused-mlp.ts), inputs half zeros as Fashion-MNIST
    const f = await page.evaluate(() =>
      window.harness.benchFused().then(
        (x) => x,
        (e) => ({ error: String(e?.message ?? e) }),
      ),
    );
    if ('error' in f) console.log(`chromium wasm fused step: unavailable (${f.error})`);
    else {
      const tfjs = results.find((x) => x.backend === 'wasm');
      results.push({ backend: 'wasm', where: 'chromium', step: 'fused', msPerStep: Math.round(f.msPerStep * 100) / 100 });
      console.log(
        `chromium wasm: ${f.msPerStep.toFixed(2)} ms/step over ${f.steps} steps on the fused kernels${tfjs ? `, ${(tfjs.msPerStep / f.msPerStep).toFixed(1)}× tfjs's` : ''}`,
      );
    }
    return results;
  });
}

const results = [...(withNode ? nodeHalf('bench-train.ts') : []), ...(await browserResults())];
console.log(JSON.stringify({ results }));
