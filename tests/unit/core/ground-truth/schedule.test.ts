/**
 * The fast path's completion order (src/core/ground-truth/schedule.ts): a seeded uniform permutation of the
 * truth orderings, and the memory it costs (copies of trained prefix nodes kept), with the depth-first fallback.
 * The permutations were computed independently with numpy 2.x:
 *   python3 -c "import numpy as np; print(np.random.default_rng((0 ^ 0x2545f491) & 0xffffffff).permutation(10))"
 *   → [9 5 0 3 4 8 1 2 7 6];  seed 7, n = 12 → [6 8 11 0 9 2 7 3 5 1 10 4]
 */
import { describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { planPrefixes } from '../../../../src/core/ground-truth/prefix-plan';
import { keptPeak, MAX_KEPT_NODES, randomisedDepthFirst, sampleOrder, sampleOrderSeed, scheduleOrderings } from '../../../../src/core/ground-truth/schedule';

const all = (sizes: number[]) => Array.from(enumerateOrderings(sizes), (o) => o.map((t) => [...t]));

describe('sample order', () => {
  it('is numpy default_rng(sampleSeed ^ 0x2545f491).permutation of the truth orderings, protocol-only orderings first', () => {
    expect(sampleOrderSeed(0)).toBe(625341585);
    const truth = Array.from({ length: 10 }, (_, i) => ({ key: `t${i}`, tasks: [], roles: i === 3 ? ['truth', 'rs'] : ['truth'] }));
    const plan = { orderings: [{ key: 'edge-only', tasks: [], roles: ['edge-hard'] }, ...truth] };
    expect(sampleOrder(plan, 0)).toEqual(['edge-only', ...[9, 5, 0, 3, 4, 8, 1, 2, 7, 6].map((i) => `t${i}`)]);
    const twelve = { orderings: Array.from({ length: 12 }, (_, i) => ({ key: `${i}`, tasks: [], roles: ['truth'] })) };
    expect(sampleOrder(twelve, 7)).toEqual([6, 8, 11, 0, 9, 2, 7, 3, 5, 1, 10, 4].map(String));
  });
});

describe('kept copies and the schedule', () => {
  it('the default (6 classes, 3 tasks of 2, 90 orderings) keeps at most the 15 first-task nodes and one more: the sample order', () => {
    const orderings = all([2, 2, 2]);
    const perm = [...Array(90).keys()].sort((a, b) => ((a * 37) % 90) - ((b * 37) % 90));
    const s = scheduleOrderings(orderings, (i) => perm.indexOf(i), 0);
    expect(s.mode).toBe('sample');
    expect(s.order).toEqual(perm);
    expect(s.keptPeak).toBeLessThanOrEqual(16);
    expect(s.keptPeak).toBeGreaterThanOrEqual(15);
    // depth-first (the trie's leaves in order) keeps one first-task node and one second-task node
    const trie = planPrefixes(orderings);
    expect(
      keptPeak(
        trie,
        trie.nodes.filter((n) => n.children.length === 0).flatMap((n) => n.orderings),
      ),
    ).toBe(2);
  });
  it('8 classes in 4 tasks of 2: the random order would keep hundreds of copies, so the randomised depth-first walk is used', () => {
    const orderings = all([2, 2, 2, 2]);
    const trie = planPrefixes(orderings);
    const perm = [...Array(orderings.length).keys()].sort((a, b) => ((a * 7919) % 2520) - ((b * 7919) % 2520) || a - b);
    expect(keptPeak(trie, perm)).toBeGreaterThan(MAX_KEPT_NODES);
    const s = scheduleOrderings(orderings, (i) => perm.indexOf(i), 3);
    expect(s.mode).toBe('depth-first');
    expect([...s.order].sort((a, b) => a - b)).toEqual([...Array(orderings.length).keys()]);
    expect(s.keptPeak).toBeLessThanOrEqual(3);
    // seeded: the same seed walks the same way, another seed another way
    expect(randomisedDepthFirst(trie, 3)).toEqual(s.order);
    expect(randomisedDepthFirst(trie, 4)).not.toEqual(s.order);
  });
});
