#!/usr/bin/env node
/**
 * `npm run bench:gpu`: the Ground-truth default on WebGPU, as a visitor with a GPU gets it, against wasm,
 * in one run of Debian's Chromium with WebGPU on (scripts/bench-harness.mjs: --enable-unsafe-webgpu).
 *
 * 1. Prints the WebGPU adapter a training worker gets: vendor, architecture, device, description, and whether it is
 *    a software one (SwiftShader on a machine without a GPU), and what `auto` chooses by measuring the workload there
 *    (engine/gpu/measure.ts: a level-step of our kernels against the fused wasm step per worker).
 * 2. Trains bench:peer's config (scripts/peer/bench-peer-lib.mjs benchConfig: Fashion-MNIST 0–5 in 3 tasks of 2,
 *    all 90 orderings, MLP 784-256-128-6, 3 epochs, finetune) on WebGPU in one worker, level by level
 *    (engine/gpu/level-train.ts: every prefix of one depth at once in our kernels), then on wasm the way the lab
 *    trains on a CPU (one worker per core, the sample order dealt by core/ground-truth/deal.ts). With `--tfjs`, also
 *    the path before the level kernels (tfjs's populations, engine/population.ts) to the end; with `--tfjs=SECONDS`
 *    for that long, and its figures extrapolated to the whole run (said so).
 * 3. Prints seconds, first result, steps/s, GPU dispatches and buffer read-backs (every dispatch and read-back the
 *    worker's WebGPU saw, tfjs's and ours: tests/e2e/harness/gpu-count.ts) and both final-accuracy distributions,
 *    whether they agree within noise (bench:peer's comparison) and run by run (the same draws: how many within half
 *    a test image, and within one). Last line JSON (scripts/bench-gpu-lib.mjs gpuJson).
 *
 * The default config is the lab's default (minutes on SwiftShader); `--quick` is bench:peer's quick config (4
 * classes in 2 tasks: 6 orderings, 60/30 images per class, 1 epoch) and runs the tfjs path too. `--full` is the
 * default (kept for old command lines). `--no-level` and `--no-wasm` leave those sides out (to time the tfjs path
 * alone). Speed is printed, never asserted.
 */
import { existsSync } from 'node:fs';
import { openHarness, withHarnessBrowser } from './bench-harness.mjs';
import { compareSides, describeAdapter, extrapolate, formatComparison, formatSides, gpuJson, plannedSteps } from './bench-gpu-lib.mjs';
import { benchConfig, runKey, sameTolerance, summarize } from './peer/bench-peer-lib.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(
    'usage: npm run bench:gpu [-- --quick] [--tfjs | --tfjs=SECONDS] [--no-level] [--no-wasm]   (the header of scripts/bench-gpu.mjs says what it does)',
  );
  process.exit(0);
}
if (!existsSync('/usr/bin/chromium')) {
  console.log('bench:gpu: /usr/bin/chromium is missing (node scripts/ensure-chromium.mjs); nothing to measure.');
  process.exit(1);
}
const quick = argv.includes('--quick');
const tfjsArg = argv.find((a) => a === '--tfjs' || a.startsWith('--tfjs='));
// the tfjs path: to the end on the quick config or with --tfjs; a sample of SECONDS with --tfjs=SECONDS
const tfjs = tfjsArg ? (tfjsArg.includes('=') ? Number(tfjsArg.split('=')[1]) : Infinity) : quick ? Infinity : 0;

const side = (r, backend) => ({
  backend,
  kernels: r.kernels ?? (backend === 'wasm' ? 'fused' : ''),
  workers: r.workers ?? 1,
  population: r.population ?? 1,
  seconds: r.seconds,
  firstResultSeconds: r.firstResultSeconds,
  steps: r.steps,
  dispatches: r.dispatches ?? 0,
  readbacks: r.readbacks ?? 0,
  partial: Boolean(r.partial),
  dist: summarize(r.finals.filter(Number.isFinite)),
  runs: r.finals.map((final, i) => ({ key: runKey(r.tasks[i]), final })).filter((x) => Number.isFinite(x.final)),
});

await withHarnessBrowser(async (browser, url) => {
  const page = await openHarness(browser, url);
  const adapter = await page.evaluate(() => window.harness.gpuAdapter().catch(() => null));
  console.log(`adapter: ${describeAdapter(adapter)}`);
  const cfg = benchConfig(quick);
  const planned = plannedSteps(cfg);
  console.log(`bench:gpu${quick ? ' (quick)' : ''}: ${JSON.stringify(cfg)}, ${planned} optimiser steps planned`);
  const sides = [];
  let choice = null;
  if (adapter) {
    choice = await page.evaluate((c) => window.harness.peerMeasure(c).catch((e) => ({ error: String(e?.message ?? e) })), cfg);
    if ('error' in choice) {
      console.log(`auto by measurement: failed (${choice.error})`);
      choice = null;
    } else console.log(`auto by measurement: ${choice.reason}`);
    const orderings = await page.evaluate((c) => window.harness.peerOrderings(c), cfg);
    const r = argv.includes('--no-level')
      ? { error: 'skipped (--no-level)' }
      : await page.evaluate((c) => window.harness.peerBench('webgpu', c, { levels: true }).catch((e) => ({ error: String(e?.message ?? e) })), cfg);
    if ('error' in r) console.log(`webgpu: ${r.error.startsWith('skipped') ? r.error : `failed (${r.error})`}`);
    else {
      console.log(
        `webgpu (${r.kernels === 'level' ? 'level-batched kernels' : r.kernels}): ${r.seconds.toFixed(1)} s for ${r.orderings} orderings on 1 worker, up to ${r.population} models at once, first result after ${r.firstResultSeconds.toFixed(2)} s; ${r.dispatches} dispatches, ${r.readbacks} read-backs`,
      );
      sides.push(side({ ...r, tasks: orderings }, 'webgpu'));
    }
    if (tfjs > 0) {
      const opts = { levels: false, ...(Number.isFinite(tfjs) ? { stopAfterSeconds: tfjs } : {}) };
      const t = await page.evaluate(({ c, o }) => window.harness.peerBench('webgpu', c, o).catch((e) => ({ error: String(e?.message ?? e) })), {
        c: cfg,
        o: opts,
      });
      if ('error' in t) console.log(`webgpu-tfjs: failed (${t.error})`);
      else {
        const s = side({ ...t, tasks: orderings }, 'webgpu-tfjs');
        const est = extrapolate(s, planned);
        console.log(
          `webgpu-tfjs (tfjs populations, the path before): ${t.seconds.toFixed(1)} s, ${t.steps} of ${planned} steps, population ${t.population}; ${t.dispatches} dispatches, ${t.readbacks} read-backs${est ? `; scaled by model-steps to the whole run: ≈ ${est.dispatches} dispatches, ${est.readbacks} read-backs, ${est.seconds.toFixed(0)} s (an upper bound for the dispatches: later populations are larger, and a population step's dispatches do not grow with its models)` : ''}`,
        );
        sides.push(s);
      }
    }
  }
  await page.close();
  if (!argv.includes('--no-wasm')) {
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
  console.log(gpuJson(adapter, quick ? 'quick' : 'default', sides, cmp, choice, planned));
});
