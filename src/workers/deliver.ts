/**
 * A run's callbacks to the page, delivered before its result. Each callback the page hands a worker is a Comlink
 * proxy with a message port of its own, and the call's result comes back on another port: a message sent on one can
 * arrive after a message sent later on the other. So a run sends its callbacks through `send` (called at once, in
 * order) and awaits `settled()` before it returns: by the time the result arrives, the page has handled every
 * callback (a step, a task, a finished ordering) it was sent.
 */
export interface Delivery<E> {
  /** call the callback now; its round trip is awaited by `settled` (a callback that throws is ignored) */
  send(e: E): void;
  /** resolves once every callback sent so far, and any sent meanwhile, has come back */
  settled(): Promise<void>;
}

export function delivery<E>(cb: ((e: E) => unknown) | undefined): Delivery<E> {
  const pending = new Set<Promise<unknown>>();
  return {
    send(e) {
      if (!cb) return;
      let p: Promise<unknown>;
      try {
        p = Promise.resolve(cb(e)).catch(() => {});
      } catch {
        return;
      }
      pending.add(p);
      void p.then(() => pending.delete(p));
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
