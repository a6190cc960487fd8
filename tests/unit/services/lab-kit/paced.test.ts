/**
 * The lab kit's `paced` listener (src/services/lab-kit/run-session.ts): while a session runs, a page sees at most one
 * state per interval, the latest; a change of status, the first result of a start and every state while not running
 * are shown at once, and the final state is never held back. A fake clock drives it.
 */
import { describe, expect, it } from 'vitest';
import { paced, type PaceClock, type SessionStatus } from '../../../../src/services/lab-kit/run-session';

interface S {
  status: SessionStatus;
  done: number;
  skipped: number;
  configHash: string | null;
  tag: string;
}

function fakeClock() {
  let t = 0;
  const timers: { at: number; f: () => void; id: number }[] = [];
  let next = 1;
  const clock: PaceClock = {
    now: () => t,
    setTimeout: (f, ms) => {
      const id = next++;
      timers.push({ at: t + ms, f, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = timers.findIndex((x) => x.id === h);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const advance = (ms: number): void => {
    const end = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > end) break;
      timers.shift();
      t = due.at;
      due.f();
    }
    t = end;
  };
  return { clock, advance, pending: () => timers.length };
}

/** A `paced` listener (500 ms) on a fake clock, and the tags it let through. */
function pacedWithFakeClock() {
  const { clock, advance, pending } = fakeClock();
  const seen: string[] = [];
  const l = paced<S>((s) => seen.push(s.tag), 500, clock);
  return { l, seen, advance, pending };
}

const st = (tag: string, over: Partial<S> = {}): S => ({ status: 'running', done: 0, skipped: 0, configHash: 'h', tag, ...over });

describe('paced: a page sees a running session at most once per interval', () => {
  it('holds back states within the interval and shows the latest when it ends', () => {
    const { l, seen, advance } = pacedWithFakeClock();
    l(st('start'));
    l(st('p1'));
    advance(100);
    l(st('p2'));
    expect(seen).toEqual(['start']);
    advance(399);
    expect(seen).toEqual(['start']);
    advance(1);
    expect(seen).toEqual(['start', 'p2']);
    // past the interval: shown at once
    advance(600);
    l(st('p3'));
    expect(seen).toEqual(['start', 'p2', 'p3']);
  });

  it('the first result of a start is shown at once (first-result latency), later ones paced', () => {
    const { l, seen, advance } = pacedWithFakeClock();
    // two runs were stored before: skipped; the first new one still shows at once
    l(st('start', { done: 2, skipped: 2 }));
    advance(10);
    l(st('first', { done: 3, skipped: 2 }));
    advance(10);
    l(st('second', { done: 4, skipped: 2 }));
    expect(seen).toEqual(['start', 'first']);
    advance(500);
    expect(seen).toEqual(['start', 'first', 'second']);
  });

  it('a change of status, a new config and every state while not running are shown at once; the final state is never held back', () => {
    const { l, seen, advance, pending } = pacedWithFakeClock();
    l(st('start'));
    l(st('held'));
    l(st('paused', { status: 'paused' }));
    l(st('paused again', { status: 'paused' }));
    l(st('resumed'));
    l(st('held 2'));
    l(st('done', { status: 'done', done: 90 }));
    expect(seen).toEqual(['start', 'paused', 'paused again', 'resumed', 'done']);
    // nothing held back fires after the end
    expect(pending()).toBe(0);
    advance(1000);
    expect(seen.at(-1)).toBe('done');
    l(st('other config', { configHash: 'k' }));
    expect(seen.at(-1)).toBe('other config');
  });

  it('cancel() drops a held state (the page unmounts)', () => {
    const { l, seen, advance } = pacedWithFakeClock();
    l(st('start'));
    l(st('held'));
    l.cancel();
    advance(1000);
    expect(seen).toEqual(['start']);
  });
});
