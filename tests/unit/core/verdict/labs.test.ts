import { describe, expect, it } from 'vitest';
import raw from '../../../fixtures/verdict.json';
import type { CompareSetup } from '../../../../src/core/forgetting/compare';
import { CLEAR_GAP_RANGE, CLEAR_STREAMING_LEAD_RANGE } from '../../../../src/core/stream/paper';
import { curriculumVerdict, readCurriculum, shuffledOrder, type CurriculumVerdictInput } from '../../../../src/core/verdict/curriculum';
import { forgettingVerdict, readForgettingGroup, type ForgettingVerdictInput } from '../../../../src/core/verdict/forgetting';
import { openWorldVerdict, readOpenWorld, type OpenWorldVerdictInput } from '../../../../src/core/verdict/open-world';
import { readTime, timeVerdict, type TimeVerdictInput } from '../../../../src/core/verdict/time';
import { HEADLINE_MAX_WORDS, headlineWords, type Verdict } from '../../../../src/core/verdict/types';

// tests/fixtures/verdict.json: the rules written again in Python (scripts/make-verdict-fixtures.py), on runs measured
// with the CLI and on made-up edge cases
const fx = raw as any;

type SpreadLike = { mean: number; sd: number; n: number; interval: { lo: number; hi: number } | null };
function expectSpread(got: SpreadLike, want: SpreadLike, what: string) {
  expect(got.n, what).toBe(want.n);
  expect(got.mean, what).toBeCloseTo(want.mean, 9);
  if (want.n > 1) expect(got.sd, what).toBeCloseTo(want.sd, 9);
  if (want.interval) {
    expect(got.interval!.lo, what).toBeCloseTo(want.interval.lo, 8);
    expect(got.interval!.hi, what).toBeCloseTo(want.interval.hi, 8);
  } else expect(got.interval, what).toBeNull();
}
const ids = (v: { sentences: { id: string }[] }) => v.sentences.map((s) => s.id);
const text = (v: { sentences: { id: string; text: string }[] }, prefix: string) => v.sentences.find((s) => s.id.startsWith(prefix))?.text ?? '';
/** Every verdict opens with a headline a student can read aloud. */
function expectHeadline(v: Verdict) {
  expect(v.headline.length, 'a headline').toBeGreaterThan(0);
  expect(headlineWords(v.headline), v.headline).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
}

describe('Time verdict', () => {
  it('quotes CLEAR’s Table 1 ranges as the Python transcription computes them', () => {
    expect([CLEAR_GAP_RANGE.min, CLEAR_GAP_RANGE.max]).toEqual(fx.time.clearGap);
    expect([CLEAR_STREAMING_LEAD_RANGE.min, CLEAR_STREAMING_LEAD_RANGE.max]).toEqual(fx.time.clearLead);
  });
  for (const c of fx.time.cases) {
    it(`reads ${c.name} as the rules say`, () => {
      const r = readTime(c.input as TimeVerdictInput);
      expectSpread(r.gap!, c.expected.gap, 'gap');
      expect([r.gap!.outcome, r.gap!.clear]).toEqual([c.expected.gap.outcome, c.expected.gap.clear]);
      if (c.expected.lead === null) expect(r.lead).toBeNull();
      else {
        expectSpread(r.lead!, c.expected.lead, 'lead');
        expect(r.lead!.claim).toBe(c.expected.lead.claim);
      }
      if (c.expected.beyond === null) expect(r.beyond).toBeNull();
      else {
        expectSpread(r.control!, c.expected.control, 'control');
        expectSpread(r.beyond!, c.expected.beyond, 'beyond');
        expect(r.beyond!.outcome).toBe(c.expected.beyond.outcome);
      }
      const v = timeVerdict(c.input as TimeVerdictInput);
      expect(ids(v)).toContain(`time-gap:${c.expected.gap.outcome}`);
      if (c.expected.gap.outcome === 'positive') expect(ids(v)).toContain(`time-clear:${c.expected.gap.clear}`);
      else expect(ids(v).some((i) => i.startsWith('time-clear'))).toBe(false);
      if (c.expected.beyond) expect(ids(v)).toContain(`time-control:${c.expected.beyond.outcome}`);
      if (c.expected.lead) expect(ids(v)).toContain(`time-lead:${c.expected.lead.claim}`);
      expectHeadline(v);
    });
  }
  it('words the default (strength 0.5, 3 seeds, the no-drift control): the gap beyond 0 and beyond the control, above CLEAR', () => {
    const v = timeVerdict(fx.time.cases[4].input);
    expect(v.headline).toBe(
      'Tested on the next bucket, the model scores 8.7 points lower than on the bucket it trained on — beyond the no-drift control, over 3 seeds.',
    );
    expect(text(v, 'time-gap')).toBe(
      'Under iid, in-domain accuracy overstates next-domain accuracy by 8.7 ± 2.0 points (mean ± sd, 3 seeds; 95% interval 3.7 to 13.7).',
    );
    expect(text(v, 'time-control')).toMatch(
      /^The gap is beyond the no-drift control's \(0\.5 points, the same seeds at strength 0\) by 8\.2 ± 2\.3 points \(mean ± sd, 3 seeds; 95% interval 2\.6 to 13\.8\), paired by seed: the drift causes it\.$/,
    );
    expect(text(v, 'time-clear')).toBe('The gap is larger than CLEAR reports (0.5 to 2.8 points, Table 1, 18 methods), beyond its interval.');
    // streaming's lead at these seeds spans 0: said as not shown
    expect(text(v, 'time-lead')).toMatch(
      /^Streaming minus iid on next-domain accuracy: \+2\.6 ± 1\.1 points \(mean ± sd, 3 seeds\), not distinguishable from 0 at 3 seeds \(95% interval 0\.0 to 5\.3\)/,
    );
  });
  it('says a stream with no drift shows no gap (cil-lab stream --strength 0), and compares nothing with CLEAR', () => {
    const v = timeVerdict(fx.time.cases[5].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['time-gap:unclear', 'time-gap-why:no-drift']));
    expect(text(v, 'time-gap')).toMatch(
      /^Under iid, in-domain minus next-domain accuracy \(the gap\): \+0\.3 ± 0\.9 points \(mean ± sd, 5 seeds\), not distinguishable from 0 at 5 seeds/,
    );
    expect(v.sentences.map((x) => x.text).join(' ')).not.toMatch(/overstates|within the range|CLEAR reports/);
    expect(v.headline).toMatch(/^With nothing drifting, same-bucket and next-bucket accuracy cannot be told apart over 5 seeds/);
  });
  it('the former default (strength 0.2, 3 of its seeds) cannot be told from no drift', () => {
    const input = fx.time.cases[0].input as TimeVerdictInput;
    const three = {
      ...input,
      runs: input.runs.filter((r) => r.seed < 3),
      control: (fx.time.cases[5].input as TimeVerdictInput).runs.filter((r) => r.seed < 3),
    };
    const r = readTime(three);
    expect(r.gap!.outcome).toBe('unclear');
    expect(r.beyond!.outcome).toBe('unclear');
  });
  it('says why a strong drift overshoots CLEAR', () => {
    const v = timeVerdict(fx.time.cases[1].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['time-gap:positive', 'time-clear:above', 'time-gap-why:strength', 'time-control-try']));
    expect(text(v, 'time-gap:')).toContain('by 23.3 ± 2.2 points');
  });
  it('is provisional while runs are missing', () => {
    const v = timeVerdict({ ...(fx.time.cases[0].input as TimeVerdictInput), planned: 12 });
    expect(v.provisional).toBe(true);
    expect(v.provisionalNote).toBe('Provisional: 10 of 12 runs finished.');
  });
});

describe('Open-world verdict', () => {
  for (const c of fx.openWorld) {
    it(`reads ${c.name} as the rules say`, () => {
      const r = readOpenWorld(c.input as OpenWorldVerdictInput);
      expect(r.detectors.map((d) => d.detector)).toEqual(c.expected.ranking);
      r.detectors.forEach((d, i) => expectSpread(d, c.expected.detectors[i], d.detector));
      expectSpread(r.bestLead!, c.expected.bestLead, 'best');
      expect(r.bestLead!.claim).toBe(c.expected.bestLead.claim);
      expectSpread(r.ber!, c.expected.ber, 'ber');
      expect([r.ber!.rank, r.ber!.claim, r.ber!.rival]).toEqual([c.expected.ber.rank, c.expected.ber.claim, c.expected.ber.rival]);
      expectSpread(r.nearFar!, c.expected.nearFar, 'near/far');
      expect(r.nearFar!.claim).toBe(c.expected.nearFar.claim);
      expect(r.nearFar!.nearConfidence).toBeCloseTo(c.expected.nearFar.nearConfidence, 9);
      expect(r.nearFar!.farConfidence).toBeCloseTo(c.expected.nearFar.farConfidence, 9);
      const v = openWorldVerdict(c.input as OpenWorldVerdictInput);
      expect(ids(v)).toEqual(expect.arrayContaining([`ow-near:${c.expected.nearFar.claim}`, `ow-ber:${c.expected.ber.claim}`]));
      expectHeadline(v);
    });
  }
  it('on the quick preset says the near set is the easier one, why, and what to try; BER behind MSP, unlike the paper', () => {
    const v = openWorldVerdict(fx.openWorld[0].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['ow-near-why:confidence', 'ow-near-try', 'ow-ber-why']));
    expect(text(v, 'ow-ber:')).toMatch(/^BER is behind MSP beyond the spread: −7\.5 ± 2\.\d points .*: unlike the paper, where BER is best/);
    expect(text(v, 'ow-ber:')).toContain('BER 71.8–76.8 over four CIL models, MSP 66.7–71.7');
    expect(v.headline).toMatch(/^MSP separates unknown images from known ones best \(AUROC \d+\.\d%\)/);
  });
  it('on the near-far preset says the near set is harder beyond the spread; BER leads but not beyond the spread', () => {
    const v = openWorldVerdict(fx.openWorld[1].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['ow-near:positive', 'ow-ber:unclear']));
    expect(ids(v)).not.toContain('ow-near-try');
    expect(text(v, 'ow-ber:')).toMatch(/^BER ranks 1 of 3 by its mean, but: BER minus MSP \(AUROC, paired by seed\)/);
    expect(text(v, 'ow-ber:')).toContain('not distinguishable from 0 at 3 seeds');
    expect(text(v, 'ow-ranking')).toMatch(
      /^AUROC in %, averaged over steps and OOD sets \(mean ± sd over 3 seeds\), higher separating ID from OOD better: BER 72\.\d ± 0\.\d, MSP 69\.\d ± 1\.\d and Energy 68\.\d ± 2\.\d\.$/,
    );
    expect(v.headline).toMatch(/but it cannot be told apart from MSP/);
  });
});

describe('Curriculum verdict', () => {
  for (const c of fx.curriculum) {
    it(`reads ${c.name} as the rules say`, () => {
      const r = readCurriculum(c.input as CurriculumVerdictInput);
      expect(r.pairs.length).toBe(c.expected.pairs.length);
      r.pairs.forEach((p, i) => {
        const e = c.expected.pairs[i];
        expectSpread(p.deltaAcc, e.deltaAcc, 'ΔACC');
        expectSpread(p.deltaAcc0, e.deltaAcc0, 'ΔACC₀');
        expectSpread(p.beyond, e.beyond, 'beyond');
        expect([p.deltaAcc.claim, p.beyond.claim]).toEqual([e.deltaAcc.claim, e.beyond.claim]);
        expect(p.share).toBeCloseTo(e.share, 9);
        if (e.control === null) expect(p.control).toBeNull();
        else {
          expectSpread(p.control!.shuffled, e.control.shuffled, 'shuffled');
          expectSpread(p.control!.vsControl, e.control.vsControl, 'vs control');
          expect(p.control!.vsControl.claim).toBe(e.control.vsControl.claim);
        }
      });
      expect(r.atChance.map((d) => d.id)).toEqual(c.expected.atChance.map((d: { id: string }) => d.id));
      expect(r.firstTask).toEqual(c.expected.firstTask.map((f: object) => expect.objectContaining(f)));
      expectHeadline(curriculumVerdict(c.input as CurriculumVerdictInput));
    });
  }
  it('picks the shuffled pair as numpy’s default_rng(seed ^ 0x5a1f) does', () => {
    const all: number[][] = [];
    const perm = (pre: number[], rest: number[]) =>
      rest.length ? rest.forEach((x, i) => perm([...pre, x], [...rest.slice(0, i), ...rest.slice(i + 1)])) : all.push(pre);
    perm([], [0, 1, 2, 3]);
    for (const c of fx.shuffledPicks) {
      const orders = all.map((order) => ({ strategy: 'finetune', order, cil: [], til: [] }));
      expect(shuffledOrder({ seed: c.seed, orders }, c.m2i, c.i2m), `seed ${c.seed}`).toEqual(c.pick);
    }
    // two datasets have no pair besides M2I and I2M; a missing reverse rules an order out
    expect(shuffledOrder({ seed: 0, orders: [] }, [0, 1], [1, 0])).toBeNull();
  });
  it('words the measured curriculum numbers: one seed claims nothing; ACC₀ beside the lead; emoji at chance with 3 Adam steps', () => {
    const v = curriculumVerdict(fx.curriculum[0].input);
    expect(text(v, 'cu-beyond:finetune:cil')).toMatch(
      /^finetune, class-incremental: ACC's weighting alone \(ACC₀: no transfer, no forgetting\) predicts M2I − I2M = \+29\.9 points \(measured: \+9\.2\); what the order did beyond that weighting/,
    );
    expect(text(v, 'cu-beyond:finetune:cil')).toContain('fewer than the 3 a claim needs');
    expect(v.sentences.map((x) => x.text).join(' ')).not.toMatch(/explains all of M2I|did worse than no transfer|about all of/);
    expect(text(v, 'cu-chance')).toBe(
      "Trained alone, Emoji animals (10.0%) and Emoji vehicles (15.0%) stay near chance (10.0%): M2I's ordering among them is decided by noise.",
    );
    expect(text(v, 'cu-chance-why')).toContain('5 training images per class, so 3 epochs give 3 Adam steps of batch 64');
    expect(text(v, 'cu-lead:replay:cil')).toContain("the paper's Replay (Wide-VGG9, class-incremental) goes from 55.0% (I2M) to 75.5% (M2I), +20.5 points");
  });
  it('says the shuffled-pair control with the claim rule', () => {
    const c = fx.curriculum[2];
    const v = curriculumVerdict(c.input);
    expect(ids(v)).toContain(`cu-control:finetune:cil:${c.expected.pairs[0].control.vsControl.claim}`);
    expect(ids(v)).not.toContain('cu-control-try');
  });
  it('explains a first task far from the same dataset trained alone', () => {
    const v = curriculumVerdict(fx.curriculum[1].input);
    expect(text(v, 'cu-first:digits')).toMatch(/^An order starting with Digits reaches 60\.0% on it after its first task, against 90\.0% trained alone/);
  });
});

describe('Forgetting verdict', () => {
  const setup: CompareSetup = {
    dataset: 'digits',
    taskSizes: [5, 1, 1, 1, 1, 1],
    lr: 2e-5,
    firstTaskEpochs: 300,
    epochs: 85,
    trainPerClass: null,
    head: 'all',
    batchSize: 64,
  };
  const input = (runs: unknown, resamples: number): ForgettingVerdictInput => ({
    setup,
    alpha: 0.1,
    calibrationRatio: 0.1,
    resamples,
    groups: [{ strategy: 'finetune', runs: runs as never }],
  });
  for (const c of fx.forgetting) {
    it(`reads ${c.name} as the rules say`, () => {
      const i = input(c.input.runs, c.input.resamples);
      const r = readForgettingGroup(i, i.groups[0]);
      expect(r.learned).toBe(c.expected.learned);
      expect(r.drop).toBeCloseTo(c.expected.drop, 9);
      expect(r.summary!.p).toBeCloseTo(c.expected.p, 12);
      r.summary!.pearson.forEach((x, k) => expect(x).toBeCloseTo(c.expected.pearson[k], 9));
      expect(r.summary!.falling).toBe(c.expected.falling);
      expect(r.agreement).toBe(c.expected.agreement);
      expect(r.trend!.p).toBeCloseTo(c.expected.trendP, 12);
      const v = forgettingVerdict(i);
      expect(ids(v)).toContain(`fg-paper:finetune:${c.expected.agreement}`);
      expect(ids(v)).toContain(`fg-trend:finetune:${c.expected.trendP < 0.05 ? 'beyond' : 'not-beyond'}`);
      expectHeadline(v);
    });
  }
  it('compares sign, p and direction with the paper, never the size of dCor, and names every setting the paper leaves open', () => {
    const v = forgettingVerdict(input(fx.forgetting[0].input.runs, 999));
    // the measured digits runs: beyond chance and in every seed, but not beyond the trend-matched control
    expect(v.headline).toBe(
      "As old-task accuracy falls 81 points, CPCF rises in every seed, beyond chance but not beyond CPCF's own trend over the tasks (3 seeds).",
    );
    expect(text(v, 'fg-trend')).toContain('not beyond it (p = 0.667');
    const paper = text(v, 'fg-paper');
    expect(paper).toContain('The paper reports a strong association (its dCor 0.5585, MNIST, MLP, Table II)');
    expect(paper).toContain('The sizes are not compared');
    expect(paper).not.toMatch(/0\.84\d? .*0\.5585|ours 0\.8/);
    expect(text(v, 'fg-association')).toContain('two unrelated 5-point series give 0.67 on average, 90% of them between 0.47 and 0.91');
    const note = text(v, 'fg-comparability');
    for (const s of ['the optimiser (ours Adam', 'the batch size (ours 64)', 'the number of seeds (ours 3)', 'different dataset: 8×8 digits'])
      expect(note).toContain(s);
  });
  it('says the paper’s Fashion-MNIST dCor lies below the chance band of 5 points', () => {
    const v = forgettingVerdict({ ...input(fx.forgetting[0].input.runs, 999), setup: { ...setup, dataset: 'fashion-mnist' } });
    expect(text(v, 'fg-paper')).toContain('its 0.2118 lies below what 5 unrelated points give in 5% of draws (0.47), so it cannot be one run');
  });
  it('says when the base task is not learned, why, and what to try; EWC names its λ', () => {
    const v = forgettingVerdict({ ...input(fx.forgetting[2].input.runs, 999), setup: { ...setup, firstTaskEpochs: 8, epochs: 3 } });
    expect(ids(v)).toEqual(expect.arrayContaining(['fg-base:finetune:not-learned', 'fg-base-why:finetune', 'fg-base-try:finetune', 'fg-seeds-try']));
    expect(text(v, 'fg-base:')).toContain('31.1% (1 seed)');
    const e = forgettingVerdict({
      setup,
      alpha: 0.1,
      calibrationRatio: 0.1,
      resamples: 99,
      groups: [{ strategy: 'ewc', ewcLambda: 1000, runs: fx.forgetting[0].input.runs }],
    });
    expect(text(e, 'fg-comparability')).toContain("EWC's λ (ours 1000)");
  });
  it('is provisional while runs are missing', () => {
    const v = forgettingVerdict({
      setup,
      alpha: 0.1,
      calibrationRatio: 0.1,
      resamples: 99,
      groups: [{ strategy: 'finetune', runs: fx.forgetting[0].input.runs, planned: 5 }],
    });
    expect(v.provisionalNote).toBe('Provisional: 3 of 5 runs finished.');
  });
});
