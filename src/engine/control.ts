/**
 * Cooperative pause / resume / cancel of a run ("a run can be paused, resumed and cancelled").
 *
 * The trainer calls `await control.checkpoint()` between steps. Cancelling makes that call throw
 * `RunCancelledError`, so the trainer's `finally` blocks dispose every tensor (no leak after a cancel); pausing
 * makes it wait until `resume()`. A comlink facade exposes `pause`, `resume` and `cancel` as methods.
 *
 * Why the trainer also yields to the event loop every few milliseconds (`yieldToEventLoop`): a worker handles
 * messages — the `pause()` call itself — only between macrotasks. Awaiting a microtask is not enough, and
 * `tf.nextFrame` needs requestAnimationFrame, which a worker does not have. `setTimeout(0)` works everywhere but
 * browsers clamp a nested one to 4 ms: yielding every 25 ms that way left a training worker idle about 14 % of the
 * time. So the turn is a message to ourselves on a MessageChannel (a macrotask with no clamp) in browsers and
 * workers, `setImmediate` in Node, and `setTimeout` only where neither exists.
 */
export class RunCancelledError extends Error {
  constructor(message = 'The run was cancelled.') {
    super(message);
    this.name = 'RunCancelledError';
  }
}

export type RunState = 'running' | 'paused' | 'cancelled';

export class RunControl {
  private stateValue: RunState = 'running';
  private waiters: (() => void)[] = [];

  /** Cancels when `signal` aborts (an AbortController from the caller). */
  constructor(signal?: AbortSignal) {
    if (signal) {
      if (signal.aborted) this.cancel();
      else signal.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  get state(): RunState {
    return this.stateValue;
  }

  pause(): void {
    if (this.stateValue === 'running') this.stateValue = 'paused';
  }

  private budget = 0;
  /**
   * Teaching mode's Step: pause by itself once `n` more results are done (`resultDone`), before the run trains on;
   * 0 takes the budget away (Play). The pause happens where the run is, at the result, however late the page that
   * asked for the step hears of it (a page that paused on hearing could find the next result already trained).
   */
  pauseAfter(n: number): void {
    this.budget = Math.max(0, Math.floor(n));
  }

  /** The run finished one of its results (an Open-world step): a budget spent now pauses it here. */
  resultDone(): void {
    if (this.budget > 0 && --this.budget === 0) this.pause();
  }

  resume(): void {
    if (this.stateValue !== 'paused') return;
    this.stateValue = 'running';
    this.wake();
  }

  cancel(): void {
    this.stateValue = 'cancelled';
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Throws when cancelled; waits while paused. */
  async checkpoint(): Promise<void> {
    while (this.stateValue === 'paused') await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.stateValue === 'cancelled') throw new RunCancelledError();
  }
}

let turnChannel: MessageChannel | null = null;
const turnWaiters: (() => void)[] = [];

/** One message to ourselves: its handler runs in a later macrotask, after messages already queued (a pause). */
function channelTurn(resolve: () => void): void {
  if (!turnChannel) {
    turnChannel = new MessageChannel();
    turnChannel.port1.onmessage = () => turnWaiters.shift()?.();
  }
  turnWaiters.push(resolve);
  turnChannel.port2.postMessage(null);
}

/** One macrotask turn: lets a worker receive messages (see the header). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else if (typeof MessageChannel === 'function') channelTurn(resolve);
    else setTimeout(resolve, 0);
  });
}

/**
 * The trainer's pause point, called between steps by the naive trainer (trainer.ts) and the shared one
 * (shared-train.ts) alike: wait while paused (throw when cancelled), check the backend (`guard`), and yield to the
 * event loop every `yieldEveryMs` so the worker reads a pause or cancel message (see the top of this file).
 */
export function pausePointOf(hooks: { control?: RunControl; guard?: () => void }, yieldEveryMs: number): () => Promise<void> {
  let lastYield = performance.now();
  return async () => {
    await hooks.control?.checkpoint();
    hooks.guard?.();
    if (performance.now() - lastYield >= yieldEveryMs) {
      await yieldToEventLoop();
      lastYield = performance.now();
      await hooks.control?.checkpoint();
      hooks.guard?.();
    }
  };
}
