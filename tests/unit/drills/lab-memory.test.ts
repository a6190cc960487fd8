/**
 * Drill: the memory of each newer lab on its heaviest valid link. scripts/lab-memory.ts builds the link with every
 * size at its bound in src/core/config/limits.ts (checked by validateConfig, as a share link is), trains it through
 * the engine path of that lab's worker on wasm, and reports the peak resident memory of its process (VmHWM): a tab
 * is that worker plus the page, which Chromium kills a little past 4 GB and the issue wants under 1.5 GB. Each lab
 * must peak under 1.2 GB here, leaving the page room. Only `npm run drills` (DRILLS=1) runs the probes, with more
 * data (--full; several minutes a lab): even with the data capped (--short: 10 images per class) the three probes
 * train for minutes, too long for `npm test` (the links' bounds themselves are checked there, in
 * tests/unit/core/config/lab-sections.test.ts). `DRILLS=1 npx vitest run tests/unit/drills/lab-memory.test.ts`, or
 * `npx tsx scripts/lab-memory.ts LAB --short|--full` for one lab (LAB_MEMORY_SHORT=1 runs the drill on --short data). Prints the figures.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..', '..');
const SIZE = process.env.LAB_MEMORY_SHORT ? '--short' : '--full';
/** The most one lab's process may hold (MB): the tab's 1.5 GB less room for the page. */
const BOUND_MB = 1200;

function probe(lab: string): Promise<{ peakMb: number; seconds: number; settings: unknown }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/lab-memory.ts', lab, SIZE], { cwd: ROOT });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err = (err + String(d)).slice(-2000)));
    p.on('close', (code) =>
      code === 0 ? done(JSON.parse(out.trim().split('\n').pop() as string)) : fail(new Error(`lab-memory ${lab} exited ${code}: ${err}`)),
    );
  });
}

describe('drill: memory of the Open-world, Time and Curriculum labs on their heaviest valid links', () => {
  it.runIf(Boolean(process.env.DRILLS))(
    `each peaks under ${BOUND_MB} MB (${SIZE.slice(2)} data)`,
    async () => {
      const figures: string[] = [];
      const peaks: Record<string, number> = {};
      for (const lab of ['open-world', 'time', 'curriculum']) {
        const r = await probe(lab);
        peaks[lab] = r.peakMb;
        figures.push(`${lab} ${r.peakMb} MB in ${r.seconds} s`);
      }
      console.log(
        `memory drill (labs, ${SIZE.slice(2)} data): heaviest valid link per lab, peak resident memory of its process: ${figures.join('; ')}; bound ${BOUND_MB} MB`,
      );
      for (const [lab, mb] of Object.entries(peaks)) expect(mb, lab).toBeLessThan(BOUND_MB);
    },
    // full data: 787 + 1 949 + 415 s on this machine (README, drills), so two hours leave room for a loaded one
    7_200_000,
  );
});
