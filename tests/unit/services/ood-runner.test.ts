/**
 * The Open-world runner's store and resume logic: each finished step is stored at
 * once with its checkpoint; open() shows stored results without training; a run continues from the stored
 * checkpoint (resumeFrom) or, without one, trains from scratch storing only the missing steps; Step = one step.
 * The store is the memory store (no IndexedDB in Node), the worker a fake.
 */
import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_PRESETS, openWorldKey } from '../../../src/core/labs/open-world/settings';
import type { OpenWorldStep } from '../../../src/engine/ood/run';
import type { RunCheckpoint } from '../../../src/engine/types';
import { createOodRunner, resumePoint, type OodRunResult, type OodWorker } from '../../../src/services/ood-runner';
import { createMemoryOodStore, type OodStore } from '../../../src/services/ood-store';

const S = OPEN_WORLD_PRESETS.quick; // 3 tasks
const KEY = openWorldKey(S);
const step = (t: number): OpenWorldStep => ({
  step: t,
  steps: 3,
  accuracy: 0.9 - t / 10,
  row: [],
  results: [{ step: t, detector: 'msp', oodSet: 'digits:6-9', auroc: 80 + t, fpr95: 50, auprIn: 70, auprOut: 60, idCount: 10, oodCount: 5 }],
  confidence: { tasks: [], ood: {} },
  assignment: {},
  samples: [],
  detectorSeconds: { msp: 0.1 },
  setup: { newCount: 0, oldCount: 0 },
});
const cp = (nextTask: number): RunCheckpoint => ({ nextTask, weights: [new Float32Array([nextTask])] }) as unknown as RunCheckpoint;
const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
};

function fake() {
  const calls: string[] = [];
  const runs: { resumeFrom: number | null }[] = [];
  let gate: (() => void) | null = null;
  const remote = {
    async job(_kind: 'ood', { resumeFrom }: { resumeFrom?: { steps: OpenWorldStep[]; checkpoint: RunCheckpoint } }, onEvent: (e: unknown) => void) {
      const onStep = (s: OpenWorldStep, c: RunCheckpoint) => onEvent({ kind: 'step', step: s, checkpoint: c });
      runs.push({ resumeFrom: resumeFrom ? resumeFrom.steps.length : null });
      for (let t = resumeFrom?.checkpoint.nextTask ?? 0; t < 3; t++) {
        await new Promise<void>((r) => (gate = r)); // one step per release
        onStep(step(t), cp(t + 1));
      }
      return {
        steps: [],
        oodSets: [{ name: 'digits:6-9', kind: 'near', count: 5 }],
        seconds: { total: 1, detectors: { msp: 0.3 } },
        train: {
          tasks: [
            [0, 1],
            [2, 3],
            [4, 5],
          ],
          matrix: [[1]],
          backend: 'cpu',
          seconds: 0.5,
          config: {},
        },
      } as unknown as OodRunResult;
    },
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
    cancel: () => void calls.push('cancel'),
  };
  const release = async () => {
    await flush();
    gate?.();
    await flush();
  };
  const main = remote as unknown as OodWorker;
  return { lease: async () => ({ main, backend: { name: 'cpu' }, release: () => void calls.push('release') }), calls, runs, release };
}

function countingStore(): OodStore & { puts: number[] } {
  const inner = createMemoryOodStore();
  const puts: number[] = [];
  return Object.assign(Object.create(null), inner, { puts, putStep: async (s: Parameters<OodStore['putStep']>[0]) => (puts.push(s.step), inner.putStep(s)) });
}

describe('ood-runner: stored, resumable', () => {
  it('stores each step at once with its checkpoint, then the run; open() shows it without training', async () => {
    const store = createMemoryOodStore();
    const f = fake();
    const runner = createOodRunner({ store, lease: f.lease });
    const done = runner.run(S);
    await f.release();
    expect((await store.steps(KEY)).map((s) => s.step)).toEqual([0]);
    expect((await store.checkpoint(KEY))?.nextTask).toBe(1);
    expect(runner.state.steps.map((s) => s.step)).toEqual([0]);
    expect(runner.state.status).toBe('running');
    await f.release();
    await f.release();
    await done;
    expect(runner.state.status).toBe('done');
    expect((await store.steps(KEY)).map((s) => s.step)).toEqual([0, 1, 2]);
    expect((await store.run(KEY))?.train.backend).toBe('cpu');
    expect(await store.checkpoint(KEY)).toBeUndefined(); // finished: no checkpoint kept

    const g = fake();
    const again = createOodRunner({ store, lease: g.lease });
    await again.open(S);
    expect(again.state.status).toBe('done');
    expect(again.state.steps.map((s) => s.accuracy)).toEqual([0.9, 0.8, 0.7]);
    expect(again.state.meta?.oodSets[0].count).toBe(5);
    expect(g.runs).toEqual([]); // nothing trained
    await again.run(S); // every step stored: Run trains nothing
    expect(g.runs).toEqual([]);
    expect(again.state.status).toBe('done');
  });

  it('a reload mid-run continues from the stored checkpoint after the last stored step', async () => {
    const store = countingStore();
    await store.putStep({ key: KEY, step: 0, data: step(0) });
    await store.putCheckpoint(KEY, cp(1));
    store.puts.length = 0;
    const f = fake();
    const runner = createOodRunner({ store, lease: f.lease });
    await runner.open(S);
    expect(runner.state).toMatchObject({ status: 'idle', storedSteps: 1, resumable: true });
    expect(runner.state.steps).toHaveLength(1);
    const done = runner.run(S);
    await f.release();
    await f.release();
    await done;
    expect(f.runs).toEqual([{ resumeFrom: 1 }]);
    expect(runner.state).toMatchObject({ status: 'done', resumedFrom: 1, restarted: false });
    expect(store.puts).toEqual([1, 2]);
  });

  it('stored steps without a matching checkpoint: trains from scratch, keeps them, stores only the missing ones', async () => {
    const store = countingStore();
    await store.putStep({ key: KEY, step: 0, data: step(0) });
    await store.putStep({ key: KEY, step: 1, data: step(1) });
    await store.putCheckpoint(KEY, cp(1)); // the checkpoint after step 0, not step 1
    store.puts.length = 0;
    expect(resumePoint(await store.steps(KEY), await store.checkpoint(KEY))).toBeNull();
    const f = fake();
    const runner = createOodRunner({ store, lease: f.lease });
    const done = runner.run(S);
    await flush();
    expect(runner.state.steps).toHaveLength(2); // shown while retraining
    await f.release();
    await f.release();
    await f.release();
    await done;
    expect(f.runs).toEqual([{ resumeFrom: null }]);
    expect(runner.state).toMatchObject({ status: 'done', restarted: true, resumedFrom: null });
    expect(store.puts).toEqual([2]);
  });

  it('Step trains exactly one more step, then pauses (the worker too); Play plays on', async () => {
    const store = createMemoryOodStore();
    const f = fake();
    const runner = createOodRunner({ store, lease: f.lease });
    runner.step(S);
    await f.release();
    expect(runner.state.steps).toHaveLength(1);
    expect(runner.state.status).toBe('paused');
    expect(f.calls).toContain('pause');
    runner.step(S);
    await f.release();
    expect(runner.state.steps).toHaveLength(2);
    expect(runner.state.status).toBe('paused');
    runner.resume();
    await f.release();
    await flush();
    expect(runner.state.status).toBe('done');
    runner.dispose();
    // the worker went back to the pool when the run ended
    expect(f.calls).toContain('release');
  });

  it('invalid settings never reach the worker', async () => {
    const f = fake();
    const runner = createOodRunner({ store: createMemoryOodStore(), lease: f.lease });
    await runner.run({ ...S, detectors: [] });
    expect(runner.state.status).toBe('error');
    expect(runner.state.error).toMatch(/at least one detector/);
    expect(f.runs).toEqual([]);
  });
});
