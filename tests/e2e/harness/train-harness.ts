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
import { createTrainClient, isRunCancelled, type JobInput } from '../../../src/services/train-client';
import { planGroundTruth } from '../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../src/core/orderings/matrix';
import { openResultsStore } from '../../../src/services/results-store';
import { defaultCores } from '../../../src/services/lab-kit/train-pool';
import type { BenchWorkerApi } from './bench.worker';
import { peerOrderings, peerSampleOrder, type PeerBenchConfig } from './peer-bench';
import { createDealer } from '../../../src/core/ground-truth/deal';
import type { SharedCheckpoint } from '../../../src/engine/shared-train';

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
  /** scripts/bench-features-truth-browser.mjs: the pre-trained methods' ground truth by class set */
  ptmTruth: (opts: { quick: boolean; only: string[]; ranpacM: number[] }) => bench().ptmTruth(opts),
  /** scripts/bench-peer.mjs: every ordering of a config on our fast path, with the PyTorch-matching options */
  peerBench: (backend: string, cfg: PeerBenchConfig, options?: { levels?: boolean; stopAfterSeconds?: number }) =>
    bench().peerBench(backend, cfg, undefined, options),
  /** scripts/bench-gpu.mjs: `auto` by measurement on the config's workload (the backend the lab would choose, and why) */
  peerMeasure: (cfg: PeerBenchConfig) => bench().measure(cfg, defaultCores()),
  peerBenchPool,
  /** scripts/bench-gpu.mjs: the WebGPU adapter a training worker gets, and the orderings `peerBench`'s finals are in */
  gpuAdapter: () => bench().gpuAdapter(),
  peerOrderings,
  /**
   * scripts/bench-features-browser.mjs: one feature job (engine/features/job.ts) on a fresh training worker, timed:
   * the seconds of the whole job and the images per second of its extraction stage (its last progress event).
   */
  async featureBench(input: JobInput<'features'>): Promise<{ seconds: number; imagesPerSecond: number | null; n: number; d: number; device: string }> {
    const client = createTrainClient();
    try {
      let last: number | null = null;
      const t0 = performance.now();
      const out = await client.job('features', input, (e) => {
        if (e.kind === 'progress' && e.stage === 'extract' && e.done === e.total) last = e.perSecond;
      });
      return { seconds: (performance.now() - t0) / 1000, imagesPerSecond: last, n: out.set.n, d: out.set.d, device: out.info.device };
    } finally {
      client.dispose();
    }
  },
};

/**
 * scripts/bench-peer.mjs, the way the Ground-truth lab trains: `workers` bench workers (default: the cores the
 * browser reports, as the lab's pool, src/services/lab-kit/train-pool.ts, at most MAX_TRAIN_WORKERS), set up before
 * the clock starts, dealt the orderings one by one in the sample order by the lab's dealer
 * (src/core/ground-truth/deal.ts: a prefix trained on one worker is handed to the next as a checkpoint, never
 * trained twice). Seconds and the first result are the page's clock from the first deal; finals come back in
 * enumeration order, `tasks` the orderings in that order.
 *
 * Before the pool trains, the fused step is timed on the config's batches (peer-bench.ts `timeConfigSteps`) in one
 * worker alone and then in all of them at once (`msPerStep` by worker count, each the mean over the workers): the
 * unit of the benchmark's floor; `msPerPrediction` likewise for the evaluation's forward pass, and `predictions` the
 * test predictions the workers made. `steps` are the optimiser steps the workers trained; `handoffs` the dealer's
 * checkpoints passed on, the deals that waited for one, and how long (ms).
 */
async function peerBenchPool(backend: string, cfg: PeerBenchConfig, workers = defaultCores(), stepMs = 3000) {
  const remotes = Array.from({ length: Math.max(1, workers) }, () => ({
    worker: new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' }),
  })).map((w) => ({ ...w, api: Comlink.wrap<BenchWorkerApi>(w.worker) }));
  try {
    const names = await Promise.all(remotes.map((r) => r.api.peerPrepare(backend)));
    const msPerStep: Record<string, number> = {};
    const msPerPrediction: Record<string, number> = {};
    if (backend === 'wasm') {
      const alone = await remotes[0].api.peerStepTime(cfg, { minMs: stepMs });
      msPerStep['1'] = alone.msPerStep;
      msPerPrediction['1'] = alone.msPerPrediction;
      if (remotes.length > 1) {
        const each = await Promise.all(remotes.map((r) => r.api.peerStepTime(cfg, { minMs: stepMs })));
        msPerStep[String(remotes.length)] = each.reduce((a, e) => a + e.msPerStep, 0) / each.length;
        msPerPrediction[String(remotes.length)] = each.reduce((a, e) => a + e.msPerPrediction, 0) / each.length;
      }
    }
    const orderings = peerOrderings(cfg);
    const dealer = createDealer<SharedCheckpoint>(orderings, peerSampleOrder(cfg), remotes.length, () => performance.now());
    const finals: number[] = new Array(orderings.length).fill(NaN);
    let first = Infinity;
    const t0 = performance.now();
    const outs = await Promise.all(
      remotes.map((r, k) =>
        r.api
          .peerPull(
            cfg,
            Comlink.proxy(() => dealer.next(k)),
            Comlink.proxy((c: SharedCheckpoint) => dealer.publish(k, c.key, c)),
            Comlink.proxy(() => (first = Math.min(first, (performance.now() - t0) / 1000))),
          )
          .catch((e: unknown) => {
            dealer.stop();
            throw e;
          }),
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    for (const o of outs) for (const d of o.done) finals[d.index] = d.final;
    const { imports, waits, waitedMs } = dealer.stats;
    return {
      backend: names[0],
      seconds,
      firstResultSeconds: first,
      steps: outs.reduce((a, o) => a + o.stepsTrained, 0),
      predictions: outs.reduce((a, o) => a + o.predictions, 0),
      tasksTrained: outs.reduce((a, o) => a + o.tasksTrained, 0),
      tasksPlanned: dealer.tasksPlanned,
      msPerStep,
      msPerPrediction,
      handoffs: { imports, waits, waitedMs },
      finals,
      tasks: orderings,
      orderings: orderings.length,
      workers: remotes.length,
    };
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
