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

/** Starts `settled()`, then answers the round trips one at a time: whether it had resolved before the first and after each. */
async function settledAsRepliesCome(d: { settled(): Promise<void> }, replies: Array<() => void>): Promise<boolean[]> {
  let settled = false;
  void d.settled().then(() => (settled = true));
  await tick();
  const seen = [settled];
  for (const reply of replies) {
    reply();
    await tick();
    seen.push(settled);
  }
  return seen;
}

describe('delivery', () => {
  it('calls the callback at once, in order, and settles only when every round trip has come back', async () => {
    const { cb, seen, replies } = slowCallback();
    const d = delivery(cb);
    d.send(1);
    d.send(2);
    expect(seen).toEqual([1, 2]);
    expect(await settledAsRepliesCome(d, replies)).toEqual([false, false, true]);
  });

  it('waits for a callback sent while it waits', async () => {
    const { cb, replies } = slowCallback();
    const d = delivery(cb);
    d.send(1);
    const seen = settledAsRepliesCome(d, [() => replies[0](), () => replies[1]()]);
    d.send(2);
    expect(await seen).toEqual([false, false, true]);
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
