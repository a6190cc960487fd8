/**
 * The sweep's shard assignment (src/core/sweep/shard.ts). Expected hashes and buckets were computed independently
 * in Python (plain-int FNV-1a 64 and the jump consistent hash of Lamping & Veach, 2014, transcribed from the paper):
 *   def fnv(s): h = 0xcbf29ce484222325; for b in s.encode(): h ^= b; h = (h * 0x100000001b3) % 2**64
 *   def jump(key, n): b, j = -1, 0; while j < n: b = j; key = (key * 2862933555777941757 + 1) % 2**64;
 *                     j = int((b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
 */
import { describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { hash64, jumpHash, MIN_UNITS, planShards, runKey, unitDepth, unitKey } from '../../../../src/core/sweep/shard';

const FIXTURE: [string, bigint, number[]][] = [
  ['', 0xcbf29ce484222325n, [0, 1, 1, 1, 1, 90]],
  ['a', 0xaf63dc4c8601ec8cn, [0, 1, 2, 2, 2, 31]],
  ['finetune/0/0,1|2,3|4,5', 0x63b5b6ecaf6679acn, [0, 0, 0, 0, 7, 33]],
  ['ewc/1993/3,7', 0x63dab195404596b6n, [0, 1, 1, 6, 6, 17]],
  ['emoji 🐱', 0x5674e89f865c52a1n, [0, 0, 0, 0, 0, 87]],
];

describe('sweep shard assignment', () => {
  it('FNV-1a 64 and jump consistent hash match an independent Python implementation', () => {
    for (const [text, hash, buckets] of FIXTURE) {
      expect(hash64(text)).toBe(hash);
      expect([1, 2, 3, 7, 10, 100].map((n) => jumpHash(hash, n))).toEqual(buckets);
    }
    expect(() => jumpHash(1n, 0)).toThrow(/at least|≥ 1/);
  });

  it('going from n to n+1 shards moves a key only to the new shard', () => {
    for (let i = 0; i < 500; i++) {
      const h = hash64(`key ${i}`);
      for (let n = 1; n < 12; n++) {
        const a = jumpHash(h, n);
        const b = jumpHash(h, n + 1);
        expect(b === a || b === n).toBe(true);
      }
    }
  });

  it('run keys are canonical (order inside a task does not matter) and units are prefixes', () => {
    const r = {
      tasks: [
        [3, 1],
        [2, 0],
      ],
      strategy: 'ewc',
      seed: -4,
    };
    expect(runKey(r)).toBe('ewc/-4/1,3|0,2');
    expect(unitKey(r, 1)).toBe('ewc/-4/1,3');
    expect(unitKey(r, 5)).toBe('ewc/-4/1,3|0,2');
  });

  it('every run in exactly one shard; the same shard whatever order the runs come in; prefix subtrees kept together', () => {
    // 8 classes in 4 tasks of 2: 2520 orderings; 28 first tasks, 420 two-task prefixes (≥ 256 units): depth 2
    const runs = Array.from(enumerateOrderings([2, 2, 2, 2]), (tasks) => ({ tasks, strategy: 'finetune', seed: 0 }));
    expect(runs.length).toBe(2520);
    expect(unitDepth(runs, 4)).toBe(2);
    const plan = planShards(runs, 4);
    expect(plan.depth).toBe(2);
    const counts = [0, 0, 0, 0];
    plan.shardOf.forEach((s) => counts[s]++);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2520);
    // 420 units of 6 runs hashed into 4 shards: each within ±25% of 630
    for (const c of counts) expect(Math.abs(c - 630)).toBeLessThan(160);
    // runs with the same two-task prefix share a shard
    const byUnit = new Map<string, Set<number>>();
    runs.forEach((r, i) => byUnit.set(unitKey(r, 2), (byUnit.get(unitKey(r, 2)) ?? new Set()).add(plan.shardOf[i])));
    for (const s of byUnit.values()) expect(s.size).toBe(1);
    // order-independent: reversed input, same shard per run
    const rev = planShards([...runs].reverse(), 4).shardOf.reverse();
    expect(rev).toEqual(plan.shardOf);
  });

  it('few runs: each run is its own unit; many shards: the depth deepens', () => {
    const runs = Array.from(enumerateOrderings([2, 2, 2]), (tasks) => ({ tasks, strategy: 'finetune', seed: 0 }));
    expect(runs.length).toBeLessThan(MIN_UNITS);
    expect(unitDepth(runs, 3)).toBe(3);
    const big = Array.from(enumerateOrderings([2, 2, 2, 2]), (tasks) => ({ tasks, strategy: 'finetune', seed: 0 }));
    // 16 units per shard: 40 shards want 640 units, more than the 420 two-task prefixes
    expect(unitDepth(big, 40)).toBe(3);
  });
});
