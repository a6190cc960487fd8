/**
 * `npm run bench:whole-distribution`: the whole distribution of a pre-trained method over every ordering of 12 classes
 * in 4 tasks (369 600), as `cil-lab run --features F --summary --place …` computes it (docs/science.md §9 "The whole
 * distribution"), timed the way a user meets it: the command line from start to exit under `/usr/bin/time -v` (wall
 * seconds, CPU seconds and peak resident memory), beside `cil-lab --help` (the start-up every command pays) and the
 * seconds the command reports for itself. Then, in this process, the enumeration alone against the per-run records
 * path (`runPtmGroundTruth`, one record per ordering) on the same prepared method, and their ratio.
 *
 * The features: synthetic Gaussian clusters (src/core/ptm/synthetic.ts), 12 classes, 512 dimensions (a CLIP ViT-B
 * embedding), 50 training and 50 test rows per class, separation 0.2 — figure 2 of `npm run bench:features-truth`
 * with two classes more — written once to a temporary .npz. Speed is printed, never asserted; the last line is JSON.
 *
 * RanPAC's states can take a second thread (`--threads 2`, src/cli/parallel-states.ts): its rows are timed with each
 * of `--threads` (default 1,2), the ratio being what a second core buys on this machine as it is.
 *
 *   npm run bench:whole-distribution [-- --methods simplecil,ncm,fecam,ranpac,ranpac-25] [-- --ranpac-m 2000] [-- --threads 1,2] [-- --skip-records]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allOrderings, preparePtm, runPtmGroundTruth } from '../src/core/ptm/ground-truth';
import { accuracyDistribution } from '../src/core/ptm/accuracy-distribution';
import type { PtmStrategy } from '../src/core/ptm/defaults';
import { ptmMethodLabel } from '../src/core/ptm/defaults';
import { syntheticFeatures } from '../src/core/ptm/synthetic';
import { writeFeaturesNpz } from '../src/data/features/npz';

const { values } = parseArgs({
  options: { methods: { type: 'string' }, 'ranpac-m': { type: 'string' }, 'skip-records': { type: 'boolean' }, threads: { type: 'string' } },
});
const root = join(import.meta.dirname, '..');
const M = Number(values['ranpac-m'] ?? 2000);
const METHODS: Record<string, PtmStrategy> = {
  simplecil: { id: 'simplecil', options: { metric: 'cosine' } },
  ncm: { id: 'simplecil', options: { metric: 'euclidean' } },
  fecam: { id: 'fecam', options: { shrinkage: 1 } },
  ranpac: { id: 'ranpac', options: { projection: M, lambdaFrom: 'task' } },
  // RanPAC on half the training rows (--train-per-class 25): its cost is its states' ridge factors, n_S³/6 each
  'ranpac-25': { id: 'ranpac', options: { projection: M, lambdaFrom: 'task' } },
};
const wanted = (values.methods ?? 'simplecil,ncm,fecam,ranpac,ranpac-25').split(',').map((s) => s.trim());

const spec = { classes: 12, dims: 512, trainPerClass: 50, testPerClass: 50, separation: 0.2, seed: 0 };
const features = syntheticFeatures(spec);
const dir = join(tmpdir(), 'cil-lab-bench-whole');
mkdirSync(dir, { recursive: true });
const npz = join(dir, 'features-12x512.npz');
writeFileSync(npz, writeFeaturesNpz(features));
const PLACE = '11,10,9,8,7,6,5,4,3,2,1,0';

interface Timed {
  wall: number;
  cpu: number;
  maxRssMB: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One command under /usr/bin/time -v: wall and CPU seconds, peak RSS. */
function timed(args: string[]): Timed {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, join(root, 'bin/cil-lab.mjs'), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const field = (name: string) => new RegExp(`${name}: (.+)`).exec(r.stderr)?.[1]?.trim() ?? '';
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .map(Number)
    .reduce((a, b) => a * 60 + b, 0);
  return {
    wall: clock,
    cpu: Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')),
    maxRssMB: Math.round(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024),
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

console.log(
  `bench:whole-distribution — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `features: ${spec.classes} classes × ${spec.dims} dimensions, ${spec.trainPerClass}/${spec.testPerClass} rows per class (${npz}); 4 tasks of 3: 369 600 orderings`,
);

const startup = timed(['--help']);
console.log(
  `  cil-lab --help (start-up only)             wall ${startup.wall.toFixed(2).padStart(6)} s  cpu ${startup.cpu.toFixed(2).padStart(6)} s  peak RSS ${startup.maxRssMB} MB`,
);

// RanPAC's states can take a second thread (src/cli/parallel-states.ts): timed with each of these
const threadCounts = (values.threads ?? '1,2').split(',').map(Number);
const runs = wanted.flatMap((id) => (id.startsWith('ranpac') ? threadCounts.map((t) => ({ id, threads: t })) : [{ id, threads: 1 }]));
const rows: Record<string, unknown>[] = [];
for (const { id, threads } of runs) {
  const strategy = METHODS[id];
  if (!strategy) throw new Error(`unknown method ${id}`);
  const options =
    strategy.id === 'ranpac'
      ? ['--strategy-options', `projection=${M},lambdaFrom=task`]
      : strategy.id === 'simplecil'
        ? ['--strategy-options', `metric=${strategy.options.metric}`]
        : [];
  const rows25 = id === 'ranpac-25' ? ['--train-per-class', '25'] : [];
  const t = timed([
    'run',
    '--features',
    npz,
    '--tasks',
    '4',
    '--strategy',
    strategy.id,
    ...options,
    ...rows25,
    '--summary',
    '--place',
    PLACE,
    '--threads',
    String(threads),
  ]);
  if (t.code !== 0) {
    console.log(`  ${ptmMethodLabel(strategy)}: exit ${t.code}\n${t.stderr.slice(-2000)}`);
    continue;
  }
  const out = JSON.parse(t.stdout) as {
    seconds: number;
    summary: { orderings: number; states: number; aia: { min: number; max: number } };
    place: { percentile: number };
  };
  const row = {
    method: `${ptmMethodLabel(strategy)}${rows25.length ? ', 25 training rows per class' : ''}${strategy.id === 'ranpac' ? `, ${threads} thread${threads === 1 ? '' : 's'}` : ''}`,
    orderings: out.summary.orderings,
    states: out.summary.states,
    wallSeconds: t.wall,
    cpuSeconds: Math.round(t.cpu * 100) / 100,
    inCommandSeconds: out.seconds,
    maxRssMB: t.maxRssMB,
    barSeconds: 10,
    wallOverBar: Math.round((t.wall / 10) * 100) / 100,
    aia: [out.summary.aia.min, out.summary.aia.max],
    placedPercentile: out.place.percentile,
  };
  rows.push(row);
  console.log(
    `  ${row.method.padEnd(60)} wall ${t.wall.toFixed(2).padStart(6)} s  cpu ${t.cpu.toFixed(2).padStart(6)} s  in the command ${out.seconds.toFixed(2).padStart(6)} s  peak RSS ${t.maxRssMB} MB  ` +
      `${out.summary.states} states  AIA ${(100 * out.summary.aia.min).toFixed(2)}–${(100 * out.summary.aia.max).toFixed(2)} %  wall / 10 s = ${row.wallOverBar}`,
  );
}

// in this process: the enumeration alone against one record per ordering, on the same prepared method
const inProcess: Record<string, unknown>[] = [];
if (!values['skip-records']) {
  const classes = Array.from({ length: spec.classes }, (_, i) => i);
  for (const id of wanted.filter((m) => !m.startsWith('ranpac'))) {
    const evaluator = preparePtm({ features, classes, strategy: METHODS[id], seed: 0 });
    // the states first (both paths then only look them up)
    await accuracyDistribution({ evaluator, taskSizes: [3, 3, 3, 3], orderings: { kind: 'all' } });
    const t0 = performance.now();
    await accuracyDistribution({ evaluator, taskSizes: [3, 3, 3, 3], orderings: { kind: 'all' } });
    const t1 = performance.now();
    let n = 0;
    await runPtmGroundTruth({ evaluator, taskSizes: [3, 3, 3, 3], ...allOrderings([3, 3, 3, 3], 400_000) }, { onRecord: () => void n++ });
    const t2 = performance.now();
    const r = {
      method: ptmMethodLabel(METHODS[id]),
      summarySeconds: (t1 - t0) / 1000,
      recordsSeconds: (t2 - t1) / 1000,
      ratio: (t2 - t1) / (t1 - t0),
      records: n,
    };
    inProcess.push(r);
    console.log(
      `  in-process, ${r.method.padEnd(32)} summary ${r.summarySeconds.toFixed(3)} s  one record per ordering ${r.recordsSeconds.toFixed(2)} s  (${r.ratio.toFixed(1)}× the summary)`,
    );
  }
}
console.log(
  JSON.stringify({ bench: 'whole-distribution', node: process.version, cpus: cpus().length, loadavg: loadavg(), startup, results: rows, inProcess }, (k, v) =>
    k === 'stdout' || k === 'stderr' ? undefined : v,
  ),
);
