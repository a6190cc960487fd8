#!/usr/bin/env node
/**
 * `node scripts/bench-train-browser.mjs`: milliseconds per training step in Chromium for each TensorFlow.js backend
 * (webgpu, webgl, wasm, cpu) — the CPCF paper's MLP 784-256-128-10, batch 64, Adam; forward + backward + update with
 * the loss read back, exactly as scripts/bench-train.ts measures it in Node. It runs in a Web Worker of the
 * training-worker harness page (tests/e2e/harness/bench.worker.ts), built with Vite and served locally
 * (tests/e2e/harness/serve-harness.mjs), in Debian's /usr/bin/chromium with --enable-unsafe-webgpu (WebGPU on
 * SwiftShader here: no GPU).
 *
 * Prints one line per backend and, last, `{"results": [{"backend", "where": "chromium", "msPerStep"}]}`.
 * `--with-node` first runs the Node half (`tsx scripts/bench-train.ts`, when it exists) and prints the merged
 * JSON last: that is `npm run bench:train`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { buildHarness, repoRoot, serveHarness } from '../tests/e2e/harness/serve-harness.mjs';

const BACKENDS = ['webgpu', 'webgl', 'wasm', 'cpu'];
const withNode = process.argv.includes('--with-node');

/** The Node half: its lines pass through; its last line is its JSON summary. */
function nodeResults() {
  const script = join(repoRoot, 'scripts', 'bench-train.ts');
  if (!existsSync(script)) {
    console.log('node: scripts/bench-train.ts is not there; Node figures skipped');
    return [];
  }
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, [script], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = (run.stdout ?? '').trim().split('\n');
  const last = lines.pop() ?? '';
  for (const l of lines) console.log(l);
  try {
    return JSON.parse(last).results ?? [];
  } catch {
    console.log(`node: the Node benchmark did not end with its JSON summary (exit ${run.status}): ${last}`);
    return [];
  }
}

async function browserResults() {
  const exe = '/usr/bin/chromium';
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run node scripts/ensure-chromium.mjs`);
  if (!existsSync(join(repoRoot, 'public', 'tfjs'))) {
    spawnSync(process.execPath, [join(repoRoot, 'scripts', 'prepare-tfjs-wasm.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  }
  const server = await serveHarness(await buildHarness());
  const browser = await chromium.launch({
    executablePath: exe,
    args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const results = [];
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    const version = browser.version();
    for (const backend of BACKENDS) {
      const r = await page.evaluate((b) => window.harness.bench(b).then((x) => x, (e) => ({ error: String(e?.message ?? e) })), backend);
      if ('error' in r) {
        console.log(`chromium ${backend}: unavailable (${r.error})`);
        continue;
      }
      const ms = Math.round(r.msPerStep * 100) / 100;
      results.push({ backend, where: 'chromium', msPerStep: ms });
      console.log(`chromium ${backend}: ${r.msPerStep.toFixed(2)} ms/step over ${r.steps} steps (MLP 784-256-128-10, batch 64, Adam; Chromium ${version}, in a worker)`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return results;
}

const results = [...(withNode ? nodeResults() : []), ...(await browserResults())];
console.log(JSON.stringify({ results }));
