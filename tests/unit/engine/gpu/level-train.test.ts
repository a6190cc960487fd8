/**
 * Level-batched training on WebGPU (src/engine/gpu/): the kernels' shapes and the path's rules without a GPU, and —
 * where WebGPU has an adapter in Node (Dawn's `webgpu` package; on a machine without a GPU, SwiftShader's Vulkan
 * driver as Debian's Chromium ships it) — the whole path against the fused wasm path on the same draws, in a child
 * process (level-child.ts). Not bit-equal by design (GPU floats sum in another order), so: the weights after the same
 * Adam steps within 1e-5 of their scale, and the final accuracies of every ordering of a small problem equal; and
 * the cost counted exactly: 9 dispatches a step for a 3-layer network whatever the number of models, 4 per
 * evaluation chunk, one read-back per level (and one for the untrained model with the 'all' head).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choiceReason, type BackendTiming } from '../../../../src/engine/gpu/measure';
import { forwardKernel, gradWAdamKernel, padTile, workgroupOf } from '../../../../src/engine/gpu/level-kernels';
import { levelSettingsRefusal } from '../../../../src/engine/gpu/level-rule';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

describe('level-batched training: rules and shapes', () => {
  it('takes fine-tuning, joint and reservoir replay on an MLP without augmentation, and says why not otherwise', () => {
    for (const strategy of ['finetune', 'joint', 'replay']) expect(levelSettingsRefusal({ model: 'mlp', augment: false, strategy })).toBeNull();
    expect(levelSettingsRefusal({ model: 'mlp', augment: false, strategy: 'ewc' })).toBe(
      'ewc needs more than the plain loss (its own loss terms, gradients or prediction), so it trains on tfjs',
    );
    expect(levelSettingsRefusal({ model: 'mlp', augment: false, strategy: 'replay', strategyOptions: { selection: 'herding' } })).toMatch(/herding/);
    expect(levelSettingsRefusal({ model: 'cnn', augment: false, strategy: 'finetune' })).toBe('the CNN trains on tfjs');
    expect(levelSettingsRefusal({ model: 'mlp', augment: { shift: 0.1 }, strategy: 'finetune' })).toMatch(/augmented/);
  });

  it('pads widths to the 8-wide tile and sizes workgroups of 64 to the layer', () => {
    expect([6, 8, 36, 784, 100].map(padTile)).toEqual([8, 8, 40, 784, 104]);
    expect([1, 2, 5, 32, 64, 200].map((c) => workgroupOf(c))).toEqual([
      [1, 64],
      [2, 32],
      [8, 8],
      [32, 2],
      [64, 1],
      [64, 1],
    ]);
    const s = { dims: [784, 256, 128, 8], input: 'bytes' as const, inWords: 196, R: 256, P: 235000, wOff: [0, 200960, 233984], bOff: [200704, 233728, 235008] };
    // the first layer: 32 column tiles of 8 in workgroups of 32 × 2; 64 rows in 8 row tiles
    expect(forwardKernel(s, 0).grid(64, 90)).toEqual([1, 4, 90]);
    // its weight gradient: 98 input tiles and the bias row
    expect(gradWAdamKernel(s, 0).grid(64, 90)).toEqual([1, 50, 90]);
    expect(forwardKernel(s, 2).grid(256, 15)).toEqual([1, 1, 15]);
  });

  it('says which backend runs and why, with each candidate’s figure', () => {
    const timings: BackendTiming[] = [
      {
        backend: 'webgpu',
        kernels: 'level',
        msPerStep: 360,
        models: 90,
        workers: 1,
        msPerModelStep: 4,
        note: 'a software adapter: WebGPU emulated on the CPU',
      },
      { backend: 'wasm', kernels: 'fused', msPerStep: 1.8, models: 1, workers: 2, msPerModelStep: 0.9 },
    ];
    expect(choiceReason('wasm', timings)).toBe(
      'wasm runs, the fastest measured: wasm 0.90 ms a model-step (fused step 1.80 ms on each of 2 workers) against webgpu 4.00 ms a model-step (a level-step of 90 models in 360 ms; a software adapter: WebGPU emulated on the CPU).',
    );
    const late: BackendTiming = {
      backend: 'webgpu',
      kernels: 'level',
      msPerStep: null,
      models: 90,
      workers: 1,
      msPerModelStep: Infinity,
      note: 'no level-step within 4 s',
    };
    expect(choiceReason('wasm', [late, timings[1]])).toMatch(/against webgpu: no level-step within 4 s\.$/);
  });
});

/** The environment that gives Dawn a Vulkan driver on a machine without a GPU: Debian Chromium's SwiftShader. */
function gpuEnv(): NodeJS.ProcessEnv {
  const chromium = '/usr/lib/chromium';
  if (!existsSync(join(chromium, 'libvulkan.so.1')) || !existsSync(join(chromium, 'vk_swiftshader_icd.json'))) return process.env;
  return {
    ...process.env,
    LD_LIBRARY_PATH: [process.env.LD_LIBRARY_PATH, chromium].filter(Boolean).join(':'),
    VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES ?? join(chromium, 'vk_swiftshader_icd.json'),
  };
}

describe('level-batched training on WebGPU against the fused wasm step', () => {
  const child = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'level-child.ts')], {
    cwd: ROOT,
    env: gpuEnv(),
    encoding: 'utf8',
    timeout: 300_000,
  });
  const last = (child.stdout ?? '').trim().split('\n').pop() ?? '';
  const out = (() => {
    try {
      return JSON.parse(last);
    } catch {
      // bounded: a child past its 300 s (SwiftShader on a crowded machine) fails here by name, it never hangs the suite
      if (child.signal) return { error: `the WebGPU child was stopped by ${child.signal} after ${child.error ? 'its 300 s' : 'a signal'}: ${last}` };
      return { error: `${child.status}: ${last} ${child.stderr?.slice(-500)}` };
    }
  })();

  it('ran (or says there is no adapter)', () => {
    expect(out.error, out.error).toBeUndefined();
    if (out.skip) expect(out.skip).toMatch(/WebGPU is not available in Node here/);
  });

  it.skipIf(!!out.skip || !!out.error)('the same final accuracies on the same draws, at the counted cost', () => {
    // 2 epochs of 48 examples in batches of 10 (5 steps, the last 8 rows) at each of 2 depths: 20 steps × 9 dispatches,
    // whatever the number of models (6 each level); 4 per evaluation (one chunk) at 2 levels and for the untrained
    // model; 3 read-backs. Steps counted per model: 6 × 10 + 6 × 10
    expect(out.finetune).toMatchObject({ kernels: 'level', steps: 120, backend: 'webgpu', cost: { dispatches: 20 * 9 + 3 * 4, readbacks: 3 } });
    expect(out.finetune.gpu).toHaveLength(6);
    expect(out.finetune.gpu).toEqual(out.finetune.wasm);
    // replay: the memory of 12 joins task 2 (60 examples: 6 steps an epoch), its state carried to each child
    expect(out.replay).toMatchObject({ kernels: 'level', steps: 6 * 10 + 6 * 12, cost: { dispatches: (10 + 12) * 9 + 3 * 4, readbacks: 3 } });
    expect(out.replay.gpu).toEqual(out.replay.wasm);
  });

  it.skipIf(!!out.skip || !!out.error)('the weights after the same Adam steps agree with the fused step to float rounding', () => {
    expect(out.weights).toHaveLength(3);
    for (const d of out.weights) expect(d).toBeLessThan(1e-5);
  });
});
