import { describe, expect, it } from 'vitest';
import { allOrders, handOrder, i2mOrder, m2iOrder, orderKey } from '../../../../src/core/curriculum/orders';
import { fx } from './fixture';

describe('curriculum orders', () => {
  it('M2I sorts easy (high a_j) first and I2M reverses it, as numpy', () => {
    for (const c of fx.metrics) {
      expect(m2iOrder(c.isolated)).toEqual(c.m2i);
      expect(i2mOrder(c.isolated)).toEqual(c.i2m);
    }
    expect(m2iOrder(fx.tie.isolated)).toEqual(fx.tie.m2i);
    expect(i2mOrder(fx.tie.isolated)).toEqual(fx.tie.i2m);
  });

  it('all orders: K! permutations in lexicographic order', () => {
    expect(allOrders(4)).toEqual(fx.allOrders4);
    expect(allOrders(6).length).toBe(720);
    expect(new Set(allOrders(5).map(orderKey)).size).toBe(120);
    expect(() => allOrders(7)).toThrow(/at most|1 to 6/);
  });

  it('a hand order lists each dataset once', () => {
    expect(handOrder(['c', 'a', 'b'], ['a', 'b', 'c'])).toEqual([2, 0, 1]);
    expect(() => handOrder(['a', 'a', 'b'], ['a', 'b', 'c'])).toThrow(/each dataset/);
    expect(() => handOrder(['a', 'b'], ['a', 'b', 'c'])).toThrow(/each dataset/);
    expect(() => handOrder(['a', 'b', 'x'], ['a', 'b', 'c'])).toThrow(/each dataset/);
  });

  it('rejects accuracies outside [0, 1]', () => {
    expect(() => m2iOrder([0.5, 1.2])).toThrow(/\[0, 1\]/);
  });
});
