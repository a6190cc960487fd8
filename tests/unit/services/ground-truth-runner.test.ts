import { describe, expect, it } from 'vitest';
import { createGroundTruthRunner, type RunnerClient, type RunnerRunResult, type RunnerState } from '../../../src/services/ground-truth-runner';
import { planGroundTruth, type GroundTruthJob } from '../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../src/core/orderings/matrix';
import { aiaWeighted, finalAccuracyWeighted } from '../../../src/core/metrics/accuracy-matrix';
import { createMemoryResultsStore, type StoredRun } from '../../../src/services/results-store';
import type { FallbackNotice, ProgressEvent, SharedCheckpoint, SharedNext, SharedTrainOptions, TrainRunConfig } from '../../../src/engine/index';
import { sampleOrder } from '../../../src/core/ground-truth/schedule';

const sim = matrixFromRows([0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0.2 + 0.1 * ((i + j) % 3)))));
/** 4 classes in 2 tasks: 6 orderings; × 2 strategies = 12 jobs */
const plan = planGroundTruth({
  classes: [0, 1, 2, 3],
  taskSizes: [2, 2],
  similarity: sim,
  protocolOptions: { protocols: [], rsSeeds: [0], medianSeed: 0 },
  strategies: ['finetune', 'replay'],
  seeds: [0],
  budget: 100,
  sampleSeed: 0,
});
const configFor = (job: GroundTruthJob): TrainRunConfig => ({ strategy: job.strategy as 'finetune', tasks: job.tasks, seed: job.seed, epochs: 1 });

/** A matrix that depends on the ordering, so stored runs differ. */
function fakeResult(config: TrainRunConfig, backend = 'wasm'): RunnerRunResult {
  const first = config.tasks[0][0];
  return {
    matrix: [
      [0.9, 0],
      [0.1 * (first + 1), 0.95],
    ],
    untrained: [0, 0],
    testCounts: [20, 30],
    backend,
    backends: [backend],
    seconds: 0.5,
  };
}

/**
 * A fake training client driven by the test: every run waits for the test to `finish()` it (or fails/cancels),
 * reports progress, and honours pause (a paused run cannot finish) and cancel (rejects with RunCancelledError).
 */
class FakeClient implements RunnerClient {
  calls: TrainRunConfig[] = [];
  paused = false;
  log: string[] = [];
  clock = { t: 0 };
  private pending: {
    config: TrainRunConfig;
    resolve: (r: RunnerRunResult) => void;
    reject: (e: Error) => void;
    onProgress?: (e: ProgressEvent) => void;
    onNotice?: (n: FallbackNotice) => void;
  } | null = null;
  private arrived: (() => void)[] = [];

  run(config: TrainRunConfig, onProgress?: (e: ProgressEvent) => void, onNotice?: (n: FallbackNotice) => void): Promise<RunnerRunResult> {
    this.calls.push(config);
    this.log.push('run');
    return new Promise((resolve, reject) => {
      this.pending = { config, resolve, reject, onProgress, onNotice };
      for (const a of this.arrived.splice(0)) a();
    });
  }
  pause() {
    this.paused = true;
    this.log.push('pause');
  }
  resume() {
    this.paused = false;
    this.log.push('resume');
  }
  cancel() {
    this.log.push('cancel');
    const p = this.pending;
    this.pending = null;
    if (p) {
      const e = new Error('The run was cancelled.');
      e.name = 'RunCancelledError';
      p.reject(e);
    }
  }
  async backend() {
    return 'webgpu';
  }
  /** wait until a run is in flight */
  async next(): Promise<TrainRunConfig> {
    if (!this.pending) await new Promise<void>((r) => this.arrived.push(r));
    return this.pending!.config;
  }
  progress(step: number) {
    this.pending!.onProgress?.({ task: 0, epoch: 0, step, steps: 10, loss: 1, accuracy: 0.5, tasks: 2, epochs: 1 });
  }
  notice(n: FallbackNotice) {
    this.pending!.onNotice?.(n);
  }
  /** finish the run in flight after `seconds` of (fake) wall time */
  async finish(seconds = 2, backend = 'wasm') {
    await this.next();
    if (this.paused) throw new Error('a paused run cannot finish');
    this.clock.t += seconds * 1000;
    const p = this.pending!;
    this.pending = null;
    p.resolve(fakeResult(p.config, backend));
    await flush();
  }
  fail(message: string) {
    const p = this.pending!;
    this.pending = null;
    p.reject(new Error(message));
  }
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

function setup(store = createMemoryResultsStore()) {
  const client = new FakeClient();
  const runner = createGroundTruthRunner({ client, store, now: () => client.clock.t });
  const states: RunnerState[] = [];
  runner.subscribe((s) => states.push(s));
  return { client, store, runner, states };
}

describe('ground-truth runner', () => {
  it('trains every job once, in plan order, storing each run as soon as it finishes', async () => {
    const { client, store, runner, states } = setup();
    const started = runner.start(plan, configFor, 'hash-a');
    for (let i = 0; i < plan.jobs.length; i++) {
      await client.next();
      // the runs before this one are already in the store while this one trains
      expect(await store.count('hash-a')).toBe(i);
      expect(runner.state.current).toMatchObject({ orderingKey: plan.jobs[i].orderingKey, strategy: plan.jobs[i].strategy, seed: 0 });
      await client.finish();
    }
    await started;
    expect(client.calls.map((c) => [c.tasks, c.strategy])).toEqual(plan.jobs.map((j) => [j.tasks, j.strategy]));
    const s = runner.state;
    expect(s).toMatchObject({ status: 'done', done: 12, total: 12, skipped: 0, current: null, error: null, backend: 'wasm', configHash: 'hash-a' });
    expect(s.runs).toHaveLength(12);
    const stored = await store.getAll('hash-a');
    expect(stored).toHaveLength(12);
    const r: StoredRun = stored[0];
    expect(r.finalAccuracy).toBeCloseTo(finalAccuracyWeighted(r.matrix, [20, 30]), 12);
    expect(r.aia).toBeCloseTo(aiaWeighted(r.matrix, [20, 30]), 12);
    expect(r.testCounts).toEqual([20, 30]);
    // statuses seen: running … done; the first state was idle
    expect(states[0].status).toBe('idle');
    expect(states.at(-1)!.status).toBe('done');
  });

  it('skips stored runs after a restart (a reload resumes without retraining)', async () => {
    const store = createMemoryResultsStore();
    const first = setup(store);
    const run1 = first.runner.start(plan, configFor, 'hash-b');
    for (let i = 0; i < 5; i++) await first.client.finish();
    await first.client.next();
    first.runner.cancel(); // the "reload": the run in flight is lost
    await run1;
    expect(first.runner.state.status).toBe('cancelled');
    expect(await store.count('hash-b')).toBe(5);

    const second = setup(store); // a fresh page on the same store
    const run2 = second.runner.start(plan, configFor, 'hash-b');
    await second.client.next();
    expect(second.runner.state).toMatchObject({ skipped: 5, done: 5, total: 12 });
    expect(second.runner.state.runs).toHaveLength(5);
    for (let i = 0; i < 7; i++) await second.client.finish();
    await run2;
    expect(second.client.calls.map((c) => JSON.stringify([c.tasks, c.strategy]))).toEqual(plan.jobs.slice(5).map((j) => JSON.stringify([j.tasks, j.strategy])));
    expect(second.runner.state).toMatchObject({ status: 'done', done: 12, skipped: 5 });
    expect(await store.count('hash-b')).toBe(12);
    // another config hash shares nothing
    expect(await store.count('hash-other')).toBe(0);
  });

  it('pauses the run in flight and starts no new one until resumed', async () => {
    const { client, runner } = setup();
    const done = runner.start(plan, configFor, 'hash-c');
    await client.next();
    runner.pause();
    expect(runner.state.status).toBe('paused');
    expect(client.paused).toBe(true);
    await expect(client.finish()).rejects.toThrow(/paused/);
    runner.resume();
    expect(runner.state.status).toBe('running');
    await client.finish();
    // paused between runs: the finished run is stored, the next one does not start
    await client.next();
    client.clock.t += 1000;
    const pending = client.finish();
    runner.pause();
    client.paused = false; // the fake's run was already finishing when the pause arrived
    await pending;
    await flush();
    const calls = client.calls.length;
    await flush();
    expect(client.calls.length).toBe(calls);
    expect(runner.state.status).toBe('paused');
    expect(runner.state.done).toBe(2);
    runner.resume();
    await client.next();
    expect(client.calls.length).toBe(calls + 1);
    runner.cancel();
    await done;
    expect(client.log).toContain('pause');
    expect(client.log).toContain('resume');
  });

  it('step trains exactly the asked runs and pauses between runs; from a pause it resumes the run in flight; Play after a step plays on', async () => {
    const { client, runner, store } = setup();
    const done = runner.start(plan, configFor, 'hash-step');
    await client.next();
    // while running: the run in flight finishes, is stored, and nothing new starts
    runner.step();
    await client.finish();
    expect(runner.state).toMatchObject({ status: 'paused', done: 1, current: null });
    expect(await store.count('hash-step')).toBe(1);
    await flush();
    expect(client.calls).toHaveLength(1);
    client.clock.t += 60_000; // the teacher talks for a minute
    // from that pause: exactly one more run (one ordering × one strategy), then paused again
    runner.step();
    expect(runner.state.status).toBe('running');
    await client.finish();
    expect(runner.state).toMatchObject({ status: 'paused', done: 2 });
    await flush();
    expect(client.calls).toHaveLength(2);
    // the runs of one ordering (2 strategies here): both, then pause
    runner.step(2);
    await client.finish();
    expect(runner.state.status).toBe('running');
    await client.finish();
    expect(runner.state).toMatchObject({ status: 'paused', done: 4 });
    expect(runner.state.runs.slice(2).map((r) => r.orderingKey)).toEqual([plan.jobs[2].orderingKey, plan.jobs[3].orderingKey]);
    expect(plan.jobs[2].orderingKey).toBe(plan.jobs[3].orderingKey);
    // paused in the middle of a run: Step resumes the worker and that run counts as the step
    runner.resume();
    await client.next();
    runner.pause();
    expect(client.paused).toBe(true);
    runner.step();
    expect(client.paused).toBe(false);
    await client.finish();
    expect(runner.state).toMatchObject({ status: 'paused', done: 5 });
    // a pause during a step, then Play: plays on past the step's end
    runner.step(1);
    await client.next();
    runner.pause();
    runner.resume();
    await client.finish();
    await client.finish();
    expect(runner.state).toMatchObject({ status: 'running', done: 7 });
    // the ETA ignores the time spent paused between steps
    expect(runner.state.etaSeconds).toBeCloseTo(2 * 5, 9);
    runner.cancel();
    await done;
    // no session: step does nothing
    runner.step();
    expect(runner.state.status).toBe('cancelled');
  });

  it('cancel stops at once: the run in flight rejects, nothing more is trained, finished runs stay', async () => {
    const { client, runner, store } = setup();
    const done = runner.start(plan, configFor, 'hash-d');
    await client.finish();
    await client.next();
    runner.cancel();
    await done;
    expect(runner.state).toMatchObject({ status: 'cancelled', done: 1, current: null, etaSeconds: null });
    expect(client.calls).toHaveLength(2);
    expect(await store.count('hash-d')).toBe(1);
    // cancelling while paused also ends the runner
    const again = runner.start(plan, configFor, 'hash-d');
    await client.next();
    runner.pause();
    runner.cancel();
    await again;
    expect(runner.state.status).toBe('cancelled');
    expect(runner.state.skipped).toBe(1);
  });

  it('estimates the time left from a moving average of run times, paused time excluded', async () => {
    const client = new FakeClient();
    const runner = createGroundTruthRunner({ client, store: createMemoryResultsStore(), now: () => client.clock.t, etaWindow: 2 });
    const done = runner.start(plan, configFor, 'hash-e');
    await client.next();
    expect(runner.state.etaSeconds).toBeNull();
    await client.finish(4); // 4 s
    expect(runner.state.etaSeconds).toBeCloseTo(4 * 11, 9);
    await client.finish(2); // mean(4, 2) = 3
    expect(runner.state.etaSeconds).toBeCloseTo(3 * 10, 9);
    // a run with 10 s of pause in the middle counts its 1 s of training only
    await client.next();
    runner.pause();
    client.clock.t += 10_000;
    runner.resume();
    await client.finish(1); // window of 2: mean(2, 1) = 1.5
    expect(runner.state.etaSeconds).toBeCloseTo(1.5 * 9, 9);
    runner.cancel();
    await done;
  });

  it('forwards progress and backend-fallback notices', async () => {
    const { client, runner } = setup();
    const done = runner.start(plan, configFor, 'hash-f');
    await client.next();
    expect(runner.state.backend).toBe('webgpu');
    client.progress(3);
    expect(runner.state.current?.progress?.step).toBe(3);
    client.notice({
      from: 'webgpu',
      to: 'webgl',
      reason: 'device lost',
      resumeTask: 1,
      message: 'The webgpu backend failed (device lost); continuing on webgl from task 2.',
    });
    expect(runner.state.notice).toMatch(/continuing on webgl/);
    expect(runner.state.backend).toBe('webgl');
    await client.finish(1, 'webgl');
    expect(runner.state.runs.at(-1)!.backend).toBe('webgl');
    runner.cancel();
    await done;
  });

  it('stops with the error when a run fails, keeping the runs before it', async () => {
    const { client, runner, store } = setup();
    const done = runner.start(plan, configFor, 'hash-g');
    await client.finish();
    await client.next();
    client.fail('No TensorFlow.js backend could be used.');
    await done;
    expect(runner.state).toMatchObject({ status: 'error', error: 'No TensorFlow.js backend could be used.', done: 1, current: null });
    expect(await store.count('hash-g')).toBe(1);
  });

  it('keeps a run it could not store, with a notice', async () => {
    const store = createMemoryResultsStore();
    const failing = { ...store, put: async () => Promise.reject(new Error('QuotaExceededError')) };
    const client = new FakeClient();
    const runner = createGroundTruthRunner({ client, store: failing, now: () => client.clock.t });
    const done = runner.start(plan, configFor, 'hash-h');
    await client.finish();
    expect(runner.state.runs).toHaveLength(1);
    expect(runner.state.notice).toMatch(/could not be stored \(QuotaExceededError\)/);
    runner.cancel();
    await done;
  });

  it('a second start cancels the first; unsubscribe stops updates', async () => {
    const { client, runner } = setup();
    const seen: string[] = [];
    const off = runner.subscribe((s) => seen.push(s.status));
    const first = runner.start(plan, configFor, 'hash-i');
    await client.next();
    const second = runner.start(plan, configFor, 'hash-j');
    await first;
    await client.next();
    expect(runner.state.configHash).toBe('hash-j');
    expect(runner.state.status).toBe('running');
    off();
    const n = seen.length;
    runner.cancel();
    await second;
    expect(seen.length).toBe(n);
    expect(runner.state.status).toBe('cancelled');
  });
});

describe('memory results store', () => {
  it('keys runs by (config hash, ordering key, strategy, seed)', async () => {
    const store = createMemoryResultsStore();
    const base = {
      configHash: 'h',
      orderingKey: '0,1|2,3',
      tasks: [
        [0, 1],
        [2, 3],
      ],
      strategy: 'finetune',
      seed: 0,
      matrix: [
        [1, 0],
        [0.5, 1],
      ],
      untrained: [0, 0],
      testCounts: [1, 1],
      finalAccuracy: 0.75,
      aia: 0.875,
      backend: 'cpu',
      seconds: 1,
      createdAt: 1,
    };
    await store.put(base);
    await store.put({ ...base, finalAccuracy: 0.5 }); // replaces
    await store.put({ ...base, seed: 1 });
    await store.put({ ...base, strategy: 'ewc' });
    await store.put({ ...base, configHash: 'other' });
    expect(await store.count('h')).toBe(3);
    expect(await store.has('h', '0,1|2,3', 'finetune', 0)).toBe(true);
    expect(await store.has('h', '0,1|2,3', 'finetune', 2)).toBe(false);
    expect((await store.getAll('h')).map((r) => [r.strategy, r.seed, r.finalAccuracy])).toEqual([
      ['ewc', 0, 0.75],
      ['finetune', 0, 0.5],
      ['finetune', 1, 0.75],
    ]);
    await store.delete('h');
    expect(await store.count('h')).toBe(0);
    expect(await store.count('other')).toBe(1);
    await expect(store.put({ ...base, seed: Number.NaN })).rejects.toThrow(/seed/);
  });
  it('openResultsStore falls back to memory with a notice where there is no IndexedDB (Node)', async () => {
    const { openResultsStore } = await import('../../../src/services/results-store');
    const store = await openResultsStore();
    expect(store.persistent).toBe(false);
    expect(store.notice).toMatch(/in memory only \(IndexedDB is not available here\)/);
  });
});

/**
 * A fast-path client: runShared finishes the orderings it is given in `options.order` (default: as given), or, in
 * pull mode, those `next` deals, unless cancelled first. Like the engine, an ordering continues from the deepest
 * prefix held here (trained here, or the checkpoint a deal brought), each task it trains counts 10 steps, and in
 * pull mode every trained prefix is published.
 */
class SharedFake implements RunnerClient {
  given: TrainRunConfig[][] = [];
  options: SharedTrainOptions[] = [];
  taken: number[] = [];
  /** the prefixes deals brought (another worker's checkpoints) */
  from: string[] = [];
  cancelled = 0;
  hold: Promise<void> | null = null;
  constructor(private log: string[] = []) {}
  async run(config: TrainRunConfig): Promise<RunnerRunResult> {
    return fakeResult(config);
  }
  pause() {}
  resume() {}
  cancel() {
    this.cancelled++;
  }
  async runShared(
    configs: TrainRunConfig[],
    options: SharedTrainOptions,
    onRunDone: (i: number, r: RunnerRunResult) => void,
    onProgress?: (p: {
      tasksDone: number;
      tasksPlanned: number;
      naiveTasks: number;
      runsDone: number;
      runs: number;
      population: number;
      stepsDone: number;
      predictionsDone: number;
      step: null;
    }) => void,
    _onNotice?: unknown,
    next?: () => SharedNext | Promise<SharedNext>,
    onCheckpoint?: (c: SharedCheckpoint) => void,
  ) {
    this.given.push(configs);
    this.options.push(options);
    const trained = new Set<string>();
    let tasksDone = 0;
    let runsDone = 0;
    const trainOne = async (i: number) => {
      if (this.hold) await this.hold;
      if (this.cancelled) {
        const e = new Error('The run was cancelled.');
        e.name = 'RunCancelledError';
        throw e;
      }
      const keys = configs[i].tasks.map((_, t) =>
        configs[i].tasks
          .slice(0, t + 1)
          .map((x) => [...x].sort((a, b) => a - b).join(','))
          .join('|'),
      );
      let at = -1;
      keys.forEach((key, d) => (trained.has(key) ? (at = d) : undefined));
      for (const key of keys.slice(at + 1)) {
        trained.add(key);
        tasksDone++;
        onCheckpoint?.({ key, rows: [] });
      }
      this.log.push(JSON.stringify(configs[i].tasks));
      onRunDone(i, fakeResult(configs[i]));
      onProgress?.({
        tasksDone,
        tasksPlanned: configs.length,
        naiveTasks: 2 * configs.length,
        runsDone: ++runsDone,
        runs: configs.length,
        population: 1,
        stepsDone: 10 * tasksDone,
        predictionsDone: 0,
        step: null,
      });
      // another worker gets its turn between two orderings, as a real one would
      await new Promise((r) => setTimeout(r, 0));
    };
    if (next) {
      for (;;) {
        const got = await next();
        this.taken.push(...(got.taken ?? []));
        if (got.index === null) break;
        if (got.from) (trained.add(got.from.key), this.from.push(got.from.key));
        await trainOne(got.index);
      }
    } else for (const i of options.order ?? configs.map((_, k) => k)) await trainOne(i);
    return { backend: 'wasm', population: 1 };
  }
}

describe('fast path (runShared)', () => {
  it('one worker finishes the orderings in the order given (the sample order), group by group', async () => {
    const log: string[] = [];
    const main = new SharedFake(log);
    const order = sampleOrder(plan, 5);
    const runner = createGroundTruthRunner({ client: main, store: createMemoryResultsStore() });
    await runner.start(plan, configFor, 'h0', { order, orderSeed: 5 });
    expect(runner.state).toMatchObject({ status: 'done', done: 12 });
    const keyOf = (tasks: string) => plan.orderings.find((o) => JSON.stringify(o.tasks) === tasks)!.key;
    // two groups (finetune, replay), each in the sample order
    expect(log.map(keyOf)).toEqual([...order, ...order]);
    expect(runner.state.sharing).toMatchObject({ order: 'sample', tasksPlanned: 24, tasksDone: 24 });
  });
  it('two workers are dealt one sample order as each gets free: the finished orderings are its first n within one, each stored once', async () => {
    const log: string[] = [];
    const main = new SharedFake(log);
    const helper = new SharedFake(log);
    const store = createMemoryResultsStore();
    const order = sampleOrder(plan, 1);
    const runner = createGroundTruthRunner({ client: main, store });
    await runner.start(plan, configFor, 'h', { helpers: [helper], order });
    expect(runner.state.status).toBe('done');
    expect(runner.state.done).toBe(12);
    expect((await store.getAll('h')).length).toBe(12);
    // both workers get every config of a group and train only what they are dealt (pull mode)
    expect(main.given.map((g) => g.length)).toEqual([6, 6]);
    expect(helper.given.map((g) => g.length)).toEqual([6, 6]);
    expect(main.options.every((o) => o.order === undefined)).toBe(true);
    const keyOf = (tasks: string) => plan.orderings.find((o) => JSON.stringify(o.tasks) === tasks)!.key;
    const keys = log.map(keyOf);
    for (let g = 0; g < 2; g++) {
      const group = keys.slice(6 * g, 6 * g + 6);
      expect([...group].sort()).toEqual([...order].sort());
      group.forEach((k, n) => expect(order.indexOf(k)).toBeLessThanOrEqual(n + 1));
    }
    // each worker was told what the other took
    expect(main.taken.length + helper.taken.length).toBeGreaterThan(0);
    // 2 tasks of 2: nothing is shared, so nothing is trained twice either
    expect(runner.state.sharing).toMatchObject({ tasksPlanned: 24, naiveTasks: 24, tasksDone: 24 });
  });
  it('two workers on 3 tasks (first tasks shared): every prefix trained once, a first task trained on one worker continued on the other', async () => {
    const plan90 = planGroundTruth({
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
      similarity: matrixFromRows([0, 1, 2, 3, 4, 5].map((i) => [0, 1, 2, 3, 4, 5].map((j) => (i === j ? 1 : 0.3)))),
      protocolOptions: { protocols: [], rsSeeds: [0], medianSeed: 0 },
      strategies: ['finetune'],
      seeds: [0],
      budget: 100,
      sampleSeed: 0,
    });
    const log: string[] = [];
    const main = new SharedFake(log);
    const helper = new SharedFake(log);
    const store = createMemoryResultsStore();
    const order = sampleOrder(plan90, 0);
    const runner = createGroundTruthRunner({ client: main, store });
    await runner.start(plan90, configFor, 'h90', { helpers: [helper], order });
    expect(runner.state).toMatchObject({ status: 'done', done: 90 });
    expect((await store.getAll('h90')).length).toBe(90);
    // 15 + 90 + 90 prefixes, each trained once over both workers (the plan says so from the start)
    expect(runner.state.sharing).toMatchObject({ tasksPlanned: 195, tasksDone: 195, naiveTasks: 270, stepsDone: 1950 });
    expect(runner.state.sharing!.handoffs.imports).toBe(main.from.length + helper.from.length);
    expect(main.from.length + helper.from.length).toBeGreaterThan(0);
    // the finished orderings are the first n of the order within one
    const keyOf = (tasks: string) => plan90.orderings.find((o) => JSON.stringify(o.tasks) === tasks)!.key;
    log.map(keyOf).forEach((k, n) => expect(order.indexOf(k)).toBeLessThanOrEqual(n + 1));
  });
  it('the depth-first fallback (too many copies to keep) splits each group across workers by whole first-task subtrees', async () => {
    const main = new SharedFake();
    const helper = new SharedFake();
    const runner = createGroundTruthRunner({ client: main, store: createMemoryResultsStore() });
    await runner.start(plan, configFor, 'hd', { helpers: [helper], order: sampleOrder(plan, 0), maxKept: 0 });
    expect(runner.state).toMatchObject({ status: 'done', done: 12 });
    expect(runner.state.sharing?.order).toBe('depth-first');
    for (let g = 0; g < 2; g++) {
      const firsts = (cs: TrainRunConfig[]) => new Set(cs.map((c) => c.tasks[0].slice().sort().join(',')));
      const a = firsts(main.given[g]);
      const b = firsts(helper.given[g]);
      expect([...a].some((k) => b.has(k))).toBe(false); // no subtree is trained by both
      expect(main.given[g].length + helper.given[g].length).toBe(6);
      expect(main.options[g].order).toHaveLength(main.given[g].length);
    }
  });
  it('a cancel reaches every worker; finished runs stay stored', async () => {
    const main = new SharedFake();
    const helper = new SharedFake();
    let release!: () => void;
    main.hold = new Promise<void>((r) => (release = r));
    helper.hold = main.hold;
    const store = createMemoryResultsStore();
    const runner = createGroundTruthRunner({ client: main, store });
    const p = runner.start(plan, configFor, 'h2', { helpers: [helper] });
    await new Promise((r) => setTimeout(r, 0));
    runner.cancel();
    release();
    await p;
    expect(runner.state.status).toBe('cancelled');
    expect(main.cancelled).toBeGreaterThan(0);
    expect(helper.cancelled).toBeGreaterThan(0);
  });
  it('a start may bring its own worker (leased from the lab kit’s pool); without any worker it fails', async () => {
    const leased = new SharedFake();
    const runner = createGroundTruthRunner({ store: createMemoryResultsStore() });
    await expect(runner.start(plan, configFor, 'h4')).rejects.toThrow(/no training worker/);
    await runner.start(plan, configFor, 'h4', { client: leased });
    expect(leased.given.length).toBe(2);
    expect(runner.state).toMatchObject({ status: 'done', done: 12 });
  });
  it('the naive path is used when fast is off', async () => {
    const main = new SharedFake();
    const runner = createGroundTruthRunner({ client: main, store: createMemoryResultsStore() });
    await runner.start(plan, configFor, 'h3', { fast: false });
    expect(main.given.length).toBe(0);
    expect(runner.state.done).toBe(12);
    expect(runner.state.sharing).toBeNull();
  });
});

describe('the pre-trained methods’ path', () => {
  /** 4 classes in 2 tasks, finetune (trained) and simplecil (by class set): 6 + 6 jobs */
  const mixed = planGroundTruth({
    classes: [0, 1, 2, 3],
    taskSizes: [2, 2],
    similarity: sim,
    protocolOptions: { protocols: [], rsSeeds: [0], medianSeed: 0 },
    strategies: ['finetune', 'simplecil'],
    seeds: [0],
    budget: 100,
    sampleSeed: 0,
  });

  it('runs the ptm job once per method and seed, stores each record as a run, then trains the rest', async () => {
    const store = createMemoryResultsStore();
    const log: string[] = [];
    const asked: number[][][][] = [];
    const client: RunnerClient = {
      run: async (config) => (log.push('run'), fakeResult(config)),
      pause: () => {},
      resume: () => {},
      cancel: () => {},
      ptmJob: async (input, onEvent) => {
        log.push(`ptm ${input.strategy.id}`);
        asked.push(input.orderings);
        onEvent({ kind: 'stage', stage: 'orderings' });
        const records = input.orderings.map((tasks) => ({
          orderingKey: tasks.map((t) => [...t].sort((a, b) => a - b).join(',')).join('|'),
          tasks,
          matrix: [
            [1, 0],
            [0.5, 0.75],
          ],
          testCounts: [10, 30],
        }));
        onEvent({ kind: 'records', records: records.slice(0, 2), done: 2, total: 6, states: 3 });
        onEvent({ kind: 'records', records: records.slice(2), done: 6, total: 6, states: 7 });
        return {
          summary: {
            method: 'SimpleCIL (cosine)',
            orderings: 6,
            stateRule: 'the set',
            cache: { computed: 7 } as never,
            path: 'exact by class set: 7 states for 6 orderings',
            notes: [],
          },
          seconds: { features: 1, setup: 0.1, orderings: 0.01 },
          d: 128,
        };
      },
    };
    const runner = createGroundTruthRunner({ client, store });
    await runner.start(mixed, configFor, 'h', {
      fast: false,
      ptm: {
        isPtm: (id) => id === 'simplecil',
        inputOf: (strategy, seed, orderings) => ({ strategy: { id: 'simplecil', options: { metric: 'cosine' } }, seed, orderings }) as never,
      },
    });
    const st = runner.state;
    expect(st.status).toBe('done');
    expect(log[0]).toBe('ptm simplecil');
    expect(log.filter((l) => l === 'run')).toHaveLength(6);
    expect(asked[0]).toHaveLength(6);
    const runs = await store.getAll('h');
    const ptm = runs.filter((r) => r.strategy === 'simplecil');
    expect(ptm).toHaveLength(6);
    expect(ptm.every((r) => r.backend === 'core' && r.finalAccuracy === (0.5 * 10 + 0.75 * 30) / 40)).toBe(true);
    expect(st.ptm).toEqual([
      expect.objectContaining({
        strategy: 'simplecil',
        stage: 'done',
        done: 6,
        total: 6,
        path: 'exact by class set: 7 states for 6 orderings',
        method: 'SimpleCIL (cosine)',
      }),
    ]);
    // a second start finds everything stored: no job, no training
    log.length = 0;
    await runner.start(mixed, configFor, 'h', { fast: false, ptm: { isPtm: (id) => id === 'simplecil', inputOf: () => ({}) as never } });
    expect(log).toEqual([]);
  });
});
