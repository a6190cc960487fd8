// The claim rule (src/core/verdict/claim.ts) and the verdicts that word their claims through it, fed random spreads
// from a seeded generator: no positive wording may escape an interval that spans 0 (or fewer than 3 seeds), in any
// sentence or headline of the Time, Curriculum, Open-world and Ground-truth verdicts.
import { describe, expect, it } from 'vitest';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import { MIN_CORRELATION_PAIRS, claim, differenceOutcome, rangeOutcome } from '../../../../src/core/verdict/claim';
import { curriculumVerdict, type CurriculumVerdictInput } from '../../../../src/core/verdict/curriculum';
import { spreadOf } from '../../../../src/core/verdict/intervals';
import { openWorldVerdict, type OpenWorldVerdictInput } from '../../../../src/core/verdict/open-world';
import { timeVerdict, type TimeRun } from '../../../../src/core/verdict/time';
import { HEADLINE_MAX_WORDS, headlineWords, type Verdict } from '../../../../src/core/verdict/types';

const rng = createDefaultRng(44);
/** a standard normal by Box–Muller from the seeded generator */
const normal = () => Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
const uniform = (lo: number, hi: number) => lo + (hi - lo) * rng.random();
/** n values around a mean that is often near 0, with a spread that is often wide: many intervals span 0 */
function draw(n: number): number[] {
  const mu = uniform(-4, 4);
  const sd = uniform(0.1, 6);
  return Array.from({ length: n }, () => mu + sd * normal());
}
const spans = (values: number[]) => {
  const s = spreadOf(values);
  return s.n < 3 || !s.interval || (s.interval.lo <= 0 && s.interval.hi >= 0);
};
const all = (v: Verdict) => [v.headline, ...v.sentences.map((s) => s.text)].join(' | ');
const WORDS = {
  subject: 'The difference',
  positive: () => 'CLAIMED UP',
  negative: () => 'CLAIMED DOWN',
  above: () => 'CLAIMED ABOVE',
  below: () => 'CLAIMED BELOW',
};

describe('the claim rule', () => {
  it('never words a claim from a spread whose interval spans 0 or that has fewer than 3 seeds (2 000 random spreads)', () => {
    let unsupported = 0;
    let supported = 0;
    for (let k = 0; k < 2000; k++) {
      const values = draw(1 + rng.integers(8));
      const s = spreadOf(values);
      const c = claim({ kind: 'difference', spread: s }, WORDS);
      if (spans(values)) {
        unsupported++;
        expect(c.supported).toBe(false);
        expect(c.text).not.toContain('CLAIMED');
        expect(c.text).toMatch(s.n < 3 ? /fewer than the 3 a claim needs/ : /not distinguishable from 0 at \d+ seeds \(95% interval /);
      } else {
        supported++;
        expect(c.supported).toBe(true);
        expect(c.text).toBe(s.mean > 0 ? 'CLAIMED UP' : 'CLAIMED DOWN');
        expect(differenceOutcome(s)).toBe(s.mean > 0 ? 'positive' : 'negative');
      }
    }
    // both branches were exercised many times
    expect(Math.min(unsupported, supported)).toBeGreaterThan(200);
  });
  it('places a size against a range only when its whole interval is inside or outside it (2 000 random spreads)', () => {
    const range = { min: 0.5, max: 2.8 };
    for (let k = 0; k < 2000; k++) {
      const values = draw(1 + rng.integers(8)).map((x) => x / 2 + 1.5);
      const s = spreadOf(values);
      const c = claim({ kind: 'range', spread: s, range, rangeName: 'the range' }, WORDS);
      const i = s.interval;
      const inside = !!i && s.n >= 3 && i.lo >= range.min && i.hi <= range.max;
      const outside = !!i && s.n >= 3 && (i.lo > range.max || i.hi < range.min);
      expect(c.supported).toBe(inside || outside);
      if (!c.supported) expect(c.text).not.toContain('CLAIMED');
      expect(rangeOutcome(s, range)).toBe(c.outcome);
    }
  });
  it('says a correlation’s strength only with p < 0.05 over at least 10 pairs (2 000 random correlations)', () => {
    for (let k = 0; k < 2000; k++) {
      const r = uniform(-1, 1);
      const p = rng.random() < 0.5 ? uniform(0, 0.06) : uniform(0, 1);
      const n = 2 + rng.integers(40);
      const c = claim(
        { kind: 'correlation', r, p, n },
        { subject: 'S and accuracy', positive: (x, w) => `CLAIMED ${w} (${x})`, negative: (x, w) => `CLAIMED −${w} (${x})` },
      );
      const ok = p < 0.05 && n >= MIN_CORRELATION_PAIRS;
      expect(c.supported).toBe(ok);
      if (!ok) {
        expect(c.text).not.toMatch(/CLAIMED|strongly|moderately|weakly|hardly/);
        expect(c.text).toContain('no correlation is shown');
      }
    }
  });
});

describe('the verdicts word every claim through the rule', () => {
  it('Time: no gap, no "beyond the control", no "streaming beats iid" and no CLEAR range that its interval does not support', () => {
    for (let k = 0; k < 300; k++) {
      const n = 1 + rng.integers(6);
      const gaps = draw(n);
      const leads = draw(n);
      const controlGaps = draw(n).map((x) => x / 3);
      const runs: TimeRun[] = [];
      const control: TimeRun[] = [];
      for (let s = 0; s < n; s++) {
        const next = 0.7 + 0.05 * normal();
        runs.push({ seed: s, protocol: 'iid', metrics: { inDomain: next + gaps[s] / 100, nextDomain: next } });
        runs.push({ seed: s, protocol: 'streaming', metrics: { inDomain: null, nextDomain: next + leads[s] / 100 } });
        control.push({ seed: s, protocol: 'iid', metrics: { inDomain: next + controlGaps[s] / 100, nextDomain: next } });
      }
      const v = timeVerdict({ settings: { stream: 'drift', strength: 0.5, trainRatio: 0.7 }, runs, control });
      const text = all(v);
      expect(headlineWords(v.headline)).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
      if (spans(gaps)) {
        expect(text).not.toMatch(/overstates|points lower|CLEAR reports \(/);
        expect(v.sentences.some((s) => s.id.startsWith('time-clear'))).toBe(false);
      }
      if (spans(gaps.map((g, i) => g - controlGaps[i]))) expect(text).not.toMatch(/beyond the no-drift control|the drift causes it/);
      if (spans(leads)) expect(text).not.toMatch(/Streaming beats iid|iid beats streaming/i);
    }
  });
  it('Curriculum: no "beats", no "beyond the weighting" and no "beyond the shuffled pair" that the interval does not support', () => {
    for (let k = 0; k < 300; k++) {
      const n = 1 + rng.integers(6);
      const dAcc = draw(n);
      const dAcc0 = draw(n).map((x) => Math.abs(x));
      const dCtl = draw(n);
      const input: CurriculumVerdictInput = {
        datasets: [
          { id: 'digits', name: 'Digits', trainImagesPerClass: 100 },
          { id: 'fashion-mnist', name: 'Fashion-MNIST', trainImagesPerClass: 100 },
        ],
        epochs: 5,
        batchSize: 32,
        runs: Array.from({ length: n }, (_, s) => ({
          seed: s,
          isolated: { digits: 0.9, 'fashion-mnist': 0.7 },
          pairs: [
            {
              strategy: 'finetune',
              scenario: 'cil' as const,
              m2i: { acc: 0.5 + dAcc[s] / 100, acc0: 0.6 + dAcc0[s] / 100 },
              i2m: { acc: 0.5, acc0: 0.6 },
              shuffled: { order: [1, 0], first: { acc: 0.5 + dCtl[s] / 100, acc0: 0.6 }, second: { acc: 0.5, acc0: 0.6 } },
            },
          ],
        })),
      };
      const v = curriculumVerdict(input);
      const text = all(v);
      expect(headlineWords(v.headline)).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
      if (spans(dAcc)) expect(text).not.toMatch(/\) beats (hard|easy)-first|easy-first \(M2I\) beats|hard-first \(I2M\) beats/i);
      if (spans(dAcc.map((d, i) => d - dAcc0[i]))) expect(text).not.toMatch(/easy-first helped|did worse: ΔACC|explains all of M2I|more than ACC's weighting/);
      if (spans(dAcc.map((d, i) => d - dCtl[i])))
        expect(text).not.toMatch(/beyond the shuffled pair's|below the shuffled pair's|sorting by difficulty matters/);
    }
  });
  it('Open world: no detector "beats" another, no BER lead and no near/far claim that the interval does not support', () => {
    for (let k = 0; k < 300; k++) {
      const n = 1 + rng.integers(6);
      const msp = draw(n).map((x) => 80 + x);
      const ber = draw(n).map((x) => 80 + x);
      const near = draw(n);
      const input: OpenWorldVerdictInput = {
        settings: { dataset: 'digits', headEpochs: 3 },
        oodKinds: { nearSet: 'near', farSet: 'far' },
        runs: Array.from({ length: n }, (_, s) => ({
          seed: s,
          summary: [
            {
              detector: 'msp',
              perSet: [
                { oodSet: 'nearSet', auroc: (msp[s] - near[s]) / 100 },
                { oodSet: 'farSet', auroc: msp[s] / 100 },
              ],
            },
            {
              detector: 'ber',
              perSet: [
                { oodSet: 'nearSet', auroc: (ber[s] - near[s]) / 100 },
                { oodSet: 'farSet', auroc: ber[s] / 100 },
              ],
            },
          ],
          finalAccuracy: 0.9,
        })),
      };
      const v = openWorldVerdict(input);
      const text = all(v);
      expect(headlineWords(v.headline)).toBeLessThanOrEqual(HEADLINE_MAX_WORDS);
      if (spans(msp.map((m, i) => m - ber[i]))) expect(text).not.toMatch(/beats|ahead of|is behind|as in the paper/);
      if (spans(near)) expect(text).not.toMatch(/is the harder one to detect|is the easier one to detect/);
    }
  });
});
