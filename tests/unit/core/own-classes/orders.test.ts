import { describe, expect, it } from 'vitest';
import { everyOwnOrder, numbersAmongRuns, ownOrderingsPlan, ownOrderingsResult, pickOrders } from '../../../../src/core/own-classes/orders';
import { overviewOfRuns } from '../../../../src/core/own-classes/order-states';

describe('every order of the visitor’s classes', () => {
  it('lists C! orders each once, the taught one first', () => {
    const three = everyOwnOrder(3);
    expect(three[0]).toEqual([0, 1, 2]);
    expect(new Set(three.map((o) => o.join())).size).toBe(6);
    for (const o of three) expect([...o].sort()).toEqual([0, 1, 2]);
    expect(everyOwnOrder(6).length).toBe(720);
  });

  it('plans every ordering up to each strategy’s bound and a seeded sample beyond', () => {
    expect(ownOrderingsPlan(8, 'simplecil', 0)).toMatchObject({ exact: true, sample: null, headOrders: null, omega: '40320' });
    expect(ownOrderingsPlan(9, 'fecam', 3)).toMatchObject({ exact: false, sample: { count: 1000, seed: 3 }, omega: '362880' });
    expect(ownOrderingsPlan(4, 'simplecil', 0, 10)).toMatchObject({ exact: false, sample: { count: 10, seed: 0 } });
    // the sample never asks for more orderings than there are
    expect(ownOrderingsPlan(3, 'ncm', 0, 50).sample).toEqual({ count: 6, seed: 0 });
    const head = ownOrderingsPlan(6, 'finetune', 0);
    expect(head.exact).toBe(true);
    expect(head.headOrders).toHaveLength(720);
    const sampled = ownOrderingsPlan(7, 'replay', 5);
    expect(sampled.exact).toBe(false);
    expect(sampled.headOrders).toHaveLength(200);
    expect(new Set(sampled.headOrders!.map((o) => o.join())).size).toBe(200);
    expect(ownOrderingsPlan(7, 'replay', 5).headOrders).toEqual(sampled.headOrders);
    expect(() => ownOrderingsPlan(1, 'simplecil', 0)).toThrow(/at least 2 classes/);
    expect(() => ownOrderingsPlan(4, 'finetune', 0, 201)).toThrow(/1 to 200 of them for a trained head/);
    expect(ownOrderingsPlan(100, 'simplecil', 0).omega).toBe('9.33e157');
  });

  it('gathers the protocols’ picks in one layout and finds them among trained runs', () => {
    const edge = { hard: [1, 0, 2], easy: [2, 0, 1] };
    const rs = [{ seed: 0, order: [0, 2, 1] }];
    const orders = pickOrders(edge, rs, null);
    expect(orders).toEqual([edge.hard, edge.easy, [0, 2, 1]]);
    const runs = everyOwnOrder(3).map((order, i) => ({ order, finalAccuracy: i / 10, aia: 1 - i / 10 }));
    const numbers = numbersAmongRuns(runs, orders);
    expect(numbers[0]).toEqual({ final: 0.2, aia: 0.8 });
    expect(() => numbersAmongRuns(runs, [[3, 1, 0]])).toThrow(/not among/);
    const overview = overviewOfRuns(
      runs.map((r) => ({ final: r.finalAccuracy, aia: r.aia })),
      { final: 0, aia: 1 },
      3,
      true,
    );
    const r = ownOrderingsResult(overview, 'finetune', edge, rs, null, numbers);
    expect(r.metric).toBe('final');
    expect(r.edge.easy).toEqual({ order: [2, 0, 1], ...numbers[1] });
    expect(r.rs[0]).toEqual({ seed: 0, order: [0, 2, 1], ...numbers[2] });
    expect(ownOrderingsResult(overview, 'simplecil', edge, rs, null, numbers).metric).toBe('aia');
    expect(() => ownOrderingsResult(overview, 'finetune', edge, rs, edge, numbers)).toThrow(/3 numbers for 5 picked orders/);
  });
});
