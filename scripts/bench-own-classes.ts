/**
 * The Your-classes lab's figures (docs/science.md §10, "A hundred classes"), measured in one run and printed with
 * their ratios to the bounds the lab promises:
 *
 * 1. `cil-lab own-classes` teaching 40 drawn classes (30 + 10 PNGs each, scripts/own-classes-drawings.ts) one at a
 *    time with the tiny CLIP vision encoder (public/models/cil-lab/clip-vision-tiny), SimpleCIL, NCM and FeCAM:
 *    wall time and peak memory from /usr/bin/time -v (bound: 60 s, 1.5 GB), and the ms each class took to add;
 * 2. `--orderings all` on 8 such classes (8! = 40 320 orderings, set-cached) for the four closed-form methods: wall
 *    time and peak memory (bound: 30 s), with the range of AIA;
 * 3. adding class 101 to a closed-form head of 100 classes (40 + 10 rows each) in this process, on synthetic
 *    features of 16 (the tiny encoder's) and 512 (CLIP ViT-B/32's) dimensions: ms per method (bound: 100 ms);
 *    RanPAC, whose ridge system grows with the rows seen, adding class 21 to 20 classes (800 rows: the dual form).
 *
 * Timings on a shared machine are noisy: run it when the machine is idle to quote it.
 *
 *   npm run bench:own-classes            (needs /usr/bin/time and public/models/cil-lab from npm run prepare-data)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { closedFormHead } from '../src/core/own-classes/closed-form';
import { ownPtmStrategy } from '../src/core/own-classes/settings';
import { syntheticFeatures } from '../src/core/ptm/synthetic';
import { writeSamplesZip } from '../src/data/own-samples-zip';
import { manyClasses } from './own-classes-drawings';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'bench-own-'));
const ENCODER = join(root, 'public/models/cil-lab/clip-vision-tiny');

/** Runs the CLI under /usr/bin/time -v: its JSON, wall seconds and peak resident MB. */
function timed(args: string[]): { json: Record<string, unknown>; seconds: number; peakMB: number } {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, join(root, 'bin/cil-lab.mjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`cil-lab ${args.join(' ')} failed:\n${r.stderr}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!;
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const peakMB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)![1]) / 1024;
  return { json: JSON.parse(r.stdout), seconds, peakMB };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const load = () => execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim();

try {
  console.log(`load average before: ${load()}`);
  const forty = join(dir, 'forty.zip');
  writeFileSync(forty, writeSamplesZip(manyClasses(40, 30, 10)));
  const a = timed(['own-classes', '--samples', forty, '--encoder', ENCODER, '--precision', 'fp32', '--strategy', 'simplecil,ncm,fecam', '--backend', 'wasm']);
  console.log(`\n1. 40 classes of 30 + 10 samples taught one at a time (tiny encoder; SimpleCIL, NCM, FeCAM; joint head beside)`);
  console.log(
    `   wall ${a.seconds.toFixed(1)} s (bound 60 s: ratio ${(a.seconds / 60).toFixed(2)}), peak ${a.peakMB.toFixed(0)} MB (bound 1536 MB: ${(a.peakMB / 1536).toFixed(2)})`,
  );
  for (const s of a.json.strategies as { strategy: string; finalAccuracy: number; aia: number; teach: { msPerClass: { mean: number; max: number } } }[])
    console.log(
      `   ${s.strategy.padEnd(9)} final ${pct(s.finalAccuracy)}, AIA ${pct(s.aia)}; ms per class mean ${s.teach.msPerClass.mean.toFixed(1)}, max ${s.teach.msPerClass.max.toFixed(1)}`,
    );
  console.log(`   joint head ${pct((a.json.joint as { finalAccuracy: number }).finalAccuracy)}`);

  const eight = join(dir, 'eight.zip');
  writeFileSync(eight, writeSamplesZip(manyClasses(8, 30, 10)));
  const b = timed([
    'own-classes',
    '--samples',
    eight,
    '--encoder',
    ENCODER,
    '--precision',
    'fp32',
    '--strategy',
    'simplecil,ncm,fecam,ranpac',
    '--orderings',
    'all',
    '--backend',
    'wasm',
  ]);
  console.log(`\n2. every ordering of 8 classes (40 320), four closed-form methods`);
  console.log(`   wall ${b.seconds.toFixed(1)} s (bound 30 s: ratio ${(b.seconds / 30).toFixed(2)}), peak ${b.peakMB.toFixed(0)} MB`);
  for (const s of b.json.strategies as {
    strategy: string;
    orderings: { states: number; summary: { orderings: number; aia: { min: number; max: number; mean: number } } };
  }[]) {
    const o = s.orderings;
    console.log(
      `   ${s.strategy.padEnd(9)} ${o.summary.orderings} orderings from ${o.states} states; AIA ${pct(o.summary.aia.min)} – ${pct(o.summary.aia.max)} (mean ${pct(o.summary.aia.mean)})`,
    );
  }

  console.log(`\n3. adding class 101 to a head of 100 classes (40 + 10 synthetic rows each), in this process`);
  for (const d of [16, 512]) {
    const set = syntheticFeatures({ classes: 101, dims: d, trainPerClass: 40, testPerClass: 10, separation: 0.3, seed: 1 });
    const rowsOf = (k: number, split: number) => {
      const out: number[] = [];
      for (let i = 0; i < set.n; i++) if (set.labels[i] === k && set.split[i] === split) out.push(...set.features.subarray(i * d, (i + 1) * d));
      return out;
    };
    const classes = Array.from({ length: 101 }, (_, k) => ({ train: rowsOf(k, 0), test: rowsOf(k, 1) }));
    for (const s of ['simplecil', 'ncm', 'fecam', 'ranpac'] as const) {
      const before = s === 'ranpac' ? 20 : 100;
      const head = closedFormHead(ownPtmStrategy(s)!, d, 0);
      const t0 = performance.now();
      for (let k = 0; k < before; k++) head.add(classes[k], false);
      const first = performance.now() - t0;
      const t1 = performance.now();
      head.add(classes[before]);
      const one = performance.now() - t1;
      console.log(
        `   d = ${String(d).padEnd(3)} ${s.padEnd(9)} class ${before + 1} in ${one.toFixed(1)} ms (bound 100 ms: ratio ${(one / 100).toFixed(2)}); the first ${before} in ${(first / 1000).toFixed(1)} s`,
      );
    }
  }
  console.log(`\nload average after: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
