import { describe, expect, it } from 'vitest';
import { planGroundTruth, truthOrderings, type GroundTruthInput } from '../../../../src/core/ground-truth/plan';
import { countOrderings } from '../../../../src/core/orderings/count';
import { orderingKey } from '../../../../src/core/orderings/key';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { runProtocols } from '../../../../src/core/protocols/run';
import { similarityScore } from '../../../../src/core/orderings/score';

/** N classes with a deterministic, asymmetric-free similarity. */
function sim(n: number) {
  return matrixFromRows(
    Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => (i === j ? 1 : Math.floor(i / 2) === Math.floor(j / 2) ? 0.9 : 0.1 + 0.01 * ((i * 7 + j * 7 + i * j) % 11))),
    ),
  );
}

const base = (over: Partial<GroundTruthInput> = {}): GroundTruthInput => ({
  classes: [0, 1, 2, 3, 4, 5],
  taskSizes: [2, 2, 2],
  similarity: sim(6),
  protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: [0, 42, 1993], medianSeed: 0 },
  strategies: ['finetune'],
  seeds: [0],
  budget: 500,
  sampleSeed: 0,
  ...over,
});

describe('planGroundTruth: exhaustive', () => {
  const plan = planGroundTruth(base());
  it('trains all 90 orderings of 6 classes in 3 tasks, each once, every one a truth ordering', () => {
    expect(plan.omega).toBe('90');
    expect(plan.exhaustive).toBe(true);
    expect(plan.truthCount).toBe(90);
    expect(plan.truthLabel).toBe('all 90 orderings');
    expect(plan.orderings).toHaveLength(90);
    expect(new Set(plan.orderings.map((o) => o.key)).size).toBe(90);
    expect(plan.orderings.every((o) => o.roles.includes('truth'))).toBe(true);
    expect(truthOrderings(plan)).toHaveLength(90);
    expect(plan.jobs).toHaveLength(90);
  });
  it("RS and EDGE orderings carry both roles and the Orderings lab's labels", () => {
    const report = runProtocols(sim(6), [2, 2, 2], { protocols: ['rs', 'edge'], rsSeeds: [0, 42, 1993], medianSeed: 0 });
    expect(plan.protocolOrderings.map((d) => d.label)).toEqual(report.sequences.map((s) => s.label));
    expect(plan.protocolOrderings.map((d) => d.role)).toEqual(['rs', 'rs', 'rs', 'edge-hard', 'edge-easy', 'edge-median']);
    for (const [i, d] of plan.protocolOrderings.entries()) {
      expect(d.key).toBe(orderingKey(report.sequences[i].tasks));
      expect(d.inTruth).toBe(true);
      const o = plan.orderings.find((x) => x.key === d.key)!;
      expect(o.roles).toContain('truth');
      expect(o.roles).toContain(d.role);
      expect(o.label).toContain(d.label);
    }
    const hard = plan.orderings.find((o) => o.roles.includes('edge-hard'))!;
    expect(hard.roles).toEqual(['truth', 'edge-hard']);
  });
  it('S(O) is recorded for every ordering', () => {
    for (const o of plan.orderings) expect(o.score).toBeCloseTo(similarityScore(o.tasks, sim(6)), 12);
  });
});

describe('planGroundTruth: sample', () => {
  // 8 classes in 4 tasks: |Ω| = 2 520 > budget 50
  const input = base({ classes: [0, 1, 2, 3, 4, 5, 6, 7], taskSizes: [2, 2, 2, 2], similarity: sim(8), budget: 50, sampleSeed: 7 });
  const plan = planGroundTruth(input);
  it('draws `budget` distinct orderings as the truth, labelled as a sample', () => {
    expect(plan.omega).toBe(countOrderings([2, 2, 2, 2]).toString());
    expect(plan.exhaustive).toBe(false);
    expect(plan.truthCount).toBe(50);
    expect(truthOrderings(plan)).toHaveLength(50);
    expect(plan.truthLabel).toBe('a uniform sample of 50 of 2\u2009520 orderings (seed 7)');
  });
  it('protocol orderings outside the sample are trained but carry only their protocol role', () => {
    const outside = plan.orderings.filter((o) => !o.roles.includes('truth'));
    expect(outside.length).toBeGreaterThan(0);
    for (const o of outside) expect(o.roles.length).toBeGreaterThan(0);
    for (const d of plan.protocolOrderings) {
      const o = plan.orderings.find((x) => x.key === d.key)!;
      expect(d.inTruth).toBe(o.roles.includes('truth'));
    }
    expect(plan.orderings).toHaveLength(50 + outside.length);
    expect(plan.jobs).toHaveLength(plan.orderings.length);
  });
  it('a protocol ordering that the sample also drew gets both roles', () => {
    // make the sample all of Ω but one ordering short of exhaustive: every protocol ordering is then almost surely
    // in it (and each one that is has both roles)
    const big = planGroundTruth({ ...input, budget: 2519 });
    expect(big.exhaustive).toBe(false);
    const both = big.orderings.filter((o) => o.roles.includes('truth') && o.roles.length > 1);
    expect(both.length).toBeGreaterThan(0);
    // its label names every protocol draw that picked it, in draw order
    for (const o of both)
      expect(o.label).toBe(
        big.protocolOrderings
          .filter((d) => d.key === o.key)
          .map((d) => d.label)
          .join(' · '),
      );
  });
  it('is deterministic, and another sample seed draws another sample', () => {
    expect(planGroundTruth(input)).toEqual(plan);
    const other = planGroundTruth({ ...input, sampleSeed: 8 });
    expect(truthOrderings(other).map((o) => o.key)).not.toEqual(truthOrderings(plan).map((o) => o.key));
  });
});

describe('planGroundTruth: class indices, jobs and their order', () => {
  it('maps positions to dataset class indices (keys and tasks), canonical', () => {
    const plan = planGroundTruth(base({ classes: [9, 3, 5, 0, 7, 1] }));
    const all = new Set(plan.orderings.flatMap((o) => o.tasks.flat()));
    expect([...all].sort((a, b) => a - b)).toEqual([0, 1, 3, 5, 7, 9]);
    for (const o of plan.orderings) {
      expect(o.key).toBe(orderingKey(o.tasks));
      for (const t of o.tasks) expect(t).toEqual(t.slice().sort((a, b) => a - b));
    }
    // RS seed 0 on positions is [[2,5],[1,3],[0,4]] → dataset classes [[5,1],[3,0],[9,7]] → canonical
    expect(plan.protocolOrderings[0].key).toBe('1,5|0,3|7,9');
  });
  it('runs protocol orderings first, then the rest in a seeded shuffle; strategies × seeds within an ordering', () => {
    const plan = planGroundTruth(base({ strategies: ['finetune', 'ewc'], seeds: [0, 1] }));
    expect(plan.jobs).toHaveLength(90 * 4);
    const protocolKeys = [...new Set(plan.protocolOrderings.map((d) => d.key))];
    const orderKeys = plan.jobs.filter((_, i) => i % 4 === 0).map((j) => j.orderingKey);
    expect(orderKeys.slice(0, protocolKeys.length)).toEqual(protocolKeys);
    expect(plan.orderings.map((o) => o.key)).toEqual(orderKeys);
    expect(plan.jobs.slice(0, 4).map((j) => [j.strategy, j.seed])).toEqual([
      ['finetune', 0],
      ['finetune', 1],
      ['ewc', 0],
      ['ewc', 1],
    ]);
    // the rest is not in enumeration (rank) order, and another sample seed shuffles it differently
    const rest = orderKeys.slice(protocolKeys.length);
    const ranked = [...rest].sort();
    expect(rest).not.toEqual(ranked);
    const other = planGroundTruth(base({ strategies: ['finetune', 'ewc'], seeds: [0, 1], sampleSeed: 1 }));
    const otherRest = other.jobs
      .filter((_, i) => i % 4 === 0)
      .map((j) => j.orderingKey)
      .slice(protocolKeys.length);
    expect(otherRest).not.toEqual(rest);
    expect([...otherRest].sort()).toEqual(ranked);
    // every (ordering, strategy, seed) once
    expect(new Set(plan.jobs.map((j) => `${j.orderingKey}/${j.strategy}/${j.seed}`)).size).toBe(plan.jobs.length);
  });
  it('keeps duplicate protocol draws in protocolOrderings but trains the ordering once', () => {
    // 4 classes in 2 tasks: |Ω| = 6, so 12 RS seeds must repeat orderings
    const plan = planGroundTruth(
      base({
        classes: [0, 1, 2, 3],
        taskSizes: [2, 2],
        similarity: sim(4),
        protocolOptions: { protocols: [], rsSeeds: Array.from({ length: 12 }, (_, i) => i) },
      }),
    );
    expect(plan.protocolOrderings.filter((d) => d.role === 'rs')).toHaveLength(12);
    expect(plan.orderings).toHaveLength(6);
    expect(plan.jobs).toHaveLength(6);
    const multi = plan.orderings.find((o) => (o.label ?? '').includes(' · '));
    expect(multi?.label).toMatch(/^RS seed \d+( · RS seed \d+)+$/);
  });
  it('rejects a bad budget, no strategies, duplicate seeds, and a similarity of the wrong size', () => {
    expect(() => planGroundTruth(base({ budget: 0 }))).toThrow(/budget/);
    expect(() => planGroundTruth(base({ strategies: [] }))).toThrow(/strategy/);
    expect(() => planGroundTruth(base({ seeds: [1, 1] }))).toThrow(/distinct/);
    expect(() => planGroundTruth(base({ similarity: sim(5) }))).toThrow(/5×5/);
    expect(() => planGroundTruth(base({ taskSizes: [3, 2] }))).toThrow();
  });
});
