/**
 * The Time lab's verdict (docs/verdicts.md §Time): over the seeds run,
 *   1. how much the iid protocol's in-domain accuracy overstates next-domain accuracy (the gap), said as found only
 *      when its 95 % interval excludes 0 (the claim rule, ./claim.ts);
 *   2. whether the gap is beyond the no-drift control's (the same seeds' streams at strength 0, iid), paired by seed:
 *      only then is the drift shown to cause it;
 *   3. where a gap that is shown lies against the range of CLEAR's Table 1 (src/core/stream/paper.ts), by its interval;
 *   4. whether streaming beats iid on next-domain accuracy, paired by seed, with CLEAR's range beside it;
 *   5. what to try.
 * `readTime` computes the numbers and outcomes (the rules, checked against scripts/make-verdict-fixtures.py);
 * `timeVerdict` words them. Pure.
 */
import type { StreamKind } from '../stream/buckets';
import type { StreamMetrics, StreamProtocol } from '../stream/metrics';
import { CLEAR_GAP_RANGE, CLEAR_STREAMING_LEAD_RANGE } from '../stream/paper';
import { claim, differenceOutcome, rangeOutcome, type DifferenceOutcome, type RangeOutcome } from './claim';
import { spreadOf, type Spread } from './intervals';
import type { Verdict, VerdictSentence } from './types';
import { countText, num, plural, signed } from './wording';

/** A drift strength at or above this is "strong" (the lab's `strong-drift` preset, strength 1): said as the gap's cause. */
export const STRONG_DRIFT = 0.5;

export interface TimeRun {
  seed: number;
  protocol: StreamProtocol;
  /** CLEAR's averages of R, fractions (null where the protocol does not report them) */
  metrics: Pick<StreamMetrics, 'inDomain' | 'nextDomain'>;
}

export interface TimeVerdictInput {
  settings: { stream: StreamKind; strength: number; trainRatio: number };
  runs: readonly TimeRun[];
  /** the no-drift control: the same seeds' streams at strength 0, iid protocol (absent: not run) */
  control?: readonly TimeRun[];
  /** runs planned (seeds × protocols, and the control's); fewer finished makes the verdict provisional */
  planned?: number;
}

export interface TimeReading {
  /** iid in-domain − next-domain per seed, in points (null without iid runs); `clear`: against CLEAR's range */
  gap: (Spread & { values: number[]; outcome: DifferenceOutcome; clear: RangeOutcome }) | null;
  /** the control's gap per seed (null without control runs) */
  control: (Spread & { values: number[] }) | null;
  /** the gap minus the control's gap, paired by seed (null without a pair) */
  beyond: (Spread & { values: number[]; outcome: DifferenceOutcome }) | null;
  /** streaming − iid next-domain per seed with both, in points (null without a pair) */
  lead: (Spread & { values: number[]; claim: DifferenceOutcome }) | null;
}

const points = (x: number | null | undefined) => (x === null || x === undefined ? NaN : 100 * x);

/** iid in-domain − next-domain per seed, in points. */
function gapsOf(runs: readonly TimeRun[]): { seed: number; gap: number }[] {
  return runs
    .filter((r) => r.protocol === 'iid')
    .map((r) => ({ seed: r.seed, gap: points(r.metrics.inDomain) - points(r.metrics.nextDomain) }))
    .filter((g) => Number.isFinite(g.gap));
}

/** The numbers and outcomes of the rules. */
export function readTime(input: TimeVerdictInput): TimeReading {
  const gaps = gapsOf(input.runs);
  let gap: TimeReading['gap'] = null;
  if (gaps.length > 0) {
    const s = spreadOf(gaps.map((g) => g.gap));
    gap = { ...s, values: gaps.map((g) => g.gap), outcome: differenceOutcome(s), clear: rangeOutcome(s, CLEAR_GAP_RANGE) };
  }
  const controlGaps = gapsOf(input.control ?? []);
  const control = controlGaps.length > 0 ? { ...spreadOf(controlGaps.map((g) => g.gap)), values: controlGaps.map((g) => g.gap) } : null;
  const diffs = gaps.flatMap((g) => {
    const c = controlGaps.find((x) => x.seed === g.seed);
    return c ? [g.gap - c.gap] : [];
  });
  const beyond = diffs.length > 0 ? { ...spreadOf(diffs), values: diffs, outcome: differenceOutcome(spreadOf(diffs)) } : null;
  const leads: number[] = [];
  for (const a of input.runs.filter((r) => r.protocol === 'iid')) {
    const b = input.runs.find((r) => r.protocol === 'streaming' && r.seed === a.seed);
    if (b) leads.push(points(b.metrics.nextDomain) - points(a.metrics.nextDomain));
  }
  const finite = leads.filter(Number.isFinite);
  const lead = finite.length > 0 ? { ...spreadOf(finite), values: finite, claim: differenceOutcome(spreadOf(finite)) } : null;
  return { gap, control, beyond, lead };
}

const range = (r: { min: number; max: number }, sign = false) =>
  sign ? `${signed(r.min)} to ${signed(r.max)} points` : `${num(r.min, 1)} to ${num(r.max, 1)} points`;

/** The stream has nothing drifting: the mixed control, or the drift stream at strength 0. */
const noDrift = (s: TimeVerdictInput['settings']) => s.stream === 'mixed' || (s.stream === 'drift' && s.strength === 0);

/** The headline: the gap and, when run, its control; else the streaming lead. At most 30 words. */
function headlineOf(r: TimeReading, s: TimeVerdictInput['settings']): string {
  const g = r.gap;
  if (g) {
    const seeds = plural(g.n, 'seed');
    const size = `${num(g.mean, 1)} points`;
    if (g.outcome === 'too-few')
      return noDrift(s)
        ? `With nothing drifting, the gap between same-bucket and next-bucket accuracy is ${size} over ${seeds}; a claim needs 3 or more seeds.`
        : `Over ${seeds}, the gap between same-bucket and next-bucket accuracy is ${size}: not yet evidence, as a claim needs 3 or more seeds.`;
    if (noDrift(s))
      return g.outcome === 'positive'
        ? `Even with nothing drifting, next-bucket accuracy is ${size} below same-bucket accuracy over ${seeds}: this control shows the test split's noise.`
        : `With nothing drifting, same-bucket and next-bucket accuracy cannot be told apart over ${seeds} (gap ${size}), as a no-drift control should show.`;
    if (g.outcome !== 'positive') return `Over ${seeds}, accuracy on the next bucket cannot be told from accuracy on the bucket just trained on (gap ${size}).`;
    if (r.beyond?.outcome === 'positive')
      return `Tested on the next bucket, the model scores ${size} lower than on the bucket it trained on — beyond the no-drift control, over ${seeds}.`;
    if (r.beyond) return `The model scores ${size} lower on the next bucket than on its own, but no more than on a stream without drift (${seeds}).`;
    return `The model scores ${size} lower on the next bucket than on the bucket it trained on (${seeds}); run the no-drift control to show drift causes it.`;
  }
  if (r.lead) {
    const seeds = plural(r.lead.n, 'seed');
    return r.lead.claim === 'positive'
      ? `Streaming beats iid on next-bucket accuracy by ${num(r.lead.mean, 1)} points over ${seeds}, beyond the spread.`
      : r.lead.claim === 'negative'
        ? `Iid beats streaming on next-bucket accuracy by ${num(-r.lead.mean, 1)} points over ${seeds}, beyond the spread.`
        : `Over ${seeds}, streaming and iid cannot be told apart on next-bucket accuracy (${signed(r.lead.mean)} points).`;
  }
  return '';
}

export function timeVerdict(input: TimeVerdictInput): Verdict {
  const r = readTime(input);
  const { gap, lead, beyond, control } = r;
  const s = input.settings;
  const out: VerdictSentence[] = [];
  if (gap) {
    const c = claim(
      { kind: 'difference', spread: gap },
      {
        subject: 'Under iid, in-domain minus next-domain accuracy (the gap)',
        positive: (n) => `Under iid, in-domain accuracy overstates next-domain accuracy by ${n}`,
        negative: (n) => `Under iid, next-domain accuracy is above in-domain accuracy: in-domain minus next-domain = ${n}`,
      },
    );
    out.push({ id: `time-gap:${gap.outcome}`, kind: 'finding', text: `${c.text}.` });
    if (beyond && control) {
      const b = claim(
        { kind: 'difference', spread: beyond },
        {
          subject: `The gap minus the no-drift control's gap (${num(control.mean, 1)} points), paired by seed`,
          positive: (n) =>
            `The gap is beyond the no-drift control's (${num(control.mean, 1)} points, the same seeds at strength 0) by ${n}, paired by seed: the drift causes it`,
          negative: (n) => `The gap is below the no-drift control's (${num(control.mean, 1)} points) by ${n}, paired by seed`,
        },
      );
      out.push({ id: `time-control:${beyond.outcome}`, kind: 'finding', text: `${b.text}.` });
    } else if (!noDrift(s)) {
      out.push({
        id: 'time-control-try',
        kind: 'try',
        text: 'Run the no-drift control (the same seeds at strength 0) to see whether the drift, not the noise of the test split, makes the gap.',
      });
    }
    // a size against CLEAR's range is said only for a gap that is there
    if (gap.outcome === 'positive') {
      const k = claim(
        { kind: 'range', spread: gap, range: CLEAR_GAP_RANGE, rangeName: 'the range CLEAR reports (Table 1, 18 methods, 5 seeds each)' },
        {
          subject: 'Against CLEAR, the gap',
          positive: () => `The gap lies within the range CLEAR reports (${range(CLEAR_GAP_RANGE)}, Table 1, 18 methods): its whole 95% interval is inside`,
          above: () => `The gap is larger than CLEAR reports (${range(CLEAR_GAP_RANGE)}, Table 1, 18 methods), beyond its interval`,
          below: () => `The gap is smaller than CLEAR reports (${range(CLEAR_GAP_RANGE)}, Table 1, 18 methods), beyond its interval`,
        },
      );
      out.push({ id: `time-clear:${gap.clear}`, kind: 'note', text: `${k.text}.` });
    }
    if (s.stream === 'mixed') {
      out.push({
        id: 'time-gap-why:mixed',
        kind: 'why',
        text: 'This is the mixed control: every bucket is the same mixture of looks, so nothing drifts and the gap measures only the noise of a small test split.',
      });
    } else if (s.stream === 'drift' && s.strength === 0) {
      out.push({
        id: 'time-gap-why:no-drift',
        kind: 'why',
        text: 'At strength 0 nothing drifts: every bucket has the same looks, so the gap measures only the noise of a small test split.',
      });
    } else if (gap.clear === 'above' && s.strength >= STRONG_DRIFT) {
      out.push({
        id: 'time-gap-why:strength',
        kind: 'why',
        text: `The drift is strong (strength ${num(s.strength, 2)}): each bucket's look moves further from the last than a year of CLEAR's web images does, so tomorrow's data is a different task.`,
      });
    }
  }
  if (lead) {
    const paper = `CLEAR's streaming protocol leads by ${range(CLEAR_STREAMING_LEAD_RANGE, true)} (Table 1)`;
    const c = claim(
      { kind: 'difference', spread: lead },
      {
        subject: 'Streaming minus iid on next-domain accuracy',
        positive: (n) => `Streaming beats iid on next-domain accuracy by ${n}, as in the paper`,
        negative: (n) => `Here iid beats streaming on next-domain accuracy: streaming minus iid = ${n}, unlike the paper`,
      },
    );
    out.push({ id: `time-lead:${lead.claim}`, kind: 'finding', text: `${c.text}; ${paper}.` });
    out.push({
      id: 'time-lead-why',
      kind: 'why',
      text: `Streaming trains on all of each bucket and tests on all of the next; iid trains on its ${num(100 * s.trainRatio, 0)}% training part, so streaming also has more data.`,
    });
  }
  if ((gap && gap.outcome !== 'positive' && gap.outcome !== 'negative') || (lead && (lead.claim === 'too-few' || lead.claim === 'unclear')))
    out.push({ id: 'time-seeds-try', kind: 'try', text: 'Run more seeds, or more images per class (a larger test split): the interval narrows with both.' });
  if (s.stream === 'abrupt')
    out.push({
      id: 'time-note:abrupt',
      kind: 'note',
      text: 'This is the abrupt control: the same looks in a shuffled order, so neighbouring buckets are not neighbours in look.',
    });
  out.push({
    id: 'time-note:streaming-in-domain',
    kind: 'note',
    text: 'Under streaming the diagonal of R is accuracy on training data, so only next-domain accuracy is compared between the protocols.',
  });
  const finished = input.runs.length + (input.control?.length ?? 0);
  const provisional = input.planned !== undefined && finished < input.planned;
  return {
    headline: out.length ? headlineOf(r, s) : '',
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(finished)} of ${countText(input.planned!)} runs finished.` : '',
  };
}
