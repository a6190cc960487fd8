/// <reference lib="webworker" />
/**
 * The benchmarks' browser worker: milliseconds per training step (scripts/bench-train-browser.mjs; the same step
 * as scripts/bench-train.ts times in Node, step-bench.ts) and the ground-truth benchmark
 * (scripts/bench-groundtruth-browser.mjs, groundtruth-bench.ts), and the pre-trained methods' ground truth
 * (scripts/bench-features-truth-browser.mjs, scripts/lib/ptm-truth-bench.ts). Runs in a worker because the app trains in one
 * (webgl then draws on an OffscreenCanvas, as in the app).
 */
import * as Comlink from 'comlink';
import { isSoftwareGpu, selectBackend, setWasmBase, type BackendName } from '../../../src/engine/backend';
import { ensureGradients } from '../../../src/engine/gradients';
import { fromDecodedDataset } from '../../../src/engine/dataset';
import type { ImageDataset } from '../../../src/engine/types';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { benchDataset, benchMode, type BenchMode, type BenchModeResult } from './groundtruth-bench';
import { peerBench, peerBenchPull, peerOrderings, timeConfigSteps, type PeerBenchConfig, type PeerBenchResult, type PeerPullResult } from './peer-bench';
import { measureBackends, type MeasuredChoice } from '../../../src/engine/gpu/measure';
import type { SharedCheckpoint, SharedNext } from '../../../src/engine/shared-train';
import { timeFusedStep, timeTrainingStep } from './step-bench';
import { runTruthBench, type Row as TruthRow } from '../../../scripts/lib/ptm-truth-bench';

setWasmBase(`${import.meta.env.BASE_URL}tfjs/`);

const api = {
  /** scripts/bench-features-truth-browser.mjs: the pre-trained methods' ground truth by class set, in this worker */
  async ptmTruth(opts: { quick: boolean; only: string[]; ranpacM: number[] }): Promise<TruthRow[]> {
    return runTruthBench(opts);
  },
  async msPerStep(
    backend: string,
    opts: { warmup?: number; minSteps?: number; minMs?: number } = {},
  ): Promise<{ backend: string; msPerStep: number; steps: number }> {
    const info = await selectBackend(backend as BackendName, { strict: true });
    return { backend: info.name, ...(await timeTrainingStep(opts)) };
  },
  /** The same step on the fused kernels the trainer uses on wasm (step-bench.ts `timeFusedStep`). */
  async fusedMsPerStep(opts: { warmup?: number; minSteps?: number; minMs?: number } = {}): Promise<{ msPerStep: number; steps: number }> {
    return timeFusedStep(opts);
  },
  /** The ground-truth benchmark (groundtruth-bench.ts): one way of training, on one backend, in this worker. */
  async groundTruth(backend: string, mode: BenchMode, orderings: 'all' | 'subset', population = 8): Promise<BenchModeResult & { backend: string }> {
    const info = await selectBackend(backend as BackendName, { strict: true });
    await ensureGradients();
    gtDataset ??= benchDataset(fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', fetchBytes)));
    return { ...(await benchMode(gtDataset, mode, orderings, population)), backend: info.name };
  },
  /** scripts/bench-peer.mjs (peer-bench.ts): every ordering of a config on our fast path, in this worker. */
  async peerBench(
    backend: string,
    cfg: PeerBenchConfig,
    indices?: number[],
    options: { levels?: boolean; stopAfterSeconds?: number } = {},
  ): Promise<PeerBenchResult & { backend: string }> {
    const info = await selectBackend(backend as BackendName, { strict: true });
    await ensureGradients();
    fashion ??= fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', fetchBytes));
    return { ...(await peerBench(fashion, cfg, indices, options)), backend: info.name };
  },
  /** `auto` by measurement (engine/gpu/measure.ts) on the config's workload in this worker: the choice and its reason. */
  async measure(cfg: PeerBenchConfig, cpuWorkers: number): Promise<MeasuredChoice> {
    const models = peerOrderings(cfg).length;
    return measureBackends(
      { spec: { kind: 'mlp', inputShape: [28, 28, 1], outputs: cfg.classes, hidden: cfg.hidden }, batchSize: cfg.batchSize, models, plain: true, bytes: true },
      { cpuWorkers },
    );
  },
  /** One worker of the pool in pull mode (peer-bench.ts `peerBenchPull`): the page deals, this worker trains. */
  async peerPull(
    cfg: PeerBenchConfig,
    next: () => Promise<SharedNext>,
    onCheckpoint: (c: SharedCheckpoint) => void,
    onDone: (index: number) => void,
  ): Promise<PeerPullResult> {
    if (!fashion) throw new Error('peerPrepare first.');
    return peerBenchPull(
      fashion,
      cfg,
      () => next(),
      (c) => void Promise.resolve(onCheckpoint(c)).catch(() => {}),
      (i) => void Promise.resolve(onDone(i)).catch(() => {}),
    );
  },
  /** The fused step's time on the config's batches (peer-bench.ts `timeConfigSteps`), in this worker. */
  async peerStepTime(cfg: PeerBenchConfig, opts: { warmupMs?: number; minMs?: number } = {}): Promise<Awaited<ReturnType<typeof timeConfigSteps>>> {
    if (!fashion) throw new Error('peerPrepare first.');
    return timeConfigSteps(fashion, cfg, opts);
  },
  /**
   * The WebGPU adapter this worker gets (what tfjs's webgpu backend trains on): vendor, architecture, device,
   * description, and whether it is a software one (SwiftShader here; src/engine/backend.ts isSoftwareGpu). Null
   * without WebGPU.
   */
  async gpuAdapter(): Promise<{ vendor: string; architecture: string; device: string; description: string; software: boolean } | null> {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    const adapter = (await gpu?.requestAdapter()) as
      { info?: { vendor?: string; architecture?: string; device?: string; description?: string } } | null | undefined;
    if (!adapter) return null;
    const info = adapter.info ?? {};
    return {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      software: await isSoftwareGpu('webgpu'),
    };
  },
  /** A pool worker's set-up before the clock starts (as the lab warms its workers while the page is read). */
  async peerPrepare(backend: string): Promise<string> {
    const info = await selectBackend(backend as BackendName, { strict: true });
    await ensureGradients();
    fashion ??= fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', fetchBytes));
    return info.name;
  },
};

let fashion: ImageDataset | null = null;
let gtDataset: ImageDataset | null = null;

async function fetchBytes(path: string): Promise<Uint8Array> {
  const res = await fetch(import.meta.env.BASE_URL + path);
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} for ${path}`);
  return new Uint8Array(await res.arrayBuffer());
}

export type BenchWorkerApi = typeof api;
Comlink.expose(api);
