import { describe, expect, it } from 'vitest';
import raw from '../../../fixtures/verdict.json';
import type { CompareSetup } from '../../../../src/core/forgetting/compare';
import { CLEAR_GAP_RANGE, CLEAR_STREAMING_LEAD_RANGE } from '../../../../src/core/stream/paper';
import { curriculumVerdict, readCurriculum, type CurriculumVerdictInput } from '../../../../src/core/verdict/curriculum';
import { forgettingVerdict, readForgettingGroup, type ForgettingVerdictInput } from '../../../../src/core/verdict/forgetting';
import { openWorldVerdict, readOpenWorld, type OpenWorldVerdictInput } from '../../../../src/core/verdict/open-world';
import { readTime, timeVerdict, type TimeVerdictInput } from '../../../../src/core/verdict/time';

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

describe('Time verdict', () => {
  it('quotes CLEAR’s Table 1 ranges as the Python transcription computes them', () => {
    expect([CLEAR_GAP_RANGE.min, CLEAR_GAP_RANGE.max]).toEqual(fx.time.clearGap);
    expect([CLEAR_STREAMING_LEAD_RANGE.min, CLEAR_STREAMING_LEAD_RANGE.max]).toEqual(fx.time.clearLead);
  });
  for (const c of fx.time.cases) {
    it(`reads ${c.name} as the rules say`, () => {
      const r = readTime(c.input as TimeVerdictInput);
      expectSpread(r.gap!, c.expected.gap, 'gap');
      expect(r.gap!.outcome).toBe(c.expected.gap.outcome);
      if (c.expected.lead === null) expect(r.lead).toBeNull();
      else {
        expectSpread(r.lead!, c.expected.lead, 'lead');
        expect(r.lead!.claim).toBe(c.expected.lead.claim);
      }
      const v = timeVerdict(c.input as TimeVerdictInput);
      expect(ids(v)).toContain(`time-gap:${c.expected.gap.outcome}`);
      if (c.expected.lead) expect(ids(v)).toContain(`time-lead:${c.expected.lead.claim}`);
    });
  }
  it('words the default (strength 0.2): a gap in CLEAR’s range, and streaming’s lead not beyond the spread', () => {
    const v = timeVerdict(fx.time.cases[0].input);
    expect(text(v, 'time-gap')).toBe(
      'Under iid, in-domain accuracy overstates next-domain accuracy by 1.6 ± 0.7 points (mean ± sd, 5 seeds; 95% interval 0.8 to 2.5): within the range CLEAR reports 0.5 to 2.8 points (Table 1, 18 methods, 5 seeds each).',
    );
    expect(text(v, 'time-lead')).toMatch(
      /^Streaming minus iid on next-domain accuracy: \+0\.6 ± 0\.6 points \(mean ± sd, 5 seeds; 95% interval −0\.1 to 1\.4\)\. The interval includes 0/,
    );
    expect(text(v, 'time-lead')).toContain('CLEAR’s streaming protocol leads by +0.5 to +4.5 points (Table 1)'.replace('’', "'"));
  });
  it('says why a strong drift overshoots CLEAR, and what to try', () => {
    const v = timeVerdict(fx.time.cases[1].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['time-gap:above', 'time-gap-why:strength', 'time-gap-try:strength']));
    expect(text(v, 'time-gap:')).toContain('by 23.3 ± 2.2 points');
    expect(text(v, 'time-gap-try')).toContain('strength 0.2');
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
    });
  }
  it('on the quick preset says the near set is not the harder one, why, and what to try; BER not first, unlike the paper', () => {
    const v = openWorldVerdict(fx.openWorld[0].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['ow-near:not-nearer', 'ow-near-why:confidence', 'ow-near-try', 'ow-ber:not-first', 'ow-ber-why']));
    expect(text(v, 'ow-ber:')).toMatch(
      /^BER ranks 3 of 3, −7\.5 ± 2\.\d points .*against MSP, behind it beyond the spread: unlike the paper, where BER is best/,
    );
    expect(text(v, 'ow-ber:')).toContain('BER 71.8–76.8 over four CIL models, MSP 66.7–71.7');
  });
  it('on the near-far preset says the near set is harder beyond the spread, and BER first as in the paper', () => {
    const v = openWorldVerdict(fx.openWorld[1].input);
    expect(ids(v)).toEqual(expect.arrayContaining(['ow-near:nearer', 'ow-ber:first']));
    expect(ids(v)).not.toContain('ow-near-try');
    expect(text(v, 'ow-ranking')).toMatch(
      /^AUROC in %, averaged over steps and OOD sets \(mean ± sd over 3 seeds\), higher separating ID from OOD better: BER 72\.\d ± 0\.\d, MSP 69\.\d ± 1\.\d and Energy 68\.\d ± 2\.\d\.$/,
    );
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
        expect([p.deltaAcc.claim, p.beyond.claim, p.weighting]).toEqual([e.deltaAcc.claim, e.beyond.claim, e.weighting]);
        expect(p.share).toBeCloseTo(e.share, 9);
      });
      expect(r.atChance.map((d) => d.id)).toEqual(c.expected.atChance.map((d: { id: string }) => d.id));
      expect(r.firstTask).toEqual(c.expected.firstTask.map((f: object) => expect.objectContaining(f)));
    });
  }
  it('words the measured curriculum numbers: ACC₀ predicts more than M2I’s lead; emoji at chance with 3 Adam steps', () => {
    const v = curriculumVerdict(fx.curriculum[0].input);
    expect(text(v, 'cu-weighting:finetune:cil')).toMatch(
      /^ACC's weighting alone \(ACC₀: no transfer, no forgetting\) predicts \+29\.9 points, more than the measured \+9\.2/,
    );
    expect(text(v, 'cu-chance')).toBe(
      "Trained alone, Emoji animals (10.0%) and Emoji vehicles (15.0%) stay near chance (10.0%): M2I's ordering among them is decided by noise.",
    );
    expect(text(v, 'cu-chance-why')).toContain('5 training images per class, so 3 epochs give 3 Adam steps of batch 64');
    expect(text(v, 'cu-lead:replay:cil')).toContain("the paper's Replay (Wide-VGG9, class-incremental) goes from 55.0% (I2M) to 75.5% (M2I), +20.5 points");
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
      expect(ids(forgettingVerdict(i))).toContain(`fg-paper:finetune:${c.expected.agreement}`);
    });
  }
  it('compares sign, p and direction with the paper, never the size of dCor, and names every setting the paper leaves open', () => {
    const v = forgettingVerdict(input(fx.forgetting[0].input.runs, 999));
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
