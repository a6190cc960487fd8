import { fakeTabs } from './fake-tabs';
import { describe, expect, it } from 'vitest';
import { createRunSession, oneAtATime, runTimes, type Controllable, type SessionContext } from '../../../../src/services/lab-kit/run-session';

interface Job {
  id: string;
}
interface Result {
  id: string;
  value: number;
}
type Current = { id: string; progress: number | null };

/** A store keyed by (configHash, id), with an optional failing put. */
function memoryStore(failPut = false) {
  const rows = new Map<string, Result & { hash: string }>();
  let hash = '';
  return {
    rows,
    useHash(h: string) {
      hash = h;
    },
    async getAll(h: string) {
      return [...rows.values()].filter((r) => r.hash === h).map(({ id, value }) => ({ id, value }));
    },
    async put(r: Result) {
      if (failPut) throw new Error('QuotaExceededError');
      rows.set(`${hash}|${r.id}`, { ...r, hash });
    },
    notice: null as string | null,
  };
}

/** A worker the test finishes run by run; a paused worker cannot finish, a cancelled run rejects. */
class Worker implements Controllable {
  paused = false;
  log: string[] = [];
  clock = { t: 0 };
  started: string[] = [];
  private pending: { job: Job; resolve: (r: Result) => void; reject: (e: Error) => void } | null = null;
  private arrived: (() => void)[] = [];
  train(job: Job): Promise<Result> {
    this.started.push(job.id);
    return new Promise((resolve, reject) => {
      this.pending = { job, resolve, reject };
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
      const e = new Error('cancelled');
      e.name = 'RunCancelledError';
      p.reject(e);
    }
  }
  async next(): Promise<Job> {
    if (!this.pending) await new Promise<void>((r) => this.arrived.push(r));
    return this.pending!.job;
  }
  async finish(seconds = 2) {
    await this.next();
    if (this.paused) throw new Error('a paused run cannot finish');
    this.clock.t += seconds * 1000;
    const p = this.pending!;
    this.pending = null;
    p.resolve({ id: p.job.id, value: seconds });
    await flush();
  }
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

const jobs: Job[] = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));

function setup(store = memoryStore(), etaWindow = 10) {
  const worker = new Worker();
  const session = createRunSession<Job, Result, Current>({ store, jobId: (j) => j.id, resultId: (r) => r.id, now: () => worker.clock.t });
  const driver = oneAtATime<Job, Result, Current>({
    etaWindow,
    current: (j) => ({ id: j.id, progress: null }),
    train: (j, ctx) => {
      ctx.progress(0.5);
      return worker.train(j);
    },
  });
  const start = (hash: string) => {
    store.useHash(hash);
    return session.start(jobs, hash, driver, { workers: [worker] });
  };
  return { worker, session, store, start };
}

describe('run session', () => {
  it('trains every job in order, storing each result before the next starts', async () => {
    const { worker, session, store, start } = setup();
    const done = start('h1');
    for (let i = 0; i < jobs.length; i++) {
      await worker.next();
      expect(store.rows.size).toBe(i);
      expect(session.state.current).toEqual({ id: jobs[i].id, progress: 0.5 });
      await worker.finish();
    }
    await done;
    expect(worker.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(session.state).toMatchObject({ status: 'done', done: 5, total: 5, skipped: 0, current: null, etaSeconds: 0, configHash: 'h1' });
    expect(session.state.runs.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(session.active).toBe(false);
  });

  it('a new start skips the stored results (resume after a reload)', async () => {
    const store = memoryStore();
    const first = setup(store);
    const run1 = first.start('h2');
    await first.worker.finish();
    await first.worker.finish();
    await first.worker.next();
    first.session.cancel();
    await run1;
    expect(first.session.state).toMatchObject({ status: 'cancelled', done: 2 });
    const second = setup(store);
    const run2 = second.start('h2');
    await second.worker.next();
    expect(second.session.state).toMatchObject({ skipped: 2, done: 2, total: 5 });
    for (let i = 0; i < 3; i++) await second.worker.finish();
    await run2;
    expect(second.worker.started).toEqual(['c', 'd', 'e']);
    expect(second.session.state.runs.map((r) => r.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    // another config shares nothing
    const third = setup(store);
    const run3 = third.start('other');
    await third.worker.next();
    expect(third.session.state.skipped).toBe(0);
    third.session.cancel();
    await run3;
  });

  it('pause holds the worker and starts nothing new; resume continues', async () => {
    const { worker, session, start } = setup();
    const done = start('h3');
    await worker.next();
    session.pause();
    expect(session.state.status).toBe('paused');
    expect(worker.paused).toBe(true);
    await expect(worker.finish()).rejects.toThrow(/paused/);
    session.resume();
    expect(session.state.status).toBe('running');
    await worker.finish();
    expect(session.state.done).toBe(1);
    session.pause();
    worker.paused = false; // the worker had already finished its run when the pause arrived
    await worker.finish();
    await flush();
    expect(worker.started).toHaveLength(2); // the pause point between runs holds
    expect(session.state).toMatchObject({ status: 'paused', done: 2 });
    session.resume();
    await worker.next();
    expect(worker.started).toHaveLength(3);
    session.cancel();
    await done;
    expect(worker.log).toEqual(['pause', 'resume', 'pause', 'resume', 'cancel']);
  });

  it('step(n) records n more results then pauses; Play after a step plays on; no-op without a session', async () => {
    const { worker, session, start } = setup();
    const done = start('h4');
    await worker.next();
    session.step();
    await worker.finish();
    expect(session.state).toMatchObject({ status: 'paused', done: 1 });
    await flush();
    expect(worker.started).toHaveLength(1);
    session.step(2);
    await worker.finish();
    expect(session.state.status).toBe('running');
    await worker.finish();
    expect(session.state).toMatchObject({ status: 'paused', done: 3 });
    session.step(1);
    session.pause();
    session.resume(); // Play: the step is over
    await worker.finish();
    await worker.finish();
    expect(session.state).toMatchObject({ status: 'done', done: 5 });
    await done;
    session.step();
    expect(session.state.status).toBe('done');
  });

  it('a worker that counts its results is told each step’s budget before the page hears the result, and Play takes it away', async () => {
    const store = memoryStore();
    const worker = new Worker();
    const told: number[] = [];
    const counting: Controllable = {
      pause: () => worker.pause(),
      resume: () => worker.resume(),
      cancel: () => worker.cancel(),
      pauseAfter: (n) => {
        told.push(n);
        worker.log.push(`pauseAfter ${n}`);
      },
    };
    const session = createRunSession<Job, Result, Current>({ store, jobId: (j) => j.id, resultId: (r) => r.id, now: () => worker.clock.t });
    const left: number[] = [];
    const driver = oneAtATime<Job, Result, Current>({
      current: (j) => ({ id: j.id, progress: null }),
      train: (j, ctx) => {
        left.push(ctx.stepsLeft());
        return worker.train(j);
      },
    });
    store.useHash('h-count');
    const done = session.start(jobs, 'h-count', driver, { workers: [counting] });
    session.step(); // running: the budget goes to the worker at once
    await worker.finish();
    expect(session.state).toMatchObject({ status: 'paused', done: 1 });
    session.step(2); // from the pause: the old budget cleared with the resume, then the new one
    await worker.finish();
    await worker.finish();
    expect(session.state).toMatchObject({ status: 'paused', done: 3 });
    session.resume(); // Play: no budget
    await worker.finish();
    await worker.finish();
    await done;
    expect(session.state).toMatchObject({ status: 'done', done: 5 });
    expect(worker.log).toEqual(['pauseAfter 1', 'pause', 'pauseAfter 0', 'resume', 'pauseAfter 2', 'pause', 'pauseAfter 0', 'resume']);
    expect(told).toEqual([1, 0, 2, 0]);
    // what the driver read when each run began: a run started under a step knows the budget (a job can take it along)
    expect(left).toEqual([1, 2, 1, 0, 0]);
  });

  it('cancel drops the run in flight, keeps the stored ones, and also ends a paused session', async () => {
    const { worker, session, store, start } = setup();
    const done = start('h5');
    await worker.finish();
    await worker.next();
    session.cancel();
    await done;
    expect(session.state).toMatchObject({ status: 'cancelled', done: 1, current: null, etaSeconds: null });
    expect(store.rows.size).toBe(1);
    const again = start('h5');
    await worker.next();
    session.pause();
    session.cancel();
    await again;
    expect(session.state).toMatchObject({ status: 'cancelled', skipped: 1 });
  });

  it('ETA: moving average of the last runs × jobs left, paused time excluded', async () => {
    const { worker, session, start } = setup(memoryStore(), 2);
    const done = start('h6');
    await worker.next();
    expect(session.state.etaSeconds).toBeNull();
    await worker.finish(4);
    expect(session.state.etaSeconds).toBeCloseTo(4 * 4, 9);
    await worker.finish(2);
    expect(session.state.etaSeconds).toBeCloseTo(3 * 3, 9);
    await worker.next();
    session.pause();
    worker.clock.t += 30_000;
    session.resume();
    await worker.finish(1); // window 2: mean(2, 1)
    expect(session.state.etaSeconds).toBeCloseTo(1.5 * 2, 9);
    session.cancel();
    await done;
  });

  it('a result the store refuses stays shown with a notice; a failure ends with the error', async () => {
    const { worker, session, start } = setup(memoryStore(true));
    const done = start('h7');
    await worker.finish();
    expect(session.state.runs).toHaveLength(1);
    expect(session.state.notice).toMatch(/could not be stored \(QuotaExceededError\)/);
    session.cancel();
    await done;

    const store = memoryStore();
    const s2 = createRunSession<Job, Result, Current>({ store, jobId: (j) => j.id, resultId: (r) => r.id });
    await s2.start(jobs, 'h8', async () => {
      throw new Error('No TensorFlow.js backend could be used.');
    });
    expect(s2.state).toMatchObject({ status: 'error', error: 'No TensorFlow.js backend could be used.' });
  });

  it('a second start cancels the first; extra fields reset at every start; late callbacks of the old start are ignored', async () => {
    const store = memoryStore();
    const session = createRunSession<Job, Result, Current, { plan: number | null }>({
      store,
      jobId: (j) => j.id,
      resultId: (r) => r.id,
      initialExtra: { plan: null },
    });
    let oldCtx: SessionContext<Result, Current, { plan: number | null }> | null = null;
    const first = session.start(jobs, 'a', async (_todo, ctx) => {
      oldCtx = ctx;
      ctx.set({ plan: 7 });
      while (await ctx.pausePoint()) await new Promise((r) => setTimeout(r, 1));
    });
    await flush();
    expect(session.state.plan).toBe(7);
    const second = session.start(jobs, 'b', async (todo, ctx) => {
      await ctx.record({ id: todo[0].id, value: 1 });
    });
    await first;
    await second;
    expect(session.state).toMatchObject({ status: 'done', configHash: 'b', plan: null, done: 1 });
    expect(oldCtx!.live()).toBe(false);
    oldCtx!.set({ plan: 9 });
    expect(session.state.plan).toBeNull();
  });

  it('runTimes keeps a moving window', () => {
    const t = runTimes(2);
    expect(t.mean()).toBeNull();
    t.add(4);
    t.add(2);
    t.add(1);
    expect(t.mean()).toBe(1.5);
  });
});

describe('run session: two tabs on one config', () => {
  function tab(store: ReturnType<typeof memoryStore>, coordinator: ReturnType<ReturnType<typeof fakeTabs>>) {
    const worker = new Worker();
    const session = createRunSession<Job, Result, Current>({ store, coordinator, jobId: (j) => j.id, resultId: (r) => r.id });
    const driver = oneAtATime<Job, Result, Current>({ current: (j) => ({ id: j.id, progress: null }), train: (j) => worker.train(j) });
    return { worker, session, start: () => session.start(jobs, 'shared', driver, { workers: [worker] }) };
  }

  it('one tab trains, the other follows the stored runs and trains only what is left when the first stops', async () => {
    const store = memoryStore();
    store.useHash('shared');
    const tabs = fakeTabs();
    const a = tab(store, tabs(1));
    const b = tab(store, tabs(2));
    const runA = a.start();
    await a.worker.next();
    const runB = b.start();
    await flush();
    expect(b.session.state).toMatchObject({ following: true, status: 'running', done: 0 });
    expect(b.session.state.notice).toMatch(/Another tab is training/);
    expect(b.worker.started).toEqual([]);
    await a.worker.finish();
    await a.worker.finish();
    await flush();
    // the follower shows what the trainer stored
    expect(b.session.state).toMatchObject({ following: true, done: 2 });
    expect(b.session.state.runs.map((r) => r.id).sort()).toEqual(['a', 'b']);
    // the trainer stops: the follower takes over and trains the rest only
    await a.worker.next();
    a.session.cancel();
    await runA;
    await b.worker.next();
    expect(b.session.state).toMatchObject({ following: false, skipped: 2 });
    for (let i = 0; i < 3; i++) await b.worker.finish();
    await runB;
    expect(b.worker.started).toEqual(['c', 'd', 'e']);
    expect(b.session.state).toMatchObject({ status: 'done', done: 5 });
  });

  it('a follower that is cancelled stops waiting and trains nothing', async () => {
    const store = memoryStore();
    const tabs = fakeTabs();
    const a = tab(store, tabs(1));
    const b = tab(store, tabs(2));
    const runA = a.start();
    await a.worker.next();
    const runB = b.start();
    await flush();
    b.session.cancel();
    await runB;
    expect(b.session.state).toMatchObject({ status: 'cancelled', following: false });
    expect(b.worker.started).toEqual([]);
    a.session.cancel();
    await runA;
  });
});
