import { describe, expect, it } from 'vitest';
import { everyOwnOrder, OWN_MAX_ORDERINGS } from '../../../../src/core/own-classes/orders';

describe('every order of the visitor’s classes', () => {
  it('lists C! orders each once, the taught one first', () => {
    const three = everyOwnOrder(3);
    expect(three[0]).toEqual([0, 1, 2]);
    expect(new Set(three.map((o) => o.join())).size).toBe(6);
    for (const o of three) expect([...o].sort()).toEqual([0, 1, 2]);
    expect(everyOwnOrder(6).length).toBe(OWN_MAX_ORDERINGS);
  });
  it('refuses more than 6 classes', () => {
    expect(() => everyOwnOrder(7)).toThrow(/5040 orderings/);
  });
});
