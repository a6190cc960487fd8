import { describe, expect, it } from 'vitest';
import { orderingTrainingSeeds, taskTrainingSeed } from '../../../../src/core/orderings/training-seeds';

describe('prefix-determined training seeds', () => {
  it('two orderings sharing tasks 1..t get the same seeds for those tasks and different ones after', () => {
    const a = orderingTrainingSeeds(7, [
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    const b = orderingTrainingSeeds(7, [
      [1, 0],
      [2, 3],
      [5, 4],
    ]); // same tasks, shuffled inside
    const c = orderingTrainingSeeds(7, [
      [0, 1],
      [4, 5],
      [2, 3],
    ]);
    expect(b).toEqual(a);
    expect(c[0]).toBe(a[0]);
    expect(c[1]).not.toBe(a[1]);
    expect(c[2]).not.toBe(a[2]); // same set of classes seen, but a different prefix
  });
  it('depends on the experiment seed and on task boundaries', () => {
    expect(taskTrainingSeed(1, [[0, 1], [2]], 0)).not.toBe(taskTrainingSeed(2, [[0, 1], [2]], 0));
    expect(taskTrainingSeed(1, [[0, 1], [2]], 1)).not.toBe(taskTrainingSeed(1, [[0], [1, 2]], 1));
  });
  it('gives 32-bit unsigned integers, spread out (no collisions over all 420 two-task prefixes of 8 classes)', () => {
    const seen = new Set<number>();
    for (let a = 0; a < 8; a++)
      for (let b = 0; b < 8; b++)
        for (let c = 0; c < 8; c++)
          for (let d = 0; d < 8; d++) {
            if (new Set([a, b, c, d]).size < 4 || a > b || c > d) continue;
            const s = taskTrainingSeed(
              0,
              [
                [a, b],
                [c, d],
              ],
              1,
            );
            expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
            seen.add(s);
          }
    expect(seen.size).toBe(420); // 28 first tasks × 15 second tasks, all distinct
  });
  it('rejects a bad seed or task index', () => {
    expect(() => taskTrainingSeed(1.5, [[0]], 0)).toThrow(RangeError);
    expect(() => taskTrainingSeed(1, [[0]], 1)).toThrow(RangeError);
  });
});
