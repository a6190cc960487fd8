import { describe, expect, it } from 'vitest';
import { analysisPlan } from '../../../../src/core/results-import/analysis-plan';
import { planGroundTruth } from '../../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import fm6 from '../../../fixtures/import/fmnist6-wordnet.json';
import expected from '../../../fixtures/import/expected.json';

const sim = matrixFromRows(fm6.matrix);

describe('analysisPlan', () => {
  it("is the lab's plan when Ω is enumerable, with the independently computed RS and EDGE orderings", () => {
    const p = analysisPlan({
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
      similarity: sim,
      rsSeeds: [0, 42, 1993],
      importedKeys: [],
      strategies: ['der'],
      seeds: [0],
    });
    const lab = planGroundTruth({
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
      similarity: sim,
      protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: [0, 42, 1993], medianSeed: 0 },
      strategies: ['finetune'],
      seeds: [0],
      budget: 500,
      sampleSeed: 0,
    });
    expect(p.orderings).toEqual(lab.orderings);
    expect(p.protocolOrderings).toEqual(lab.protocolOrderings);
    expect(p.truthLabel).toBe('all 90 orderings');
    expect(p.protocolOrderings!.map((d) => [d.label, d.key])).toEqual([...expected.rs, ...expected.edge].map((d) => [d.label, d.key]));
  });
  it('beyond the limit, the truth is the imported orderings', () => {
    const p = analysisPlan({
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
      similarity: sim,
      rsSeeds: [0],
      importedKeys: ['0,1|2,3|4,5', '0,1|2,3|4,5', '2,5|1,3|0,4'],
      strategies: ['der'],
      seeds: [0],
      enumerateLimit: 10,
    });
    expect(p.exhaustive).toBe(false);
    expect(p.truthLabel).toBe('the 2 imported orderings (of 90; not necessarily a uniform sample)');
    const truth = p.orderings.filter((o) => o.roles.includes('truth')).map((o) => o.key);
    expect(truth).toEqual(['2,5|1,3|0,4', '0,1|2,3|4,5']);
    expect(p.orderings.find((o) => o.key === '2,5|1,3|0,4')!.roles).toEqual(['truth', 'rs']);
  });
});
