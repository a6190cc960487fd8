/**
 * The training-worker harness page (tests and benchmarks only; not part of the app): it exposes the app-layer
 * modules the Ground-truth lab uses — the training client (a real Web Worker over the real engine), the results
 * store (real IndexedDB), the runner and the planner — on `window.harness`, for Playwright to drive with
 * `page.evaluate`. A requestAnimationFrame loop counts frames and the longest gap between two, so a spec can
 * show the page stays responsive while the worker trains, and
 * an interval timer measures the UI thread's event-loop lag. `bench` times a bare training step per backend in
 * another worker (bench.worker.ts), like scripts/bench-train.ts does in Node.
 */
import * as Comlink from 'comlink';
import { createDataClient } from '../../../src/services/data-client';
import { createGroundTruthRunner } from '../../../src/services/ground-truth-runner';
import { createTrainClient, isRunCancelled } from '../../../src/services/train-client';
import { planGroundTruth } from '../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../src/core/orderings/matrix';
import { openResultsStore } from '../../../src/services/results-store';
import { defaultCores } from '../../../src/services/lab-kit/train-pool';
import type { BenchWorkerApi } from './bench.worker';
import { firstTaskGroups, peerOrderings, type PeerBenchConfig } from './peer-bench';

/**
 * rAF frames (drawn by the compositor, so a busy GPU process can delay them) and the page's event-loop lag (a
 * 10 ms interval's worst lateness: how long the UI thread was ever busy).
 */
const frames = { count: 0, last: 0, maxGapMs: 0, maxLagMs: 0 };
let lastInterval = performance.now();
setInterval(() => {
  const t = performance.now();
  frames.maxLagMs = Math.max(frames.maxLagMs, t - lastInterval - 10);
  lastInterval = t;
}, 10);
const out = document.getElementById('frames');
function tick(t: number): void {
  if (frames.last > 0) frames.maxGapMs = Math.max(frames.maxGapMs, t - frames.last);
  frames.last = t;
  frames.count++;
  if (out && frames.count % 30 === 0) out.textContent = String(frames.count);
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// One wrapped remote for the page's life: a second Comlink.wrap of the same worker that is later garbage-collected
// sends the worker a release message, and the worker then stops answering every other wrapper too.
let benchRemote: Comlink.Remote<BenchWorkerApi> | null = null;
function bench(): Comlink.Remote<BenchWorkerApi> {
  benchRemote ??= Comlink.wrap<BenchWorkerApi>(new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' }));
  return benchRemote;
}

const harness = {
  frames,
  /** reset the frame statistics (before a timed section) */
  resetFrames(): void {
    frames.count = 0;
    frames.maxGapMs = 0;
    frames.maxLagMs = 0;
    frames.last = 0;
    lastInterval = performance.now();
  },
  createTrainClient,
  createDataClient,
  isRunCancelled,
  createGroundTruthRunner,
  planGroundTruth,
  matrixFromRows,
  openResultsStore,
  groundTruthBench: (backend: string, mode: 'naive' | 'prefix' | 'population' | 'naive-stock', orderings: 'all' | 'subset', population?: number) =>
    bench().groundTruth(backend, mode, orderings, population),
  bench: (backend: string, opts?: { warmup?: number; minSteps?: number; minMs?: number }) => bench().msPerStep(backend, opts),
  benchFused: (opts?: { warmup?: number; minSteps?: number; minMs?: number }) => bench().fusedMsPerStep(opts),
  /** scripts/bench-peer.mjs: every ordering of a config on our fast path, with the PyTorch-matching options */
  peerBench: (backend: string, cfg: PeerBenchConfig) => bench().peerBench(backend, cfg),
  peerBenchPool,
};

/**
 * scripts/bench-peer.mjs, the way the Ground-truth lab trains: `workers` bench workers (default: the cores the
 * browser reports, as the lab's pool, src/services/lab-kit/train-pool.ts, at most MAX_TRAIN_WORKERS), set up before
 * the clock starts, each pulling the next first-task subtree of the orderings until none is left. Seconds and the
 * first result are the page's clock from the first pull; finals come back in enumeration order, `tasks` the orderings
 * in that order.
 */
async function peerBenchPool(backend: string, cfg: PeerBenchConfig, workers = defaultCores()) {
  const remotes = Array.from({ length: Math.max(1, workers) }, () => ({
    worker: new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' }),
  })).map((w) => ({ ...w, api: Comlink.wrap<BenchWorkerApi>(w.worker) }));
  try {
    const names = await Promise.all(remotes.map((r) => r.api.peerPrepare(backend)));
    const orderings = peerOrderings(cfg);
    const groups = firstTaskGroups(orderings);
    const finals: number[] = new Array(orderings.length).fill(NaN);
    let next = 0;
    let steps = 0;
    let first = Infinity;
    const t0 = performance.now();
    await Promise.all(
      remotes.map(async (r) => {
        while (next < groups.length) {
          const group = groups[next++];
          const start = (performance.now() - t0) / 1000;
          const res = await r.api.peerBench(backend, cfg, group);
          first = Math.min(first, start + res.firstResultSeconds);
          steps += res.steps;
          group.forEach((i, k) => (finals[i] = res.finals[k]));
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return { backend: names[0], seconds, firstResultSeconds: first, steps, finals, tasks: orderings, orderings: orderings.length, workers: remotes.length };
  } finally {
    for (const r of remotes) {
      r.api[Comlink.releaseProxy]();
      r.worker.terminate();
    }
  }
}

declare global {
  interface Window {
    harness: typeof harness;
  }
}
window.harness = harness;
document.body.dataset.ready = 'true';
