// yieldToEventLoop: a macrotask turn (so a worker reads a pause message) without setTimeout's nested 4 ms clamp.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToEventLoop } from '../../../src/engine/control';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('yieldToEventLoop', () => {
  it('in a browser or worker (no setImmediate) takes a MessageChannel turn, never a timer', async () => {
    vi.stubGlobal('setImmediate', undefined);
    const timer = vi.spyOn(globalThis, 'setTimeout');
    for (let i = 0; i < 20; i++) await yieldToEventLoop();
    expect(timer).not.toHaveBeenCalled();
  });

  // (Chromium delivers a worker's messages between MessageChannel turns: the e2e pause specs; Node's ports do not
  // promise that, so Node yields with setImmediate, tested here)
  it('in Node lets a message queued before it be handled while a loop keeps yielding (a pause reaches the worker)', async () => {
    let seen = false;
    const ch = new MessageChannel();
    ch.port1.onmessage = () => (seen = true);
    ch.port2.postMessage('pause');
    // a training loop: work, then a turn, until the message is in (a handful of turns at most)
    let turns = 0;
    while (!seen && turns < 50) {
      await yieldToEventLoop();
      turns++;
    }
    ch.port1.close();
    expect(seen).toBe(true);
    expect(turns).toBeLessThan(50);
  });

  it('in Node takes a setImmediate turn, and every waiter resolves once', async () => {
    const timer = vi.spyOn(globalThis, 'setTimeout');
    let n = 0;
    await Promise.all(Array.from({ length: 10 }, () => yieldToEventLoop().then(() => n++)));
    expect(n).toBe(10);
    expect(timer).not.toHaveBeenCalled();
  });
});
