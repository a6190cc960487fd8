/**
 * `--backend webgpu` in Node: where Dawn's Node bindings (the optional `webgpu` package) find no adapter, every training
 * command exits 2 with one line naming the flag and why, never an internal error. The adapter search is replaced by
 * one that finds none, so the test says the same on a machine with a GPU.
 */
import { describe, expect, it, vi } from 'vitest';
import { captureCli } from './capture';

vi.mock('../../../src/engine/gpu/device', async (original) => ({
  ...(await original<typeof import('../../../src/engine/gpu/device')>()),
  setupNodeWebGpu: async () => 'Dawn found no WebGPU adapter on this machine (no GPU with a Vulkan driver, or no Vulkan loader)',
}));

const cli = captureCli();

describe('--backend webgpu without an adapter', () => {
  it('run and ood exit 2 with one line that names the flag, the reason and what to use instead', async () => {
    for (const argv of [
      ['run', '--dataset', 'digits', '--classes', '0-3', '--tasks', '2', '--backend', 'webgpu'],
      ['ood', '--dataset', 'digits', '--classes', '0-5', '--tasks', '3', '--backend', 'webgpu'],
    ]) {
      const r = await cli(...argv);
      expect(r.code, r.err).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err.trim()).toBe(
        'cil-lab: --backend webgpu: WebGPU is not available in Node here: Dawn found no WebGPU adapter on this machine (no GPU with a Vulkan driver, or no Vulkan loader); train with --backend wasm or cpu.',
      );
    }
  });
});
