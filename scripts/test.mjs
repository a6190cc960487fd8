#!/usr/bin/env node
/**
 * `npm test`: every check CI needs, stage by stage, then how long each stage took.
 *
 *   1. setup            node scripts/setup.mjs --test (npm ci when node_modules is missing or stale, the built-in data)
 *   2. checks           svelte-check (npm run check) and prettier (npm run format:check) at the same time: each is one
 *                       process on one core, so the two take about as long as the longer one
 *   3. unit tests       npm run test:unit (Vitest)
 *   4. browser tests    npm run test:e2e (Chromium, one production build, Playwright)
 *
 * Stops after the first stage that fails, with its exit code. The two checks' outputs are printed whole, one after
 * the other, once both have finished. Uses only Node built-ins (stage 1 may install everything else).
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command; `capture` collects its output instead of passing it through. */
function run(cmd, args, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) {
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const stages = [
  { name: 'setup (npm ci when needed, built-in data)', run: () => run(process.execPath, ['scripts/setup.mjs', '--test']) },
  {
    name: 'checks (svelte-check ∥ prettier --check)',
    run: async () => {
      const results = await Promise.all([run(npm, ['run', 'check'], true), run(npm, ['run', 'format:check'], true)]);
      for (const r of results) process.stdout.write(r.out);
      return { code: results.find((r) => r.code !== 0)?.code ?? 0 };
    },
  },
  { name: 'unit tests (vitest)', run: () => run(npm, ['run', 'test:unit']) },
  { name: 'browser tests (build + playwright)', run: () => run(npm, ['run', 'test:e2e']) },
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
console.log(`  ${'all'.padEnd(44)} ${clock((Date.now() - t0) / 1000).padStart(6)}`);
process.exit(code);
