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
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { PtmStrategy } from '../src/core/ptm/defaults';
import { ptmMethodLabel } from '../src/core/ptm/defaults';
import { allOrderings, preparePtm, runPtmGroundTruth, sampledOrderings } from '../src/core/ptm/ground-truth';
import { syntheticFeatures, type SyntheticFeatureSpec } from '../src/core/ptm/synthetic';
import type { Ordering } from '../src/core/orderings/types';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, only: { type: 'string' }, 'ranpac-m': { type: 'string' } },
});
const quick = values.quick === true;
const only = new Set((values.only ?? '1,2,3').split(',').map((s) => s.trim()));
const ranpacM = (values['ranpac-m'] ?? '2000,1000,500,256').split(',').map(Number);

const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const s3 = (ms: number): number => Math.round(ms) / 1000;

interface Row {
  figure: number;
  method: string;
  orderings: number;
  setupSeconds: number;
  firstResultSeconds: number;
  totalSeconds: number;
  states: number;
  path: string;
  final: { min: number; max: number; mean: number };
  aia: { min: number; max: number; mean: number };
  heapMB: number[];
  peakRssMB: number;
}

async function measure(
  figure: number,
  spec: SyntheticFeatureSpec,
  strategy: PtmStrategy,
  taskSizes: number[],
  orderings: () => { orderings: Iterable<Ordering>; total: number },
): Promise<Row> {
  const features = syntheticFeatures(spec);
  const classes = Array.from({ length: spec.classes }, (_, i) => i);
  const list = orderings();
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  const evaluator = preparePtm({ features, classes, strategy, seed: 0 });
  const setup = performance.now() - t0;
  let first = -1;
  const fin = { min: Infinity, max: -Infinity, sum: 0 };
  const aia = { min: Infinity, max: -Infinity, sum: 0 };
  const heap: number[] = [];
  const summary = await runPtmGroundTruth(
    { evaluator, taskSizes, ...list },
    {
      onRecord: (r) => {
        if (first < 0) first = performance.now() - t0;
        fin.min = Math.min(fin.min, r.finalAccuracy);
        fin.max = Math.max(fin.max, r.finalAccuracy);
        fin.sum += r.finalAccuracy;
        aia.min = Math.min(aia.min, r.aia);
        aia.max = Math.max(aia.max, r.aia);
        aia.sum += r.aia;
      },
      onProgress: () => {
        // after a full GC when node runs with --expose-gc (npm run bench:features-truth does): live memory only
        (globalThis as { gc?: () => void }).gc?.();
        const m = process.memoryUsage();
        heap.push(mb(m.heapUsed + m.arrayBuffers));
      },
      progressEvery: Math.max(1, Math.ceil(list.total / 5)),
    },
  );
  const total = performance.now() - t0;
  const n = summary.orderings;
  const round = (x: number) => Math.round(x * 10000) / 10000;
  return {
    figure,
    method: ptmMethodLabel(strategy),
    orderings: n,
    setupSeconds: s3(setup),
    firstResultSeconds: s3(first),
    totalSeconds: s3(total),
    states: summary.cache.computed,
    path: summary.path,
    final: { min: round(fin.min), max: round(fin.max), mean: round(fin.sum / n) },
    aia: { min: round(aia.min), max: round(aia.max), mean: round(aia.sum / n) },
    heapMB: heap,
    peakRssMB: mb(process.resourceUsage().maxRSS * 1024),
  };
}

function print(r: Row): void {
  const pct = (x: number) => (100 * x).toFixed(2);
  console.log(
    `  ${r.method.padEnd(42)} setup ${r.setupSeconds.toFixed(2).padStart(6)} s  first ${r.firstResultSeconds.toFixed(2).padStart(6)} s  ` +
      `all ${r.totalSeconds.toFixed(2).padStart(6)} s  ${String(r.states).padStart(6)} states  final ${pct(r.final.min)}–${pct(r.final.max)} %  ` +
      `AIA ${pct(r.aia.min)}–${pct(r.aia.max)} %  live ${r.heapMB.join(' → ')} MB  peak RSS ${r.peakRssMB} MB`,
  );
}

const rows: Row[] = [];
const simplecil: PtmStrategy = { id: 'simplecil', options: { metric: 'cosine' } };
const ncm: PtmStrategy = { id: 'simplecil', options: { metric: 'euclidean' } };
const fecam: PtmStrategy = { id: 'fecam', options: { shrinkage: 1 } };
const ranpac = (projection: number): PtmStrategy => ({ id: 'ranpac', options: { projection, lambdaFrom: 'task' } });

console.log(
  `bench:features-truth${quick ? ' --quick (tiny problems: the figures mean nothing)' : ''} — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

if (only.has('1')) {
  const spec: SyntheticFeatureSpec = quick
    ? { classes: 6, dims: 16, trainPerClass: 20, testPerClass: 10, separation: 0.5, seed: 0 }
    : { classes: 6, dims: 512, trainPerClass: 300, testPerClass: 100, separation: 0.12, seed: 0 };
  console.log(
    `1. default-sized: ${spec.classes} classes in 3 tasks (90 orderings, exact), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims}, separation ${spec.separation}`,
  );
  for (const s of [simplecil, ncm, fecam, ...[...new Set(ranpacM.map((m) => (quick ? Math.min(m, 64) : m)))].map(ranpac)]) {
    const r = await measure(1, spec, s, [2, 2, 2], () => allOrderings([2, 2, 2], 1000));
    rows.push(r);
    print(r);
  }
}

if (only.has('2')) {
  const spec: SyntheticFeatureSpec = quick
    ? { classes: 10, dims: 16, trainPerClass: 8, testPerClass: 8, separation: 0.5, seed: 0 }
    : { classes: 10, dims: 512, trainPerClass: 50, testPerClass: 50, separation: 0.2, seed: 0 };
  console.log(`2. 10 classes in 5 tasks, every ordering (113 400, exact), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims}`);
  for (const s of [simplecil, ranpac(quick ? 64 : 2000)]) {
    const r = await measure(2, spec, s, [2, 2, 2, 2, 2], () => allOrderings([2, 2, 2, 2, 2], 200_000));
    rows.push(r);
    print(r);
  }
}

if (only.has('3')) {
  const spec: SyntheticFeatureSpec = quick
    ? { classes: 100, dims: 8, trainPerClass: 5, testPerClass: 5, separation: 1, seed: 0 }
    : { classes: 100, dims: 512, trainPerClass: 500, testPerClass: 100, separation: 0.2, seed: 0 };
  const count = quick ? 200 : 10_000;
  const sizes = Array.from({ length: 10 }, () => 10);
  console.log(
    `3. 100 classes in 10 tasks, ${count} orderings sampled uniformly (seed 0), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims} (FeCAM costs n_test·C·d²/2 = ${((spec.classes * spec.testPerClass * spec.classes * spec.dims ** 2) / 2).toExponential(1)} multiply-adds here and RanPAC an M × M factor per set (≈ 9·10⁴ sets): not run)`,
  );
  for (const s of [simplecil, ncm]) {
    const r = await measure(3, spec, s, sizes, () => sampledOrderings(sizes, count, 0));
    rows.push(r);
    print(r);
  }
}

console.log(JSON.stringify({ bench: 'features-truth', quick, node: process.version, cpus: cpus().length, loadavg: loadavg(), results: rows }));
