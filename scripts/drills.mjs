#!/usr/bin/env node
/**
 * `npm run drills`: every drill, the long ones included, then a table of their figures.
 *
 *   node scripts/drills.mjs            unit drills (vitest, tests/unit/drills/) and e2e drills (playwright, tests/e2e/drills-*.spec.ts)
 *   node scripts/drills.mjs --unit     only the unit drills
 *   node scripts/drills.mjs --e2e      only the e2e drills
 *
 * DRILLS=1 turns on the long variants (the 500-ordering memory drill, 6 000 lab-link mutations, the CLI vectors again
 * in a child process, the labs' memory probes on more data); node runs with --expose-gc so the memory drill
 * reads the heap after a forced GC. PW_PORT is passed through (the e2e drills build into dist-<port>). A drill prints
 * its figures as one summary line starting with its name (e.g. "link fuzz:", "memory drill (…):", "surface drill (…):"
 * for the hostile files of the new surfaces: PNG and .npz bombs, lying zip directories, the samples zip for 1 to 8
 * classes, long lessons through Print / PDF, Your classes killed while it trains); this script collects those lines. Exit code: non-zero when any drill failed.
 */
import { spawn } from 'node:child_process';

const args = new Set(process.argv.slice(2));
const only = args.has('--unit') ? 'unit' : args.has('--e2e') ? 'e2e' : 'all';
const env = { ...process.env, DRILLS: '1', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim(), FORCE_COLOR: '0' };

/** The summary lines the drills print (first line of each console.log). */
const SUMMARY =
  /^(link fuzz|CLI drill|broken-upload drill|memory drill|sweep drill|long-task drill|kill drill|markup drill|surface drill|page surface drill)\b.*$/;

function run(cmd, argv) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = [];
    const take = (chunk, out) => {
      out.write(chunk);
      for (const l of chunk.toString().split('\n')) {
        const clean = l.replace(/\x1b\[[0-9;]*m/g, '').trim();
        if (SUMMARY.test(clean)) lines.push(clean);
      }
    };
    child.stdout.on('data', (c) => take(c, process.stdout));
    child.stderr.on('data', (c) => take(c, process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, lines, seconds: (Date.now() - t0) / 1000 }));
  });
}

const results = [];
if (only !== 'e2e') results.push({ what: 'unit drills (vitest tests/unit/drills)', ...(await run('npx', ['vitest', 'run', 'tests/unit/drills'])) });
if (only !== 'unit') results.push({ what: 'e2e drills (playwright tests/e2e/drills-*)', ...(await run('npx', ['playwright', 'test', 'tests/e2e/drills-'])) });

console.log('\n══ Drills ══');
for (const r of results) {
  console.log(`\n${r.what}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s`);
  for (const l of r.lines) console.log(`  • ${l}`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
