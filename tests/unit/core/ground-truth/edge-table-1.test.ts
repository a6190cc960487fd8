/**
 * EDGE's Table 1 beside ours (src/core/ground-truth/edge-table-1.ts): the paper's rows as printed, the preset (a valid
 * config: the first six classes in three tasks of two, the papers' ViT, the head's settings), and the comparison on
 * hand-made runs — every row says what differs and none is called comparable; a different backbone or test set is
 * said in the notes.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { HEAD_TRAINING } from '../../../../src/core/config/sections/features';
import { deriveGroundTruth } from '../../../../src/core/ground-truth/derive';
import { EDGE_TABLE_1, TABLE_1_ENCODER, edgeTable1Preset, table1Comparison, table1DatasetOf } from '../../../../src/core/ground-truth/edge-table-1';
import { planGroundTruth } from '../../../../src/core/ground-truth/plan';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';

describe('the paper’s rows', () => {
  it('are Table 1 as printed: RanPAC 98.50–98.83 on CIFAR-100, CODA-Prompt 18.72–57.75 on ImageNet-R', () => {
    expect(EDGE_TABLE_1.cifar100.RanPAC).toMatchObject({ min: 98.5, max: 98.83, jsdRs: 0, wEdge: 0 });
    expect(EDGE_TABLE_1['imagenet-r']['CODA-Prompt']).toMatchObject({ min: 18.72, rsMin: 39.04, max: 57.75, jsdRs: 0.65, wRs: 9.85 });
    for (const ds of Object.values(EDGE_TABLE_1))
      for (const c of Object.values(ds)) {
        expect(c.min).toBeLessThanOrEqual(c.max);
        for (const v of [c.rsMin, c.edgeMin, c.rsMax, c.edgeMax]) {
          expect(v).toBeGreaterThanOrEqual(c.min);
          expect(v).toBeLessThanOrEqual(c.max);
        }
      }
  });
});

describe('the preset', () => {
  it('sets up the paper’s classes and tasks on the papers’ ViT with the head’s settings, and is a valid config', () => {
    const c = edgeTable1Preset(defaultConfig(), 'cifar100');
    expect(validateConfig(c).errors).toEqual([]);
    expect([c.lab, c.dataset, c.classes, c.taskSizes]).toEqual(['ground-truth', { id: 'cifar100' }, [0, 1, 2, 3, 4, 5], [2, 2, 2]]);
    expect(c.features).toEqual({ source: 'encoder', model: TABLE_1_ENCODER, revision: 'main', precision: 'q8', weights: { kind: 'hub' } });
    expect(c.strategies.map((s) => s.id)).toEqual(['finetune', 'replay', 'simplecil', 'fecam', 'ranpac']);
    expect([c.training.epochs, c.training.lr]).toEqual([HEAD_TRAINING.epochs, HEAD_TRAINING.lr]);
    expect(c.protocols.rsSeeds).toEqual([0, 42, 1993]);
    expect(c.data).toEqual({ trainPerClass: null, testPerClass: null });
    expect(table1DatasetOf(c)).toBe('cifar100');
    expect(table1DatasetOf(defaultConfig())).toBeNull();
    // an encoder already in use (features extracted in the Data tab) stays
    const own = {
      source: 'encoder',
      model: 'cil-lab/vit-tiny',
      revision: 'main',
      precision: 'q8',
      weights: { kind: 'self-hosted', path: '/models/' },
    } as const;
    const r = edgeTable1Preset({ ...defaultConfig(), features: own, model: { kind: 'head', hidden: [] } }, 'imagenet-r');
    expect(r.features).toEqual(own);
    expect(validateConfig(r).errors).toEqual([]);
  });
});

describe('the comparison', () => {
  const classes = [0, 1, 2, 3, 4, 5];
  const sim = matrixFromRows(classes.map((i) => classes.map((j) => (i === j ? 1 : 0.2 + 0.05 * ((i + 2 * j) % 5)))));
  const plan = planGroundTruth({
    classes,
    taskSizes: [2, 2, 2],
    similarity: sim,
    protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: [0, 42, 1993], medianSeed: 0 },
    strategies: ['finetune', 'simplecil', 'ranpac'],
    seeds: [0],
    budget: 100,
    sampleSeed: 0,
  });
  // finetune: final accuracy by the last task's first class; simplecil: one value; ranpac: two values (λ)
  const runs = plan.jobs.map((j) => {
    const last = j.tasks[2][0];
    const fin = j.strategy === 'finetune' ? 0.3 + 0.05 * last : j.strategy === 'simplecil' ? 0.9 : last % 2 ? 0.95 : 0.94;
    // the accuracy after steps 1 and 2: SimpleCIL's by the first task's first class (its AIA moves, its final does not)
    const a = j.strategy === 'simplecil' ? 0.9 + 0.015 * j.tasks[0][0] : Math.min(1, fin + 0.1);
    const matrix = [
      [a, 0, 0],
      [a, a, 0],
      [fin, fin, fin],
    ];
    return {
      orderingKey: j.orderingKey,
      tasks: j.tasks,
      strategy: j.strategy,
      seed: 0,
      matrix,
      testCounts: [10, 10, 10],
      finalAccuracy: fin,
      aia: (2 * a + fin) / 3,
    };
  });
  const final = deriveGroundTruth({ runs, plan, variable: 'final', strategies: ['finetune', 'simplecil', 'ranpac'], sampleCount: false });
  const aia = deriveGroundTruth({ runs, plan, variable: 'aia', strategies: ['finetune', 'simplecil', 'ranpac'], sampleCount: false });

  it('reads RanPAC against RanPAC, SimpleCIL against EASE, the head against the prompt methods; none comparable; AIA beside', () => {
    const t = table1Comparison({
      dataset: 'cifar100',
      final,
      aia,
      features: { source: 'encoder', model: TABLE_1_ENCODER, revision: 'main', precision: 'q8', weights: { kind: 'hub' } },
      featuresLabel: 'image encoder …',
      testImages: 600,
    });
    expect(t.sameBackbone).toBe(true);
    expect(t.rows.map((r) => [r.strategy, r.paper?.method, r.comparable])).toEqual([
      ['finetune', 'prompt methods', false],
      ['simplecil', 'EASE', false],
      ['ranpac', 'RanPAC', false],
    ]);
    const sc = t.rows.find((r) => r.strategy === 'simplecil')!;
    expect(sc.ours.min).toBeCloseTo(90, 10);
    expect(sc.ours.max).toBeCloseTo(90, 10);
    expect(sc.ours.aiaMin).toBeCloseTo(90, 10);
    expect(sc.ours.aiaMax).toBeCloseTo(94, 10); // first task {4, 5}: (96 + 96 + 90) / 3
    expect(sc.differs).toMatch(/one value, 90\.00 %, for every ordering/);
    const rp = t.rows.find((r) => r.strategy === 'ranpac')!;
    expect([rp.ours.min, rp.ours.max].map((x) => Math.round(x))).toEqual([94, 95]);
    expect(rp.differs).toMatch(/paper’s 98\.50–98\.83 %.*first task.*M = 10 000.*M = 2000/);
    const ft = t.rows.find((r) => r.strategy === 'finetune')!;
    expect(ft.paper?.range).toEqual({ min: 64.67, max: 92.5 });
    expect(ft.ours.n).toBe(90);
    // RS's orderings are a subset of the truth: their range lies inside ours
    expect(ft.ours.rsMin!).toBeGreaterThanOrEqual(ft.ours.min - 1e-9);
    expect(ft.ours.rsMax!).toBeLessThanOrEqual(ft.ours.max + 1e-9);
    expect(t.notes.join(' ')).toMatch(/no prompt or adapter method runs here/);
  });

  it('says so when the backbone or the test set is not the paper’s', () => {
    const t = table1Comparison({
      dataset: 'cifar100',
      final,
      aia: null,
      features: { source: 'encoder', model: 'cil-lab/vit-tiny', revision: 'main', precision: 'q8', weights: { kind: 'self-hosted', path: '/models/' } },
      featuresLabel: 'image encoder cil-lab/vit-tiny (q8)',
      testImages: 30,
    });
    expect(t.sameBackbone).toBe(false);
    expect(t.notes[0]).toMatch(/image encoder cil-lab\/vit-tiny \(q8\), not the paper’s ViT-B\/16 ImageNet-21k: no number here can be compared/);
    expect(t.notes[1]).toMatch(/30 test images of the six classes, where the paper has 600/);
    expect(t.rows.find((r) => r.strategy === 'ranpac')!.differs).toMatch(/on image encoder cil-lab\/vit-tiny/);
    expect(t.rows[0].ours.aiaMin).toBeNull();
  });
});
