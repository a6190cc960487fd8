import * as tf from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { activeBackend, candidateBackends, probeBackend, selectBackend } from '../../../src/engine/backend';
import { RunCancelledError, RunControl } from '../../../src/engine/control';
import { trainRunWithFallback, withFallback, type FallbackNotice } from '../../../src/engine/fallback';
import { trainRun } from '../../../src/engine/trainer';
import type { RunCheckpoint, TrainRunConfig, TrainRunResult } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset();
const cfg: TrainRunConfig = {
  tasks: [
    [0, 1],
    [2, 3],
    [4, 5],
  ],
  seed: 11,
  strategy: 'replay',
  strategyOptions: { memory: 24 },
  model: { kind: 'mlp', hidden: [16] },
  epochs: 2,
  batchSize: 16,
  lr: 0.01,
  head: 'all',
};

const maxAbsDiff = (a: number[][], b: number[][]): number => Math.max(...a.flatMap((row, i) => row.map((v, j) => Math.abs(v - b[i][j]))));

afterAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('backends in Node', () => {
  it('offers wasm then cpu, and auto picks wasm after a correct probe', async () => {
    expect(candidateBackends()).toEqual(['wasm', 'cpu']);
    const info = await selectBackend('auto');
    expect(info.name).toBe('wasm');
    expect(activeBackend()).toBe('wasm');
    expect(info.tried).toEqual([{ name: 'wasm', ok: true, probeMs: info.probeMs }]);
    expect(await probeBackend('cpu')).toBeGreaterThanOrEqual(0);
    expect(activeBackend()).toBe('cpu');
  });

  it('a named backend that cannot run here is an error when strict, and falls down the order otherwise', async () => {
    await expect(selectBackend('webgl', { strict: true })).rejects.toThrow(/webgl backend is not available here \(Node: wasm, cpu, and webgpu with a GPU\)/);
    // WebGPU in Node comes from the optional `webgpu` package: it runs where it finds an adapter, else says why
    const gpu = await selectBackend('webgpu', { strict: true }).then(
      (i) => i.name,
      (e: Error) => e.message,
    );
    expect(gpu).toMatch(/^webgpu$|WebGPU is not available in Node here: /);
    const info = await selectBackend('webgl');
    expect(info.name).toBe('wasm');
    expect(info.tried.map((t) => `${t.name}:${t.ok}`)).toEqual(['webgl:false', 'wasm:true']);
  });

  it('wasm gives the same R twice (within 1e-4) and agrees with cpu up to float rounding', async () => {
    await selectBackend('wasm', { strict: true });
    const a = await trainRun(ds, cfg);
    const b = await trainRun(ds, cfg);
    expect(a.backend).toBe('wasm');
    expect(maxAbsDiff(a.matrix, b.matrix)).toBeLessThanOrEqual(1e-4);
    await selectBackend('cpu', { strict: true });
    const c = await trainRun(ds, cfg);
    // different kernels round differently; on this small problem predictions agree to within a few test images
    expect(maxAbsDiff(a.matrix, c.matrix)).toBeLessThanOrEqual(3 / 24);
  });
});

describe('backend fallback', () => {
  it('continues on the next backend from the last finished task when a backend fails mid-run', async () => {
    // unit files share one tfjs per worker: what this run leaves is counted from here
    const tensorsBefore = tf.memory().numTensors;
    await selectBackend('wasm', { strict: true });
    const notices: FallbackNotice[] = [];
    let failed = false;
    const checkpoints: RunCheckpoint[] = [];
    const result = await withFallback<TrainRunResult, RunCheckpoint>(
      (attempt) =>
        trainRun(ds, cfg, {
          resumeFrom: attempt.checkpoint,
          guard: attempt.guard,
          onCheckpoint: (c) => {
            attempt.save(c);
            checkpoints.push(c);
          },
          onProgress: (e) => {
            if (attempt.backend === 'wasm' && e.task === 2 && !failed) {
              failed = true;
              throw new Error('simulated device loss');
            }
          },
        }),
      (n) => notices.push(n),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ from: 'wasm', to: 'cpu', resumeTask: 2, reason: 'simulated device loss' });
    expect(notices[0].message).toMatch(/continuing on cpu from task 3/);
    expect(result.backends).toEqual(['wasm', 'cpu']);
    expect(result.backend).toBe('cpu');
    expect(result.matrix.slice(0, 2)).toEqual(checkpoints[1].matrix); // the rows finished on wasm are kept
    expect(result.matrix).toHaveLength(3);
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });

  it('gives up with the last error when no backend is left, and never retries a cancel', async () => {
    await selectBackend('cpu', { strict: true });
    const notices: FallbackNotice[] = [];
    await expect(
      trainRunWithFallback(ds, cfg, {
        onProgress: () => {
          throw new Error('broken');
        },
        onNotice: (n) => notices.push(n),
      }),
    ).rejects.toThrow('broken');
    expect(notices).toEqual([expect.objectContaining({ from: 'cpu', to: null })]);
    const control = new RunControl();
    control.cancel();
    const quiet: FallbackNotice[] = [];
    await expect(trainRunWithFallback(ds, cfg, { control, onNotice: (n) => quiet.push(n) })).rejects.toBeInstanceOf(RunCancelledError);
    expect(quiet).toHaveLength(0);
  });
});
