/**
 * Dealing one order to several workers (src/core/ground-truth/deal.ts). Simulated workers on a fake clock: each
 * asks for an ordering, starts from the checkpoint the deal brings (or its own deepest prefix), trains the rest of
 * the ordering's prefixes one by one (each takes a given time), publishes each, and asks again. A worker keeps
 * every prefix it trained or was given, so any prefix the dealer failed to hand over is trained a second time and
 * shows in the count.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDealer, type Dealer } from '../../../../src/core/ground-truth/deal';
import { planPrefixes } from '../../../../src/core/ground-truth/prefix-plan';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';

const all = (sizes: number[]) => Array.from(enumerateOrderings(sizes), (o) => o.map((t) => [...t]));
const keysOf = (tasks: number[][]) =>
  tasks.map((_, t) =>
    tasks
      .slice(0, t + 1)
      .map((task) => [...task].sort((a, b) => a - b).join(','))
      .join('|'),
  );

interface Checkpoint {
  key: string;
  by: number;
}

interface Sim {
  /** every (prefix key, worker) trained, in time order */
  trained: { key: string; worker: number }[];
  /** orderings in the order they finished */
  finished: number[];
  /** per ordering, the worker that finished it */
  finishedBy: Map<number, number>;
  /** the prefix keys deals brought */
  imported: string[];
}

/** Run `workers` simulated workers over `order` until the dealer has nothing left; `ms(key, worker)` is a prefix's training time. */
async function simulate(orderings: number[][][], order: number[], workers: number, ms: (key: string, worker: number) => number, dealer?: Dealer<Checkpoint>) {
  const d = dealer ?? createDealer<Checkpoint>(orderings, order, workers, () => Date.now());
  const sim: Sim = { trained: [], finished: [], finishedBy: new Map(), imported: [] };
  const worker = async (k: number) => {
    const held = new Set<string>();
    for (;;) {
      const deal = await d.next(k);
      if (deal.index === null) return;
      if (deal.from) (held.add(deal.from.key), sim.imported.push(deal.from.key));
      const keys = keysOf(orderings[deal.index]);
      let at = -1;
      keys.forEach((key, i) => (held.has(key) ? (at = i) : undefined));
      for (const key of keys.slice(at + 1)) {
        await new Promise((r) => setTimeout(r, ms(key, k)));
        sim.trained.push({ key, worker: k });
        held.add(key);
        d.publish(k, key, { key, by: k });
      }
      sim.finished.push(deal.index);
      sim.finishedBy.set(deal.index, k);
    }
  };
  const run = Promise.all(Array.from({ length: workers }, (_, k) => worker(k)));
  await vi.runAllTimersAsync();
  await run;
  return { sim, dealer: d };
}

function expectEveryPrefixOnce(orderings: number[][][], sim: Sim): void {
  const trie = planPrefixes(orderings);
  const keys = sim.trained.map((t) => t.key);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.length).toBe(trie.sharedTasks);
  expect(new Set(keys)).toEqual(new Set(trie.nodes.map((n) => n.key)));
}

function expectOrderWithin(order: number[], finished: number[], slack: number): void {
  expect([...finished].sort((a, b) => a - b)).toEqual([...order].sort((a, b) => a - b));
  // at every moment the finished orderings are among the first n + slack of the order
  finished.forEach((o, n) => expect(order.indexOf(o), `the ${n + 1}th to finish`).toBeLessThanOrEqual(n + slack));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createDealer', () => {
  const default90 = all([2, 2, 2]);
  const perm = createDefaultRng(11).permutation(90);

  for (const workers of [2, 3, 4]) {
    it(`the default's 90 orderings in a seeded order on ${workers} workers: 195 tasks, each trained once; the order kept within ${workers - 1}`, async () => {
      // uneven task times, so the workers drift apart
      const ms = (key: string, k: number) => 10 + ((key.length * 7 + k * 3) % 13);
      const { sim, dealer } = await simulate(default90, perm, workers, ms);
      expectEveryPrefixOnce(default90, sim);
      expectOrderWithin(perm, sim.finished, workers - 1);
      expect(dealer.tasksPlanned).toBe(195);
      expect(dealer.stats.dealt).toBe(90);
      // first tasks trained on one worker and continued on another: handed over, never trained again
      expect(dealer.stats.imports).toBeGreaterThan(0);
      expect(dealer.stats.keptPeak).toBeLessThanOrEqual(15);
      expect(dealer.stats.kept).toBe(0);
    });
  }

  it('a deeper trie (7 classes in tasks of 2, 2, 2, 1: 630 orderings) on 3 workers: every prefix once, at every depth', async () => {
    const orderings = all([2, 2, 2, 1]);
    const order = createDefaultRng(3).permutation(orderings.length);
    const { sim, dealer } = await simulate(orderings, order, 3, (key) => 5 + (key.length % 4));
    expectEveryPrefixOnce(orderings, sim);
    expectOrderWithin(order, sim.finished, 2);
    // deeper prefixes are handed over too (a worker continuing from another's first two tasks)
    expect(sim.imported.some((key) => key.split('|').length === 2)).toBe(true);
    expect(sim.imported.length).toBe(dealer.stats.imports);
    expect(dealer.stats.kept).toBe(0);
  });

  it('a deal whose prefix is still training waits for it, and says how long', async () => {
    // orderings 0 and 1 share their first task; worker 0 trains it slowly (100 ms), worker 1 is dealt ordering 1 at once
    const orderings = all([2, 2, 2]).slice(0, 6);
    const { sim, dealer } = await simulate(orderings, [0, 1, 2, 3, 4, 5], 2, (key, k) => (key === '0,1' && k === 0 ? 100 : 10));
    expectEveryPrefixOnce(orderings, sim);
    expect(dealer.stats.waits).toBe(1);
    expect(dealer.stats.waitedMs).toBe(100);
    expect(sim.trained.filter((t) => t.key === '0,1')).toEqual([{ key: '0,1', worker: 0 }]);
    expect(sim.finishedBy.get(1)).toBe(1);
  });

  it('the deal brings the deepest prefix trained elsewhere; none when the worker holds it itself', async () => {
    const orderings = all([2, 2, 2]).slice(0, 3);
    const dealer = createDealer<Checkpoint>(orderings, [0, 1, 2], 2);
    const a = await dealer.next(0);
    expect(a).toEqual({ index: 0, taken: [] });
    dealer.publish(0, '0,1', { key: '0,1', by: 0 });
    const b = await dealer.next(1);
    expect(b).toEqual({ index: 1, taken: [0], from: { key: '0,1', by: 0 } });
    // worker 0 holds '0,1' itself: ordering 2 comes without a checkpoint, and it is told worker 1 took ordering 1
    const c = await dealer.next(0);
    expect(c).toEqual({ index: 2, taken: [1] });
    // every ordering through '0,1' is dealt: its checkpoint is let go
    expect(dealer.stats.kept).toBe(0);
    expect(await dealer.next(1)).toEqual({ index: null, taken: [2] });
  });

  it('stop() answers a waiting deal and every later one with no ordering', async () => {
    const orderings = all([2, 2, 2]).slice(0, 2);
    const dealer = createDealer<Checkpoint>(orderings, [0, 1], 2);
    await dealer.next(0);
    const waiting = dealer.next(1);
    dealer.stop();
    expect((await waiting).index).toBeNull();
    expect((await dealer.next(0)).index).toBeNull();
  });

  it('refuses a worker it does not have and a prefix not among the orderings', async () => {
    const dealer = createDealer<Checkpoint>(all([1, 1]), [0, 1], 2);
    await expect(dealer.next(2)).rejects.toThrow(/No worker 2/);
    expect(() => dealer.publish(0, '5', { key: '5', by: 0 })).toThrow(/No prefix "5"/);
  });
});
