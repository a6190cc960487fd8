/// <reference types="@webgpu/types" />
/**
 * The WebGPU device that level-batched training (level-mlp.ts) runs on, and what it costs: every compute dispatch and
 * every buffer read-back our kernels make is counted (`gpuCounters`), so `npm run bench:gpu` can print them.
 *
 * Where the device comes from:
 * - where tfjs runs on its webgpu backend (the browser's worker, or Node after `setupNodeWebGpu`), tfjs's own device:
 *   one device holds every buffer, and the backend's loss watch (backend.ts `watchBackendLoss`) covers our kernels too;
 * - otherwise a device of our own from `navigator.gpu` (the backend probe times the kernels before tfjs is switched).
 *
 * In Node, WebGPU comes from the optional npm package `webgpu` (Dawn's Node bindings, prebuilt binaries inside the
 * package). `setupNodeWebGpu` loads it and puts `navigator.gpu` and the WebGPU globals where tfjs-backend-webgpu looks
 * for them; on a machine without a Vulkan driver (or without the package) it finds no adapter and says so.
 */
import * as tf from '@tensorflow/tfjs-core';
import { isNode } from '../node-env';

/** What our kernels cost: dispatches and buffer read-backs (mapAsync for reading) since the last reset. */
export interface GpuCounters {
  dispatches: number;
  readbacks: number;
  submits: number;
}

const counters: GpuCounters = { dispatches: 0, readbacks: 0, submits: 0 };

/** The live counters of this thread (level-mlp.ts adds to them). */
export function gpuCounters(): GpuCounters {
  return counters;
}

/** A copy of the counters, and (with `reset`) zero them. */
export function takeGpuCounters(reset = false): GpuCounters {
  const out = { ...counters };
  if (reset) Object.assign(counters, { dispatches: 0, readbacks: 0, submits: 0 });
  return out;
}

/** The adapter as a person reads it, and whether it is a software one (SwiftShader, llvmpipe…). */
export interface GpuAdapterInfo {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  software: boolean;
}

/** Renderer names of software rasterisers (SwiftShader, llvmpipe…): a GPU API emulated on the CPU. */
export const SOFTWARE_RENDERER = /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render/i;

/** The adapter's description (`adapter.info`; Dawn in Node keeps its fields on the prototype, so they are read one by one). */
export function describeGpuAdapter(adapter: GPUAdapter): GpuAdapterInfo {
  const info = (adapter as GPUAdapter & { info?: GPUAdapterInfo }).info;
  const vendor = String(info?.vendor ?? '');
  const architecture = String(info?.architecture ?? '');
  const device = String(info?.device ?? '');
  const description = String(info?.description ?? '');
  const fallback = Boolean((adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter);
  return { vendor, architecture, device, description, software: fallback || SOFTWARE_RENDERER.test(`${vendor} ${architecture} ${description}`) };
}

let nodeGpu: Promise<string | null> | null = null;

/**
 * Node only: load the `webgpu` package and make WebGPU look as it does in a browser (`navigator.gpu`, the GPU*
 * globals), so tfjs-backend-webgpu and our kernels find it. Resolves null when it worked, else why not (one sentence:
 * the package is not installed, or it found no adapter, as on a machine without a Vulkan driver).
 */
export function setupNodeWebGpu(): Promise<string | null> {
  nodeGpu ??= (async () => {
    if (!isNode()) return 'not Node';
    const g = globalThis as { navigator?: { gpu?: GPU } };
    if (g.navigator?.gpu) return null;
    let mod: { create(flags: string[]): GPU; globals: Record<string, unknown> };
    try {
      // a variable specifier: bundlers leave this Node-only optional package alone
      const id = 'webgpu';
      mod = (await import(/* @vite-ignore */ id)) as typeof mod;
    } catch (e) {
      return `the optional package "webgpu" (Dawn's Node bindings) could not be loaded (${String((e as Error).message ?? e).split('\n')[0]})`;
    }
    // Dawn reaches a GPU on Linux through the Vulkan loader; without one it writes a warning to stderr itself, so look first
    if (!(await vulkanLoaderFound())) return 'no Vulkan loader (libvulkan.so.1) on this machine, so Dawn can reach no GPU';
    for (const [k, v] of Object.entries(mod.globals)) if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
    const gpu = mod.create([]);
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return 'Dawn found no WebGPU adapter on this machine (no GPU with a Vulkan driver, or no Vulkan loader)';
    const nav = (g.navigator ?? {}) as { gpu?: GPU };
    Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true });
    if (!g.navigator) Object.defineProperty(globalThis, 'navigator', { value: nav, configurable: true, writable: true });
    return null;
  })();
  return nodeGpu;
}

/**
 * Linux: whether the dynamic loader can find libvulkan.so.1 (in LD_LIBRARY_PATH or the usual library folders);
 * elsewhere true (Dawn uses Metal or Direct3D 12 there).
 */
async function vulkanLoaderFound(): Promise<boolean> {
  const p = (globalThis as { process?: { platform?: string; env?: Record<string, string | undefined> } }).process;
  if (p?.platform !== 'linux') return true;
  const fsId = 'node:fs';
  const { existsSync } = (await import(/* @vite-ignore */ fsId)) as typeof import('node:fs');
  const dirs = [
    ...(p.env?.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean),
    '/usr/lib/x86_64-linux-gnu',
    '/usr/lib/aarch64-linux-gnu',
    '/lib/x86_64-linux-gnu',
    '/lib/aarch64-linux-gnu',
    '/usr/lib64',
    '/lib64',
    '/usr/lib',
    '/usr/local/lib',
  ];
  return dirs.some((d) => existsSync(`${d}/libvulkan.so.1`));
}

/** navigator.gpu where it exists (a browser, a worker, or Node after `setupNodeWebGpu`). */
function navigatorGpu(): GPU | null {
  return (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu ?? null;
}

export interface GpuHandle {
  device: GPUDevice;
  adapter: GpuAdapterInfo;
  /** true when the device is tfjs's (its webgpu backend) */
  shared: boolean;
}

let own: Promise<GpuHandle | null> | null = null;

/**
 * A device for our kernels: tfjs's when its webgpu backend is active, else our own (requested once, with the
 * adapter's largest buffer limits). Null where WebGPU has no adapter.
 */
export async function levelGpuDevice(): Promise<GpuHandle | null> {
  if (tf.getBackend() === 'webgpu') {
    const backend = tf.backend() as unknown as { device?: GPUDevice; adapterInfo?: { vendor?: string; architecture?: string } };
    if (backend.device) return { device: backend.device, adapter: await adapterOfShared(), shared: true };
  }
  own ??= (async () => {
    if (isNode()) await setupNodeWebGpu();
    const gpu = navigatorGpu();
    const adapter = await gpu?.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return null;
    const device = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
        maxBufferSize: adapter.limits.maxBufferSize,
        maxStorageBuffersPerShaderStage: Math.min(10, adapter.limits.maxStorageBuffersPerShaderStage),
      },
    });
    void device.lost.then(() => (own = null));
    return { device, adapter: describeGpuAdapter(adapter), shared: false };
  })().catch(() => null);
  return own;
}

let adapterInfo: Promise<GpuAdapterInfo | null> | null = null;

/** The adapter WebGPU gives here (asked of navigator.gpu once), described; null without one. */
export function gpuAdapterInfo(): Promise<GpuAdapterInfo | null> {
  adapterInfo ??= (async () => {
    if (isNode() && (await setupNodeWebGpu()) !== null) return null;
    const adapter = await navigatorGpu()?.requestAdapter({ powerPreference: 'high-performance' });
    return adapter ? describeGpuAdapter(adapter) : null;
  })().catch(() => null);
  return adapterInfo;
}

/** The adapter behind tfjs's device (tfjs keeps only part of its description). */
async function adapterOfShared(): Promise<GpuAdapterInfo> {
  return (await gpuAdapterInfo()) ?? { vendor: '', architecture: '', device: '', description: '', software: false };
}
