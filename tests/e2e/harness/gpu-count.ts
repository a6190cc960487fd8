/// <reference types="@webgpu/types" />
/**
 * What the GPU is asked to do, counted for scripts/bench-gpu.mjs: every compute dispatch (`dispatchWorkgroups`,
 * `dispatchWorkgroupsIndirect`) and every buffer read-back (`mapAsync` for reading) made in this thread, by tfjs and by
 * our kernels alike, by wrapping WebGPU's own prototypes once. Benchmarks only; the app never counts.
 */
const counts = { dispatches: 0, readbacks: 0 };
let installed = false;

/** Start counting (idempotent); false where this thread has no WebGPU. */
export function countGpuCalls(): boolean {
  if (installed) return true;
  const g = globalThis as { GPUComputePassEncoder?: { prototype: GPUComputePassEncoder }; GPUBuffer?: { prototype: GPUBuffer } };
  if (!g.GPUComputePassEncoder || !g.GPUBuffer) return false;
  installed = true;
  const pass = g.GPUComputePassEncoder.prototype;
  for (const name of ['dispatchWorkgroups', 'dispatchWorkgroupsIndirect'] as const) {
    const original = pass[name] as (...a: unknown[]) => void;
    (pass as unknown as Record<string, unknown>)[name] = function (this: GPUComputePassEncoder, ...a: unknown[]) {
      counts.dispatches++;
      return original.apply(this, a);
    };
  }
  const buffer = g.GPUBuffer.prototype;
  const mapAsync = buffer.mapAsync;
  buffer.mapAsync = function (this: GPUBuffer, mode: number, ...rest: unknown[]) {
    if (mode & GPUMapMode.READ) counts.readbacks++;
    return (mapAsync as (...a: unknown[]) => Promise<undefined>).call(this, mode, ...rest);
  } as GPUBuffer['mapAsync'];
  return true;
}

/** The counts since the last reset (and reset them with `reset`). */
export function gpuCallCounts(reset = false): { dispatches: number; readbacks: number } {
  const out = { ...counts };
  if (reset) Object.assign(counts, { dispatches: 0, readbacks: 0 });
  return out;
}
