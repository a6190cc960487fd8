/**
 * The measurements of `npm run bench:features-truth` (scripts/bench-features-truth.ts, Node) and of its Chromium half
 * (scripts/bench-features-truth-browser.mjs, in a worker of the harness page), one code for both: the ground truth of
 * the pre-trained methods by class set on synthetic Gaussian-cluster features, the three figures. No Node
 * API here: memory and the printing come from the caller.
 */
import type { PtmStrategy } from '../../src/core/ptm/defaults';
import { ptmMethodLabel } from '../../src/core/ptm/defaults';
import { allOrderings, preparePtm, runPtmGroundTruth, sampledOrderings } from '../../src/core/ptm/ground-truth';
import { syntheticFeatures, type SyntheticFeatureSpec } from '../../src/core/ptm/synthetic';
import type { Ordering } from '../../src/core/orderings/types';

export interface TruthBenchOptions {
  quick: boolean;
  /** figures to run ('1', '2', '3') */
  only: string[];
  /** RanPAC's M in figure 1 */
  ranpacM: number[];
  /** live memory in MB after a GC where the runtime allows one (null: not measurable here) */
  liveMB?: () => number | null;
  /** peak resident memory in MB (null: not measurable here) */
  peakMB?: () => number | null;
  /** a figure's heading, before its rows */
  onHeading?: (text: string) => void;
  onRow?: (row: Row) => void;
}

export const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
export const s3 = (ms: number): number => Math.round(ms) / 1000;

export interface Row {
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
  peakRssMB: number | null;
}

async function measure(
  o: TruthBenchOptions,
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
        const live = o.liveMB?.() ?? null;
        if (live !== null) heap.push(live);
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
    peakRssMB: o.peakMB?.() ?? null,
  };
}

/** Runs the figures asked for; returns every row. */
export async function runTruthBench(o: TruthBenchOptions): Promise<Row[]> {
  const { quick, ranpacM } = o;
  const only = new Set(o.only);
  const rows: Row[] = [];
  const simplecil: PtmStrategy = { id: 'simplecil', options: { metric: 'cosine' } };
  const ncm: PtmStrategy = { id: 'simplecil', options: { metric: 'euclidean' } };
  const fecam: PtmStrategy = { id: 'fecam', options: { shrinkage: 1 } };
  const ranpac = (projection: number): PtmStrategy => ({ id: 'ranpac', options: { projection, lambdaFrom: 'task' } });

  if (only.has('1')) {
    const spec: SyntheticFeatureSpec = quick
      ? { classes: 6, dims: 16, trainPerClass: 20, testPerClass: 10, separation: 0.5, seed: 0 }
      : { classes: 6, dims: 512, trainPerClass: 300, testPerClass: 100, separation: 0.12, seed: 0 };
    o.onHeading?.(
      `1. default-sized: ${spec.classes} classes in 3 tasks (90 orderings, exact), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims}, separation ${spec.separation}`,
    );
    for (const s of [simplecil, ncm, fecam, ...[...new Set(ranpacM.map((m) => (quick ? Math.min(m, 64) : m)))].map(ranpac)]) {
      const r = await measure(o, 1, spec, s, [2, 2, 2], () => allOrderings([2, 2, 2], 1000));
      rows.push(r);
      o.onRow?.(r);
    }
  }

  if (only.has('2')) {
    const spec: SyntheticFeatureSpec = quick
      ? { classes: 10, dims: 16, trainPerClass: 8, testPerClass: 8, separation: 0.5, seed: 0 }
      : { classes: 10, dims: 512, trainPerClass: 50, testPerClass: 50, separation: 0.2, seed: 0 };
    o.onHeading?.(`2. 10 classes in 5 tasks, every ordering (113 400, exact), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims}`);
    for (const s of [simplecil, ranpac(quick ? 64 : 2000)]) {
      const r = await measure(o, 2, spec, s, [2, 2, 2, 2, 2], () => allOrderings([2, 2, 2, 2, 2], 200_000));
      rows.push(r);
      o.onRow?.(r);
    }
  }

  if (only.has('3')) {
    const spec: SyntheticFeatureSpec = quick
      ? { classes: 100, dims: 8, trainPerClass: 5, testPerClass: 5, separation: 1, seed: 0 }
      : { classes: 100, dims: 512, trainPerClass: 500, testPerClass: 100, separation: 0.2, seed: 0 };
    const count = quick ? 200 : 10_000;
    const sizes = Array.from({ length: 10 }, () => 10);
    o.onHeading?.(
      `3. 100 classes in 10 tasks, ${count} orderings sampled uniformly (seed 0), ${spec.trainPerClass} / ${spec.testPerClass} rows per class, d = ${spec.dims} (FeCAM costs n_test·C·d²/2 = ${((spec.classes * spec.testPerClass * spec.classes * spec.dims ** 2) / 2).toExponential(1)} multiply-adds here and RanPAC an M × M factor per set (≈ 9·10⁴ sets): not run)`,
    );
    for (const s of [simplecil, ncm]) {
      const r = await measure(o, 3, spec, s, sizes, () => sampledOrderings(sizes, count, 0));
      rows.push(r);
      o.onRow?.(r);
    }
  }

  return rows;
}
