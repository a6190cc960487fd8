import { describe, expect, it } from 'vitest';
import { flatOrder, orderingKey, parseOrderingKey, splitIntoTasks } from '../../../../src/core/orderings/key';

describe('canonical ordering key', () => {
  it('is the same for orderings that differ only inside tasks, different across task order', () => {
    expect(
      orderingKey([
        [3, 0],
        [5, 1],
        [4, 2],
      ]),
    ).toBe('0,3|1,5|2,4');
    expect(
      orderingKey([
        [0, 3],
        [1, 5],
        [2, 4],
      ]),
    ).toBe(
      orderingKey([
        [3, 0],
        [5, 1],
        [4, 2],
      ]),
    );
    expect(
      orderingKey([
        [1, 5],
        [0, 3],
        [2, 4],
      ]),
    ).not.toBe(
      orderingKey([
        [0, 3],
        [1, 5],
        [2, 4],
      ]),
    );
  });
  it('round-trips and flattens', () => {
    expect(parseOrderingKey('0,3|1,5|2,4')).toEqual([
      [0, 3],
      [1, 5],
      [2, 4],
    ]);
    expect(
      flatOrder([
        [3, 0],
        [5, 1],
      ]),
    ).toEqual([0, 3, 1, 5]);
    expect(splitIntoTasks([68, 56, 78, 8, 23], [2, 3])).toEqual([
      [68, 56],
      [78, 8, 23],
    ]);
  });
});
