/**
 * runOpenWorld's resume: a run continued from the checkpoint after step 1 with steps 0..1
 * gives exactly the numbers of an uninterrupted run (the trainer resumes exactly; OOD draws are seeded per step).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../../src/engine/backend';
import { RunControl } from '../../../../src/engine/control';
import { ensureGradients } from '../../../../src/engine/gradients';
import { runOpenWorld, type OpenWorldConfig, type OpenWorldStep } from '../../../../src/engine/ood/run';
import type { RunCheckpoint } from '../../../../src/engine/types';
import { syntheticDataset } from '../synthetic';

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
  await ensureGradients();
});

describe('runOpenWorld resumeFrom', () => {
  const ds = syntheticDataset({ classes: 8, trainPerClass: 20, testPerClass: 8 });
  const keep = Array.from(ds.test.labels.keys()).filter((i) => ds.test.labels[i] >= 6);
  const near = {
    name: 'held-out 6-7',
    kind: 'near' as const,
    split: {
      images: Uint8Array.from(keep.flatMap((i) => Array.from(ds.test.images.subarray(i * 36, (i + 1) * 36)))),
      labels: Uint8Array.from(keep, (i) => ds.test.labels[i]),
    },
  };
  const config: OpenWorldConfig = {
    train: {
      tasks: [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
      seed: 3,
      strategy: 'replay',
      strategyOptions: { memory: 12 },
      model: { kind: 'mlp', hidden: [8] },
      epochs: 1,
      batchSize: 16,
      lr: 0.01,
    },
    oodSets: [near],
    detectors: ['msp', 'energy', 'ber'],
    head: { epochs: 1, batchSize: 32 },
  };
  it('a step budget (teaching mode’s Step, as the Open-world job wires it) pauses the run after its step, before the next task trains', async () => {
    const control = new RunControl();
    control.pauseAfter(1);
    const steps: number[] = [];
    let trainedAfter = 0;
    const running = runOpenWorld(ds, config, {
      control,
      onCheckpoint: (_c, step) => {
        steps.push(step.step);
        control.resultDone();
      },
      onProgress: (p) => {
        if (p.task > 0) trainedAfter++;
      },
    });
    while (steps.length === 0) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(control.state).toBe('paused');
    expect(steps).toEqual([0]);
    expect(trainedAfter).toBe(0); // nothing of task 2 trained while paused
    control.pauseAfter(1);
    control.resume();
    while (steps.length < 2) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(control.state).toBe('paused');
    expect(steps).toEqual([0, 1]);
    control.resume(); // Play: no budget, to the end
    const r = await running;
    expect(steps).toEqual([0, 1, 2]);
    expect(r.steps).toHaveLength(3);
  });

  it('continues after step 2 of 3 with the numbers of an uninterrupted run', async () => {
    const checkpoints: { c: RunCheckpoint; step: OpenWorldStep }[] = [];
    const full = await runOpenWorld(ds, config, { onCheckpoint: (c, step) => checkpoints.push({ c, step }) });
    expect(checkpoints.map((x) => [x.c.nextTask, x.step.step])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    const seen: number[] = [];
    const resumed = await runOpenWorld(ds, config, {
      resumeFrom: { checkpoint: checkpoints[1].c, steps: full.steps.slice(0, 2) },
      onStep: (s) => seen.push(s.step),
    });
    expect(seen).toEqual([2]);
    expect(resumed.results).toEqual(full.results);
    expect(resumed.accuracy).toEqual(full.accuracy);
    expect(resumed.train.matrix).toEqual(full.train.matrix);
    expect(resumed.steps[2].samples).toEqual(full.steps[2].samples);
    await expect(runOpenWorld(ds, config, { resumeFrom: { checkpoint: checkpoints[1].c, steps: full.steps.slice(0, 1) } })).rejects.toThrow(/Cannot resume/);
  }, 60000);
});
