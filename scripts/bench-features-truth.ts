/**
 * `npm run bench:features-truth`: the ground truth of the pre-trained methods on frozen features by class set
 * (src/core/ptm, docs/science.md §9), the three speed figures of the issue, in Node, on synthetic Gaussian-cluster
 * features (src/core/ptm/synthetic.ts). Speed is printed, never asserted; the last line is JSON.
 *
 *   1. the default-sized problem: 6 classes in 3 tasks (90 orderings), 300 training / 100 test rows per class (the
 *      config's data subset), 512 dimensions (a CLIP ViT-B image embedding); every method, RanPAC at several M;
 *   2. every one of the 113 400 orderings of 10 classes in 5 tasks, SimpleCIL and RanPAC (M = 2000), 50 / 50 rows per
 *      class, 512 dimensions;
 *   3. 10 000 sampled orderings of 100 classes in 10 tasks, CIFAR-100-sized: 500 / 100 rows per class, 512
 *      dimensions, SimpleCIL and NCM, with the heap sampled as the orderings go (the cache is bounded).
 *
 * Each figure: seconds to set the method up (class means, covariances, RanPAC's projection and kernel), to the
 * first ordering's record, and for all; states computed (the path taken); accuracy spread over the orderings; live
 * memory (heap + typed arrays after a forced GC) at five points of the run, and the peak RSS of the process.
 *
 *   npm run bench:features-truth [-- --quick] [-- --only 1,2,3] [-- --ranpac-m 2000,1000,500,256]
 *   (= node --expose-gc --import tsx scripts/bench-features-truth.ts …)
 *
 * --quick shrinks every problem (a smoke run of the script itself, seconds); its figures mean nothing.
 * The same figures in Chromium (a worker of the harness page), printed beside these:
 * `node scripts/bench-features-truth-browser.mjs --with-node` (npm run bench:features-truth-browser).
 * The measurements live in scripts/lib/ptm-truth-bench.ts, shared with the Chromium half.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { mb, runTruthBench, type Row } from './lib/ptm-truth-bench';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, only: { type: 'string' }, 'ranpac-m': { type: 'string' } },
});
const quick = values.quick === true;

function print(r: Row): void {
  const pct = (x: number) => (100 * x).toFixed(2);
  console.log(
    `  ${r.method.padEnd(42)} setup ${r.setupSeconds.toFixed(2).padStart(6)} s  first ${r.firstResultSeconds.toFixed(2).padStart(6)} s  ` +
      `all ${r.totalSeconds.toFixed(2).padStart(6)} s  ${String(r.states).padStart(6)} states  final ${pct(r.final.min)}–${pct(r.final.max)} %  ` +
      `AIA ${pct(r.aia.min)}–${pct(r.aia.max)} %  live ${r.heapMB.join(' → ')} MB  peak RSS ${r.peakRssMB} MB`,
  );
}

console.log(
  `bench:features-truth${quick ? ' --quick (tiny problems: the figures mean nothing)' : ''} — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const rows = await runTruthBench({
  quick,
  only: (values.only ?? '1,2,3').split(',').map((s) => s.trim()),
  ranpacM: (values['ranpac-m'] ?? '2000,1000,500,256').split(',').map(Number),
  // after a full GC when node runs with --expose-gc (npm run bench:features-truth does): live memory only
  liveMB: () => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    return mb(m.heapUsed + m.arrayBuffers);
  },
  peakMB: () => mb(process.resourceUsage().maxRSS * 1024),
  onHeading: (text) => console.log(text),
  onRow: print,
});
console.log(JSON.stringify({ bench: 'features-truth', quick, node: process.version, cpus: cpus().length, loadavg: loadavg(), results: rows }));
