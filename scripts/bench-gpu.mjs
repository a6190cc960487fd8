#!/usr/bin/env node
/**
 * `npm run bench:gpu`: the Ground-truth default on WebGPU, as a visitor with a GPU gets it, against wasm,
 * in one run of Debian's Chromium with WebGPU on (scripts/bench-harness.mjs: --enable-unsafe-webgpu).
 *
 * 1. Prints the WebGPU adapter a training worker gets: vendor, architecture, device, description, and whether it is
 *    a software one (SwiftShader on a machine without a GPU).
 * 2. Trains bench:peer's config (scripts/peer/bench-peer-lib.mjs benchConfig: Fashion-MNIST 0–5 in 3 tasks of 2,
 *    all 90 orderings, MLP 784-256-128-6, 3 epochs, finetune) on WebGPU in one worker with population training
 *    (src/engine/population.ts: several same-depth prefixes in lockstep; the lab gives a GPU one worker), then on
 *    wasm the way the lab trains on a CPU (one worker per core, the sample order dealt by core/ground-truth/deal.ts).
 * 3. Prints seconds, first result, steps/s and both final-accuracy distributions, and whether they agree within
 *    noise (bench:peer's comparison; both sides use the same draws, so also run by run). Last line JSON
 *    (scripts/bench-gpu-lib.mjs gpuJson).
 *
 * `--quick`: bench:peer's quick config (4 classes in 2 tasks: 6 orderings, 60/30 images per class, 1 epoch). On a
 * software adapter the quick config is used unless `--full` is given: SwiftShader emulates the GPU on the CPU at
 * about 0.3 s a step, so the default would take about a quarter of an hour and say nothing about GPUs. Speed is
 * printed, never asserted.
 */
import { existsSync } from 'node:fs';
import { openHarness, withHarnessBrowser } from './bench-harness.mjs';
import { compareSides, describeAdapter, formatComparison, formatSides, gpuJson } from './bench-gpu-lib.mjs';
import { benchConfig, runKey, sameTolerance, summarize } from './peer/bench-peer-lib.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log('usage: npm run bench:gpu [-- --quick | --full]   (the header of scripts/bench-gpu.mjs says what it does)');
  process.exit(0);
}
if (!existsSync('/usr/bin/chromium')) {
  console.log('bench:gpu: /usr/bin/chromium is missing (node scripts/ensure-chromium.mjs); nothing to measure.');
  process.exit(1);
}

const side = (r, backend) => ({
  backend,
  workers: r.workers ?? 1,
  population: r.population ?? 1,
  seconds: r.seconds,
  firstResultSeconds: r.firstResultSeconds,
  steps: r.steps,
  dist: summarize(r.finals),
  runs: r.finals.map((final, i) => ({ key: runKey(r.tasks[i]), final })),
});

await withHarnessBrowser(async (browser, url) => {
  const page = await openHarness(browser, url);
  const adapter = await page.evaluate(() => window.harness.gpuAdapter().catch(() => null));
  console.log(`adapter: ${describeAdapter(adapter)}`);
  const quick = argv.includes('--quick') || (adapter?.software === true && !argv.includes('--full'));
  if (quick && !argv.includes('--quick'))
    console.log('bench:gpu: a software adapter, so the quick config (6 orderings, 1 epoch); --full trains the default (about 15 minutes on SwiftShader)');
  const cfg = benchConfig(quick);
  console.log(`bench:gpu${quick ? ' (quick)' : ''}: ${JSON.stringify(cfg)}`);
  const sides = [];
  if (adapter) {
    const orderings = await page.evaluate((c) => window.harness.peerOrderings(c), cfg);
    const r = await page.evaluate((c) => window.harness.peerBench('webgpu', c).catch((e) => ({ error: String(e?.message ?? e) })), cfg);
    if ('error' in r) console.log(`webgpu: failed (${r.error})`);
    else {
      console.log(
        `webgpu: ${r.seconds.toFixed(1)} s for ${r.orderings} orderings on 1 worker, population ${r.population}, first result after ${r.firstResultSeconds.toFixed(2)} s`,
      );
      sides.push(side({ ...r, tasks: orderings }, 'webgpu'));
    }
  }
  await page.close();
  const pool = await openHarness(browser, url);
  const w = await pool.evaluate((c) => window.harness.peerBenchPool('wasm', c).catch((e) => ({ error: String(e?.message ?? e) })), cfg);
  await pool.close();
  if ('error' in w) console.log(`wasm: failed (${w.error})`);
  else {
    console.log(
      `wasm: ${w.seconds.toFixed(1)} s for ${w.orderings} orderings on ${w.workers} worker${w.workers === 1 ? '' : 's'}, first result after ${w.firstResultSeconds.toFixed(2)} s`,
    );
    sides.push(side(w, 'wasm'));
  }
  console.log(formatSides(sides));
  const wasm = sides.find((s) => s.backend === 'wasm');
  const webgpu = sides.find((s) => s.backend === 'webgpu');
  const cmp = wasm && webgpu ? compareSides(wasm, webgpu, sameTolerance(cfg)) : null;
  if (cmp) console.log(formatComparison(cmp));
  if (wasm && webgpu)
    console.log(
      `speed: WebGPU ${webgpu.seconds.toFixed(1)} s against wasm ${wasm.seconds.toFixed(1)} s (${(wasm.seconds / webgpu.seconds).toFixed(2)}× wasm) on ${adapter?.software ? 'SwiftShader (no GPU here: this is not a GPU figure)' : `"${adapter?.description || adapter?.vendor}"`}`,
    );
  console.log(gpuJson(adapter, quick ? 'quick' : 'default', sides, cmp));
});
