/**
 * A worker's run awaits its callbacks' round trips before it returns (src/workers/deliver.ts): the page has handled
 * every step or task it was sent when the result arrives, though the two cross on different message ports.
 */
import { describe, expect, it } from 'vitest';
import { delivery } from '../../../src/workers/deliver';

/** a callback whose round trip ends when the test says so (as a Comlink proxy's call does when the page replies) */
function slowCallback() {
  const seen: number[] = [];
  const replies: Array<() => void> = [];
  const cb = (e: number) => {
    seen.push(e);
    return new Promise<void>((resolve) => replies.push(resolve));
  };
  return { cb, seen, replies };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('delivery', () => {
  it('calls the callback at once, in order, and settles only when every round trip has come back', async () => {
    const { cb, seen, replies } = slowCallback();
    const d = delivery(cb);
    d.send(1);
    d.send(2);
    expect(seen).toEqual([1, 2]);
    let settled = false;
    void d.settled().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    replies[0]();
    await tick();
    expect(settled).toBe(false);
    replies[1]();
    await tick();
    expect(settled).toBe(true);
  });

  it('waits for a callback sent while it waits', async () => {
    const { cb, replies } = slowCallback();
    const d = delivery(cb);
    d.send(1);
    let settled = false;
    void d.settled().then(() => (settled = true));
    d.send(2);
    replies[0]();
    await tick();
    expect(settled).toBe(false);
    replies[1]();
    await tick();
    expect(settled).toBe(true);
  });

  it('a callback that rejects or throws does not fail the run, and no callback settles at once', async () => {
    const d = delivery<number>((e) => {
      if (e === 1) throw new Error('gone');
      return Promise.reject(new Error('port closed'));
    });
    d.send(1);
    d.send(2);
    await expect(d.settled()).resolves.toBeUndefined();
    await expect(delivery<number>(undefined).settled()).resolves.toBeUndefined();
  });
});
