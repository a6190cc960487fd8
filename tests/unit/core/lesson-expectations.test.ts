// The 'spread-below' template (a strategy whose accuracy does not depend on the order) on hand-made observations:
// the spread is max − min over the trained orderings (here 0.80 − 0.79 = 0.01, by hand), checked only once every
// planned ordering is in.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/core/config/validate';
import {
  checkAll,
  checkDetail,
  checkExpectation,
  describeExpectation,
  expectationChoices,
  lessonById,
  parseExpectation,
  type Expectation,
  type LessonObservation,
} from '../../../src/core/lessons';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  curriculumObservation,
  forgettingObservation,
  openWorldObservation,
  timeObservation,
  type GroundTruthObservation,
} from '../../../src/core/lessons/observations';

const obs = (truth: number[], planned = truth.length): GroundTruthObservation => ({
  lab: 'ground-truth',
  strategies: [{ strategy: 'simplecil', truth, planned, draws: [] }],
});

describe("'spread-below': every order ends at the same accuracy", () => {
  const e: Expectation = { kind: 'spread-below', strategy: 'simplecil', points: 0.001 };

  it('holds for a spread of 0 and names the range', () => {
    const c = checkExpectation(e, obs([0.8389, 0.8389, 0.8389]));
    expect(c.status).toBe('holds');
    expect(c.detail).toBe('SimpleCIL: 83.9 % to 83.9 % over 3 orderings, a spread of 0.0 points.');
  });

  it('fails for a spread at or above the bound', () => {
    expect(checkExpectation(e, obs([0.79, 0.8, 0.795])).status).toBe('fails');
    expect(checkExpectation({ ...e, points: 0.01 }, obs([0.79, 0.8])).status).toBe('fails');
    expect(checkExpectation({ ...e, points: 0.0101 }, obs([0.79, 0.8])).status).toBe('holds');
  });

  it('waits while orderings are missing, and for a strategy the run does not train', () => {
    expect(checkExpectation(e, obs([0.8, 0.8], 90)).status).toBe('waiting');
    expect(checkExpectation({ ...e, strategy: 'fecam' }, obs([0.8, 0.8])).status).toBe('waiting');
  });

  it('says the bound in points and reads back from a link', () => {
    expect(describeExpectation(e)).toContain('span less than 0.1 points');
    expect(parseExpectation(JSON.parse(JSON.stringify(e)))).toEqual(e);
    expect(parseExpectation({ kind: 'spread-below', strategy: 'simplecil' })).toBeNull();
    expect(expectationChoices('ground-truth').map((x) => x.kind)).toContain('spread-below');
  });
});

describe('checkDetail: the words under a lesson’s status', () => {
  it('two expectations waiting for the same thing say it once; after the run, each check says its own', () => {
    const es: Expectation[] = [
      { kind: 'spread-below', strategy: 'simplecil', points: 0.1 },
      { kind: 'spread-below', strategy: 'fecam', points: 0.1 },
    ];
    const before = checkAll(es, null);
    expect(before.status).toBe('waiting');
    expect(checkDetail(before)).toBe('Run the experiment to see.');
    const mixed = {
      status: 'fails' as const,
      checks: [
        { status: 'holds' as const, detail: 'A holds.' },
        { status: 'fails' as const, detail: 'B fails.' },
      ],
    };
    expect(checkDetail(mixed)).toBe('A holds. B fails.');
    const half = {
      status: 'waiting' as const,
      checks: [
        { status: 'holds' as const, detail: 'A holds.' },
        { status: 'waiting' as const, detail: 'Waiting for every seed to finish.' },
        { status: 'waiting' as const, detail: 'Waiting for every seed to finish.' },
      ],
    };
    expect(checkDetail(half)).toBe('Waiting for every seed to finish.');
  });
});

// 'class-forgotten' on the Your-classes lab's observation: the loss of each earlier class when class 4 arrives is
// R[2][j] − R[3][j], by hand: fine-tuning 1.0 → 0.0 on "a" (forgotten), SimpleCIL at most 1.0 → 0.9 (kept).
describe("'class-forgotten': the fourth class and the three before it", () => {
  const classes = ['a', 'b', 'c', 'd'];
  const finetune = [
    [1, 0, 0, 0],
    [0.3, 1, 0, 0],
    [1, 0.2, 1, 0],
    [0, 0, 0.1, 1],
  ];
  const simplecil = [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [1, 1, 1, 0],
    [0.9, 1, 1, 1],
  ];
  const forgets: Expectation = { kind: 'class-forgotten', strategy: 'finetune', at: 4, drop: 0.2, forgets: true };
  const keeps: Expectation = { kind: 'class-forgotten', strategy: 'simplecil', at: 4, drop: 0.2, forgets: false };
  it('holds for fine-tuning forgetting and prototypes keeping, with the largest loss in words', () => {
    const o = {
      lab: 'own-classes' as const,
      runs: [
        { strategy: 'finetune', classes, matrix: finetune },
        { strategy: 'simplecil', classes, matrix: simplecil },
      ],
    };
    expect(checkExpectation(forgets, o)).toEqual({ status: 'holds', detail: 'Fine-tuning, when “d” arrived: the largest loss was “a”, 100.0 % → 0.0 %.' });
    expect(checkExpectation(keeps, o)).toEqual({ status: 'holds', detail: 'SimpleCIL, when “d” arrived: the largest loss was “a”, 100.0 % → 90.0 %.' });
    expect(checkAll([forgets, keeps], o).status).toBe('holds');
    // the other way round fails
    const swapped = { lab: 'own-classes' as const, runs: o.runs.map((r) => ({ ...r, strategy: r.strategy === 'finetune' ? 'simplecil' : 'finetune' })) };
    expect(checkAll([forgets, keeps], swapped).status).toBe('fails');
  });
  it('waits for four classes of each strategy', () => {
    const three = { lab: 'own-classes' as const, runs: [{ strategy: 'finetune', classes, matrix: finetune.slice(0, 3) }] };
    expect(checkExpectation(forgets, three).status).toBe('waiting');
    expect(checkExpectation(keeps, three)).toEqual({ status: 'waiting', detail: 'Waiting for 4 classes trained with SimpleCIL.' });
    expect(checkExpectation(forgets, null).status).toBe('waiting');
  });
  it('is a template a teacher’s lesson can carry', () => {
    expect(expectationChoices('own-classes')).toEqual([forgets, keeps]);
    expect(expectationChoices('own-classes', validateConfig({ lab: 'own-classes' }).config)).toEqual([forgets, keeps]);
    expect(parseExpectation(JSON.parse(JSON.stringify(forgets)))).toEqual(forgets);
    expect(parseExpectation({ ...forgets, forgets: 'yes' })).toBeNull();
    expect(describeExpectation(forgets)).toMatch(/fine-tuning, when class 4 arrives, an earlier class loses 20 points or more/);
  });
});

describe('the templates a saved lesson offers are those its experiment can show', () => {
  it('no cat-and-dog finding for Fashion-MNIST, the strategies the experiment trains, enough tasks', () => {
    const kinds = (lab: 'orderings' | 'ground-truth' | 'forgetting', c: Record<string, unknown>) =>
      expectationChoices(lab, validateConfig({ lab, ...c }).config).map((e) => e.kind);
    expect(kinds('orderings', { dataset: { id: 'fashion-mnist' } })).toEqual(['score-above']);
    expect(kinds('orderings', { dataset: { id: 'cifar10' }, classes: [0, 1, 2, 3, 4, 5], taskSizes: [2, 2, 2] })).toEqual(['score-above', 'pair-task']);
    expect(kinds('ground-truth', { strategies: [{ id: 'finetune', options: {} }] })).toEqual([]);
    expect(
      kinds('ground-truth', {
        strategies: [
          { id: 'finetune', options: {} },
          { id: 'replay', options: {} },
        ],
      }),
    ).toEqual(['draw-outside-middle', 'rs-span-below', 'mean-above', 'narrower']);
    expect(kinds('forgetting', { dataset: { id: 'digits' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [5, 1, 1, 1, 1, 1] })).toEqual(['cpcf-rises']);
    expect(kinds('forgetting', {})).toEqual([]);
  });
});

describe('the observation builders the lab pages and `cil-lab lesson` share', () => {
  it('Time: one seed’s finished protocols, with the sweep when it ran', () => {
    const o = timeObservation([{ seed: 4, protocol: 'iid', metrics: { inDomain: 0.9, nextDomain: 0.7 } }], 2, [{ alpha: '1', last: [3, 5] }]);
    expect(o).toEqual({ lab: 'time', runs: [{ seed: 4, protocol: 'iid', inDomain: 0.9, nextDomain: 0.7 }], planned: 2, sweep: [{ alpha: '1', last: [3, 5] }] });
    expect(checkExpectation({ kind: 'domain-gap', points: 0.1 }, o).status).toBe('waiting');
    expect(timeObservation([], 0)).toEqual({ lab: 'time', runs: [], planned: 0 });
  });

  it('Curriculum: M2I − I2M as the mean over seeds in points (by hand: (10 + 20) / 2 = 15), complete as told', () => {
    const pair = (m2i: number, i2m: number) => ({ strategy: 'finetune', scenario: 'cil' as const, m2i: { acc: m2i, acc0: 0.5 }, i2m: { acc: i2m, acc0: 0.5 } });
    const input = {
      datasets: [
        { id: 'digits', name: 'Digits', trainImagesPerClass: 5 },
        { id: 'fashion-mnist', name: 'Fashion', trainImagesPerClass: 5 },
      ],
      epochs: 1,
      batchSize: 32,
      runs: [
        { seed: 0, isolated: { digits: 0.9, 'fashion-mnist': 0.6 }, pairs: [pair(0.6, 0.5)] },
        { seed: 1, isolated: { digits: 0.9, 'fashion-mnist': 0.6 }, pairs: [pair(0.7, 0.5)] },
      ],
    };
    const o = curriculumObservation(input, false);
    expect(o.pairs).toHaveLength(1);
    expect(o.pairs[0].deltaAcc).toBeCloseTo(15, 9);
    expect(o.pairs[0].deltaAcc0).toBeCloseTo(0, 9);
    expect(o.complete).toBe(false);
    expect(curriculumObservation(input).complete).toBe(true);
    expect(curriculumObservation({ ...input, planned: 3 }).complete).toBe(false);
  });
  // recorded plays (tests/fixtures/lesson-plays.json, made by scripts/make-lesson-fixtures.ts from `cil-lab cpcf` and
  // `cil-lab ood` runs): each run handed over as a report with more fields than a finding reads, as the lab and the CLI
  // hand it, gives back the recorded observation, and the lesson's check says the recorded numbers again
  const PLAYS = (
    JSON.parse(readFileSync(join(__dirname, '../../fixtures/lesson-plays.json'), 'utf8')) as {
      plays: { id: string; control: boolean; numbers: string[]; observation: LessonObservation }[];
    }
  ).plays.filter((p) => !p.control);
  it('Forgetting: each seed’s CPCF report (cpcf-vs-accuracy’s recorded play)', () => {
    const play = PLAYS.find((p) => p.id === 'cpcf-vs-accuracy')!;
    const rec = play.observation as Extract<LessonObservation, { lab: 'forgetting' }>;
    const o = forgettingObservation(
      rec.runs.map((r) => ({ seed: r.seed, report: { cpcf: [...r.cpcf], aPrev: [...r.aPrev], aNew: [0.9], coverage: [0.95] } })),
      rec.planned,
    );
    expect(o).toEqual(rec);
    expect(checkAll(lessonById(play.id)!.expect, o).checks.map((c) => c.detail)).toEqual(play.numbers);
  });
  it('Open world: each seed’s steps reduced to their OOD assignment (newest-steals’ recorded play)', () => {
    const play = PLAYS.find((p) => p.id === 'newest-steals')!;
    const rec = play.observation as Extract<LessonObservation, { lab: 'open-world' }>;
    expect(rec.runs.length).toBe(rec.planned);
    const o = openWorldObservation(
      rec.runs.map((r) => ({ seed: r.seed, steps: r.steps.map((s, i) => ({ ...s, accuracy: 0.5, step: i + 1 })) })),
      rec.planned,
    );
    expect(o).toEqual(rec);
    expect(checkAll(lessonById(play.id)!.expect, o).checks.map((c) => c.detail)).toEqual(play.numbers);
  });
});
