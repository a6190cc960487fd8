import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/schema';
import { forgettingExperimentOf, jobKey } from '../../../src/core/forgetting/from-config';
import { paperTasks } from '../../../src/core/forgetting/setup';
import type { ProgressEvent, TrainRunConfig, TrainRunResult } from '../../../src/engine/index';
import { memoryForgettingStore } from '../../../src/services/forgetting-store';
import { createForgettingRunner, forgettingRunConfigs, type ForgettingWorker } from '../../../src/services/forgetting-runner';
import type { DatasetSpec, TaskResult } from '../../../src/workers/train-api';
import { forgettingChange, forgettingTabStart, type ForgettingSettings } from '../../../src/core/labs/forgetting/binding';

const tasks = paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const configOf = (over: Partial<ForgettingSettings> = {}) =>
  forgettingExperimentOf(defaultConfig(), forgettingChange({ ...forgettingTabStart(), ...over }, tasks)).config!;

/** A worker that trains instantly unless held: it delivers every task, then the result. */
class FakeWorker implements ForgettingWorker {
  runs: TrainRunConfig[] = [];
  loads: DatasetSpec[] = [];
  paused = 0;
  hold: Promise<void> | null = null;
  /** runs after this many wait for `hold` */
  holdFrom = 0;
  cancelled = false;
  async selectBackend() {
    return { name: 'wasm' } as never;
  }
  async loadDataset(spec: DatasetSpec) {
    this.loads.push(spec);
  }
  dispose() {}
  pause() {
    this.paused++;
  }
  resume() {}
  cancel() {
    this.cancelled = true;
  }
  async run(config: TrainRunConfig, onProgress?: (e: ProgressEvent) => void, _n?: unknown, onTask?: (t: TaskResult) => void) {
    this.runs.push(config);
    const K = config.tasks.length;
    const matrix: number[][] = [];
    for (let t = 0; t < K; t++) {
      onProgress?.({ task: t, epoch: 0, step: 1, steps: 1, loss: 1, accuracy: 0.5, tasks: K, epochs: 1 });
      if (this.hold && this.runs.length > this.holdFrom) await this.hold;
      if (this.cancelled) {
        const e = new Error('cancelled');
        e.name = 'RunCancelledError';
        throw e;
      }
      const row = Array.from({ length: K }, (_, j) => (j <= t ? 0.9 : 0));
      matrix.push(row);
      onTask?.({
        task: t,
        tasks: K,
        row,
        probs: [{ afterTask: t, split: 'test', taskIndex: 0, probs: new Float32Array([1]), width: 1, labels: new Int32Array([0]) }],
      });
    }
    return {
      matrix,
      testCounts: new Array(K).fill(1),
      trainCounts: [],
      calibrationCounts: [],
      classOrder: [],
      probs: [],
      backend: 'wasm',
      backends: ['wasm'],
      seconds: 1,
      untrained: [],
      tasks: config.tasks,
      config: {},
    } as unknown as TrainRunResult & { backend: string };
  }
}

function setup() {
  const worker = new FakeWorker();
  const leases: string[] = [];
  let released = 0;
  const pool = {
    async lease(r: { backend: string; dataset: DatasetSpec }) {
      leases.push(`${r.backend}:${r.dataset.kind === 'builtin' ? r.dataset.id : ''}`);
      await worker.selectBackend();
      await worker.loadDataset(r.dataset);
      return { main: worker, helpers: [], backend: { name: 'wasm' } as never, release: () => released++ };
    },
  };
  const store = memoryForgettingStore();
  const runner = createForgettingRunner({ store, pool, clock: () => 42 });
  return { worker, leases, store, runner, released: () => released };
}

describe('forgetting runner', () => {
  it('trains the config’s one run with softmax outputs recorded, on a leased worker, and stores it', async () => {
    const { worker, leases, store, runner, released } = setup();
    const config = configOf({ strategy: 'ewc', seed: 4, backendPref: 'wasm', seeds: 1 });
    await runner.start(config);
    expect(leases).toEqual(['wasm:digits']);
    expect(worker.runs).toHaveLength(1);
    expect(worker.runs[0]).toEqual(forgettingRunConfigs(config)[0].config);
    expect(worker.runs[0].probs).toEqual({ calibrationRatio: 0.1, softmax: 'all' });
    const stored = await store.all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ group: runner.state.group, preset: null, createdAt: 42, backend: 'wasm' });
    expect(stored[0].job).toMatchObject({ strategy: 'ewc', seed: 4, dataset: 'digits' });
    expect(runner.state).toMatchObject({ status: 'done', done: 1, total: 1, etaSeconds: 0 });
    expect(released()).toBe(1);
  });

  it('a preset trains its runs; starting it again trains only what is missing', async () => {
    const { worker, store, runner } = setup();
    const config = configOf({ preset: 'ewc-variants' });
    let release!: () => void;
    worker.hold = new Promise<void>((r) => (release = r));
    worker.holdFrom = 1; // the second run waits
    const first = runner.start(config);
    while (runner.state.done < 1) await new Promise((r) => setTimeout(r, 0));
    runner.cancel();
    release();
    await first;
    expect(runner.state.status).toBe('cancelled');
    expect(await store.all()).toHaveLength(1);
    worker.hold = null;
    worker.cancelled = false;
    worker.runs = [];
    await runner.start(config);
    expect(runner.state).toMatchObject({ status: 'done', skipped: 1, done: 2, total: 2 });
    expect(worker.runs).toHaveLength(1);
    const all = await store.all();
    expect(all.map((r) => r.job.ewcMode).sort()).toEqual(['multi', 'single']);
    expect(new Set(all.map((r) => r.group)).size).toBe(1);
    expect(new Set(all.map((r) => jobKey(r.job))).size).toBe(2);
  });

  it('shows the run in flight task by task and pauses its worker', async () => {
    const { worker, runner } = setup();
    let release!: () => void;
    worker.hold = new Promise<void>((r) => (release = r));
    const p = runner.start(configOf());
    while (!runner.state.current?.progress) await new Promise((r) => setTimeout(r, 0));
    expect(runner.state.current).toMatchObject({ index: 0, preset: null });
    expect(runner.state.current!.live.matrix).toHaveLength(0);
    runner.pause();
    expect(worker.paused).toBe(1);
    expect(runner.state.status).toBe('paused');
    runner.resume();
    worker.hold = null;
    release();
    await p;
    expect(runner.state.current).toBeNull();
    expect(runner.state.runs[0].matrix).toHaveLength(6);
  });
});
