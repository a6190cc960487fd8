// Shared by the browser benchmarks (bench-train-browser.mjs, bench-groundtruth-browser.mjs): run their Node half and
// pass its lines through, and open the training-worker harness (tests/e2e/harness/) in Debian's Chromium with
// WebGPU on (SwiftShader here), served locally.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { buildHarness, repoRoot, serveHarness } from '../tests/e2e/harness/serve-harness.mjs';

/** Run `tsx scripts/<script> …args`, print its lines, and return the `results` of its last (JSON) line. */
export function nodeHalf(script, args = []) {
  const path = join(repoRoot, 'scripts', script);
  if (!existsSync(path)) {
    console.log(`node: scripts/${script} is not there; Node figures skipped`);
    return [];
  }
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, [path, ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
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

/** Build and serve the harness, launch Chromium, call `use(browser, url)`, and close everything afterwards. */
export async function withHarnessBrowser(use) {
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
  try {
    return await use(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** A harness page, ready for `window.harness`. */
export async function openHarness(browser, url) {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}
