#!/usr/bin/env node
/**
 * `npm run bench:peer`: the honest side-by-side. One config (scripts/peer/bench-peer-lib.mjs benchConfig:
 * Fashion-MNIST 0–5 in 3 tasks of 2, all 90 orderings, 300/100 images per class, MLP 784-256-128-6, Adam 1e-3,
 * batch 64, 3 epochs, finetune, full head, PyTorch's initialisation) trained
 *
 * 1. by PyTorch on the CPU, one ordering after another, as a researcher does (scripts/peer/torch_groundtruth.py,
 *    Debian's python3-torch; installed here with apt-get when missing and we are root, otherwise the command is
 *    printed and the peer skipped). It gets every core (`--threads`, os.availableParallelism());
 * 2. by us in Node on our fast path: `cil-lab run --orderings all --init pytorch --head all --backend wasm`;
 * 3. by us in Chromium (Debian's /usr/bin/chromium, --enable-unsafe-webgpu; the benchmarks' harness,
 *    scripts/bench-harness.mjs, tests/e2e/harness/peer-bench.ts) in a Web Worker on wasm (and `--backends=wasm,webgl,webgpu`).
 *
 * 4. by PyTorch again on our draws (the paired peer: scripts/peer/export-draws.ts writes the initial weights, every
 *    task's batch order and the label map the engine draws; torch_groundtruth.py --draws replays them), so each of
 *    its runs pairs with ours run by run. Sides 1 and 2–3 draw independently: their means differ by about a
 *    standard error (≈ 1.1 points on the default) however exact both are; side 4 shows what is left when the draws
 *    are the same (float32 summation order). `--no-paired` leaves it out.
 *
 * Prints seconds, the first result, steps/s and the final-accuracy distributions (mean, sd, min, max) with the
 * agreement test (means within 1 point, sds within 25 %; and the mean difference against twice its standard error),
 * the run-by-run comparison with the paired peer, then, last line, JSON:
 * {"peer": {"seconds", "finalMean", "finalSd"}, "ours": [{"where", "backend", "seconds", "firstResultSeconds",
 * "finalMean", "finalSd", "paired", "floorSeconds", "efficiency", "stepsPlanned", "stepsTrained", "msPerStep",
 * "predictionsPlanned", "predictions", "msPerPrediction", "workFloorSeconds", "workEfficiency"}], "ratio": peer
 * seconds / best Chromium seconds, "pairedPeer"}.
 *
 * The floor: in the same run, just before each of our sides trains, the fused step is timed on this
 * config's own batches (tests/e2e/harness/peer-bench.ts timeConfigSteps; Node: scripts/peer/step-time.ts in one
 * process; Chromium: in one pool worker alone, then in all at once). floor = steps planned (every prefix once) ÷
 * workers × ms/step, and efficiency = floor / wall: how close to this machine's own floor the side ran. The steps
 * trained (counted by the engine) are printed beside the steps planned.
 *
 * The steps are not all the work: each trained prefix is evaluated on the test set (one forward pass per test
 * example), which the floor above leaves out. The same timing gives ms per test prediction; the work floor adds the
 * planned predictions ÷ workers × ms/prediction, and work efficiency = work floor / wall says how much of the wall
 * is neither training nor evaluation (set-up, hand-overs, idle workers).
 *
 * `--quick`: a smoke test of the whole pipeline on a small config (6 orderings of 4 classes, 1 epoch).
 * `--no-peer`, `--no-node`, `--no-chromium`: leave a side out. Speed is printed, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchConfig,
  cliArgs,
  finalJson,
  formatFloor,
  formatTable,
  peerArgs,
  runKey,
  sameTolerance,
  stepsPerTask,
  summarize,
  withFloor,
} from './peer/bench-peer-lib.mjs';
import { repoRoot } from '../tests/e2e/harness/serve-harness.mjs';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const BACKENDS = argv
  .find((a) => a.startsWith('--backends='))
  ?.slice('--backends='.length)
  .split(',') ?? ['wasm'];
const cfg = benchConfig(quick);
const APT = 'apt-get install -y python3-torch';

/** A python3 that imports torch: Debian's /usr/bin/python3 first (python3-torch installs there), then PATH's. */
function torchPython() {
  for (const py of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import torch, numpy; print(torch.__version__)'], { encoding: 'utf8' });
    if (r.status === 0) return { py, version: r.stdout.trim() };
  }
  return null;
}

function ensureTorch() {
  let found = torchPython();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    console.log(`peer: PyTorch is not installed; install it with "sudo ${APT}" (Debian's python3-torch) and run again. Peer skipped.`);
    return null;
  }
  console.log(`peer: PyTorch is not installed; running "${APT}" …`);
  const r = spawnSync('sh', ['-c', `DEBIAN_FRONTEND=noninteractive ${APT}`], { stdio: 'inherit' });
  found = r.status === 0 ? torchPython() : null;
  if (!found) console.log(`peer: "${APT}" did not give a python3 with torch (exit ${r.status}); peer skipped.`);
  return found;
}

let torchFound;
/** `draws`: a draws file (scripts/peer/export-draws.ts) for the paired peer, PyTorch replaying our draws. */
function runPeer(draws = null) {
  const torch = torchFound === undefined ? (torchFound = ensureTorch()) : torchFound;
  if (!torch) return null;
  const threads = availableParallelism();
  const name = draws ? 'paired peer' : 'peer';
  const args = [join(repoRoot, 'scripts', 'peer', 'torch_groundtruth.py'), ...peerArgs(cfg, threads), ...(draws ? ['--draws', draws] : [])];
  console.log(`${name}: torch ${torch.version}, ${threads} threads: ${torch.py} ${args.map((a) => a.replace(repoRoot + '/', '')).join(' ')}`);
  const r = spawnSync(torch.py, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    const finals = out.runs.map((x) => x.final_accuracy);
    const runs = out.runs.map((x) => ({ key: runKey(x.tasks), final: x.final_accuracy }));
    return {
      where: 'pytorch',
      backend: `cpu (${out.threads} threads)`,
      seconds: out.seconds,
      firstResultSeconds: out.firstResultSeconds,
      steps: out.steps,
      dist: summarize(finals),
      runs,
    };
  } catch {
    console.log(`${name}: the PyTorch script failed (exit ${r.status}); skipped.`);
    return null;
  }
}

/** PyTorch on our draws: the initial weights and batch orders the engine draws, exported to a temporary file. */
function runPairedPeer() {
  if (torchFound === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cil-lab-draws-'));
  const file = join(dir, 'draws.json');
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'peer', 'export-draws.ts'), ...(quick ? ['--quick'] : []), file], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) {
      console.log(`paired peer: exporting our draws failed (exit ${r.status}); skipped.`);
      return null;
    }
    return runPeer(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** ms per fused step on this config's batches and per test prediction, in one Node process (scripts/peer/step-time.ts), or null. */
function nodeStepTime() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'peer', 'step-time.ts'), ...(quick ? ['--quick'] : [])], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = (r.stdout ?? '').trim().split('\n');
  try {
    const out = JSON.parse(lines.pop());
    for (const l of lines) console.log(l);
    return out;
  } catch {
    console.log(`node step: timing the fused step failed (exit ${r.status}); no floor for Node.`);
    return null;
  }
}

function runNode() {
  const unit = nodeStepTime();
  const args = cliArgs(cfg, 'wasm');
  console.log(`node: node bin/cil-lab.mjs ${args.join(' ')}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'cil-lab.mjs'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const wall = (performance.now() - t0) / 1000;
  try {
    const out = JSON.parse(r.stdout);
    const finals = out.runs.map((x) => x.final_accuracy);
    const runs = out.runs.map((x) => ({ key: runKey(x.tasks), final: x.final_accuracy }));
    // the training itself (the CLI's own clock); the process's wall time includes loading tsx and the data
    console.log(
      `node: ${out.training.seconds} s training (${wall.toFixed(1)} s wall, process start and data loading included), ${out.training.tasksTrained} tasks trained`,
    );
    const side = {
      where: 'node',
      backend: out.runs[0].backend,
      workers: 1,
      seconds: out.training.seconds,
      firstResultSeconds: NaN,
      steps: out.training.stepsTrained ?? out.training.tasksTrained * stepsPerTask(cfg),
      predictions: out.training.predictions,
      dist: summarize(finals),
      runs,
    };
    return withFloor(side, cfg, unit === null ? null : { 1: unit.msPerStep }, unit === null ? null : { 1: unit.msPerPrediction });
  } catch {
    console.log(`node: cil-lab run failed (exit ${r.status}); Node skipped.`);
    return null;
  }
}

async function runChromium() {
  const { openHarness, withHarnessBrowser } = await import('./bench-harness.mjs');
  return withHarnessBrowser(async (browser, url) => {
    const out = [];
    for (const backend of BACKENDS) {
      const page = await openHarness(browser, url);
      // as the Ground-truth lab trains: one worker per core the browser reports, dealt the sample order one ordering
      // at a time, a prefix trained on one worker handed to the next as a checkpoint
      const r = await page.evaluate(([b, c]) => window.harness.peerBenchPool(b, c).catch((e) => ({ error: String(e?.message ?? e) })), [backend, cfg]);
      await page.close();
      if ('error' in r) {
        console.log(`chromium ${backend}: unavailable (${r.error})`);
        continue;
      }
      const steps = Object.entries(r.msPerStep)
        .map(([w, ms]) => `${ms.toFixed(2)} ms with ${w} worker${w === '1' ? '' : 's'} at once`)
        .join(', ');
      if (steps) console.log(`chromium ${r.backend} step: ${steps} (fused step, this config's batches, warm)`);
      const preds = Object.entries(r.msPerPrediction ?? {})
        .map(([w, ms]) => `${(ms * 1000).toFixed(1)} µs with ${w} worker${w === '1' ? '' : 's'} at once`)
        .join(', ');
      if (preds) console.log(`chromium ${r.backend} prediction: ${preds} (the evaluation's forward pass per test example, warm)`);
      console.log(
        `chromium ${r.backend}: ${r.seconds.toFixed(1)} s for ${r.orderings} orderings on ${r.workers} worker${r.workers === 1 ? '' : 's'}, first result after ${r.firstResultSeconds.toFixed(2)} s; ${r.tasksTrained} of ${r.tasksPlanned} tasks trained; ${r.handoffs.imports} prefixes handed between workers, ${r.handoffs.waits} deal${r.handoffs.waits === 1 ? '' : 's'} waited ${Math.round(r.handoffs.waitedMs)} ms for one`,
      );
      const runs = r.finals.map((final, i) => ({ key: runKey(r.tasks[i]), final }));
      const side = {
        where: 'chromium',
        backend: r.backend,
        workers: r.workers,
        seconds: r.seconds,
        firstResultSeconds: r.firstResultSeconds,
        steps: r.steps,
        predictions: r.predictions,
        dist: summarize(r.finals),
        runs,
      };
      out.push(withFloor(side, cfg, r.msPerStep, r.msPerPrediction));
    }
    return out;
  });
}

console.log(`bench:peer${quick ? ' --quick' : ''}: ${JSON.stringify(cfg)}`);
const peer = argv.includes('--no-peer') ? null : runPeer();
const paired = argv.includes('--no-peer') || argv.includes('--no-paired') ? null : runPairedPeer();
const ours = [];
if (!argv.includes('--no-node')) {
  const n = runNode();
  if (n) ours.push(n);
}
if (!argv.includes('--no-chromium')) {
  if (existsSync('/usr/bin/chromium')) ours.push(...(await runChromium()));
  else console.log('chromium: /usr/bin/chromium is missing (node scripts/ensure-chromium.mjs); Chromium skipped.');
}
const tol = sameTolerance(cfg);
console.log(formatTable(peer, ours, paired, tol));
const floors = formatFloor(ours);
if (floors) console.log(floors);
const chromium = ours.filter((o) => o.where === 'chromium');
if (peer && chromium.length)
  console.log(`ratio: PyTorch ${peer.seconds.toFixed(1)} s / our best Chromium ${Math.min(...chromium.map((o) => o.seconds)).toFixed(1)} s`);
if (paired)
  console.log(
    `paired: PyTorch on our draws (the same initial weights, batch orders and label map); "the same" = within half a test image (${tol.toExponential(1)})`,
  );
console.log(finalJson(peer, ours, paired, tol));
