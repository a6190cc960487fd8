#!/usr/bin/env node
/**
 * `npm run bench:groundtruth`: the fixed ground-truth config (tests/e2e/harness/groundtruth-bench.ts:
 * Fashion-MNIST 0–5 in 3 tasks of 2, 90 orderings, 300/100 images per class, MLP 784-256-128-6, Adam 1e-3, batch
 * 64, 3 epochs, finetune) trained three ways — naive, prefix-shared, prefix-shared + population — on every backend
 * Chromium has here (wasm, webgl, webgpu; Debian's /usr/bin/chromium with --enable-unsafe-webgpu, SwiftShader) in
 * a Web Worker, after the Node half (scripts/bench-groundtruth.ts: wasm, cpu).
 *
 * Where all 90 orderings three ways would take most of an hour (webgl and webgpu on SwiftShader, cpu), a mode trains
 * the 6 orderings of one first task — one of the trie's 15 identical subtrees — and scales by 15 (said so in the
 * line, and listed in "extrapolated"). wasm trains all 90 naive and prefix-shared. `--full`: all 90 everywhere.
 *
 * Last line: {"results": [{"backend", "where", "naiveSeconds", "prefixSeconds", "populationSeconds", "speedup", …}]}
 * with speedup = naive / fastest on the same backend. The PyTorch CPU peer takes about 153 s for this config.
 */
import { nodeHalf, openHarness, withHarnessBrowser } from './bench-harness.mjs';

const full = process.argv.includes('--full');
const withNode = process.argv.includes('--with-node');
const only = process.argv
  .find((a) => a.startsWith('--backends='))
  ?.slice('--backends='.length)
  .split(',');
const BACKENDS = only ?? ['wasm', 'webgl', 'webgpu'];
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function browserResults() {
  return withHarnessBrowser(async (browser, url) => {
    const results = [];
    for (const backend of BACKENDS) {
      // a fresh page per backend: a worker keeps one backend's memory until it ends
      const page = await openHarness(browser, url);
      const rs = [];
      const modes = backend === 'wasm' ? ['naive', 'prefix', 'population', 'naive-stock'] : ['naive', 'prefix', 'population'];
      for (const mode of modes) {
        const orderings = full || (backend === 'wasm' && (mode === 'naive' || mode === 'prefix')) ? 'all' : 'subset';
        const r = await page.evaluate(
          ([b, m, o]) => window.harness.groundTruthBench(b, m, o).catch((e) => ({ error: String(e?.message ?? e) })),
          [backend, mode, orderings],
        );
        if ('error' in r) {
          console.log(`chromium ${backend} ${mode}: unavailable (${r.error})`);
          break;
        }
        rs.push(r);
        const label = mode === 'naive-stock' ? 'naive with the stock matMul gradient (before)' : mode;
        console.log(
          `chromium ${backend} ${label}: ${r.seconds.toFixed(1)} s for 90 orderings${r.extrapolated ? ` (${r.measuredSeconds.toFixed(1)} s for ${r.orderings}, ×${90 / r.orderings})` : ''}${mode === 'population' ? `, P = ${r.population}` : ''}; mean final accuracy ${r.meanFinalAccuracy.toFixed(4)}`,
        );
      }
      await page.close();
      const by = (m) => rs.find((r) => r.mode === m);
      if (!by('naive') || !by('prefix') || !by('population')) continue;
      const fastest = Math.min(by('prefix').seconds, by('population').seconds);
      const summary = {
        backend,
        where: 'chromium',
        naiveSeconds: round(by('naive').seconds),
        prefixSeconds: round(by('prefix').seconds),
        populationSeconds: round(by('population').seconds),
        speedup: round(by('naive').seconds / fastest, 2),
        population: by('population').population,
        extrapolated: rs.filter((r) => r.extrapolated && r.mode !== 'naive-stock').map((r) => r.mode),
      };
      if (by('naive-stock')) {
        summary.naiveStockGradientSeconds = round(by('naive-stock').seconds);
        summary.speedupOverStockNaive = round(by('naive-stock').seconds / fastest, 2);
      }
      results.push(summary);
    }
    return results;
  });
}

const results = [...(withNode ? nodeHalf('bench-groundtruth.ts', full ? ['--full'] : []) : []), ...(await browserResults())];
console.log(JSON.stringify({ results }));
