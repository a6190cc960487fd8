import { describe, expect, it } from 'vitest';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import {
  classMemoryExamples,
  classMemoryFromState,
  classMemoryToState,
  greedyClassBalancedUpdate,
  herdingOrder,
  reservoirUpdate,
} from '../../../src/engine/memory';

describe('rehearsal memories', () => {
  it('reservoir sampling keeps the budget, takes everything until full, and is uniform over the stream', () => {
    const first = reservoirUpdate(new Int32Array(0), 0, [10, 11, 12], 5, createDefaultRng(1));
    expect(Array.from(first.memory)).toEqual([10, 11, 12]);
    expect(first.seen).toBe(3);
    // keep-rate of each of 100 stream items over many seeds ≈ budget / n = 0.2
    const kept = new Float64Array(100);
    const stream = Array.from({ length: 100 }, (_, i) => i);
    for (let s = 0; s < 400; s++) {
      const half = reservoirUpdate(new Int32Array(0), 0, stream.slice(0, 50), 20, createDefaultRng(s));
      const all = reservoirUpdate(half.memory, half.seen, stream.slice(50), 20, createDefaultRng(s + 1000));
      expect(all.memory).toHaveLength(20);
      expect(all.seen).toBe(100);
      for (const e of all.memory) kept[e]++;
    }
    const firstHalf = kept.slice(0, 50).reduce((a, b) => a + b) / (50 * 400);
    const secondHalf = kept.slice(50).reduce((a, b) => a + b) / (50 * 400);
    expect(firstHalf).toBeCloseTo(0.2, 1);
    expect(secondHalf).toBeCloseTo(0.2, 1);
    // seeded: the same generator, the same memory
    const again = reservoirUpdate(new Int32Array(0), 0, stream, 20, createDefaultRng(9));
    expect(reservoirUpdate(new Int32Array(0), 0, stream, 20, createDefaultRng(9)).memory).toEqual(again.memory);
  });

  it('herding picks distinct examples whose running mean approaches the class mean', () => {
    // 2-d features: four points around a mean direction and one outlier
    const feats = Float32Array.from([1, 0.1, 1, -0.1, 0.9, 0, 0, 1, 1, 0.05]);
    const order = herdingOrder(feats, 5, 2, 5);
    expect(new Set(order).size).toBe(5);
    expect(order[0]).toBe(0); // the point nearest the mean of the normalised features comes first
    // herding balances the running mean: the outlier, which a nearest-to-the-mean ranking would put last, comes third
    expect(Array.from(order.slice(0, 3))).toEqual([0, 4, 3]);
    expect(Array.from(herdingOrder(feats, 5, 2, 2))).toEqual(Array.from(order.slice(0, 2)));
  });

  it('GDumb keeps the memory class-balanced once it is full', () => {
    const classOf = (e: number): number => Math.floor(e / 100);
    const rng = createDefaultRng(3);
    let mem: Int32Array = new Int32Array(0);
    mem = greedyClassBalancedUpdate(
      mem,
      Array.from({ length: 50 }, (_, i) => i),
      classOf,
      20,
      rng,
    ); // class 0 only
    expect(mem).toHaveLength(20);
    mem = greedyClassBalancedUpdate(
      mem,
      Array.from({ length: 50 }, (_, i) => 100 + i),
      classOf,
      20,
      rng,
    );
    mem = greedyClassBalancedUpdate(
      mem,
      Array.from({ length: 50 }, (_, i) => 200 + i),
      classOf,
      20,
      rng,
    );
    const counts = [0, 0, 0];
    for (const e of mem) counts[classOf(e)]++;
    expect(mem).toHaveLength(20);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('a per-class memory survives a round trip through plain state', () => {
    const mem = new Map([
      [3, Int32Array.from([7, 8])],
      [1, Int32Array.from([4])],
    ]);
    const back = classMemoryFromState(classMemoryToState(mem));
    expect([...back.keys()]).toEqual([1, 3]);
    expect(Array.from(classMemoryExamples(back))).toEqual([4, 7, 8]);
  });
});
