/**
 * The Your-classes runner on the lab kit's run session (src/services/own-classes-runner.ts), with an in-process
 * worker over the real engine jobs (src/engine/own-classes/job.ts) and the tiny CLIP vision fixture
 * (tests/fixtures/clip-vision-tiny) on tfjs's cpu backend: Pause really stops the orderings until Resume; Cancel
 * leaves only whole runs and no features half-kept, and the next start trains only the orders not finished, to the
 * same numbers as an uninterrupted start; the time left is given while it runs.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownClassesOf, type OwnClassesConfig } from '../../../src/core/config/sections/own-classes';
import { everyOwnOrder } from '../../../src/core/own-classes/orders';
import { selectBackend } from '../../../src/engine/backend';
import { RunControl } from '../../../src/engine/control';
import { jobContext } from '../../../src/engine/jobs/job';
import { ownEncodeJob, ownOrderingsJob, type OwnEncodeInput } from '../../../src/engine/own-classes/job';
import { createOwnClassesRunner, SAMPLE_SIZE, type OwnRunnerState, type OwnWorker } from '../../../src/services/own-classes-runner';

const COLOURS = [
  [220, 30, 30],
  [30, 200, 40],
  [40, 60, 230],
];
const PER = 6;
const side = SAMPLE_SIZE * SAMPLE_SIZE * 3;

/** Sample i of class c as its "bytes": already RGB at SAMPLE_SIZE (the test's decode passes them through). */
function sample(c: number, i: number): Uint8Array {
  const out = new Uint8Array(side);
  let s = 99 + 31 * c + i;
  for (let k = 0; k < side; k++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[k] = Math.max(0, Math.min(255, COLOURS[c][k % 3] + ((s >> 16) % 41) - 20));
  }
  return out;
}

const names = ['red', 'green', 'blue'];
const samples = {
  samples: async (name: string) => Array.from({ length: PER }, (_, index) => ({ name, index, bytes: sample(names.indexOf(name), index) })),
};

/** The engine's jobs in this process; `gate` holds each finished ordering's event until it resolves. */
function inProcess(lateEvents = false) {
  const control = new RunControl();
  const ctx = jobContext(() => Promise.reject(new Error('no built-in data')), control);
  const calls: string[] = [];
  let encoded = 0;
  const worker: OwnWorker = {
    job: (async (kind: string, input: unknown, onEvent?: (e: never) => void) => {
      calls.push(kind);
      if (kind === 'own-encode') {
        const out = await ownEncodeJob({ ...(input as OwnEncodeInput), device: 'cpu' }, ctx, (e) => onEvent?.(e as never));
        encoded += (input as OwnEncodeInput).count;
        return out;
      }
      // lateEvents: as comlink may deliver them, every event after the job's result
      if (kind === 'own-orderings')
        return ownOrderingsJob(input as never, ctx, (e) => (lateEvents ? setTimeout(() => onEvent?.(e as never), 50) : onEvent?.(e as never)));
      throw new Error(`unexpected job ${kind}`);
    }) as OwnWorker['job'],
    pause: async () => control.pause(),
    resume: async () => control.resume(),
    cancel: async () => control.cancel(),
  };
  let leases = 0;
  const runner = createOwnClassesRunner({
    lease: async () => {
      leases++;
      return { main: worker, release: () => {}, backend: { name: 'cpu' } };
    },
    samples,
    decode: async (b) => b,
  });
  return {
    runner,
    control,
    calls,
    encodedCount: () => encoded,
    leases: () => leases,
    fresh: () => ((control as unknown as { stateValue: string }).stateValue = 'running'),
  };
}

const cfg = (strategy: OwnClassesConfig['strategy']): OwnClassesConfig =>
  ownClassesOf({
    ownClasses: {
      ...ownClassesOf({}),
      classes: names,
      trainPerClass: 4,
      testPerClass: 2,
      strategy,
      seed: 0,
      encoder: { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: resolve('tests/fixtures') } },
    },
  });

/** Resolves at the first state that passes `pred`. */
function when(runner: { subscribe: (l: (s: OwnRunnerState) => void) => () => void }, pred: (s: OwnRunnerState) => boolean): Promise<OwnRunnerState> {
  return new Promise((res) => {
    let off: (() => void) | null = null;
    let done = false;
    off = runner.subscribe((s) => {
      if (!done && pred(s)) {
        done = true;
        queueMicrotask(() => off?.());
        res(s);
      }
    });
  });
}

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
}, 60_000);

describe('Your-classes runner on the run session', () => {
  it('trains the teaching order, then every ordering, each sample encoded once; the time left is given', { timeout: 120_000 }, async () => {
    const w = inProcess();
    const etas: (number | null)[] = [];
    w.runner.subscribe((s) => s.status === 'running' && etas.push(s.etaSeconds));
    const one = await w.runner.train(cfg('finetune'), 3);
    expect(one!.order).toEqual([0, 1, 2]);
    expect(one!.matrix.length).toBe(3);
    expect(w.runner.state.status).toBe('done');
    const all = await w.runner.orderings(cfg('finetune'));
    expect(all!.runs.length).toBe(6);
    // the teaching order was trained by `train` and is read back, not trained again
    expect(w.runner.state.skipped).toBe(1);
    expect(all!.runs[0]).toEqual(one);
    expect(w.encodedCount()).toBe(3 * PER);
    expect(etas.some((e) => e !== null && e > 0)).toBe(true);
    expect(all!.edge.hard.length).toBe(3);
  });

  it(
    'Pause stops the orderings until Resume; Cancel keeps only whole runs and the next start trains the rest to the same numbers',
    { timeout: 180_000 },
    async () => {
      const ref = await inProcess().runner.orderings(cfg('finetune'));
      const w = inProcess();
      const started = w.runner.orderings(cfg('finetune'));
      // pause after the second ordering is recorded
      await when(w.runner, (s) => s.done >= 2);
      w.runner.pause();
      const at = w.runner.state.done;
      expect(w.runner.state.status).toBe('paused');
      await new Promise((r) => setTimeout(r, 1500));
      // at most the ordering in flight when Pause came finishes; then nothing more
      const afterPause = w.runner.state.done;
      expect(afterPause - at).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(w.runner.state.done).toBe(afterPause);
      expect(w.runner.state.etaSeconds).not.toBeNull();
      w.runner.resume();
      await when(w.runner, (s) => s.done >= afterPause + 1);
      w.runner.cancel();
      expect(await started).toBeNull();
      const st = w.runner.state;
      expect(st.status).toBe('cancelled');
      expect(st.runs.length).toBeGreaterThan(2);
      expect(st.runs.length).toBeLessThan(6);
      // every recorded run is whole: a full lower-triangular R of 3 steps and its final accuracy
      for (const r of st.runs) {
        expect(r.matrix.map((row) => row.length)).toEqual([3, 3, 3]);
        expect(r).toEqual({ ...ref!.runs.find((x) => x.order.join() === r.order.join())!, id: r.id, configHash: r.configHash });
      }
      const kept = st.runs.length;
      w.fresh();
      const again = await w.runner.orderings(cfg('finetune'));
      expect(w.runner.state.skipped).toBe(kept);
      expect(again!.runs).toEqual(ref!.runs);
    },
  );

  it('records every run when the worker’s events arrive after its result', { timeout: 60_000 }, async () => {
    const w = inProcess(true);
    const all = await w.runner.orderings(cfg('simplecil'));
    expect(all!.runs.map((r) => r.order)).toEqual(everyOwnOrder(3));
    expect(w.runner.state.runs.length).toBe(6);
  });

  it('a cancel while the features are computed keeps none of them; the next start computes them all', { timeout: 120_000 }, async () => {
    const w = inProcess();
    const started = w.runner.train(cfg('simplecil'), 3);
    await when(w.runner, (s) => s.current?.progress?.stage === 'encode');
    w.runner.cancel();
    expect(await started).toBeNull();
    expect(w.runner.state.runs).toEqual([]);
    w.fresh();
    const before = w.encodedCount();
    const run = await w.runner.train(cfg('simplecil'), 3);
    expect(run!.matrix.length).toBe(3);
    expect(w.encodedCount() - before).toBe(3 * PER);
  });
});
