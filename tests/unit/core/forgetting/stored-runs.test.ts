/** Which stored runs of the Forgetting lab show a setup (src/core/forgetting/stored-runs.ts). */
import { describe, expect, it } from 'vitest';
import { jobKey } from '../../../../src/core/forgetting/from-config';
import { baseJob, type ForgettingJob } from '../../../../src/core/forgetting/setup';
import { findStoredRuns, type StoredRunRef } from '../../../../src/core/forgetting/stored-runs';

describe('findStoredRuns', () => {
  const run = (id: string, group: string, preset: string | null, job: ForgettingJob): StoredRunRef => ({ id, group, preset, job });
  const single = baseJob('digits', { lr: 1e-3 });
  const runs: StoredRunRef[] = [
    run('a-0', 'digits-a', 'digits', baseJob('digits', { label: 'MLP', lr: 1e-3 })),
    run('a-1', 'digits-a', 'digits', baseJob('digits', { label: 'EWC', strategy: 'ewc', lr: 1e-3 })),
    run('b-0', 'single-b', null, { ...single, label: 'another label', tasks: [[4, 3, 2, 1, 0], [5], [6], [7], [8], [9]] }),
    run('c-0', 'single-c', null, baseJob('digits', { lr: 1e-3, seed: 1 })),
    run('d-0', 'grid-d', 'grid', baseJob('emoji', { lr: 2e-5, trainPerClass: 60, testPerClass: 30 })),
  ];

  it('one run: the newest with the same job (labels and the order inside a task do not matter), its own group first', () => {
    expect(jobKey(single)).toBe(jobKey({ ...single, label: 'x', orderingLabel: 'y', tasks: [[1, 0, 2, 4, 3], [5], [6], [7], [8], [9]] }));
    expect(findStoredRuns(runs, { preset: null, presetLr: 2e-5, job: single })).toEqual({ group: 'single-b', runId: 'b-0' });
    // the same run inside a preset is found when no run of its own is stored
    expect(findStoredRuns(runs.slice(0, 2), { preset: null, presetLr: 2e-5, job: single })).toEqual({ group: 'digits-a', runId: 'a-0' });
    expect(findStoredRuns(runs, { preset: null, presetLr: 2e-5, job: { ...single, calibrationRatio: 0.2 } })).toBeNull();
  });

  it('a preset: the newest group of it on the same dataset, images per class, seed and learning rate', () => {
    const want = (preset: 'digits' | 'grid', presetLr: number, job: ForgettingJob) => findStoredRuns(runs, { preset, presetLr, job });
    expect(want('digits', 1e-3, baseJob('digits'))).toEqual({ group: 'digits-a', runId: null });
    expect(want('digits', 2e-5, baseJob('digits'))).toBeNull();
    expect(want('grid', 2e-5, baseJob('emoji', { trainPerClass: 60, testPerClass: 30 }))).toEqual({ group: 'grid-d', runId: null });
    expect(want('grid', 2e-5, baseJob('emoji', { trainPerClass: 50, testPerClass: 30 }))).toBeNull();
    expect(want('grid', 2e-5, baseJob('digits'))).toBeNull();
  });
});
