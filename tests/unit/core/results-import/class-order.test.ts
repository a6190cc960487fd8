import { describe, expect, it } from 'vitest';
import { readClassOrder } from '../../../../src/core/results-import/class-order';

// One written class order against the experiment's classes (positions) and task sizes.
const names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal'];
describe('readClassOrder', () => {
  it.each([
    ['3 1 0 2 5 4'],
    ['3,1,0,2,5,4'],
    ['[3, 1, 0, 2, 5, 4]'],
    ['3 1 | 0 2 | 5 4'],
    ['[[3, 1], [0, 2], [5, 4]]'],
    ['Dress Trouser | T-shirt/top Pullover | Sandal Coat'],
  ])('%s: the flat order as written, cut into the task sizes', (text) => {
    expect(readClassOrder(text, names, [2, 2, 2])).toEqual({
      order: [3, 1, 0, 2, 5, 4],
      tasks: [
        [3, 1],
        [0, 2],
        [5, 4],
      ],
    });
  });

  it.each([
    ['3 1 0 2 5', /the order has 5 classes; the experiment has 6 \(missing: 4 Coat\)/],
    ['3 1 0 2 5 5', /"Sandal" \(index 5\) appears twice/],
    ['3 1 0 2 5 9', /class index 9 is out of range/],
    ['3 1 0 | 2 5 4', /the order has tasks of 3, 3 classes; the experiment's tasks have 2, 2, 2/],
    ['3 1 0 2 5 cat', /unknown class "cat"/],
    ['', /the order is empty/],
  ])('%s: refused with the reason', (text, reason) => {
    expect(() => readClassOrder(text, names, [2, 2, 2])).toThrow(reason);
  });
});
