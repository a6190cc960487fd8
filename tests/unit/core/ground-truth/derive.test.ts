import { describe, expect, it } from 'vitest';
import {
  deriveGroundTruth,
  orderingScore,
  runValue,
  type PlanDraw,
  type PlanLike,
  type PlanOrdering,
  type RunRecord,
} from '../../../../src/core/ground-truth/derive';
import { normalityAfterBoxCox } from '../../../../src/core/ground-truth/normality';
import { statisticsJson, statisticsTable } from '../../../../src/core/ground-truth/stats-export';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { orderingKey } from '../../../../src/core/orderings/key';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { similarityScore } from '../../../../src/core/orderings/score';
import { estimateQuality, gaussianEstimate } from '../../../../src/core/stats/estimate';
import { pearson } from '../../../../src/core/stats/pearson';
import { expectClose, fixture } from '../stats/fixture';

/** A run that stores only an accuracy (no matrix): its value is the stored one. */
function run(orderingKey: string, value: number, strategy = 'finetune', seed = 0): RunRecord {
  return { orderingKey, strategy, seed, matrix: [], testCounts: [], finalAccuracy: value, aia: value };
}

/** A plan of `truth` truth orderings t0..; RS and EDGE draws as given (keys may point into the truth or not). */
function plan(truth: number, protocol: { rs?: string[]; edge?: [string, string, string] } = {}, scores?: number[]): PlanLike {
  const orderings: PlanOrdering[] = [];
  const roles = new Map<string, PlanOrdering>();
  const entry = (key: string): PlanOrdering => {
    let o = roles.get(key);
    if (!o) {
      o = { key, tasks: [[0]], roles: [] };
      roles.set(key, o);
      orderings.push(o);
    }
    return o;
  };
  for (let i = 0; i < truth; i++) {
    const o = entry(`t${i}`);
    (o.roles as string[]).push('truth');
    if (scores) o.score = scores[i];
  }
  const draws: PlanDraw[] = [];
  (protocol.rs ?? []).forEach((k, i) => {
    const o = entry(k);
    if (!o.roles.includes('rs')) (o.roles as string[]).push('rs');
    draws.push({ role: 'rs', label: `RS seed ${i}`, key: k });
  });
  if (protocol.edge) {
    const roleNames = ['edge-hard', 'edge-easy', 'edge-median'] as const;
    protocol.edge.forEach((k, i) => {
      (entry(k).roles as string[]).push(roleNames[i]);
      draws.push({ role: roleNames[i], label: ['EDGE hard', 'EDGE easy', 'EDGE median'][i], key: k });
    });
  }
  return { orderings, protocolOrderings: draws, exhaustive: true, truthLabel: `all ${truth} orderings` };
}

describe('runValue', () => {
  const R = [
    [0.9, 0, 0],
    [0.5, 0.8, 0],
    [0.2, 0.4, 0.7],
  ];
  const base = { orderingKey: 'k', strategy: 's', seed: 0, matrix: R, testCounts: [10, 20, 30], finalAccuracy: 0.123, aia: 0.456 };
  it('recomputes the sample-weighted final accuracy and AIA from R and the test counts', () => {
    expect(runValue(base, 'final').value).toBeCloseTo((10 * 0.2 + 20 * 0.4 + 30 * 0.7) / 60, 15);
    const aia = (0.9 + (10 * 0.5 + 20 * 0.8) / 30 + (10 * 0.2 + 20 * 0.4 + 30 * 0.7) / 60) / 3;
    expect(runValue(base, 'aia').value).toBeCloseTo(aia, 15);
  });
  it('falls back to the stored value when R is missing or incomplete', () => {
    expect(runValue({ ...base, matrix: [] }, 'final').value).toBe(0.123);
    expect(runValue({ ...base, testCounts: [10, 20] }, 'aia').value).toBe(0.456);
    expect(runValue({ ...base, matrix: [[2]], testCounts: [1] }, 'final').value).toBe(0.123);
  });
  it('gives null with a reason when neither is usable', () => {
    const r = runValue({ ...base, matrix: [], aia: NaN }, 'aia');
    expect(r.value).toBeNull();
    expect(r.reason).toMatch(/average incremental accuracy/);
  });
});

describe('deriveGroundTruth while runs stream in', () => {
  const p = plan(6, { rs: ['t0', 't1', 't2'], edge: ['t3', 't4', 't5'] }, [1, 2, 3, 4, 5, 6]);
  const values = [0.5, 0.55, 0.6, 0.4, 0.7, 0.52];

  it('never throws: with no runs every statistic is null with a reason', () => {
    const s = deriveGroundTruth({ runs: [], plan: p, variable: 'final', strategies: ['finetune'] });
    const f = s.strategies[0];
    expect(f.truth).toMatchObject({ evaluated: 0, planned: 6, complete: false, moments: null });
    expect(f.rs.gaussian.reason).toBe('0 of 3 RS orderings trained');
    expect(f.edge.quality.reason).toBe('0 of 3 EDGE orderings trained');
    expect(f.pearson.reason).toMatch(/at least 3/);
    expect(f.normality.reason).toMatch(/at least 3 truth values; 0 so far/);
    expect(f.sampleCount.reason).toMatch(/at least 10 truth values/);
    expect(f.summaries.truth.reason).toMatch(/no truth ordering/);
    expect(s.rankings.reason).toMatch(/at least 2/);
  });

  it('an estimate appears only when all its draws are trained; the truth grows run by run', () => {
    const two = deriveGroundTruth({ runs: [run('t0', values[0]), run('t1', values[1])], plan: p, variable: 'final' });
    expect(two.strategies[0].rs.gaussian.reason).toBe('2 of 3 RS orderings trained');
    expect(two.strategies[0].rs.have).toBe(2);
    expect(two.strategies[0].truth.values).toEqual([0.5, 0.55]);
    const three = deriveGroundTruth({ runs: [run('t2', values[2]), run('t0', values[0]), run('t1', values[1])], plan: p, variable: 'final' });
    const rs = three.strategies[0].rs;
    expect(rs.gaussian.value).toEqual(gaussianEstimate([0.5, 0.55, 0.6]));
    // truth in plan order, whatever order the runs arrived in
    expect(three.strategies[0].truth.keys).toEqual(['t0', 't1', 't2']);
    const q = estimateQuality([0.5, 0.55, 0.6], [0.5, 0.55, 0.6]);
    expect(rs.quality.value).toEqual({ jsd: q.jsd, w1: q.w1, w1Raw: q.w1Raw });
  });

  it('with every run in: JSD/W1, Pearson R of S vs A, normality and min/max/std', () => {
    const s = deriveGroundTruth({ runs: values.map((v, i) => run(`t${i}`, v)), plan: p, variable: 'final' });
    const f = s.strategies[0];
    expect(f.truth.complete).toBe(true);
    expect(f.edge.gaussian.value?.mean).toBeCloseTo((0.4 + 0.7 + 0.52) / 3, 15);
    const q = estimateQuality(values, [0.4, 0.7, 0.52]);
    expect(f.edge.quality.value?.jsd).toBe(q.jsd);
    expect(f.edge.quality.value?.w1).toBe(q.w1);
    const r = pearson([1, 2, 3, 4, 5, 6], values);
    expect(f.pearson.value?.statistic).toBe(r.statistic);
    expect(f.pearson.value?.pvalue).toBe(r.pvalue);
    expect(f.summaries.truth.value).toEqual({ min: 0.4, max: 0.7, std: f.truth.moments!.std });
    expect(f.summaries.rs.value).toMatchObject({ min: 0.5, max: 0.6 });
    // 6 values: Shapiro and KS, but K² needs 8
    expect(f.normality.value?.after.shapiro.value).not.toBeNull();
    expect(f.normality.value?.after.ks.value).not.toBeNull();
    expect(f.normality.value?.after.normaltest.reason).toMatch(/at least 8 values; 6 so far/);
    expect(f.sampleCount.reason).toMatch(/at least 10 truth values; 6 so far/);
    expect(s.usedRuns).toBe(6);
  });

  it('averages A(O) over the finished seeds of an ordering', () => {
    const s = deriveGroundTruth({
      runs: [run('t0', 0.5, 'finetune', 0), run('t0', 0.7, 'finetune', 1), run('t1', 0.4, 'finetune', 3)],
      plan: p,
      variable: 'final',
    });
    const pt = s.strategies[0].points.find((x) => x.key === 't0')!;
    expect(pt.seeds).toEqual([0, 1]);
    expect(pt.seedValues).toEqual([0.5, 0.7]);
    expect(pt.value).toBeCloseTo(0.6, 15);
    expect(s.strategies[0].truth.values).toEqual([pt.value, 0.4]);
    expect(s.usedRuns).toBe(3);
  });

  it('skips runs it cannot use and says why', () => {
    const s = deriveGroundTruth({
      runs: [run('t0', 0.5), run('zz', 0.5), run('t1', 0.5, 'ewc'), { ...run('t2', 0.5), finalAccuracy: NaN }],
      plan: p,
      variable: 'final',
      strategies: ['finetune'],
    });
    expect(s.usedRuns).toBe(1);
    expect(s.skippedRuns.map((r) => r.reason)).toEqual([
      'this ordering is not in the plan',
      'strategy "ewc" is not among the strategies shown',
      expect.stringMatching(/no usable final accuracy/),
    ]);
  });

  it('keeps RS duplicates: two seeds drawing the same ordering are two values', () => {
    const dup = plan(4, { rs: ['t0', 't0', 't1'] });
    const s = deriveGroundTruth({ runs: [run('t0', 0.5), run('t1', 0.8)], plan: dup, variable: 'final' });
    expect(s.strategies[0].rs.gaussian.value).toEqual(gaussianEstimate([0.5, 0.5, 0.8]));
  });

  it('without protocolOrderings, reads one draw per role from the orderings', () => {
    const { protocolOrderings: _, ...bare } = p;
    const s = deriveGroundTruth({ runs: values.map((v, i) => run(`t${i}`, v)), plan: bare, variable: 'final' });
    expect(s.strategies[0].edge.draws.map((d) => d.label)).toEqual(['EDGE hard', 'EDGE easy', 'EDGE median']);
    expect(s.strategies[0].rs.need).toBe(3);
  });

  it('Pearson R: null when S does not vary, or without scores', () => {
    const flat = plan(5, {}, [1, 1, 1, 1, 1]);
    const s = deriveGroundTruth({ runs: [0.1, 0.2, 0.3, 0.4, 0.5].map((v, i) => run(`t${i}`, v)), plan: flat, variable: 'final' });
    expect(s.strategies[0].pearson.reason).toMatch(/S is the same/);
    const none = plan(5);
    const t = deriveGroundTruth({ runs: [0.1, 0.2, 0.3].map((v, i) => run(`t${i}`, v)), plan: none, variable: 'final' });
    expect(t.strategies[0].pearson.reason).toBe('no similarity score S for these orderings');
    // every ordering at one accuracy (a prototype method's final accuracy): the value to six digits, not 17
    const u = deriveGroundTruth({ runs: [0, 1, 2, 3, 4].map((i) => run(`t${i}`, 7 / 15)), plan: plan(5, {}, [1, 2, 3, 4, 5]), variable: 'final' });
    expect(u.strategies[0].pearson.reason).toBe('A(O) is the same (0.466667) for every evaluated ordering, so R is undefined');
  });
});

describe('deriveGroundTruth on the stats fixtures (scipy reference values)', () => {
  it('JSD and W1 of an EDGE estimate outside a sampled truth match estimateQuality’s fixture', () => {
    for (const name of ['EDGE-like extremes + median', 'RS-like three draws']) {
      const c = fixture.quality.find((q: { name: string }) => q.name === name);
      const truth = c.truth as number[];
      const est = c.estimate as number[];
      const p = plan(truth.length, { edge: ['e0', 'e1', 'e2'] });
      p.exhaustive = false;
      const runs = [...truth.map((v, i) => run(`t${i}`, v)), ...est.map((v, i) => run(`e${i}`, v))];
      const f = deriveGroundTruth({ runs, plan: p, variable: 'final', sampleCount: false }).strategies[0];
      // the EDGE orderings are not truth orderings: the truth stays the fixture's truth
      expect(f.truth.values).toEqual(truth);
      expectClose(f.edge.quality.value!.jsd!, c.jsd, 1e-9, 1e-12, `${name} JSD`);
      expectClose(f.edge.quality.value!.w1, c.w1, 1e-9, 1e-12, `${name} W1`);
      expectClose(f.edge.gaussian.value!.mean, c.mean, 1e-12, 1e-15, `${name} mean`);
      expectClose(f.edge.gaussian.value!.std, c.std, 1e-12, 1e-15, `${name} std`);
    }
  });

  it('the sample-count study matches sampleCountStudy’s fixture (EDGE passed by truth index)', () => {
    const f = fixture.sampleCount;
    const truth = f.truth as number[];
    const keys = f.edgeIndices.map((i: number) => `t${i}`) as [string, string, string];
    const p = plan(truth.length, { edge: keys });
    const s = deriveGroundTruth({
      runs: truth.map((v, i) => run(`t${i}`, v)),
      plan: p,
      variable: 'final',
      sampleCount: { maxL: f.maxL, repeats: f.repeats, seed: f.seed },
    });
    const study = s.strategies[0].sampleCount.value!;
    expect(study.provisional).toBe(false);
    expect(study.points).toHaveLength(f.maxL);
    study.points.forEach((pt, k) => {
      const want = f.points[k];
      expect(pt.L).toBe(want.L);
      for (const side of ['rs', 'edge'] as const) {
        if (want[side] === null) expect(pt[side]).toBeNull();
        else for (const m of ['jsd', 'w1', 'jsdStd', 'w1Std'] as const) expectClose(pt[side]![m], want[side][m], 1e-9, 1e-12, `L=${pt.L} ${side} ${m}`);
      }
    });
  });

  it('rankings and ranking errors match strategyRankings’ fixture', () => {
    for (const c of fixture.rankings) {
      const strategies = c.strategies as { strategy: string; values: Record<string, number[]> }[];
      const n = strategies[0].values.truth.length;
      const p = plan(n, { rs: ['r0', 'r1', 'r2'], edge: ['e0', 'e1', 'e2'] });
      p.exhaustive = false;
      const runs = strategies.flatMap((s) => [
        ...s.values.truth.map((v, i) => run(`t${i}`, v, s.strategy)),
        ...s.values.edge.map((v, i) => run(`e${i}`, v, s.strategy)),
        ...s.values.rs.map((v, i) => run(`r${i}`, v, s.strategy)),
      ]);
      const out = deriveGroundTruth({ runs, plan: p, variable: 'final', strategies: strategies.map((s) => s.strategy), sampleCount: false });
      const r = out.rankings.value!;
      expect(r.provisional).toBe(false);
      for (const proto of ['truth', 'edge', 'rs']) {
        for (const d of ['min', 'max', 'std'] as const) {
          expect(r.ranks[proto][d]).toEqual(c.ranks[proto][d]);
          r.summaries[proto][d].forEach((v: number, i: number) => expectClose(v, c.summaries[proto][d][i], 1e-12, 1e-15, `${c.name} ${proto} ${d}`));
        }
      }
      for (const proto of ['edge', 'rs']) expect(r.errors[proto]).toEqual(c.errors[proto]);
    }
  });

  it('normality after Box-Cox matches scipy (boxcox, shapiro, normaltest, kstest)', () => {
    for (const name of ['final accuracies (fractions) n=90', 'accuracies with zeros n=30', 'normal n=13']) {
      const c = fixture.samples.find((x: { name: string }) => x.name === name);
      const values = c.values as number[];
      const f = deriveGroundTruth({ runs: values.map((v, i) => run(`t${i}`, v)), plan: plan(values.length), variable: 'final', sampleCount: false })
        .strategies[0];
      const nr = f.normality.value!;
      expectClose(nr.lambda, c.boxcox.lambda, 0, c.boxcox.lambdaTolerance, `${name} λ`);
      expect(nr.shift).toBeCloseTo(c.boxcox.shift, 12);
      expectClose(nr.after.shapiro.value!.statistic, c.after.shapiro.statistic, 1e-5, 1e-9, `${name} W`);
      expectClose(nr.after.shapiro.value!.pvalue, c.after.shapiro.pvalue, 1e-4, 1e-9, `${name} W p`);
      expectClose(nr.after.normaltest.value!.statistic, c.after.normaltest.statistic, 1e-4, 1e-8, `${name} K²`);
      expectClose(nr.after.ks.value!.statistic, c.after.ks.population.statistic, 1e-5, 1e-9, `${name} KS D`);
      expectClose(nr.before.shapiro.value!.statistic, c.raw.shapiro.statistic, 1e-9, 1e-12, `${name} raw W`);
    }
  });
});

describe('scores and the sampled / multi-strategy cases', () => {
  const sim = [
    [1, 0.9, 0.1, 0.2],
    [0.9, 1, 0.3, 0.4],
    [0.1, 0.3, 1, 0.8],
    [0.2, 0.4, 0.8, 1],
  ];
  it('orderingScore maps dataset class indices to similarity rows', () => {
    const m = matrixFromRows(sim);
    // dataset classes 3, 5, 7, 9 are rows 0..3
    expect(
      orderingScore(
        [
          [3, 5],
          [7, 9],
        ],
        m,
        [3, 5, 7, 9],
      ),
    ).toBe(
      similarityScore(
        [
          [0, 1],
          [2, 3],
        ],
        m,
      ),
    );
    expect(
      orderingScore(
        [
          [3, 4],
          [7, 9],
        ],
        m,
        [3, 5, 7, 9],
      ),
    ).toBeNull();
  });

  it('computes S from the similarity when the plan has none, and Pearson over truth orderings only', () => {
    const classes = [3, 5, 7, 9];
    const local = [...enumerateOrderings([2, 2])];
    const orderings: PlanOrdering[] = local.map((t) => {
      const tasks = t.map((x) => x.map((p) => classes[p]));
      return { key: orderingKey(tasks), tasks, roles: ['truth'] };
    });
    const a = [0.3, 0.5, 0.4, 0.45, 0.6, 0.2];
    const runs = orderings.map((o, i) => run(o.key, a[i]));
    const s = deriveGroundTruth({ runs, plan: { orderings }, variable: 'final', similarity: sim, classes });
    const m = matrixFromRows(sim);
    const scores = local.map((t) => similarityScore(t, m));
    expect(s.strategies[0].points.map((p) => p.score)).toEqual(scores);
    expect(s.strategies[0].pearson.value!.statistic).toBe(pearson(scores, a).statistic);
  });

  it('rankings wait for every strategy, then flag a provisional truth', () => {
    const p = plan(12, { rs: ['t0', 't1', 't2'], edge: ['t3', 't4', 't5'] });
    const some = [...Array(8).keys()].flatMap((i) => [run(`t${i}`, 0.4 + 0.02 * i, 'finetune'), run(`t${i}`, 0.5 + 0.01 * i, 'replay')]);
    const waiting = deriveGroundTruth({ runs: some.slice(0, 11), plan: p, variable: 'final', strategies: ['finetune', 'replay'] });
    expect(waiting.rankings.reason).toBe('waiting for replay: 2 of 3 EDGE orderings trained');
    const s = deriveGroundTruth({ runs: some, plan: p, variable: 'final', strategies: ['finetune', 'replay'] });
    expect(s.rankings.value?.provisional).toBe(true);
    expect(s.rankings.value?.strategies).toEqual(['finetune', 'replay']);
    // replay has the higher minimum and maximum, finetune the larger spread
    expect(s.rankings.value?.ranks.truth.min).toEqual([2, 1]);
    expect(s.rankings.value?.ranks.truth.std).toEqual([2, 1]);
  });

  it('sample-count study on a sampled truth passes EDGE by value and is provisional while the truth fills', () => {
    const truth = fixture.sampleCount.truth as number[];
    const p = plan(truth.length, { edge: ['e0', 'e1', 'e2'] });
    const runs = [...truth.slice(0, 40).map((v, i) => run(`t${i}`, v)), run('e0', 0.6), run('e1', 0.9), run('e2', 0.75)];
    const s = deriveGroundTruth({ runs, plan: p, variable: 'final', sampleCount: { maxL: 6, repeats: 3 } }).strategies[0];
    expect(s.sampleCount.value?.provisional).toBe(true);
    expect(s.sampleCount.value?.edgeValues).toEqual([0.6, 0.9, 0.75]);
    expect(s.sampleCount.value?.points.map((x) => x.L)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.sampleCount.value?.truthCount).toBe(40);
  });

  it('normalityAfterBoxCox explains equal values', () => {
    expect(normalityAfterBoxCox([0.5, 0.5, 0.5]).reason).toMatch(/all 3 truth values are equal/);
    // the value said to six significant digits (a mean of 90 equal accuracies is not 151/180 to the last bit)
    expect(normalityAfterBoxCox([151 / 180, 151 / 180, 151 / 180]).reason).toContain('equal (0.838889)');
  });
});

describe('exports', () => {
  it('statistics rows: truth, RS and EDGE per strategy; JSON without typed arrays or NaN', () => {
    const p = plan(6, { rs: ['t0', 't1', 't2'], edge: ['t3', 't4', 't5'] }, [1, 2, 3, 4, 5, 6]);
    const s = deriveGroundTruth({ runs: [0.5, 0.55, 0.6, 0.4, 0.7, 0.52].map((v, i) => run(`t${i}`, v)), plan: p, variable: 'aia' });
    const table = statisticsTable(s);
    expect(table.columns).toContain('jsd_bits');
    expect(table.rows.map((r) => r[2])).toEqual(['truth', 'rs', 'edge']);
    expect(table.rows.every((r) => r.length === table.columns.length)).toBe(true);
    expect(table.rows.flat().some((v) => typeof v === 'number' && !Number.isFinite(v))).toBe(false);
    const json = JSON.stringify(statisticsJson(s));
    expect(json).not.toMatch(/NaN|Infinity/);
    expect(JSON.parse(json).variable).toBe('aia');
  });
});
