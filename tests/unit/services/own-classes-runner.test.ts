/**
 * The Your-classes runner on the lab kit's run session (src/services/own-classes-runner.ts), with an in-process
 * worker over the real engine jobs (src/engine/own-classes/job.ts), the tiny CLIP vision fixture
 * (tests/fixtures/clip-vision-tiny) on tfjs's cpu backend and the store in memory: features computed as samples
 * arrive, each once; rows of the history stored once and read back by the next visit without computing them; a
 * changed class's rows computed again with the reason; Pause really stops the orderings until Resume; Cancel leaves
 * only whole runs, and the next start trains only the orders not finished, to the same numbers.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownClassesOf, type OwnClassesConfig } from '../../../src/core/labs/own-classes/section';
import { sampleFingerprint } from '../../../src/core/own-classes/history';
import { selectBackend } from '../../../src/engine/backend';
import { RunControl } from '../../../src/engine/control';
import { jobContext } from '../../../src/engine/jobs/job';
import { JOBS } from '../../../src/engine/jobs';
import type { OwnEncodeInput } from '../../../src/engine/own-classes/job';
import { createOwnClassesRunner, SAMPLE_SIZE, type OwnClassRef, type OwnRunnerState, type OwnWorker } from '../../../src/services/own-classes-runner';
import { ownSampleStore, OWN_SAMPLES_DB, type OwnSampleStore } from '../../../src/services/own-classes-store';
import { memoryStore } from '../../../src/services/store';

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

/** A store in memory holding every sample of the three classes (as the lab stores them when they are taken). */
async function filledStore(): Promise<OwnSampleStore> {
  const store = ownSampleStore(memoryStore(OWN_SAMPLES_DB));
  for (const [c, name] of names.entries()) for (let i = 0; i < PER; i++) await store.put({ name, index: i, bytes: sample(c, i) });
  await store.saveClasses(names);
  return store;
}

const refs = (prints: Record<string, string> = {}): OwnClassRef[] =>
  names.map((name, c) => ({ name, fingerprint: prints[name] ?? sampleFingerprint(Array.from({ length: PER }, (_, i) => sample(c, i))) }));

/** The engine's jobs in this process; `lateEvents` delivers every event after the job's result (as comlink may). */
function inProcess(store: OwnSampleStore, lateEvents = false) {
  const control = new RunControl();
  const ctx = jobContext(() => Promise.reject(new Error('no built-in data')), control);
  const calls: string[] = [];
  let encoded = 0;
  const worker: OwnWorker = {
    job: (async (kind: keyof typeof JOBS, input: unknown, onEvent?: (e: never) => void) => {
      calls.push(kind);
      const job = JOBS[kind] as unknown as (i: unknown, c: typeof ctx, emit: (e: unknown) => void) => Promise<unknown>;
      const emit = (e: unknown) => (lateEvents ? setTimeout(() => onEvent?.(e as never), 50) : onEvent?.(e as never));
      const out = await job(kind === 'own-encode' ? { ...(input as OwnEncodeInput), device: 'cpu' } : input, ctx, emit);
      if (kind === 'own-encode') encoded += (input as OwnEncodeInput).count;
      return out;
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
    store,
    decode: async (b) => b,
    idleReleaseMs: 10,
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

describe('Your-classes runner', () => {
  it('computes features as samples arrive, each once, and keeps them for the next visit', { timeout: 120_000 }, async () => {
    const store = await filledStore();
    const w = inProcess(store);
    for (const [c, name] of names.entries()) for (let i = 0; i < PER; i++) w.runner.sampleAdded(cfg('simplecil'), name, i, sample(c, i));
    const out = await w.runner.teach(cfg('simplecil'), refs());
    expect(out!.rows.map((r) => r.step)).toEqual([0, 1, 2]);
    expect(w.encodedCount()).toBe(3 * PER);
    // the next visit: a new runner on the same store encodes nothing and computes no row
    const again = inProcess(store);
    const out2 = await again.runner.teach(cfg('simplecil'), refs());
    expect(again.encodedCount()).toBe(0);
    expect(again.calls).not.toContain('own-steps');
    expect(again.leases()).toBe(0);
    expect(out2!.rows).toEqual(out!.rows);
    expect(out2!.changed).toBeNull();
  });

  it('never computes a stored row again; a changed class’s rows are, with the reason', { timeout: 120_000 }, async () => {
    const store = await filledStore();
    const w = inProcess(store);
    const two = await w.runner.teach(cfg('finetune'), refs().slice(0, 2));
    const three = await w.runner.teach(cfg('finetune'), refs());
    // row 0 and 1 are the very records stored after class 2 (the same moment, the same numbers)
    expect(three!.rows.slice(0, 2)).toEqual(two!.rows);
    expect(three!.rows[2].classes).toEqual(names);
    // "green" re-recorded: its row and every later one are computed again, and the page is told why
    const w2 = inProcess(store);
    const changed = await w2.runner.teach(cfg('finetune'), refs({ green: 'other samples' }));
    expect(changed!.changed).toEqual({ from: 1, why: 'the samples of “green” changed' });
    expect(changed!.rows[0]).toEqual(three!.rows[0]);
    expect(changed!.rows[1].computedAt).toBeGreaterThanOrEqual(three!.rows[2].computedAt);
    expect(changed!.rows[1].samples[1]).toBe('other samples');
    // another strategy keeps a history of its own beside it
    const proto = await w2.runner.teach(cfg('ncm'), refs());
    expect(proto!.changed).toBeNull();
    expect((await store.history(changed!.rows[0].key)).length).toBe(3);
  });

  it('every ordering of a closed-form head from its states, with EDGE’s and RS’s picks', { timeout: 120_000 }, async () => {
    const store = await filledStore();
    const w = inProcess(store);
    const out = await w.runner.orderings(cfg('fecam'), refs(), [0, 42]);
    expect(out!.result.overview.exact).toBe(true);
    expect(out!.result.overview.orderings).toBe(6);
    expect(out!.result.metric).toBe('aia');
    expect(out!.result.rs.map((r) => r.seed)).toEqual([0, 42]);
    expect(out!.edge.hard).toHaveLength(3);
    // read back from the session, not computed again
    const calls = w.calls.length;
    await w.runner.orderings(cfg('fecam'), refs(), [0, 42]);
    expect(w.calls.filter((c) => c === 'own-overview').length).toBe(1);
    expect(w.calls.length).toBe(calls);
  });

  it(
    'Pause stops the trained head’s orderings until Resume; Cancel keeps only whole runs and the next start trains the rest to the same numbers',
    { timeout: 180_000 },
    async () => {
      const ref = await inProcess(await filledStore()).runner.orderings(cfg('finetune'), refs(), [0]);
      const w = inProcess(await filledStore());
      const started = w.runner.orderings(cfg('finetune'), refs(), [0]);
      await when(w.runner, (s) => s.done >= 2);
      w.runner.pause();
      const at = w.runner.state.done;
      expect(w.runner.state.status).toBe('paused');
      await new Promise((r) => setTimeout(r, 1500));
      const afterPause = w.runner.state.done;
      expect(afterPause - at).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(w.runner.state.done).toBe(afterPause);
      w.runner.resume();
      await when(w.runner, (s) => s.done >= afterPause + 1);
      w.runner.cancel();
      expect(await started).toBeNull();
      const st = w.runner.state;
      expect(st.status).toBe('cancelled');
      expect(st.runs.length).toBeGreaterThan(2);
      expect(st.runs.length).toBeLessThan(6);
      for (const r of st.runs) {
        if (r.kind !== 'run') throw new Error('a run was expected');
        expect(r.run.matrix.map((row) => row.length)).toEqual([3, 3, 3]);
      }
      const kept = st.runs.length;
      w.fresh();
      const again = await w.runner.orderings(cfg('finetune'), refs(), [0]);
      expect(w.runner.state.skipped).toBe(kept);
      expect(again!.result).toEqual(ref!.result);
    },
  );

  it('records every run when the worker’s events arrive after its result', { timeout: 60_000 }, async () => {
    const w = inProcess(await filledStore(), true);
    const all = await w.runner.orderings(cfg('replay'), refs(), [0]);
    expect(all!.result.overview.orderings).toBe(6);
    expect(w.runner.state.runs.length).toBe(6);
  });

  it('a cancel while the features are computed stops there; the next start encodes only what is missing', { timeout: 120_000 }, async () => {
    const w = inProcess(await filledStore());
    const started = w.runner.teach(cfg('simplecil'), refs());
    await when(w.runner, (s) => s.current?.progress?.stage === 'encode');
    w.runner.cancel();
    expect(await started).toBeNull();
    expect(w.runner.state.runs).toEqual([]);
    w.fresh();
    const out = await w.runner.teach(cfg('simplecil'), refs());
    expect(out!.rows).toHaveLength(3);
    expect(w.encodedCount()).toBe(3 * PER);
  });

  it('trains the joint head once for the same classes', { timeout: 60_000 }, async () => {
    const w = inProcess(await filledStore());
    const a = await w.runner.joint(cfg('simplecil'), refs());
    expect(a).toBeGreaterThan(0);
    expect(await w.runner.joint(cfg('simplecil'), refs())).toBe(a);
    expect(w.calls.filter((c) => c === 'own-joint')).toHaveLength(1);
  });
});
