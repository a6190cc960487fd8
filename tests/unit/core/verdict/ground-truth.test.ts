import { describe, expect, it } from 'vitest';
import { deriveGroundTruth, type PlanDraw, type PlanLike, type PlanOrdering, type RunRecord } from '../../../../src/core/ground-truth/derive';
import { groundTruthVerdict, groundTruthVerdicts } from '../../../../src/core/verdict/ground-truth';
import { HEADLINE_MAX_WORDS, headlineWords } from '../../../../src/core/verdict/types';
import { meanInterval, pearsonInterval } from '../../../../src/core/verdict/intervals';

// 12 truth orderings t0..t11 with S = i and accuracies below; RS = t1, t4, t9; EDGE hard = t0, easy = t11, median = t6.
const ACC = [0.33, 0.3, 0.31, 0.28, 0.29, 0.3, 0.27, 0.32, 0.3, 0.29, 0.31, 0.26];
function plan(n = ACC.length, edge: [string, string, string] = ['t0', `t${n - 1}`, 't6'], scores?: number[]): PlanLike {
  const orderings: PlanOrdering[] = [];
  for (let i = 0; i < n; i++) orderings.push({ key: `t${i}`, tasks: [[i]], roles: ['truth'], score: scores ? scores[i] : i });
  const add = (key: string, role: PlanDraw['role']) => (orderings.find((o) => o.key === key)!.roles as string[]).push(role);
  const draws: PlanDraw[] = [
    { role: 'rs', label: 'RS seed 0', key: 't1' },
    { role: 'rs', label: 'RS seed 42', key: 't4' },
    { role: 'rs', label: 'RS seed 1993', key: 't9' },
    { role: 'edge-hard', label: 'EDGE hard', key: edge[0] },
    { role: 'edge-easy', label: 'EDGE easy', key: edge[1] },
    { role: 'edge-median', label: 'EDGE median', key: edge[2] },
  ];
  for (const d of draws) add(d.key, d.role);
  return { orderings, protocolOrderings: draws, exhaustive: true, truthLabel: `all ${n} orderings` };
}
const run = (i: number, strategy = 'finetune'): RunRecord => ({
  orderingKey: `t${i}`,
  strategy,
  seed: 0,
  matrix: [],
  testCounts: [],
  finalAccuracy: ACC[i],
  aia: ACC[i],
});

describe('groundTruthVerdict, a complete run', () => {
  const stats = deriveGroundTruth({ runs: ACC.map((_, i) => run(i)), plan: plan(), variable: 'final', sampleCount: false });
  const v = groundTruthVerdict({ stats });
  const byId = Object.fromEntries(v.sentences.map((s) => [s.id.split(':')[0], s.text]));
  const s = stats.strategies[0];
  it('is not provisional', () => {
    expect(v.provisional).toBe(false);
    expect(v.provisionalNote).toBe('');
  });
  it('compares the two estimates with their JSD and W1', () => {
    const e = s.edge.quality.value!;
    const r = s.rs.quality.value!;
    expect(byId.estimates).toContain(`JSD ${e.jsd!.toFixed(3)} vs ${r.jsd!.toFixed(3)} bits, W1 ${e.w1.toFixed(2)} vs ${r.w1.toFixed(2)} points`);
    const word = e.jsd! < r.jsd! && e.w1 < r.w1 ? 'better than' : e.jsd! > r.jsd! && e.w1 > r.w1 ? 'worse than' : '';
    if (word) expect(byId.estimates).toContain(word);
  });
  it('says EDGE hard is not hard when it scores above the truth’s mean', () => {
    // EDGE hard = t0 scores 33.0%, the highest but one: 11 of 12 orderings score lower
    expect(byId['edge-claim']).toContain('EDGE hard scores 33.0% (92% of the truth’s orderings score lower), not below the truth’s mean of 29.7%');
    expect(byId['edge-claim']).toContain('EDGE easy scores 26.0% (0% of the truth’s orderings score lower), not above the truth’s mean');
  });
  it('says whether S or EDGE misses when EDGE hard / easy miss by accuracy', () => {
    // EDGE hard = t0 has the lowest S (0) of the 12; EDGE easy = t11 the highest (11): 0% lower / 0% higher
    expect(byId['edge-why']).toBe(
      'EDGE hard is among the lowest S (0% of the truth’s orderings lower), yet not hard: S does not predict accuracy well here; ' +
        'EDGE easy is among the highest S (0% higher), yet not easy: S does not predict accuracy well here.',
    );
    expect(v.sentences.find((x) => x.id.startsWith('edge-why'))!.kind).toBe('why');
  });
  it('… and says when EDGE is not at its extreme of S either', () => {
    // EDGE hard = t7 (S = 7: 7 of 12 lower, 32.0%), EDGE easy = t2 (S = 2: 9 of 12 higher, 31.0% > mean): hard misses, easy is fine
    const st = deriveGroundTruth({ runs: ACC.map((_, i) => run(i)), plan: plan(ACC.length, ['t7', 't2', 't6']), variable: 'final', sampleCount: false });
    const w = groundTruthVerdict({ stats: st });
    expect(w.sentences.find((x) => x.id === 'edge-claim:finetune')!.text).toContain(
      'EDGE hard scores 32.0% (83% of the truth’s orderings score lower), not below the truth’s mean of 29.7%',
    );
    expect(w.sentences.find((x) => x.id === 'edge-why:finetune')!.text).toBe(
      'EDGE hard is not hard by similarity either: 58% of the truth’s orderings have a lower S.',
    );
  });
  it('counts an S within float noise of EDGE hard’s as the same S, not a lower one (as the Orderings lab does)', () => {
    // t5's S is 7 − 1e-15: the same as EDGE hard's (t7, S = 7) up to float noise; lower are t0–t4 and t6, 6 of 12
    const scores = ACC.map((_, i) => (i === 5 ? 7 - 1e-15 : i));
    const st = deriveGroundTruth({
      runs: ACC.map((_, i) => run(i)),
      plan: plan(ACC.length, ['t7', 't2', 't6'], scores),
      variable: 'final',
      sampleCount: false,
    });
    expect(groundTruthVerdict({ stats: st }).sentences.find((x) => x.id === 'edge-why:finetune')!.text).toBe(
      'EDGE hard is not hard by similarity either: 50% of the truth’s orderings have a lower S.',
    );
  });
  it('says no correlation is shown when p ≥ 0.05 — no strength word from a point estimate', () => {
    const p = s.pearson.value!;
    // scipy.stats.pearsonr(range(12), ACC): r = −0.41291, p = 0.18219: not significant
    expect(p.statistic).toBeCloseTo(-0.41291, 5);
    expect(byId.correlation).toBe('Similarity S and accuracy: R = −0.41, p = 0.182, n = 12, not significant at 5%: no correlation is shown.');
    expect(v.sentences.find((x) => x.id.startsWith('correlation'))!.id).toBe('correlation:finetune:none');
  });
  it('words a significant correlation by its strength and sign; too few orderings say nothing', () => {
    // 12 orderings whose accuracy falls with S almost on a line: R = −1.00 (rounded), p < 0.001
    const acc = ACC.map((_, i) => 0.4 - 0.01 * i + (i % 3) * 0.001);
    const runs = acc.map((a, i) => ({ ...run(i), finalAccuracy: a, aia: a }));
    const st = deriveGroundTruth({ runs, plan: plan(), variable: 'final', sampleCount: false });
    const c = groundTruthVerdict({ stats: st }).sentences.find((x) => x.id.startsWith('correlation'))!;
    expect(c.id).toBe('correlation:finetune:negative');
    expect(c.text).toMatch(/^Similarity S and accuracy are strongly negatively correlated \(R = −1\.00, p < 0\.001, n = 12; significant at 5%\)/);
    // three orderings (a provisional run's start): whatever R is, it is not said to be strong
    const few = deriveGroundTruth({ runs: [0, 5, 11].map((i) => runs[i]), plan: plan(), variable: 'final', sampleCount: false });
    const f = groundTruthVerdict({ stats: few, partial: { n: 3, total: 12, uniform: true } }).sentences.find((x) => x.id.startsWith('correlation'))!;
    expect(f.id).toBe('correlation:finetune:too-few');
    expect(f.text).not.toMatch(/strongly|moderately|weakly/);
    expect(f.text).toContain('fewer than the 10 a correlation needs');
  });
  it('opens with a headline of at most 30 words', () => {
    expect(v.headline).toBe(
      "The class order moves fine-tuning's final accuracy from 26.0% to 33.0% over 12 orderings; EDGE's hard and easy picks land on the wrong sides of its mean.",
    );
    expect(headlineWords(v.headline)).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
  });
  it('reports normality after Box-Cox with Shapiro–Wilk', () => {
    // scipy: t, λ = boxcox(ACC) → λ = 2.3886; shapiro(t) → W = 0.98144, p = 0.98874; normaltest p = 0.998; kstest p = 0.960
    expect(byId.normality).toBe(
      'After Box-Cox (λ = 2.39), Shapiro–Wilk does not reject normality (W = 0.981, p = 0.989, n = 12; 0 of the 3 tests reject at 5%): ' +
        'a Gaussian is a fair model of the spread — the premise of the RS and EDGE estimates.',
    );
  });
  it('gives the truth as mean ± sd with its range', () => {
    expect(byId.truth).toMatch(/^The truth: 12 orderings, final accuracy 29\.7% ± [0-9.]+ \(mean ± sd\), from 26\.0% to 33\.0%\.$/);
  });
});

describe('groundTruthVerdict while the run is partial', () => {
  const done = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11];
  const stats = deriveGroundTruth({ runs: done.map((i) => run(i)), plan: plan(), variable: 'final', sampleCount: false });
  it('is provisional with n of N, and gives intervals only for a uniform sample', () => {
    const uniform = groundTruthVerdict({ stats, partial: { n: 11, total: 12, uniform: true } });
    expect(uniform.provisional).toBe(true);
    expect(uniform.provisionalNote).toContain('Provisional: 11 of 12 truth orderings of fine-tuning trained — a seeded uniform random sample');
    const p = stats.strategies[0].pearson.value!;
    const ci = pearsonInterval(p.statistic, p.n)!;
    const f = (x: number) => x.toFixed(2).replace(/^-/, '−');
    expect(uniform.sentences.find((s) => s.id.startsWith('correlation'))!.text).toContain(`95% interval ${f(ci.lo)} to ${f(ci.hi)}`);
    const values = done.map((i) => ACC[i]);
    const mi = meanInterval(values, 0.95, 12)!;
    expect(uniform.sentences.find((s) => s.id.startsWith('truth'))!.text).toContain(`So far (11 of 12 orderings, a uniform random sample of them)`);
    expect(uniform.sentences.find((s) => s.id.startsWith('truth'))!.text).toContain(
      `within ${(100 * mi.lo).toFixed(1)}% – ${(100 * mi.hi).toFixed(1)}% (95% interval)`,
    );
  });
  it('without a uniform sample (or without word from the scheduler) it gives no interval and says why', () => {
    for (const v of [groundTruthVerdict({ stats, partial: { n: 11, total: 12, uniform: false } }), groundTruthVerdict({ stats })]) {
      expect(v.provisional).toBe(true);
      expect(v.provisionalNote).toContain('11 of 12 truth orderings of fine-tuning trained — not a random sample');
      expect(v.sentences.some((s) => s.text.includes('interval ') && s.id.startsWith('correlation'))).toBe(false);
      expect(v.sentences.find((s) => s.id.startsWith('truth'))!.text).toContain('not a random sample');
    }
  });
  it('prefixes each sentence with its strategy when there are several, and says nothing before any truth value', () => {
    const two = deriveGroundTruth({
      runs: [...ACC.map((_, i) => run(i)), ...ACC.map((_, i) => run(i, 'ewc'))],
      plan: plan(),
      variable: 'final',
      sampleCount: false,
    });
    const v = groundTruthVerdict({ stats: two });
    expect(v.sentences.filter((s) => s.text.startsWith('finetune: ')).length).toBeGreaterThan(2);
    expect(v.sentences.filter((s) => s.text.startsWith('ewc: ')).length).toBeGreaterThan(2);
    const empty = deriveGroundTruth({ runs: [], plan: plan(), variable: 'final', sampleCount: false });
    expect(groundTruthVerdict({ stats: empty }).sentences).toEqual([]);
  });
});

describe('groundTruthVerdict, several strategies part-way', () => {
  it('takes each strategy’s own uniform flag, and a complete strategy gets no partial wording', () => {
    const runs = [...ACC.map((_, i) => run(i)), ...[0, 1, 2, 3, 4, 5, 6, 9, 11].map((i) => run(i, 'ewc'))];
    const stats = deriveGroundTruth({ runs, plan: plan(), variable: 'final', sampleCount: false });
    const v = groundTruthVerdict({
      stats,
      partial: { n: 9, total: 12, uniform: false, byStrategy: { finetune: { n: 12, uniform: true }, ewc: { n: 9, uniform: true } } },
    });
    expect(v.provisional).toBe(true);
    const truth = (strategy: string) => v.sentences.find((s) => s.id === `truth:${strategy}`)!.text;
    expect(truth('finetune')).toMatch(/^finetune: The truth: 12 orderings/);
    expect(truth('ewc')).toContain('ewc: So far (9 of 12 orderings, a uniform random sample of them)');
  });
});

describe('groundTruthVerdicts: one verdict per strategy', () => {
  it('each strategy is provisional until its own orderings are done, with its own count', () => {
    // fine-tuning done (12 of 12), EWC 3 of 12: the scheduler's overall count (orderings done for every strategy) is 3
    const runs = [...ACC.map((_, i) => run(i)), ...[0, 1, 2].map((i) => run(i, 'ewc'))];
    const stats = deriveGroundTruth({ runs, plan: plan(), variable: 'final', sampleCount: false });
    const vs = groundTruthVerdicts({
      stats,
      partial: { n: 3, total: 12, uniform: true, byStrategy: { finetune: { n: 12, uniform: true }, ewc: { n: 3, uniform: true } } },
    });
    expect(vs.map((x) => x.strategy)).toEqual(['finetune', 'ewc']);
    expect(vs[0].verdict.provisional).toBe(false);
    expect(vs[1].verdict.provisional).toBe(true);
    expect(vs[1].verdict.provisionalNote).toMatch(/^Provisional: 3 of 12 truth orderings of EWC trained/);
    for (const x of vs) expect(headlineWords(x.verdict.headline)).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
    expect(vs[1].verdict.headline).toContain('3 of 12 orderings so far');
  });
  it('a strategy not started yet has no verdict; the one trained so far is not called complete', () => {
    const stats = deriveGroundTruth({ runs: [0, 1, 2, 3, 4].map((i) => run(i)), plan: plan(), variable: 'final', sampleCount: false });
    const vs = groundTruthVerdicts({
      stats,
      partial: { n: 0, total: 12, uniform: true, byStrategy: { finetune: { n: 5, uniform: true }, ewc: { n: 0, uniform: true } } },
    });
    expect(vs.map((x) => x.strategy)).toEqual(['finetune']);
    expect(vs[0].verdict.provisionalNote).toMatch(/^Provisional: 5 of 12 truth orderings of fine-tuning trained/);
  });
  it('a flat similarity is said as such, and EDGE is not compared with RS', () => {
    const stats = deriveGroundTruth({
      runs: ACC.map((_, i) => run(i)),
      plan: plan(
        ACC.length,
        undefined,
        ACC.map(() => 1.25),
      ),
      variable: 'final',
      sampleCount: false,
    });
    const [x] = groundTruthVerdicts({ stats });
    const ids = x.verdict.sentences.map((q) => q.id.split(':')[0]);
    expect(ids).toContain('flat-s');
    expect(ids).not.toEqual(expect.arrayContaining(['estimates']));
    expect(ids.some((i) => i === 'estimates' || i === 'edge-claim' || i === 'edge-why' || i === 'correlation')).toBe(false);
    expect(x.verdict.headline).toMatch(/^Every ordering has the same similarity S here, so EDGE's picks are arbitrary/);
  });
});

describe('groundTruthVerdict with the truth complete but an estimate pending', () => {
  it('is provisional and says the estimates follow', () => {
    // every truth ordering trained for finetune, but the plan's EDGE easy points at an ordering outside the truth
    const p = plan();
    (p.orderings as PlanOrdering[]).push({ key: 'x', tasks: [[99]], roles: ['edge-easy'], score: 20 });
    (p.protocolOrderings as PlanDraw[])[4] = { role: 'edge-easy', label: 'EDGE easy', key: 'x' };
    const stats = deriveGroundTruth({ runs: ACC.map((_, i) => run(i)), plan: p, variable: 'final', sampleCount: false });
    const v = groundTruthVerdict({ stats });
    expect(v.provisional).toBe(true);
    expect(v.provisionalNote).toBe(
      'Provisional: the truth of fine-tuning is complete, but some RS or EDGE orderings are still to be trained; their estimates follow.',
    );
    expect(v.sentences.some((s) => s.id.startsWith('estimates'))).toBe(false);
    expect(v.sentences.find((s) => s.id.startsWith('truth'))!.text).toMatch(/^The truth: 12 orderings/);
  });
});

describe('groundTruthVerdict for a strategy whose orderings all end at one accuracy', () => {
  it('says the order does not matter for it, in one sentence, and the other strategy keeps its findings', () => {
    // SimpleCIL on frozen features: 151/180 in every ordering (its summed mean is a rounding off, σ ≈ 1e-16)
    const flat = ACC.map((_, i) => ({ ...run(i, 'simplecil'), finalAccuracy: 151 / 180, aia: 151 / 180 }));
    const stats = deriveGroundTruth({ runs: [...ACC.map((_, i) => run(i)), ...flat], plan: plan(), variable: 'final', sampleCount: false });
    const v = groundTruthVerdict({ stats });
    const mine = v.sentences.filter((s) => s.text.startsWith('simplecil: '));
    expect(mine.map((s) => s.id)).toEqual(['no-spread:simplecil']);
    expect(mine[0].text).toBe(
      'simplecil: Every ordering ends at the same final accuracy, 83.9% (all 12 orderings): for this strategy the order of the classes does not matter, so there is no spread to estimate and no ordering is harder or easier than another.',
    );
    expect(v.sentences.filter((s) => s.text.startsWith('finetune: ')).length).toBeGreaterThan(2);
  });
});
