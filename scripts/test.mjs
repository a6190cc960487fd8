#!/usr/bin/env node
/**
 * `npm test`: every check CI needs, stage by stage, then how long each stage took.
 *
 *   1. setup            node scripts/setup.mjs --test (npm ci when node_modules is missing or stale, the built-in data)
 *   2. checks           svelte-check (npm run check) and prettier (npm run format:check) at the same time: each is one
 *                       process on one core, so the two take about as long as the longer one
 *   3. unit tests       npm run test:unit (Vitest)
 *   4. browser tests    npm run test:e2e (Chromium, Playwright) on the two production builds made beside stages 2–3
 *
 * The browser tests need two builds of the app: the site (dist-test/, served by the Playwright config's preview server)
 * and the same site under a sub-path (dist-test-hosted/, for tests/e2e/hosted.spec.ts). Each is one Vite process that
 * leaves a core idle most of its time, so both are made one after the other beside the checks and the unit tests, and
 * the browser stage only waits for what is left of them (PW_DIST and HOSTED_DIST tell Playwright to reuse them).
 *
 * Stops after the first stage that fails, with its exit code. The two checks' outputs are printed whole, one after
 * the other, once both have finished. Uses only Node built-ins (stage 1 may install everything else).
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command; `capture` collects its output instead of passing it through. */
const running = new Set();
function run(cmd, args, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    running.add(child);
    child.on('close', () => running.delete(child));
    let out = '';
    if (capture) {
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const SITE = 'dist-test';
const HOSTED = 'dist-test-hosted';
/** The two builds, one after the other (started after setup, awaited by the browser stage). */
let builds = null;
let buildSeconds = 0;
function startBuilds() {
  const start = Date.now();
  const build = (extra, outDir) => run(npx, ['vite', 'build', ...extra, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], true);
  builds = (async () => {
    const site = await build([], SITE);
    if (site.code !== 0) return site;
    // the sub-path of tests/e2e/hosted.spec.ts
    const hosted = await build(['--base', '/lab/sub/'], HOSTED);
    return { code: hosted.code, out: site.out + hosted.out };
  })().then((r) => {
    buildSeconds = (Date.now() - start) / 1000;
    return r;
  });
}

const stages = [
  {
    name: 'setup (npm ci when needed, built-in data)',
    run: async () => {
      const r = await run(process.execPath, ['scripts/setup.mjs', '--test']);
      if (r.code === 0) startBuilds();
      return r;
    },
  },
  {
    name: 'checks (svelte-check ∥ prettier --check)',
    run: async () => {
      const results = await Promise.all([run(npm, ['run', 'check'], true), run(npm, ['run', 'format:check'], true)]);
      for (const r of results) process.stdout.write(r.out);
      return { code: results.find((r) => r.code !== 0)?.code ?? 0 };
    },
  },
  { name: 'unit tests (vitest)', run: () => run(npm, ['run', 'test:unit']) },
  {
    name: 'browser tests (playwright)',
    run: async () => {
      const built = await builds;
      process.stdout.write(built.out);
      if (built.code !== 0) {
        console.error('npm test: the production build failed (above).');
        return built;
      }
      process.env.PW_DIST = SITE;
      process.env.HOSTED_DIST = HOSTED;
      return run(npm, ['run', 'test:e2e']);
    },
  },
];

function clock(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
const took = [];
const t0 = Date.now();
let code = 0;
for (const stage of stages) {
  const start = Date.now();
  ({ code } = await stage.run());
  took.push([stage.name, (Date.now() - start) / 1000, code]);
  if (code !== 0) break;
}
console.log('\n── npm test: how long each stage took ──');
for (const [name, s, c] of took) console.log(`  ${name.padEnd(44)} ${clock(s).padStart(6)}${c === 0 ? '' : `  (failed, exit ${c})`}`);
if (buildSeconds > 0) console.log(`  ${'(the two builds, beside checks and unit tests)'.padEnd(44)} ${clock(buildSeconds).padStart(6)}`);
console.log(`  ${'all'.padEnd(44)} ${clock((Date.now() - t0) / 1000).padStart(6)}`);
// a stage failed while the builds were still running: stop them
for (const child of running) child.kill();
process.exit(code);
