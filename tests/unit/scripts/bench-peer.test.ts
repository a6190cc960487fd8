/**
 * The pure parts of `npm run bench:peer` (scripts/peer/bench-peer-lib.mjs): the two sides get the same config, the
 * distribution summary (checked against numpy: population sd, ddof 0), the agreement test (means within 1 point,
 * sds within 25 %), the floor and efficiency, and the exact shape of the last JSON line. The
 * benchmark itself is not run here.
 */
import { describe, expect, it } from 'vitest';
import { planPrefixes } from '../../../src/core/ground-truth/prefix-plan';
import { peerOrderings, peerSampleOrder } from '../../e2e/harness/peer-bench';
// prettier-ignore
// @ts-expect-error a plain .mjs script without type declarations
import { benchConfig, cliArgs, compareDistributions, diffStandardError, finalJson, floorOf, formatFloor, formatTable, pairRuns, peerArgs, plannedPredictions, plannedSteps, runKey, sameTolerance, stepsPerTask, summarize, trieTasks, withFloor } from '../../../scripts/peer/bench-peer-lib.mjs';

describe('bench:peer, pure parts', () => {
  it('summarize: mean, population sd, min, max (numpy: np.mean, np.std(ddof=0))', () => {
    // numpy: x = [0.25, 0.5, 0.3, 0.45]; np.mean(x) = 0.375, np.std(x) = 0.10307764064044152
    const s = summarize([0.25, 0.5, 0.3, 0.45]);
    expect(s.n).toBe(4);
    expect(s.mean).toBeCloseTo(0.375, 12);
    expect(s.sd).toBeCloseTo(0.10307764064044152, 12);
    expect([s.min, s.max]).toEqual([0.25, 0.5]);
    expect(Number.isNaN(summarize([]).mean)).toBe(true);
  });

  it("compareDistributions: the issue's criterion, both ways of failing", () => {
    const peer = { mean: 0.284, sd: 0.078 };
    expect(compareDistributions(peer, { mean: 0.29, sd: 0.07 })).toMatchObject({ meanOk: true, sdOk: true, agree: true });
    // the unmatched engine of the issue: mean +3.4 points, sd a third
    const c = compareDistributions(peer, { mean: 0.318, sd: 0.026 });
    expect(c.meanOk).toBe(false);
    expect(c.sdOk).toBe(false);
    expect(c.meanDiff).toBeCloseTo(0.034, 12);
    expect(c.sdRatio).toBeCloseTo(1 / 3, 12);
    expect(compareDistributions(peer, { mean: 0.284, sd: 0.1 }).agree).toBe(false);
    expect(compareDistributions(peer, { mean: 0.2941, sd: 0.078 }).agree).toBe(false);
  });

  it('both sides train the same config: classes, tasks, images, epochs, batch, lr, widths, head, init, seed', () => {
    for (const quick of [false, true]) {
      const cfg = benchConfig(quick);
      const p = peerArgs(cfg, 2);
      const o = cliArgs(cfg);
      const flag = (args: string[], k: string) => args[args.indexOf(k) + 1];
      for (const k of [
        '--classes',
        '--tasks',
        '--train-per-class',
        '--test-per-class',
        '--epochs',
        '--batch-size',
        '--lr',
        '--hidden',
        '--head',
        '--init',
        '--seed',
      ]) {
        expect(flag(p, k), k).toBe(flag(o, k));
      }
      expect(flag(o, '--init')).toBe('pytorch');
      expect(flag(o, '--orderings')).toBe('all');
      expect(flag(p, '--threads')).toBe('2');
    }
    // the default: 600 images per task, batch 64 → 10 batches × 3 epochs
    expect(stepsPerTask(benchConfig(false))).toBe(30);
  });

  it("the last line has exactly the issue's keys; ratio = peer seconds / best Chromium seconds", () => {
    const dist = (mean: number, sd: number) => ({ n: 90, mean, sd, min: 0.1, max: 0.5 });
    const peer = { where: 'pytorch', backend: 'cpu', seconds: 150, firstResultSeconds: 1.7, steps: 8100, dist: dist(0.2841, 0.0781) };
    const ours = [
      { where: 'node', backend: 'wasm', seconds: 40, firstResultSeconds: NaN, steps: 5850, dist: dist(0.28, 0.07) },
      { where: 'chromium', backend: 'wasm', workers: 2, seconds: 30, firstResultSeconds: 1.2, steps: 5850, dist: dist(0.28, 0.07) },
      { where: 'chromium', backend: 'webgl', seconds: 60, firstResultSeconds: 2, steps: 5850, dist: dist(0.28, 0.07) },
    ];
    const j = JSON.parse(finalJson(peer, ours));
    expect(Object.keys(j)).toEqual(['peer', 'ours', 'ratio', 'pairedPeer']);
    expect(j.pairedPeer).toBeNull();
    expect(j.peer).toEqual({ seconds: 150, finalMean: 0.284, finalSd: 0.078 });
    // the keys, and the workers the side trained on (Chromium: one per core, as the lab's pool)
    expect(Object.keys(j.ours[0])).toEqual([
      'where',
      'backend',
      'workers',
      'seconds',
      'firstResultSeconds',
      'finalMean',
      'finalSd',
      'paired',
      'floorSeconds',
      'efficiency',
      'stepsPlanned',
      'stepsTrained',
      'msPerStep',
      // the work floor: the evaluation's predictions beside the steps
      'predictionsPlanned',
      'predictions',
      'msPerPrediction',
      'workFloorSeconds',
      'workEfficiency',
    ]);
    expect(j.ours[0].paired).toBeNull();
    // no step time measured: no floor
    expect(j.ours[0]).toMatchObject({ floorSeconds: null, efficiency: null, stepsPlanned: null, stepsTrained: 5850, msPerStep: null });
    expect(j.ours.map((o: { workers: number }) => o.workers)).toEqual([1, 2, 1]);
    expect(j.ours[0].firstResultSeconds).toBeNull();
    expect(j.ratio).toBe(5);
    // no Chromium or no peer: no ratio
    expect(JSON.parse(finalJson(peer, ours.slice(0, 1))).ratio).toBeNull();
    expect(JSON.parse(finalJson(null, ours)).ratio).toBeNull();
    const table = formatTable(peer, ours);
    expect(table.split('\n')).toHaveLength(5);
    expect(table).toMatch(/steps\/s/);
    expect(table).toMatch(/pytorch\s+cpu\s+150\.0\s+1\.70\s+54\.0/);
    expect(table).toMatch(/: agree/);
    expect(table).toMatch(/chromium\s+wasm, 2 workers\s+30\.0/);
  });

  it('the Chromium pool is dealt the sample order: numpy default_rng(sampleOrderSeed(seed)).permutation over the enumerated orderings', () => {
    const cfg = benchConfig(false) as Parameters<typeof peerOrderings>[0];
    expect(peerOrderings(cfg)).toHaveLength(90);
    // numpy: np.random.default_rng(625341585).permutation(90) → [72 27 77 65 57 12 14 10 76 67 …] ending in 86
    const order = peerSampleOrder(cfg);
    expect(order.slice(0, 10)).toEqual([72, 27, 77, 65, 57, 12, 14, 10, 76, 67]);
    expect(order[89]).toBe(86);
    expect([...order].sort((a, b) => a - b)).toEqual([...Array(90).keys()]);
    // quick: 6 orderings, permutation(6) → [0 1 5 4 3 2]
    expect(peerSampleOrder(benchConfig(true) as Parameters<typeof peerOrderings>[0])).toEqual([0, 1, 5, 4, 3, 2]);
  });

  it('the floor: steps planned = the trie of every ordering × steps per task; floor = planned ÷ workers × ms/step; efficiency = floor / wall', () => {
    for (const quick of [false, true]) {
      const cfg = benchConfig(quick);
      expect(trieTasks(cfg)).toBe(planPrefixes(peerOrderings(cfg)).sharedTasks);
    }
    expect(trieTasks(benchConfig(false))).toBe(195);
    expect(plannedSteps(benchConfig(false))).toBe(5850);
    expect(plannedSteps(benchConfig(true))).toBe(12 * 2);
    // 5,850 steps on 2 workers at 3.3 ms: 9.6525 s; a 10.4 s wall is 0.928 of the floor
    const fl = floorOf(5850, 2, 3.3, 10.4);
    expect(fl.floorSeconds).toBeCloseTo(9.6525, 10);
    expect(fl.efficiency).toBeCloseTo(9.6525 / 10.4, 10);
    const dist = { n: 90, mean: 0.28, sd: 0.07, min: 0.1, max: 0.5 };
    const chromium = { where: 'chromium', backend: 'wasm', workers: 2, seconds: 10.4, firstResultSeconds: 0.5, steps: 5850, dist };
    // the worker count's own step time is used (2 workers at once are slower than 1 alone)
    const c = withFloor(chromium, benchConfig(false), { 1: 3.0, 2: 3.3 });
    expect(c).toMatchObject({ stepsPlanned: 5850, msPerStep: 3.3 });
    expect(c.floorSeconds).toBeCloseTo(9.6525, 10);
    const node = withFloor({ ...chromium, where: 'node', workers: 1, seconds: 21.1, steps: 6300 }, benchConfig(false), { 1: 3.2 });
    expect(node.floorSeconds).toBeCloseTo(18.72, 10);
    const lines = formatFloor([c, node]).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /5,850 steps planned, 5,850 trained \(steps trained = steps planned\); 5,850 ÷ 2 workers × 3\.30 ms\/step = 9\.7 s; wall 10\.4 s; efficiency = floor \/ wall = 0\.93/,
    );
    expect(lines[1]).toMatch(/6,300 trained \(steps trained ≠ steps planned \(450\)\)/);
    expect(formatTable(null, [c])).toMatch(/efficiency/);
    expect(formatTable(null, [c])).toMatch(/chromium\s+wasm, 2 workers\s+10\.4\s+0\.50\s+562\.5\s+0\.93/);
    const j = JSON.parse(finalJson(null, [c, node]));
    expect(j.ours[0]).toMatchObject({ floorSeconds: 9.653, efficiency: 0.928, stepsPlanned: 5850, stepsTrained: 5850, workers: 2, msPerStep: 3.3 });
    expect(j.ours[1]).toMatchObject({ floorSeconds: 18.72, efficiency: 0.887, stepsPlanned: 5850, stepsTrained: 6300, workers: 1 });
    // a side without its worker count's step time (another backend) has no floor
    expect(withFloor(chromium, benchConfig(false), { 1: 3.0 }).floorSeconds).toBeNaN();
  });

  it('the work floor adds the evaluation: test predictions planned × ms per prediction, split over the workers', () => {
    // 'all' head: each of the 195 prefixes predicts the 600 test images once, and each worker the untrained model's
    expect(plannedPredictions(benchConfig(false), 1)).toBe(196 * 600);
    expect(plannedPredictions(benchConfig(false), 2)).toBe(197 * 600);
    // quick: 4 classes in 2 tasks, 6 + 6 prefixes, 120 test images
    expect(plannedPredictions(benchConfig(true), 1)).toBe(13 * 120);
    // 'seen' head: a prefix of t + 1 tasks predicts their 200 images each, the untrained model nothing
    expect(plannedPredictions({ ...benchConfig(false), head: 'seen' }, 2)).toBe(15 * 200 + 90 * 400 + 90 * 600);
    // 5,850 steps at 3.3 ms and 118,200 predictions at 12.5 µs on 2 workers: 9.6525 + 0.73875 = 10.39125 s
    const fl = floorOf(5850, 2, 3.3, 11.5, 118200, 0.0125);
    expect(fl.floorSeconds).toBeCloseTo(9.6525, 10);
    expect(fl.workFloorSeconds).toBeCloseTo(10.39125, 10);
    expect(fl.workEfficiency).toBeCloseTo(10.39125 / 11.5, 10);
    const dist = { n: 90, mean: 0.28, sd: 0.07, min: 0.1, max: 0.5 };
    const side = { where: 'chromium', backend: 'wasm', workers: 2, seconds: 11.5, firstResultSeconds: 0.5, steps: 5850, predictions: 118200, dist };
    const c = withFloor(side, benchConfig(false), { 2: 3.3 }, { 1: 0.011, 2: 0.0125 });
    expect(c).toMatchObject({ predictionsPlanned: 118200, msPerPrediction: 0.0125 });
    expect(c.workFloorSeconds).toBeCloseTo(10.39125, 10);
    const lines = formatFloor([c]).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /with evaluation, chromium wasm: 118,200 test predictions planned, 118,200 made; 118,200 ÷ 2 × 12\.5 µs = 0\.7 s; work floor 10\.4 s; work efficiency = work floor \/ wall = 0\.90/,
    );
    const j = JSON.parse(finalJson(null, [c]));
    expect(j.ours[0]).toMatchObject({
      predictionsPlanned: 118200,
      predictions: 118200,
      msPerPrediction: 0.0125,
      workFloorSeconds: 10.391,
      workEfficiency: 0.904,
    });
    // without a prediction time: the floor alone, one line
    const bare = withFloor(side, benchConfig(false), { 2: 3.3 });
    expect(bare.workFloorSeconds).toBeNaN();
    expect(formatFloor([bare]).split('\n')).toHaveLength(1);
    expect(JSON.parse(finalJson(null, [bare])).ours[0]).toMatchObject({ workFloorSeconds: null, workEfficiency: null, msPerPrediction: null });
  });

  it('diffStandardError: the standard error of two independent means (numpy: sqrt(var(a, ddof=1)/na + var(b, ddof=1)/nb))', () => {
    // numpy: a = [0.30, 0.25, 0.41, 0.28], b = [0.33, 0.22, 0.35, 0.31, 0.29] → 0.04143267631552017
    const a = summarize([0.3, 0.25, 0.41, 0.28]);
    const b = summarize([0.33, 0.22, 0.35, 0.31, 0.29]);
    expect(diffStandardError(a, b)).toBeCloseTo(0.04143267631552017, 12);
    expect(diffStandardError(b, a)).toBeCloseTo(0.04143267631552017, 12);
  });

  it('an independent difference inside twice its standard error is "within noise", outside it "DIFFER"', () => {
    const dist = (mean: number, sd: number) => ({ n: 90, mean, sd, min: 0.1, max: 0.5 });
    const peer = { where: 'pytorch', backend: 'cpu', seconds: 185, firstResultSeconds: 2, steps: 8100, dist: dist(0.29, 0.0712) };
    // 2 SE = 2·sqrt(0.0712²/89 + 0.0751²/89) ≈ 0.0219: +1.02 points is noise, +3 points is not
    const near = { where: 'node', backend: 'wasm', seconds: 21, firstResultSeconds: NaN, steps: 5850, dist: dist(0.3002, 0.0751) };
    const far = { ...near, dist: dist(0.32, 0.0751) };
    expect(formatTable(peer, [near])).toMatch(/mean \+0\.0102 \(2 SE 0\.0219\), sd ×1\.05: within noise/);
    expect(formatTable(peer, [far])).toMatch(/mean \+0\.0300 \(2 SE 0\.0219\), sd ×1\.05: DIFFER/);
  });

  it('pairRuns: run by run over the keys both sides trained; "the same" within half a test image', () => {
    const cfg = benchConfig(false);
    const tol = sameTolerance(cfg);
    expect(tol).toBeCloseTo(0.5 / 600, 15);
    const k = (i: number) =>
      runKey([
        [i, 5],
        [1, 2],
        [3, 4],
      ]);
    const peer = [0.3, 0.25, 0.41, 0.28].map((final, i) => ({ key: k(i), final }));
    // run 0 the same, run 1 one image better (1/600), run 2 a float's difference, run 3 only the peer trained; run 9 only ours
    const ours = [
      { key: k(0), final: 0.3 },
      { key: k(1), final: 0.25 + 1 / 600 },
      { key: k(2), final: 0.41 + 1e-8 },
      { key: k(9), final: 0.9 },
    ];
    const p = pairRuns(peer, ours, tol);
    expect(p.n).toBe(3);
    expect(p.same).toBe(2);
    expect(p.maxAbsDiff).toBeCloseTo(1 / 600, 12);
    expect(p.meanDiff).toBeCloseTo((1 / 600 + 1e-8) / 3, 12);
    expect(p.meanAbsDiff).toBeCloseTo((1 / 600 + 1e-8) / 3, 12);
    expect(pairRuns(peer, [], tol).n).toBe(0);
    // the paired comparison in the table and in the last line
    const dist = { n: 4, mean: 0.31, sd: 0.06, min: 0.25, max: 0.41 };
    const side = { where: 'node', backend: 'wasm', seconds: 1, firstResultSeconds: NaN, steps: 10, dist, runs: ours };
    const pairedPeer = { where: 'pytorch', backend: 'cpu', seconds: 3, firstResultSeconds: 1, steps: 10, dist, runs: peer };
    expect(formatTable(null, [side], pairedPeer, tol)).toMatch(/2\/3 the same, mean Δ \+0\.0006, max \|Δ\| 0\.0017/);
    const j = JSON.parse(finalJson(null, [side], pairedPeer, tol));
    expect(j.ours[0].paired).toEqual({ runs: 3, same: 2, meanDiff: 0.0006, maxAbsDiff: 0.0017 });
    expect(j.pairedPeer).toEqual({ seconds: 3, finalMean: 0.31, finalSd: 0.06 });
  });
});
