/**
 * The Time lab's verdict (docs/verdicts.md §Time): over the seeds run,
 *   1. how much the iid protocol's in-domain accuracy overstates next-domain accuracy (the gap), against the range of
 *      CLEAR's Table 1 (src/core/stream/paper.ts), and why when the lab can tell (the drift strength, a control stream);
 *   2. whether streaming beats iid on next-domain accuracy — said as holding only beyond the spread (≥ 3 seeds, a 95 %
 *      interval of the paired difference that excludes 0), with CLEAR's range beside it;
 *   3. what to try.
 * `readTime` computes the numbers and outcomes (the rules, checked against scripts/make-verdict-fixtures.py);
 * `timeVerdict` words them. Pure.
 */
import type { StreamKind } from '../stream/buckets';
import type { StreamMetrics, StreamProtocol } from '../stream/metrics';
import { CLEAR_GAP_RANGE, CLEAR_STREAMING_LEAD_RANGE } from '../stream/paper';
import { spreadOf, type Spread } from './intervals';
import type { Verdict, VerdictSentence } from './types';
import { MIN_SEEDS_FOR_CLAIM, claimOf, countText, num, signed, spreadText } from './wording';

/** A drift strength at or above this is "strong" (the lab's `strong-drift` preset, strength 1): said as the gap's cause. */
export const STRONG_DRIFT = 0.5;
/** The lab's default drift strength, whose gap is in CLEAR's range (measured: docs/science.md §7). */
export const CLEAR_LIKE_STRENGTH = 0.2;

export interface TimeRun {
  seed: number;
  protocol: StreamProtocol;
  /** CLEAR's averages of R, fractions (null where the protocol does not report them) */
  metrics: Pick<StreamMetrics, 'inDomain' | 'nextDomain'>;
}

export interface TimeVerdictInput {
  settings: { stream: StreamKind; strength: number; trainRatio: number };
  runs: readonly TimeRun[];
  /** runs planned (seeds × protocols); fewer finished makes the verdict provisional */
  planned?: number;
}

export type GapOutcome = 'within' | 'above' | 'below';

export interface TimeReading {
  /** iid in-domain − next-domain per seed, in points (null without iid runs) */
  gap: (Spread & { values: number[]; outcome: GapOutcome }) | null;
  /** streaming − iid next-domain per seed with both, in points (null without a pair) */
  lead: (Spread & { values: number[]; claim: ReturnType<typeof claimOf> }) | null;
}

const points = (x: number | null | undefined) => (x === null || x === undefined ? NaN : 100 * x);

/** The numbers and outcomes of the rules. */
export function readTime(input: TimeVerdictInput): TimeReading {
  const iid = input.runs.filter((r) => r.protocol === 'iid');
  const gaps = iid.map((r) => points(r.metrics.inDomain) - points(r.metrics.nextDomain)).filter(Number.isFinite);
  let gap: TimeReading['gap'] = null;
  if (gaps.length > 0) {
    const s = spreadOf(gaps);
    const outcome: GapOutcome = s.mean > CLEAR_GAP_RANGE.max ? 'above' : s.mean < CLEAR_GAP_RANGE.min ? 'below' : 'within';
    gap = { ...s, values: gaps, outcome };
  }
  const leads: number[] = [];
  for (const a of iid) {
    const b = input.runs.find((r) => r.protocol === 'streaming' && r.seed === a.seed);
    if (b) leads.push(points(b.metrics.nextDomain) - points(a.metrics.nextDomain));
  }
  const finite = leads.filter(Number.isFinite);
  const lead = finite.length > 0 ? { ...spreadOf(finite), values: finite, claim: claimOf(spreadOf(finite)) } : null;
  return { gap, lead };
}

const range = (r: { min: number; max: number }, sign = false) =>
  sign ? `${signed(r.min)} to ${signed(r.max)} points` : `${num(r.min, 1)} to ${num(r.max, 1)} points`;

export function timeVerdict(input: TimeVerdictInput): Verdict {
  const { gap, lead } = readTime(input);
  const s = input.settings;
  const out: VerdictSentence[] = [];
  const clearGap = `CLEAR reports ${range(CLEAR_GAP_RANGE)} (Table 1, 18 methods, 5 seeds each)`;
  if (gap) {
    const head = `Under iid, in-domain accuracy overstates next-domain accuracy by ${spreadText(gap)}`;
    const where =
      gap.outcome === 'within' ? `: within the range ${clearGap}.` : gap.outcome === 'above' ? `: more than ${clearGap}.` : `: less than ${clearGap}.`;
    out.push({ id: `time-gap:${gap.outcome}`, kind: 'finding', text: head + where });
    if (s.stream === 'mixed') {
      out.push({
        id: 'time-gap-why:mixed',
        kind: 'why',
        text: 'This is the mixed control: every bucket is the same mixture of looks, so nothing drifts and the gap measures only the noise of a small test split.',
      });
    } else if (gap.outcome === 'above' && s.strength >= STRONG_DRIFT) {
      out.push({
        id: 'time-gap-why:strength',
        kind: 'why',
        text: `The drift is strong (strength ${num(s.strength, 2)}): each bucket's look moves further from the last than a year of CLEAR's web images does, so tomorrow's data is a different task.`,
      });
      out.push({
        id: 'time-gap-try:strength',
        kind: 'try',
        text: `Try drift strength ${num(CLEAR_LIKE_STRENGTH, 1)} (the lab's default), whose gap is of the size CLEAR reports.`,
      });
    } else if (gap.outcome === 'below' && s.stream === 'drift') {
      out.push({
        id: 'time-gap-why:weak',
        kind: 'why',
        text: `At drift strength ${num(s.strength, 2)} neighbouring buckets hardly differ, so next-domain data is nearly in-domain.`,
      });
    }
  }
  if (lead) {
    const paper = `CLEAR's streaming protocol leads by ${range(CLEAR_STREAMING_LEAD_RANGE, true)} (Table 1)`;
    const head = `Streaming minus iid on next-domain accuracy: ${spreadText(lead, 'points', 1, true)}`;
    let text: string;
    if (lead.claim === 'positive') text = `${head}. Streaming beats iid beyond the spread, as in the paper: ${paper}.`;
    else if (lead.claim === 'negative') text = `${head}. Here iid beats streaming beyond the spread, unlike the paper: ${paper}.`;
    else if (lead.claim === 'unclear') text = `${head}. The interval includes 0, so these seeds do not show that streaming beats iid; ${paper}.`;
    else text = `${head}. With ${countText(lead.n)} of the ${MIN_SEEDS_FOR_CLAIM} seeds a claim needs, this is not yet evidence either way; ${paper}.`;
    out.push({ id: `time-lead:${lead.claim}`, kind: 'finding', text });
    out.push({
      id: 'time-lead-why',
      kind: 'why',
      text: `Streaming trains on all of each bucket and tests on all of the next; iid trains on its ${num(100 * s.trainRatio, 0)}% training part, so streaming also has more data.`,
    });
    if (lead.claim === 'too-few' || lead.claim === 'unclear')
      out.push({ id: 'time-lead-try', kind: 'try', text: 'Run more seeds: the interval narrows with √n.' });
  }
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
  const finished = input.runs.length;
  const provisional = input.planned !== undefined && finished < input.planned;
  return {
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(finished)} of ${countText(input.planned!)} runs finished.` : '',
  };
}
