import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/orderings.json';
import { countOrderings } from '../../../../src/core/orderings/count';
import {
  enumerateOrderings,
  forEachOrdering,
  labelsToOrdering,
  orderingToLabels,
  rankOrdering,
  unrankOrdering,
} from '../../../../src/core/orderings/enumerate';
import { orderingKey } from '../../../../src/core/orderings/key';

describe('enumeration of Ω', () => {
  it('visits label vectors in the same lexicographic order as sorted(set(itertools.permutations))', () => {
    for (const { sizes, labels } of fixture.enumeration) {
      const seen: number[][] = [];
      forEachOrdering(sizes, (l) => {
        seen.push(Array.from(l));
      });
      expect(seen).toEqual(labels);
    }
  });
  it('yields |Ω| distinct orderings, each valid, for 8 classes in 4 tasks', () => {
    const keys = new Set<string>();
    for (const o of enumerateOrderings([2, 2, 2, 2])) {
      expect(o.map((t) => t.length)).toEqual([2, 2, 2, 2]);
      keys.add(orderingKey(o));
    }
    expect(keys.size).toBe(2520);
  });
  it('is lazy: taking the first 3 of 100 classes in 10 tasks is immediate', () => {
    const it = enumerateOrderings(Array(10).fill(10));
    const first = it.next().value!;
    expect(first[0]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(it.next().done).toBe(false);
  });
  it('stops early when the visitor returns false', () => {
    expect(forEachOrdering([2, 2, 2], (_l, r) => r < 4)).toBe(5);
  });
});

describe('rank ↔ unrank', () => {
  it('rank(enumeration[i]) = i and unrank(i) = enumeration[i] on every ordering of 6 classes / 3 tasks', () => {
    let i = 0;
    for (const o of enumerateOrderings([2, 2, 2])) {
      expect(rankOrdering(o, [2, 2, 2])).toBe(BigInt(i));
      expect(unrankOrdering(BigInt(i), [2, 2, 2])).toEqual(o);
      i++;
    }
    expect(i).toBe(90);
  });
  it('round-trips unequal sizes', () => {
    const sizes = [3, 1, 2];
    const omega = Number(countOrderings(sizes));
    for (let r = 0; r < omega; r++) expect(rankOrdering(unrankOrdering(BigInt(r), sizes), sizes)).toBe(BigInt(r));
  });
  it('works for |Ω| ≈ 2.4e92 (100 classes / 10 tasks): first, last, and a middle rank', () => {
    const sizes = Array(10).fill(10);
    const omega = countOrderings(sizes);
    const last = unrankOrdering(omega - 1n, sizes);
    expect(last[0]).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    const mid = omega / 3n;
    expect(rankOrdering(unrankOrdering(mid, sizes), sizes)).toBe(mid);
  });
  it('ignores the order inside a task', () => {
    expect(
      rankOrdering(
        [
          [1, 0],
          [3, 2],
          [5, 4],
        ],
        [2, 2, 2],
      ),
    ).toBe(
      rankOrdering(
        [
          [0, 1],
          [2, 3],
          [4, 5],
        ],
        [2, 2, 2],
      ),
    );
  });
  it('rejects out-of-range ranks and orderings that do not fit', () => {
    expect(() => unrankOrdering(90n, [2, 2, 2])).toThrow(/out of range.*90 orderings/);
    expect(() =>
      orderingToLabels(
        [
          [0, 1],
          [2, 3],
          [4, 4],
        ],
        [2, 2, 2],
      ),
    ).toThrow(/appears twice/);
    expect(() => orderingToLabels([[0, 1, 2], [3], [4, 5]], [2, 2, 2])).toThrow(/Task 1 has 3 classes/);
    expect(() =>
      orderingToLabels(
        [
          [0, 1],
          [2, 3],
        ],
        [2, 2, 2],
      ),
    ).toThrow(/2 tasks/);
    expect(() =>
      orderingToLabels(
        [
          [0, 1],
          [2, 3],
          [4, 9],
        ],
        [2, 2, 2],
      ),
    ).toThrow(/out of range/);
  });
  it('labelsToOrdering inverts orderingToLabels', () => {
    const o = [
      [4, 1],
      [0, 5],
      [2, 3],
    ];
    expect(labelsToOrdering(orderingToLabels(o, [2, 2, 2]), 3)).toEqual([
      [1, 4],
      [0, 5],
      [2, 3],
    ]);
  });
});
