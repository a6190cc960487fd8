/**
 * The lab kit's run session: the job queue every lab's runner is built on (docs/architecture.md, "Results are
 * stored …" and the recipe "Add a lab", step 6, which shows a complete small runner; ../forgetting-runner.ts is a
 * short real one). It stores each result the moment it finishes, so a reload or a crash loses at most the run in
 * flight and finished runs are never trained twice, and it gives every lab pause, resume, step, cancel and an ETA.
 * Nothing heavy runs here: training is in the workers of the shared pool (./train-pool.ts) and storing is
 * IndexedDB's async I/O; this module only awaits and forwards.
 */

export type SessionStatus = 'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

/** The common part of every lab's runner state; `C` is what the lab shows of the run in flight. */
export interface SessionState<R, C> {
  status: SessionStatus;
  /** finished jobs, the skipped (already stored) ones included */
  done: number;
  total: number;
  /** jobs found in the store at start */
  skipped: number;
  etaSeconds: number | null;
  /** the backend of the last run (or the worker's, before the first) */
  backend: string;
  /** the last backend-fallback or storage notice, for the app's notice line */
  notice: string | null;
  error: string | null;
  current: C | null;
  /** every stored result of the config, then each new one as it finishes */
  runs: R[];
  /** the config the runs belong to (null before the first start) */
  configHash: string | null;
  /**
   * Another tab trains this config (`coordinator`): this one shows the runs it stores, and trains
   * what is left if that tab stops.
   */
  following: boolean;
}

/** A runner's state before anything ran: idle, nothing counted, no runs; `notice` is the store's, if it has one. */
export function idleSessionState<R, C>(notice: string | null = null): SessionState<R, C> {
  return {
    status: 'idle',
    done: 0,
    total: 0,
    skipped: 0,
    etaSeconds: null,
    backend: '',
    notice,
    error: null,
    current: null,
    runs: [],
    configHash: null,
    following: false,
  };
}

/** What the session needs of a store: the results of one config, and storing one more. */
export interface SessionStore<R> {
  getAll(configHash: string): Promise<R[]>;
  put(result: R): Promise<void>;
  readonly notice?: string | null;
}

/** A worker the session pauses, resumes and cancels with itself (train-client.ts; a fake in the tests). */
export interface Controllable {
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
  cancel(): Promise<void> | void;
  /** pause by itself after `n` more results (0: play on): a worker whose job counts its results (the Open-world job) */
  pauseAfter?(n: number): Promise<void> | void;
}

/** Pause / resume / cancel passed on to whichever worker runs the lab's jobs now (none: they do nothing). */
export function currentWorkerControl(current: () => Controllable | null): Controllable {
  return {
    pause: () => current()?.pause(),
    resume: () => current()?.resume(),
    cancel: () => current()?.cancel(),
    pauseAfter: (n) => current()?.pauseAfter?.(n),
  };
}

/**
 * Tabs of one browser on the same config: one trains, the others follow the shared store.
 * `webLocksCoordinator` (./coordinator.ts) is the browser's (Web Locks + BroadcastChannel); the tests pass a fake.
 */
export interface SessionCoordinator {
  /** become the trainer of `key` now, or null when another tab is */
  tryAcquire(key: string): Promise<(() => void) | null>;
  /** wait to become the trainer (the other tab stopped); rejects when `signal` aborts */
  acquire(key: string, signal: AbortSignal): Promise<() => void>;
  /** a result of `key` was stored by this tab */
  stored(key: string): void;
  /** another tab stored a result of `key` */
  onStored(key: string, listener: () => void): () => void;
}

export interface RunSessionOptions<J, R, X extends object> {
  store: SessionStore<R>;
  /** coordinate with other tabs training the same config (optional) */
  coordinator?: SessionCoordinator | null;
  /** equal ids = the same run: a job whose id a stored result has is skipped */
  jobId(job: J): string;
  resultId(result: R): string;
  /** the lab's own state fields and their values at every start */
  initialExtra?: X;
  /** clock in ms (tests) */
  now?: () => number;
}

/** What a driver may do while it trains a start's jobs. */
export interface SessionContext<R, C, X extends object> {
  /** the session is still the active one (false after a cancel or a newer start: then ignore late callbacks) */
  live(): boolean;
  readonly cancelled: boolean;
  readonly paused: boolean;
  readonly state: Readonly<SessionState<R, C> & X>;
  /** the one pause point: waits while paused; false when the session was cancelled (stop training) */
  pausePoint(): Promise<boolean>;
  /** store a finished result and count it done; `patch(done)` adds fields (the ETA) to the same update */
  record(result: R, patch?: (done: number) => Partial<SessionState<R, C> & X>): Promise<void>;
  /** update the shown state (ignored once not live) */
  set(patch: Partial<SessionState<R, C> & X>): void;
  /** the progress of the run in flight (merged into `current`) */
  progress(progress: C extends { progress: infer P } ? P : never): void;
  /** a backend-fallback notice; `to` is the backend now in use */
  notice(message: string, to?: string | null): void;
  /** active seconds since this call (time spent paused excluded) */
  stopwatch(): () => number;
  /** teaching mode's Step: results still to record before the session pauses (0: none asked) */
  stepsLeft(): number;
  /** the workers of this start */
  readonly workers: readonly Controllable[];
}

export type SessionDriver<J, R, C, X extends object> = (todo: J[], ctx: SessionContext<R, C, X>) => Promise<void>;

/** True for the rejection of a cancelled run (train-client.ts `isRunCancelled`; repeated to keep this module free of the client). */
export function isCancelError(e: unknown): boolean {
  return e instanceof Error && e.name === 'RunCancelledError';
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The notice for a finished run the store refused. */
export function notStored(e: unknown): string {
  return `A finished run could not be stored (${messageOf(e)}); it is shown until the page closes but will be trained again after a reload.`;
}

/** Call a worker control method without letting a dead worker's rejection go unhandled. */
export function quietly(f: () => Promise<void> | void): void {
  try {
    void Promise.resolve(f()).catch(() => {});
  } catch {
    // the worker is gone: nothing to pause, resume or cancel
  }
}

/** Moving average of the last `window` run times (seconds): the naive ETA is mean × jobs left; null before the first. */
export function runTimes(window: number) {
  const size = Math.max(1, window);
  const times: number[] = [];
  return {
    add(seconds: number): void {
      times.push(seconds);
      if (times.length > size) times.shift();
    },
    mean(): number | null {
      return times.length ? times.reduce((a, b) => a + b, 0) / times.length : null;
    },
  };
}

interface Session {
  cancelled: boolean;
  paused: boolean;
  pausedAt: number;
  /** total paused ms of ended pauses */
  pausedMs: number;
  wake: (() => void) | null;
  finished: Promise<void>;
  /** step(): results still to record before pausing by itself (0: no step in progress) */
  stepsLeft: number;
  workers: Controllable[];
  /** stop waiting for another tab (cancel while following) */
  abort: AbortController;
}

export type SessionListener<T> = (state: T) => void;

/**
 * A run session. `start(jobs, configHash, driver, {workers})` reads what the store holds for `configHash` (those
 * jobs are `skipped`, their results in `runs` from the start), hands the rest to the lab's `driver` and ends 'done',
 * 'cancelled' or 'error'; a start while another is active cancels that one first. `pause()` / `resume()` /
 * `step(n)` / `cancel()` act on every worker of the start; the driver waits at `ctx.pausePoint()` between runs
 * (false when cancelled); `step(n)` resumes and pauses again after n more results (teaching mode's Step).
 * `ctx.record(result)` stores a result at once (a store that refuses it keeps it in `runs` and says so in
 * `notice`). `ctx.stopwatch()` measures active time; the driver sets `etaSeconds`. With a coordinator
 * (./coordinator.ts) two tabs on one config do not both train: one trains, the other follows what it stores and
 * trains what is left once the first stops. State is a fresh object on every change; `subscribe` is Svelte's store
 * contract; `X` adds a lab's own fields, reset to `initialExtra` at every start.
 */
export function createRunSession<J, R, C, X extends object = Record<never, never>>(options: RunSessionOptions<J, R, X>) {
  type State = SessionState<R, C> & X;
  const { store } = options;
  const now = options.now ?? (() => performance.now());
  const extra = (): X => structuredCloneShallow(options.initialExtra ?? ({} as X));
  const listeners = new Set<SessionListener<State>>();
  let state = { ...idleSessionState<R, C>(store.notice ?? null), ...extra() } as State;
  let session: Session | null = null;

  function set(patch: Partial<State>): void {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  }

  const pausedSoFar = (s: Session): number => s.pausedMs + (s.paused ? now() - s.pausedAt : 0);

  function pauseSession(s: Session): void {
    if (s.paused || s.cancelled) return;
    s.paused = true;
    s.pausedAt = now();
    for (const w of s.workers) quietly(() => w.pause());
    set({ status: 'paused' } as Partial<State>);
  }

  function resumeSession(s: Session): void {
    if (!s.paused || s.cancelled) return;
    s.stepsLeft = 0; // Play after a step plays on
    s.paused = false;
    s.pausedMs += now() - s.pausedAt;
    for (const w of s.workers) {
      quietly(() => w.pauseAfter?.(0));
      quietly(() => w.resume());
    }
    set({ status: 'running' } as Partial<State>);
    s.wake?.();
    s.wake = null;
  }

  function cancel(): void {
    const s = session;
    if (!s || s.cancelled) return;
    s.cancelled = true;
    s.abort.abort();
    for (const w of s.workers) quietly(() => w.cancel());
    s.wake?.();
    s.wake = null;
  }

  function contextOf(s: Session): SessionContext<R, C, X> {
    const live = (): boolean => session === s;
    return {
      live,
      get cancelled() {
        return s.cancelled;
      },
      get paused() {
        return s.paused;
      },
      get state() {
        return state;
      },
      workers: s.workers,
      async pausePoint() {
        while (s.paused && !s.cancelled) await new Promise<void>((resolve) => (s.wake = resolve));
        return !s.cancelled;
      },
      async record(result, patch) {
        let notice: string | null = null;
        try {
          await store.put(result);
        } catch (e) {
          notice = notStored(e);
        }
        if (notice === null) options.coordinator?.stored(state.configHash ?? '');
        if (!live()) return;
        const done = state.done + 1;
        set({ done, runs: [...state.runs, result], ...(notice ? { notice } : {}), ...(patch ? patch(done) : {}) } as Partial<State>);
        if (s.stepsLeft > 0 && --s.stepsLeft === 0) pauseSession(s);
      },
      set(patch) {
        if (live()) set(patch);
      },
      progress(progress) {
        if (live() && state.current) set({ current: { ...state.current, progress } } as Partial<State>);
      },
      notice(message, to) {
        if (live()) set({ notice: message, ...(to ? { backend: to } : {}) } as Partial<State>);
      },
      stepsLeft: () => s.stepsLeft,
      stopwatch() {
        const t0 = now();
        const p0 = pausedSoFar(s);
        return () => Math.max(0, now() - t0 - (pausedSoFar(s) - p0)) / 1000;
      },
    };
  }

  /** What the store holds of `jobs`: the results, and the jobs still to train. */
  async function storedOf(jobs: J[], configHash: string): Promise<{ stored: R[]; todo: J[] }> {
    const stored = await store.getAll(configHash);
    const have = new Set(stored.map((r) => options.resultId(r)));
    return { stored, todo: jobs.filter((j) => !have.has(options.jobId(j))) };
  }

  /**
   * Another tab trains this config: show what it stores until it stops, then become the trainer (or stop when
   * cancelled). Returns the lock's release, or null when cancelled.
   */
  async function follow(s: Session, jobs: J[], configHash: string, coordinator: SessionCoordinator): Promise<(() => void) | null> {
    const refresh = async (): Promise<void> => {
      const { stored, todo } = await storedOf(jobs, configHash);
      if (session === s && !s.cancelled) set({ runs: stored, done: jobs.length - todo.length, skipped: jobs.length - todo.length } as Partial<State>);
    };
    set({
      following: true,
      notice: 'Another tab is training this experiment: this tab shows its runs as they are stored, and trains what is left if that tab stops.',
    } as Partial<State>);
    const off = coordinator.onStored(configHash, () => void refresh());
    try {
      await refresh();
      return await coordinator.acquire(configHash, s.abort.signal);
    } catch (e) {
      if (s.cancelled) return null;
      throw e;
    } finally {
      off();
      if (session === s) set({ following: false, notice: store.notice ?? null } as Partial<State>);
    }
  }

  async function loop(s: Session, jobs: J[], configHash: string, driver: SessionDriver<J, R, C, X>): Promise<void> {
    let release: (() => void) | null = null;
    try {
      const coordinator = options.coordinator;
      if (coordinator) {
        release = await coordinator.tryAcquire(configHash);
        if (!release) release = await follow(s, jobs, configHash, coordinator);
      }
      if (!s.cancelled) {
        const { stored, todo } = await storedOf(jobs, configHash);
        const skipped = jobs.length - todo.length;
        if (session === s) set({ runs: stored, skipped, done: skipped } as Partial<State>);
        if (!s.cancelled) await driver(todo, contextOf(s));
      }
      if (session === s) set({ status: s.cancelled ? 'cancelled' : 'done', current: null, etaSeconds: s.cancelled ? null : 0 } as Partial<State>);
    } catch (e) {
      if (session === s) {
        if (s.cancelled || isCancelError(e)) set({ status: 'cancelled', current: null, etaSeconds: null } as Partial<State>);
        else set({ status: 'error', error: messageOf(e), current: null, etaSeconds: null } as Partial<State>);
      }
    } finally {
      release?.();
      if (session === s) session = null;
    }
  }

  return {
    get state(): State {
      return state;
    },

    /**
     * Train the jobs the store does not hold yet for `configHash` with `driver`. Resolves when the session stops
     * (done, cancelled or error: see `state.status`). A start while another is active cancels that one first.
     */
    async start(jobs: J[], configHash: string, driver: SessionDriver<J, R, C, X>, opts: { workers?: Controllable[] } = {}): Promise<void> {
      if (session) {
        const old = session;
        cancel();
        await old.finished;
      }
      let finish!: () => void;
      const s: Session = {
        cancelled: false,
        paused: false,
        pausedAt: 0,
        pausedMs: 0,
        wake: null,
        finished: new Promise<void>((r) => (finish = r)),
        stepsLeft: 0,
        workers: [...(opts.workers ?? [])],
        abort: new AbortController(),
      };
      session = s;
      set({
        status: 'running',
        done: 0,
        total: jobs.length,
        skipped: 0,
        etaSeconds: null,
        notice: store.notice ?? null,
        error: null,
        current: null,
        runs: [],
        configHash,
        following: false,
        ...extra(),
      } as Partial<State>);
      try {
        await loop(s, jobs, configHash, driver);
      } finally {
        finish();
      }
    },

    /** No new run starts, and every worker pauses its run in flight at its next step. */
    pause(): void {
      if (session) pauseSession(session);
    },

    resume(): void {
      if (session) resumeSession(session);
    },

    /**
     * Teaching mode's Step: record `runs` more results (default 1) and pause again. From a pause it resumes (the run
     * in flight counts); while running it pauses after the next `runs` finish. No-op without a started session.
     */
    step(runs = 1): void {
      const s = session;
      if (!s || s.cancelled) return;
      resumeSession(s);
      s.stepsLeft = Math.max(1, Math.floor(runs));
      // a worker that counts its results pauses itself at the last one, before training on: the page's pause below
      // (when the result is recorded) can come after the worker has trained the next one
      for (const w of s.workers) quietly(() => w.pauseAfter?.(s.stepsLeft));
    },

    /** Stop: the run in flight is dropped, finished results stay stored. `state.status` becomes 'cancelled'. */
    cancel,

    /** True while a start is in progress (running or paused). */
    get active(): boolean {
      return session !== null;
    },

    /** Svelte-store style: called at once with the current state, then on every change. */
    subscribe(listener: SessionListener<State>): () => void {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
  };
}

function structuredCloneShallow<X extends object>(x: X): X {
  return { ...x };
}

/** Timers for `paced` (the tests pass fake ones). */
export interface PaceClock {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: PaceClock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * A session listener for a page: while the session runs, the page sees at most one state every `ms` (the latest;
 * default 500 ms), so recomputing statistics and redrawing charts per finished run does not take the CPU the
 * training workers need (on two cores, 90 results of the Ground-truth default in ~15 s cost the page's
 * main thread ~30 ms each). Shown at once, whatever the pace: a change of status (paused, done, cancelled, error:
 * the final state is never held back), the first result of a start, and every state while not running. `cancel()`
 * drops a state held back (the page unmounts). The session's own `subscribe` is unchanged: runners and tests see
 * every state.
 */
export function paced<S extends { status: SessionStatus; done: number; skipped: number; configHash?: string | null }>(
  listener: (state: S) => void,
  ms = 500,
  clock: PaceClock = realClock,
): ((state: S) => void) & { cancel(): void } {
  let shown: S | null = null;
  let lastAt = -Infinity;
  let held: S | null = null;
  let timer: unknown = null;
  const show = (st: S): void => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    held = null;
    shown = st;
    lastAt = clock.now();
    listener(st);
  };
  const at = (st: S): boolean =>
    shown === null ||
    st.status !== 'running' ||
    st.status !== shown.status ||
    st.configHash !== shown.configHash ||
    (shown.done <= shown.skipped && st.done > st.skipped) ||
    clock.now() - lastAt >= ms;
  const fn = (st: S): void => {
    if (at(st)) return show(st);
    held = st;
    timer ??= clock.setTimeout(
      () => {
        timer = null;
        if (held) show(held);
      },
      Math.max(0, lastAt + ms - clock.now()),
    );
  };
  return Object.assign(fn, {
    cancel(): void {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      held = null;
    },
  });
}

/**
 * The driver most labs need: one job at a time, in order. `train` runs one job (its worker callbacks go to
 * `ctx.progress` / `ctx.notice`) and returns the result to store; the ETA is the moving average of the last
 * `etaWindow` run times (paused time excluded) × the jobs left. `after` adds fields to the record's update (the
 * backend that finished the run).
 */
export function oneAtATime<J, R, C, X extends object = Record<never, never>>(spec: {
  current: (job: J) => C;
  train: (job: J, ctx: SessionContext<R, C, X>) => Promise<R>;
  after?: (result: R) => Partial<SessionState<R, C> & X>;
  etaWindow?: number;
}): SessionDriver<J, R, C, X> {
  return async (todo, ctx) => {
    const times = runTimes(spec.etaWindow ?? 10);
    for (const job of todo) {
      if (!(await ctx.pausePoint())) return;
      ctx.set({ current: spec.current(job) } as Partial<SessionState<R, C> & X>);
      const active = ctx.stopwatch();
      const result = await spec.train(job, ctx);
      times.add(active());
      const mean = times.mean() ?? 0;
      await ctx.record(
        result,
        (done) =>
          ({ etaSeconds: mean * (ctx.state.total - done), current: null, ...(spec.after ? spec.after(result) : {}) }) as Partial<SessionState<R, C> & X>,
      );
    }
  };
}
