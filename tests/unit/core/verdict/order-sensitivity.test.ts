/**
 * The order-sensitivity reading (src/core/verdict/order-sensitivity.ts): each method's range over the truth, which
 * findings are said at the named thresholds, the why for prototype methods, and accuracy grouped by first task —
 * on statistics derived from hand-made runs (a prototype method with one final accuracy, a trained head that spreads).
 */
import { describe, expect, it } from 'vitest';
import { deriveGroundTruth } from '../../../../src/core/ground-truth/derive';
import { planGroundTruth } from '../../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { firstTaskGroups, orderSensitivity } from '../../../../src/core/verdict/order-sensitivity';

const sim = matrixFromRows([0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0.2 + 0.1 * ((i + j) % 3)))));
const plan = planGroundTruth({
  classes: [0, 1, 2, 3],
  taskSizes: [2, 2],
  similarity: sim,
  protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: [0], medianSeed: 0 },
  strategies: ['finetune', 'simplecil'],
  seeds: [0],
  budget: 100,
  sampleSeed: 0,
});

/** finetune: the final accuracy falls with the first task's first class (0.60 … 0.90); simplecil: 0.8 for all, AIA varies */
const runs = plan.jobs.map((j) => {
  const first = j.tasks[0][0];
  const last = j.strategy === 'finetune' ? 0.6 + 0.1 * first : 0.8;
  const step1 = j.strategy === 'finetune' ? 0.95 : 0.9 - 0.02 * first;
  const matrix = [
    [step1, 0],
    [last, last],
  ];
  return {
    configHash: 'h',
    orderingKey: j.orderingKey,
    tasks: j.tasks,
    strategy: j.strategy,
    seed: 0,
    matrix,
    untrained: [0, 0],
    testCounts: [10, 10],
    finalAccuracy: last,
    aia: (step1 + last) / 2,
    backend: 'cpu',
    seconds: 0,
    createdAt: 0,
  };
});

const kindOf = (s: string) => (s === 'simplecil' ? ('prototype' as const) : ('trained' as const));

describe('order sensitivity', () => {
  it('final accuracy: the prototype method agrees (invariant), the head spreads; the why and the paper’s numbers', () => {
    const stats = deriveGroundTruth({ runs, plan, variable: 'final', strategies: ['finetune', 'simplecil'], sampleCount: false });
    const { rows, verdict } = orderSensitivity({ stats, kindOf, nameOf: (s) => (s === 'finetune' ? 'Finetune (head)' : 'SimpleCIL') });
    const ft = rows.find((r) => r.strategy === 'finetune')!;
    const sc = rows.find((r) => r.strategy === 'simplecil')!;
    expect(sc).toMatchObject({ kind: 'prototype', min: 0.8, max: 0.8, invariant: true, n: 6, planned: 6 });
    expect(ft.kind).toBe('trained');
    expect(ft.min).toBeCloseTo(0.6);
    expect(ft.max).toBeCloseTo(0.8);
    expect(ft.spread).toBeCloseTo(20);
    expect(ft.invariant).toBe(false);
    expect(ft.rs).not.toBeNull();
    const text = Object.fromEntries(verdict.sentences.map((s) => [s.id, s.text]));
    expect(text['order:prototypes']).toBe('The pre-trained methods’ 6 orderings agree within a tenth of a point on final accuracy (SimpleCIL 80.0 %).');
    expect(text['order:trained']).toBe('The trained strategy spreads several points: Finetune (head) 60.0–80.0 % (20.0 points).');
    expect(text['order:why']).toMatch(/a sum does not depend on the order of its terms.*A trained head’s weights follow the path/);
    expect(text['order:paper']).toContain('RanPAC 0.33 / 5.35 (98.5–98.83 % on CIFAR-100)');
    expect(text['order:paper']).toContain('HidePrompt 18.67 / 17.05');
    expect(verdict.provisional).toBe(false);
  });

  it('a method adapted on the first task: moves between first tasks, agrees within one; not invariant', () => {
    // the hand-made finetune runs depend on the first task only (0.6 + 0.1 × its first class): read them as adapted
    const stats = deriveGroundTruth({ runs, plan, variable: 'final', strategies: ['finetune', 'simplecil'], sampleCount: false });
    const { rows, verdict } = orderSensitivity({
      stats,
      kindOf: (s) => (s === 'finetune' ? 'first-task' : 'prototype'),
      nameOf: (s) => (s === 'finetune' ? 'SimpleCIL (adapted)' : 'SimpleCIL'),
    });
    expect(rows.find((r) => r.strategy === 'finetune')).toMatchObject({ kind: 'first-task', invariant: false });
    const text = Object.fromEntries(verdict.sentences.map((s) => [s.id, s.text]));
    expect(text['order:first-task:finetune']).toBe(
      'SimpleCIL (adapted) adapts a layer on the first task: over its 6 first tasks its final accuracy moves 20.0 points (means of the groups; all orderings 60.0–80.0 %), and within one first task its orderings agree within a tenth of a point: which classes come first decides it, not the order after that.',
    );
    expect(text['order:trained']).toBeUndefined();
  });

  it('the head’s bar: below SimpleCIL jointly is said as a finding with both numbers; at or above it, a note', () => {
    const stats = deriveGroundTruth({ runs, plan, variable: 'final', strategies: ['finetune', 'simplecil'], sampleCount: false });
    const below = orderSensitivity({ stats, kindOf, headBar: { joint: 0.63, simplecil: 0.768, epochs: 3, lr: 0.001 } }).verdict.sentences;
    const b = below.find((x) => x.id === 'order:head-bar')!;
    expect(b.kind).toBe('finding');
    expect(b.text).toMatch(/below the bar.*3 epochs at learning rate 0\.001.*63\.0 %.*SimpleCIL’s 76\.8 %/);
    const above = orderSensitivity({ stats, kindOf, headBar: { joint: 0.853, simplecil: 0.768, epochs: 20, lr: 0.01 } }).verdict.sentences;
    expect(above.find((x) => x.id === 'order:head-bar')).toMatchObject({ kind: 'note' });
    expect(above.find((x) => x.id === 'order:head-bar')!.text).toMatch(/clears the bar.*85\.3 %/);
    // one epoch is said in the singular
    const one = orderSensitivity({ stats, kindOf, headBar: { joint: 0.63, simplecil: 0.768, epochs: 1, lr: 0.001 } }).verdict.sentences;
    expect(one.find((x) => x.id === 'order:head-bar')!.text).toMatch(/\(1 epoch at learning rate 0\.001\)/);
    // not measured, or no trained head: nothing said
    expect(orderSensitivity({ stats, kindOf }).verdict.sentences.some((x) => x.id === 'order:head-bar')).toBe(false);
    const onlyProto = deriveGroundTruth({
      runs: runs.filter((r) => r.strategy === 'simplecil'),
      plan,
      variable: 'final',
      strategies: ['simplecil'],
      sampleCount: false,
    });
    expect(
      orderSensitivity({ stats: onlyProto, kindOf, headBar: { joint: 0.5, simplecil: 0.8, epochs: 3, lr: 0.001 } }).verdict.sentences.some(
        (x) => x.id === 'order:head-bar',
      ),
    ).toBe(false);
  });

  it('AIA: not invariant even for a prototype method, and the why says so', () => {
    const stats = deriveGroundTruth({ runs, plan, variable: 'aia', strategies: ['finetune', 'simplecil'], sampleCount: false });
    const { rows, verdict } = orderSensitivity({ stats, kindOf });
    expect(rows.find((r) => r.strategy === 'simplecil')!.invariant).toBe(false);
    expect(rows.find((r) => r.strategy === 'simplecil')!.spread).toBeCloseTo(2); // (0.9 − 0.02·f + 0.8)/2 over f = 0…2
    expect(verdict.sentences.find((s) => s.id === 'order:why')!.text).toMatch(/even a prototype method’s AIA depends on the order/);
    expect(verdict.sentences.find((s) => s.id === 'order:prototypes')!.text).toMatch(/spreads up to 2.0 points/);
  });

  it('groups a method’s truth orderings by first task, lowest mean first', () => {
    const stats = deriveGroundTruth({ runs, plan, variable: 'final', strategies: ['finetune', 'simplecil'], sampleCount: false });
    const g = firstTaskGroups(stats, 'finetune');
    expect(g.map((x) => x.firstTask)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(g[0]).toMatchObject({ n: 1 });
    expect(g[0].mean).toBeCloseTo(0.6);
    expect(g[5].mean).toBeCloseTo(0.8);
    expect(firstTaskGroups(stats, 'nothing')).toEqual([]);
  });
});
