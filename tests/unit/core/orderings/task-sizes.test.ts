import { describe, expect, it } from 'vitest';
import { parseTaskSizes, resolveTaskSizes } from '../../../../src/core/orderings/task-sizes';

describe('task sizes', () => {
  it('splits equally', () => expect(resolveTaskSizes(6, { tasks: 3 })).toEqual([2, 2, 2]));
  it('uses explicit sizes', () => expect(resolveTaskSizes(6, { taskSizes: [3, 2, 1] })).toEqual([3, 2, 1]));
  it('says why sizes that do not sum to N are wrong', () => expect(() => resolveTaskSizes(6, { taskSizes: [2, 2] })).toThrow(/sum to 4.*6 classes/));
  it('rejects K > N', () => expect(() => resolveTaskSizes(3, { tasks: 4 })).toThrow(/K ≤ N/));
  it('suggests sizes when K does not divide N', () => expect(() => resolveTaskSizes(7, { tasks: 3 })).toThrow(/for example 3,2,2/));
  it('rejects zero and fractional sizes', () => {
    expect(() => resolveTaskSizes(4, { taskSizes: [4, 0] })).toThrow(/positive integer/);
    expect(() => parseTaskSizes('2,x,2')).toThrow(/"x"/);
  });
  it('parses commas and spaces', () => expect(parseTaskSizes('2, 2 2')).toEqual([2, 2, 2]));
});
