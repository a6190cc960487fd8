/**
 * The one claim rule of every verdict (docs/verdicts.md "The claim rule"). A sentence that asserts a difference, a
 * direction, a share ("in every seed", "more than"), a size against a paper's range or a correlation's strength is
 * worded here, from the numbers it rests on:
 *
 * - **difference** (a mean over seeds, paired where it is a difference): said as found only with at least
 *   MIN_SEEDS_FOR_CLAIM seeds and a 95 % t interval that excludes 0; otherwise the sentence says what is and is not
 *   shown ("+1.7 ± 0.9 points, not distinguishable from 0 at 3 seeds (95 % interval −0.4 to 3.9)");
 * - **range** (a size against a paper's range, e.g. CLEAR's 0.5–2.8 points): "within" only when the whole interval lies
 *   inside the range, "above" / "below" only when it lies wholly outside; an interval that straddles an end shows
 *   neither, and that is said;
 * - **correlation** (Pearson R with its p and n): its strength word (Cohen's, `CORRELATION_WORDS`) and sign are said
 *   only with p < ALPHA and at least MIN_CORRELATION_PAIRS pairs; otherwise "no correlation is shown".
 *
 * The caller gives the positive wording (a function of the numbers); the rule gives the wording when the evidence does
 * not support it, so no positive wording can escape an interval that spans 0 (tests/unit/core/verdict/claim.test.ts
 * feeds the rule random spreads and checks exactly that). Pure.
 */
import type { Spread } from './intervals';
import { ALPHA, MIN_SEEDS_FOR_CLAIM, correlationWord, countText, num, pText, plural, signed } from './wording';

/** A correlation is said (its strength and sign) only over at least this many pairs, and with p < ALPHA. */
export const MIN_CORRELATION_PAIRS = 10;

export type DifferenceOutcome = 'positive' | 'negative' | 'unclear' | 'too-few';
export type RangeOutcome = 'within' | 'above' | 'below' | 'overlaps' | 'too-few';
export type CorrelationOutcome = 'positive' | 'negative' | 'none' | 'too-few';

/** The numbers of one claim: a spread over seeds (a difference from 0), a size against a range, or a correlation. */
export type Evidence =
  | { kind: 'difference'; spread: Pick<Spread, 'mean' | 'sd' | 'n' | 'interval'>; unit?: string; digits?: number }
  | {
      kind: 'range';
      spread: Pick<Spread, 'mean' | 'sd' | 'n' | 'interval'>;
      range: { min: number; max: number };
      rangeName: string;
      unit?: string;
      digits?: number;
    }
  | { kind: 'correlation'; r: number; p: number; n: number };

/** What the caller says when the evidence supports its claim; `numbers` is the rule's text of the numbers. */
export interface ClaimWords {
  /** The subject of the sentence, used when nothing is shown ("Streaming minus iid on next-domain accuracy"). */
  subject: string;
  /** The claim in its positive direction (above 0, a positive R, inside the range). */
  positive: (numbers: string, strength: string) => string;
  /** The claim in the other direction (below 0, a negative R); without it the rule says "below 0 beyond the spread". */
  negative?: (numbers: string, strength: string) => string;
  /** For a range: the size is above / below it (shown beyond its interval). */
  above?: (numbers: string) => string;
  below?: (numbers: string) => string;
}

export interface Claim<O extends string = string> {
  /** The evidence supports a claim (a direction, or where the size lies). */
  supported: boolean;
  outcome: O;
  /** The sentence (without a final full stop, so the caller can go on). */
  text: string;
  /** The numbers as the rule wrote them ("+1.7 ± 0.9 points (mean ± sd, 3 seeds; 95% interval −0.4 to 3.9)"). */
  numbers: string;
}

/** The direction a spread of one value per seed shows: needs ≥ MIN_SEEDS_FOR_CLAIM seeds and an interval off 0. */
export function differenceOutcome(s: { n: number; interval: { lo: number; hi: number } | null }): DifferenceOutcome {
  if (s.n < MIN_SEEDS_FOR_CLAIM || !s.interval) return 'too-few';
  if (s.interval.lo > 0) return 'positive';
  if (s.interval.hi < 0) return 'negative';
  return 'unclear';
}

/** Where a size lies against a range: only when its whole interval is on one side (or inside). */
export function rangeOutcome(s: { n: number; interval: { lo: number; hi: number } | null }, range: { min: number; max: number }): RangeOutcome {
  if (s.n < MIN_SEEDS_FOR_CLAIM || !s.interval) return 'too-few';
  if (s.interval.lo > range.max) return 'above';
  if (s.interval.hi < range.min) return 'below';
  if (s.interval.lo >= range.min && s.interval.hi <= range.max) return 'within';
  return 'overlaps';
}

/** Whether a correlation is shown: p < ALPHA over at least MIN_CORRELATION_PAIRS pairs. */
export function correlationOutcome(c: { r: number; p: number; n: number }): CorrelationOutcome {
  if (!(c.n >= MIN_CORRELATION_PAIRS) || !Number.isFinite(c.r)) return 'too-few';
  if (!(c.p < ALPHA)) return 'none';
  return c.r >= 0 ? 'positive' : 'negative';
}

/** "+1.7 ± 0.9 points (mean ± sd, 3 seeds)" — the interval is said by the rule where it matters. */
function spreadNumbers(s: Pick<Spread, 'mean' | 'sd' | 'n'>, unit: string, digits: number, sign: boolean): string {
  const u = unit === '%' ? '%' : unit ? ` ${unit}` : '';
  const m = sign ? signed(s.mean, digits) : num(s.mean, digits);
  if (!(s.n > 1) || !Number.isFinite(s.sd)) return `${m}${u} (${plural(s.n, 'seed')})`;
  return `${m} ± ${num(s.sd, digits)}${u} (mean ± sd, ${plural(s.n, 'seed')})`;
}

const intervalText = (i: { lo: number; hi: number }, digits: number) => `95% interval ${num(i.lo, digits)} to ${num(i.hi, digits)}`;

const tooFew = (n: number) =>
  n < MIN_SEEDS_FOR_CLAIM
    ? `with ${plural(n, 'seed')}, fewer than the ${MIN_SEEDS_FOR_CLAIM} a claim needs, this is not evidence either way`
    : 'without an interval this is not evidence either way';

/** The claim rule: whether the evidence supports the claim, and the sentence in either case. */
export function claim(e: Evidence & { kind: 'difference' }, w: ClaimWords): Claim<DifferenceOutcome>;
export function claim(e: Evidence & { kind: 'range' }, w: ClaimWords): Claim<RangeOutcome>;
export function claim(e: Evidence & { kind: 'correlation' }, w: ClaimWords): Claim<CorrelationOutcome>;
export function claim(e: Evidence, w: ClaimWords): Claim;
export function claim(e: Evidence, w: ClaimWords): Claim {
  if (e.kind === 'correlation') {
    const outcome = correlationOutcome(e);
    const numbers = `R = ${num(e.r, 2)}, ${pText(e.p)}, n = ${countText(e.n)}`;
    const strength = correlationWord(e.r);
    if (outcome === 'positive') return { supported: true, outcome, numbers, text: w.positive(numbers, strength) };
    if (outcome === 'negative')
      return { supported: true, outcome, numbers, text: w.negative ? w.negative(numbers, strength) : `${w.subject}: ${strength} negative (${numbers})` };
    const why =
      outcome === 'too-few'
        ? `with ${plural(e.n, 'pair')}, fewer than the ${MIN_CORRELATION_PAIRS} a correlation needs, no correlation is shown`
        : `not significant at ${Math.round(ALPHA * 100)}%: no correlation is shown`;
    return { supported: false, outcome, numbers, text: `${w.subject}: ${numbers}, ${why}` };
  }
  const digits = e.digits ?? 1;
  const unit = e.unit ?? 'points';
  const s = e.spread;
  if (e.kind === 'difference') {
    const outcome = differenceOutcome(s);
    const base = spreadNumbers(s, unit, digits, true);
    const numbers = s.interval && s.n > 1 ? `${base.slice(0, -1)}; ${intervalText(s.interval, digits)})` : base;
    // a size said as found reads without its sign ("falls by 8.7 points"); the sign stays where the direction is open
    const plain = spreadNumbers(s, unit, digits, false);
    const sized = s.interval && s.n > 1 ? `${plain.slice(0, -1)}; ${intervalText(s.interval, digits)})` : plain;
    if (outcome === 'positive') return { supported: true, outcome, numbers, text: w.positive(sized, '') };
    if (outcome === 'negative')
      return { supported: true, outcome, numbers, text: w.negative ? w.negative(numbers, '') : `${w.subject}: ${numbers}, below 0 beyond the spread` };
    if (outcome === 'unclear')
      return {
        supported: false,
        outcome,
        numbers,
        text: `${w.subject}: ${base}, not distinguishable from 0 at ${plural(s.n, 'seed')} (${intervalText(s.interval!, digits)})`,
      };
    return { supported: false, outcome, numbers, text: `${w.subject}: ${base}; ${tooFew(s.n)}` };
  }
  const outcome = rangeOutcome(s, e.range);
  const base = spreadNumbers(s, unit, digits, false);
  const numbers = s.interval && s.n > 1 ? `${base.slice(0, -1)}; ${intervalText(s.interval, digits)})` : base;
  const range = `${e.rangeName} (${num(e.range.min, digits)} to ${num(e.range.max, digits)}${unit === '%' ? '%' : ` ${unit}`})`;
  if (outcome === 'within') return { supported: true, outcome, numbers, text: w.positive(numbers, '') };
  if (outcome === 'above') return { supported: true, outcome, numbers, text: w.above ? w.above(numbers) : `${w.subject}: ${numbers}, above ${range}` };
  if (outcome === 'below') return { supported: true, outcome, numbers, text: w.below ? w.below(numbers) : `${w.subject}: ${numbers}, below ${range}` };
  if (outcome === 'overlaps')
    return {
      supported: false,
      outcome,
      numbers,
      text: `${w.subject}: ${base}; its ${intervalText(s.interval!, digits)} straddles an end of ${range}, so neither inside nor outside it is shown`,
    };
  return { supported: false, outcome, numbers, text: `${w.subject}: ${base}; ${tooFew(s.n)}` };
}
