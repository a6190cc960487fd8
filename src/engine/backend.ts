/**
 * Choosing the TensorFlow.js backend ("Backends in order webgpu → webgl → wasm → cpu, chosen by a short
 * probe or by the user; the app always shows which one runs").
 *
 * Why a probe and not just `tf.setBackend`: a backend can initialise and still compute garbage (a software
 * WebGPU adapter with a driver bug, a WebGL context that reads back zeros). The probe multiplies two small
 * matrices and checks the numbers; a backend that fails it is skipped.
 *
 * Where the code runs:
 * - Node (CLI, tests): only `wasm` and `cpu`. The wasm binaries are read from the installed package's dist/
 *   folder (`setWasmPaths` to that folder).
 * - Browser / Web Worker: all four. WebGPU and WebGL are imported lazily, so Node never loads them. The app
 *   serves the .wasm files itself and tells the engine where with `setWasmBase(url)` before the first use.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { isNode } from './node-env';
import { gpuAdapterInfo, setupNodeWebGpu, SOFTWARE_RENDERER, type GpuAdapterInfo } from './gpu/device';

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/** The backends in order of preference. */
export const BACKEND_ORDER: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

/** One backend's timing of the workload (gpu/measure.ts measures it; kept here, beside the backends, as a leaf type). */
export interface BackendTiming {
  backend: BackendName;
  /** what ran: our level kernels, the fused wasm step, or tfjs */
  kernels: 'level' | 'fused' | 'tfjs';
  /** ms of one step as measured (a level-step of `models` models on WebGPU), null when it did not finish in time */
  msPerStep: number | null;
  models: number;
  /** workers that train at once (CPU backends: one per core) */
  workers: number;
  /** ms per model-step as the lab trains: msPerStep / models / workers; Infinity when not measured in time */
  msPerModelStep: number;
  /** why it was not measured, or what to know (a software adapter) */
  note?: string;
}

export interface MeasuredChoice {
  choice: BackendName;
  timings: BackendTiming[];
  adapter: GpuAdapterInfo | null;
  /** one sentence: which runs and why ("webgpu: 0.05 ms a model-step (level-step of 90 models 4.5 ms) vs wasm 0.9 ms") */
  reason: string;
}

export { isNode };

/**
 * Backends that can exist where we run, in preference order. In Node: wasm and cpu, and webgpu once the optional
 * `webgpu` package has given an adapter (`probeBackend('webgpu')` sets it up; 'auto' never picks it in Node).
 */
export function candidateBackends(): BackendName[] {
  if (isNode()) return (globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu ? ['webgpu', 'wasm', 'cpu'] : ['wasm', 'cpu'];
  const g = globalThis as { navigator?: { gpu?: unknown }; OffscreenCanvas?: unknown; document?: unknown };
  const out: BackendName[] = [];
  if (g.navigator?.gpu) out.push('webgpu');
  if (g.OffscreenCanvas || g.document) out.push('webgl');
  out.push('wasm', 'cpu');
  return out;
}

let wasmBase: string | undefined;
let wasmPathsSet = false;

/**
 * Where the browser finds tfjs-backend-wasm's .wasm files (a URL prefix ending in "/"). Call before the wasm
 * backend is first used; in Node the engine finds the installed package by itself.
 */
export function setWasmBase(url: string): void {
  wasmBase = url.endsWith('/') ? url : `${url}/`;
  setWasmPaths(wasmBase);
  wasmPathsSet = true;
}

/**
 * Threads per worker for the wasm backend's threaded build when `workers` workers train at once on `cores` logical
 * cores: ⌊cores / workers⌋, at least 1. Each worker's wasm module has its own thread pool, so N workers that each
 * take every core would run N× more threads than there are cores.
 */
export function wasmThreadsPerWorker(workers: number, cores: number): number {
  const w = Math.max(1, Math.floor(Number.isFinite(workers) ? workers : 1));
  const c = Math.max(1, Math.floor(Number.isFinite(cores) ? cores : 1));
  return Math.max(1, Math.floor(c / w));
}

async function nodeWasmDir(): Promise<string> {
  // A variable specifier keeps bundlers from trying to resolve Node built-ins for the browser build.
  const moduleId = 'node:module';
  const pathId = 'node:path';
  const { createRequire } = (await import(/* @vite-ignore */ moduleId)) as typeof import('node:module');
  const { dirname, join } = (await import(/* @vite-ignore */ pathId)) as typeof import('node:path');
  const require = createRequire(import.meta.url);
  return `${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`;
}

const registered = new Set<BackendName>(['cpu', 'wasm']);

/** Make sure the backend's module is loaded (registers its factory with tfjs). */
async function register(name: BackendName): Promise<void> {
  if (name === 'wasm' && !wasmPathsSet) {
    if (isNode()) setWasmPaths(await nodeWasmDir());
    else if (wasmBase) setWasmPaths(wasmBase);
    wasmPathsSet = true;
  }
  if (registered.has(name)) return;
  if (name === 'webgl') await import('@tensorflow/tfjs-backend-webgl');
  if (name === 'webgpu') await import('@tensorflow/tfjs-backend-webgpu');
  registered.add(name);
}

let quieted = false;
/** tfjs prints a "install tfjs-node" banner on the cpu backend in Node; the CLI's output must stay clean. */
function quietInNode(): void {
  if (quieted || !isNode()) return;
  quieted = true;
  tf.env().set('PROD', true);
}

const PROBE_A = [1, 2, 3, 4, 5, 6]; // 2×3
const PROBE_B = [7, 8, 9, 10, 11, 12]; // 3×2
const PROBE_EXPECTED = [58, 64, 139, 154];

/**
 * Switch to `name` and check it computes: a 2×3 · 3×2 matmul must give [[58, 64], [139, 154]].
 * Returns the probe's wall time in ms; throws with the reason when the backend cannot be used.
 */
export async function probeBackend(name: BackendName): Promise<number> {
  quietInNode();
  if (isNode() && name === 'webgpu') {
    const why = await setupNodeWebGpu();
    if (why) throw new Error(`WebGPU is not available in Node here: ${why}.`);
  }
  if (!candidateBackends().includes(name)) {
    throw new Error(`The ${name} backend is not available here (${isNode() ? 'Node: wasm, cpu, and webgpu with a GPU' : 'this browser'}).`);
  }
  await register(name);
  const t0 = performance.now();
  const ok = await tf.setBackend(name);
  if (!ok) throw new Error(`The ${name} backend failed to initialise.`);
  await tf.ready();
  const c = tf.tidy(() => tf.matMul(tf.tensor2d(PROBE_A, [2, 3]), tf.tensor2d(PROBE_B, [3, 2])));
  let got: Float32Array | Int32Array | Uint8Array;
  try {
    got = await c.data();
  } finally {
    c.dispose();
  }
  const wrong = PROBE_EXPECTED.some((v, i) => !(Math.abs(got[i] - v) < 1e-3));
  if (wrong) throw new Error(`The ${name} backend computed a wrong probe result (${Array.from(got).join(', ')}).`);
  return performance.now() - t0;
}

export interface BackendAttempt {
  name: BackendName;
  ok: boolean;
  probeMs?: number;
  error?: string;
}

export interface BackendInfo {
  /** the backend now in use */
  name: BackendName;
  probeMs: number;
  /** every backend tried, in order, with why it was skipped */
  tried: BackendAttempt[];
  /**
   * `auto` chosen by measuring the workload (gpu/measure.ts): each candidate's time and the sentence that says why;
   * `cached` when the measurement was this browser's earlier one for the same device and workload
   */
  measured?: MeasuredChoice & { cached: boolean; at: string };
}

/** Does this GPU backend run on a software rasteriser (SwiftShader, llvmpipe…)? Best effort; false when unknown. */
export async function isSoftwareGpu(name: 'webgpu' | 'webgl'): Promise<boolean> {
  try {
    if (name === 'webgpu') return (await gpuAdapterInfo())?.software ?? false;
    const g = globalThis as { OffscreenCanvas?: new (w: number, h: number) => { getContext(k: string): unknown } };
    if (!g.OffscreenCanvas) return false;
    const gl = new g.OffscreenCanvas(1, 1).getContext('webgl2') as {
      getExtension(n: string): { UNMASKED_RENDERER_WEBGL: number } | null;
      getParameter(p: number): unknown;
    } | null;
    const ext = gl?.getExtension('WEBGL_debug_renderer_info');
    return Boolean(gl && ext && SOFTWARE_RENDERER.test(String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL))));
  } catch {
    return false;
  }
}

/**
 * The order `'auto'` tries: webgpu → webgl → wasm → cpu, except that a GPU backend running on a software rasteriser
 * (SwiftShader on a machine without a GPU) goes after wasm: there it is several times slower than wasm's SIMD
 * kernels (measured: `npm run bench:train`). It stays available by name.
 */
async function autoOrder(candidates: BackendName[]): Promise<BackendName[]> {
  const software: BackendName[] = [];
  for (const name of ['webgpu', 'webgl'] as const) if (candidates.includes(name) && (await isSoftwareGpu(name))) software.push(name);
  if (software.length === 0) return candidates;
  const hardware = candidates.filter((b) => !software.includes(b));
  const at = hardware.indexOf('wasm') + 1;
  // software webgl before software webgpu: it measured faster here
  return [...hardware.slice(0, at), ...software.sort((a) => (a === 'webgl' ? -1 : 1)), ...hardware.slice(at)];
}

/**
 * Select a backend: `'auto'` tries webgpu → webgl → wasm → cpu (those that exist here; software-rendered GPU backends
 * after wasm, see `autoOrder`) and keeps the first that passes the probe. A named backend is tried first; if it fails, `strict` makes that an error (the CLI: the user
 * asked for it), otherwise the backends after it in the order are tried (the app: it shows which one runs).
 */
export async function selectBackend(preferred: BackendName | 'auto' = 'auto', options: { strict?: boolean } = {}): Promise<BackendInfo> {
  // in Node, 'auto' is the CPU (the same numbers on every machine); WebGPU only when asked for by name
  const candidates = candidateBackends().filter((b) => !(isNode() && preferred === 'auto' && b === 'webgpu'));
  let chain: BackendName[];
  if (preferred === 'auto') chain = await autoOrder(candidates);
  else if (options.strict) chain = [preferred];
  else chain = [preferred, ...BACKEND_ORDER.slice(BACKEND_ORDER.indexOf(preferred) + 1).filter((b) => candidates.includes(b))];
  const tried: BackendAttempt[] = [];
  for (const name of chain) {
    try {
      const probeMs = await probeBackend(name);
      tried.push({ name, ok: true, probeMs });
      return { name, probeMs, tried };
    } catch (e) {
      tried.push({ name, ok: false, error: (e as Error).message });
    }
  }
  const why = tried.map((t) => `${t.name}: ${t.error}`).join('; ');
  throw new Error(`No TensorFlow.js backend could be used (${why}).`);
}

/**
 * Make sure a probed backend is active: when nothing selected one yet, `selectBackend('auto')`. (Left alone, tfjs
 * would initialise its highest-priority registered backend itself, without a probe and — for wasm in Node —
 * without knowing where the .wasm files are.)
 */
export async function ensureBackend(): Promise<string> {
  if (tf.engine().backendName == null) await selectBackend('auto');
  return tf.getBackend();
}

/** The backend tfjs is using now. */
export function activeBackend(): string {
  return tf.getBackend();
}

/** The backends that come after `name` in the preference order and exist here (the fallback chain). */
export function backendsAfter(name: string): BackendName[] {
  const i = BACKEND_ORDER.indexOf(name as BackendName);
  const candidates = candidateBackends();
  return BACKEND_ORDER.slice(i + 1).filter((b) => candidates.includes(b));
}

/**
 * Call `onLost(reason)` when the active backend's device goes away: a WebGPU `device.lost` (driver reset, tab in
 * the background too long) or a WebGL `webglcontextlost`. Returns a function that stops watching. For wasm and
 * cpu nothing can be lost, and the returned function does nothing.
 */
export function watchBackendLoss(onLost: (reason: string) => void): () => void {
  let active = true;
  const backend = tf.backend() as unknown as {
    device?: { lost?: Promise<{ message?: string; reason?: string }> };
    gpgpu?: { gl?: { canvas?: { addEventListener?: (t: string, f: () => void) => void; removeEventListener?: (t: string, f: () => void) => void } } };
  };
  const name = tf.getBackend();
  if (name === 'webgpu' && backend.device?.lost) {
    void backend.device.lost.then((info) => {
      if (active) onLost(`WebGPU device lost (${info.reason ?? 'unknown'}${info.message ? `: ${info.message}` : ''})`);
    });
    return () => {
      active = false;
    };
  }
  const canvas = backend.gpgpu?.gl?.canvas;
  if (name === 'webgl' && canvas?.addEventListener) {
    const handler = (): void => {
      if (active) onLost('WebGL context lost');
    };
    canvas.addEventListener('webglcontextlost', handler);
    return () => {
      active = false;
      canvas.removeEventListener?.('webglcontextlost', handler);
    };
  }
  return () => {
    active = false;
  };
}
