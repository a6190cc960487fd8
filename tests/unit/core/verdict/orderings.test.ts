import { describe, expect, it } from 'vitest';
import { countOrderings } from '../../../../src/core/orderings/count';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { runProtocols } from '../../../../src/core/protocols/run';
import type { SequenceReport } from '../../../../src/core/protocols/types';
import { distinctScores, orderingsVerdict, reorderRange } from '../../../../src/core/verdict/orderings';
import { similarityScore as similarityScoreOf } from '../../../../src/core/orderings/score';
import raw from '../../../fixtures/verdict.json';
import { expectClose } from '../stats/fixture';

// The Orderings page's default (Fashion-MNIST classes 0-5, WordNet, 3 tasks of 2) and its reference values from an
// independent Python EDGE, RS, median and brute force (scripts/make-verdict-fixtures.py).
const d = (raw as any).defaultOrderings;
const sim = matrixFromRows(d.sim);
const report = runProtocols(sim, d.sizes, { protocols: ['rs', 'edge', 'edge+', 'exact'], distribution: true });
const input = { ...report, taskSizes: d.sizes, matrix: d.sim };
const score = (label: string) => report.sequences.find((s) => s.label === label)!.score;

describe('the default experiment: EDGE easy = EDGE hard is the science, not a bug', () => {
  it('our EDGE, RS and median give the independent reference values', () => {
    expect(report.sequences.find((s) => s.label === 'EDGE hard')!.tasks).toEqual(d.edgeHard.tasks);
    expect(report.sequences.find((s) => s.label === 'EDGE easy')!.tasks).toEqual(d.edgeEasy.tasks);
    expectClose(score('EDGE hard'), d.edgeHard.score, 1e-12);
    expectClose(score('EDGE easy'), d.edgeEasy.score, 1e-12);
    for (const seed of ['0', '42', '1993']) expectClose(score(`RS seed ${seed}`), d.rs[seed], 1e-12);
    expectClose(score('EDGE median (seed 0)'), d.median, 1e-12);
    expectClose(report.exact!.min, d.exactMin, 1e-12);
    expectClose(report.exact!.max, d.exactMax, 1e-12);
  });
  it('counts the distinct values of S and the range over re-orderings of EDGE’s own tasks as the brute force does', () => {
    expect(distinctScores(sim, d.sizes, countOrderings(d.sizes))).toBe(d.distinctS);
    const hr = reorderRange(d.edgeHard.tasks, sim)!;
    const er = reorderRange(d.edgeEasy.tasks, sim)!;
    expectClose(hr.min, d.hardReorder.min, 1e-12);
    expectClose(hr.max, d.hardReorder.max, 1e-12);
    expectClose(er.min, d.easyReorder.min, 1e-12);
    expectClose(er.max, d.easyReorder.max, 1e-12);
  });
  it('says it as a finding with its reasons and what to try', () => {
    const v = orderingsVerdict(input);
    const byId = Object.fromEntries(v.sentences.map((s) => [s.id, s]));
    expect(v.provisional).toBe(false);
    expect(v.sentences[0].id).toBe('edge-tie');
    expect(byId['edge-tie'].text).toBe(
      'On this experiment EDGE cannot tell hard from easy: EDGE hard and EDGE easy both have S = 1.5289 — the S of RS seed 1993.',
    );
    expect(byId['median-harder'].text).toContain('(“median”, S = 1.4630) has a lower S than EDGE hard');
    expect(byId['few-values'].text).toContain('With 6 classes in 3 tasks there are only 90 orderings and 7 distinct values of S');
    expect(byId['task-order'].text).toContain('EDGE hard’s own tasks in another order reach S = 1.4630, and EDGE easy’s reach S = 1.5527');
    expect(byId['task-order'].text).toContain('middle task');
    expect(byId.gap.text).toContain('S = 1.4118 (hardest) and 1.5527 (easiest)');
    expect(byId.gap.kind).toBe('try');
    expect(byId.lesson.text).toContain('3 random seeds span more of S (1.4630 – 1.5476) than EDGE’s three orderings (1.4630 – 1.5289)');
    expect(byId['try-larger'].text).toContain('CIFAR-100');
    // the two bracket warnings of core/protocols/run.ts are what the verdict replaces on the page
    expect(report.notes.some((n) => n.startsWith('EDGE hard (S = 1.5289) is not below'))).toBe(true);
  });
});

describe('orderingsVerdict on other cases', () => {
  const seq = (label: string, protocol: SequenceReport['protocol'], score: number, fractionBelow?: number): SequenceReport => ({
    protocol,
    label,
    tasks: [[0], [1], [2]],
    order: [0, 1, 2],
    score,
    aim: /hard/.test(label) ? 'hard' : /easy/.test(label) ? 'easy' : 'random',
    pairMean: score / 2,
    ...(fractionBelow !== undefined ? { fractionBelow } : {}),
  });
  const base = {
    taskSizes: [1, 1, 1],
    matrix: [
      [1, 0.5, 0.2],
      [0.5, 1, 0.4],
      [0.2, 0.4, 1],
    ],
    omega: '6',
  };
  it('says EDGE does what it claims when hard is below every RS ordering and easy above', () => {
    const v = orderingsVerdict({
      ...base,
      sequences: [
        seq('RS seed 0', 'rs', 1.0),
        seq('RS seed 42', 'rs', 1.1),
        seq('EDGE hard', 'edge', 0.8, 0),
        seq('EDGE easy', 'edge', 1.3, 0.8),
        seq('EDGE median (seed 0)', 'edge', 1.05),
      ],
      distribution: { kind: 'exact', count: 6 },
    });
    expect(v.sentences.map((s) => s.id)).toEqual(['edge-brackets', 'omega-below']);
    expect(v.sentences[0].text).toBe(
      'EDGE does what it claims here: EDGE hard (S = 0.8000) is below all 2 RS orderings and EDGE easy (S = 1.3000) above them (RS: 1.0000 – 1.1000).',
    );
    expect(v.sentences[1].text).toContain('0% for EDGE hard and 80% for EDGE easy');
  });
  it('names each miss when EDGE does not bracket the RS orderings', () => {
    const v = orderingsVerdict({ ...base, sequences: [seq('RS seed 0', 'rs', 1.0), seq('EDGE hard', 'edge', 1.05), seq('EDGE easy', 'edge', 1.2)] });
    expect(v.sentences[0].id).toBe('edge-misses');
    expect(v.sentences[0].text).toBe('On this experiment EDGE hard (S = 1.0500) is not below every RS ordering (lowest RS: 1.0000).');
    expect(v.sentences.map((s) => s.id)).toContain('add-exact');
  });
  it('says nothing without EDGE', () => {
    expect(orderingsVerdict({ ...base, sequences: [seq('RS seed 0', 'rs', 1)] }).sentences).toEqual([]);
  });
});

describe('termSegments', () => {
  it('marks the first occurrence of each glossary term across the sentences, text kept whole', async () => {
    const { termSegments } = await import('../../../../src/core/verdict/terms');
    const { isGlossaryKey } = await import('../../../../src/core/glossary');
    const sentences = ['EDGE hard has S = 1.5 and RS seeds, JSD 0.2 vs 0.3 bits.', 'Again S = 2, JSD, W1 and EDGE+ (“median”), R = 0.20.'];
    const segs = termSegments(sentences);
    expect(segs.map((s) => s.map((x) => x.text).join(''))).toEqual(sentences);
    const keys = segs.map((s) => s.filter((x) => x.key).map((x) => `${x.key}:${x.text}`));
    expect(keys).toEqual([
      ['s:S', 'rs:RS', 'jsd:JSD'],
      ['w1:W1', 'edge-plus:EDGE+', 'median:“median”', 'pearson:R'],
    ]);
    for (const s of segs) for (const x of s) if (x.key) expect(isGlossaryKey(x.key)).toBe(true);
  });
});

describe('the re-ordering reason names only the ordering that misses', () => {
  it('EDGE easy misses, EDGE hard brackets: only easy’s re-ordering is given', () => {
    // 4 classes in 4 tasks of 1: S is the similarity of neighbours, so the order is everything
    const matrix = [
      [1, 0.9, 0.1, 0.2],
      [0.9, 1, 0.3, 0.1],
      [0.1, 0.3, 1, 0.8],
      [0.2, 0.1, 0.8, 1],
    ];
    const sim = matrixFromRows(matrix);
    const mk = (label: string, protocol: SequenceReport['protocol'], tasks: number[][]): SequenceReport => {
      const score = similarityScoreOf(tasks, sim);
      return { protocol, label, tasks, order: tasks.flat(), score, aim: /hard/.test(label) ? 'hard' : /easy/.test(label) ? 'easy' : 'random', pairMean: 0 };
    };
    const seqs = [
      mk('RS seed 0', 'rs', [[0], [2], [1], [3]]),
      mk('RS seed 42', 'rs', [[2], [3], [0], [1]]),
      mk('EDGE hard', 'edge', [[2], [0], [3], [1]]),
      mk('EDGE easy', 'edge', [[2], [0], [1], [3]]),
    ];
    const [rs0, rs42, hard, easy] = seqs.map((s) => s.score);
    expect(hard).toBeLessThan(Math.min(rs0, rs42));
    expect(easy).toBeLessThanOrEqual(Math.max(rs0, rs42));
    const v = orderingsVerdict({ sequences: seqs, taskSizes: [1, 1, 1, 1], matrix, omega: '24' });
    const why = v.sentences.find((s) => s.id === 'task-order')!.text;
    expect(why).toContain('EDGE easy’s own tasks in another order reach S = ');
    expect(why).not.toContain('EDGE hard’s');
    expect(why).toContain('EDGE orders its tasks greedily');
  });
});

describe('reorderRange bounds', () => {
  it('gives up beyond 6 tasks or too much work, not silently wrong', () => {
    const sim = matrixFromRows(Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) => (i === j ? 1 : 0.5))));
    expect(reorderRange([[0], [1], [2], [3], [4], [5], [6]], sim)).toBeNull();
    expect(reorderRange([[0], [1], [2], [3], [4], [5]], sim)).toEqual({ min: (6 / (5 * 6)) * 5 * 0.5, max: (6 / (5 * 6)) * 5 * 0.5 });
    const big = { n: 3000, data: new Float64Array(0) };
    const tasks = Array.from({ length: 6 }, (_, t) => Array.from({ length: 500 }, (_, i) => t * 500 + i));
    expect(reorderRange(tasks, big)).toBeNull();
  });
});

describe('a flat similarity (WordNet rates every digit name alike)', () => {
  // every pair of 6 classes rated 0.8: one S for all 90 orderings
  const flat = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 1 : 0.8)));
  const fr = runProtocols(matrixFromRows(flat), [2, 2, 2], { protocols: ['rs', 'edge', 'exact'], distribution: true });
  it('says the similarity is flat and EDGE’s picks arbitrary, and compares nothing with RS', () => {
    const v = orderingsVerdict({ ...fr, taskSizes: [2, 2, 2], matrix: flat });
    expect(v.sentences.map((s) => s.id)).toEqual(['flat-s', 'flat-s-why', 'flat-s-try']);
    expect(v.sentences[0].text).toMatch(/^The similarity is flat: all 90 orderings have the same S = /);
    expect(v.headline).toBe("Every ordering of these classes has the same similarity S, so EDGE's hard and easy picks are arbitrary on this experiment.");
  });
  it('almost flat: within 1% of S, said as almost the same', () => {
    const near = flat.map((r, i) => r.map((x, j) => (i === j ? 1 : x + 0.001 * ((i + j) % 3))));
    const nr = runProtocols(matrixFromRows(near), [2, 2, 2], { protocols: ['rs', 'edge', 'exact'], distribution: true });
    const v = orderingsVerdict({ ...nr, taskSizes: [2, 2, 2], matrix: near });
    expect(v.sentences[0].id).toBe('flat-s');
    expect(v.headline).toContain('almost the same similarity S');
  });
});
