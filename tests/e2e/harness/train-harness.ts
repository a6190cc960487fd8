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
import type { BenchWorkerApi } from './bench.worker';
import type { PeerBenchConfig } from './peer-bench';

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
  /** scripts/bench-peer.mjs: every ordering of a config on our fast path, with the PyTorch-matching options */
  peerBench: (backend: string, cfg: PeerBenchConfig) => bench().peerBench(backend, cfg),
};

declare global {
  interface Window {
    harness: typeof harness;
  }
}
window.harness = harness;
document.body.dataset.ready = 'true';
