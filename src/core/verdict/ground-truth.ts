/**
 * The Ground-truth lab's verdict (docs/verdicts.md §Ground truth): after (or during) a run, per strategy,
 *   1. which estimate — the RS orderings or EDGE's three — is closer to the truth's distribution (JSD, W1);
 *   2. where EDGE hard and EDGE easy land in the truth (is the "hard" ordering below the truth's mean?);
 *   3. how well similarity S predicts accuracy (Pearson R, p, n);
 *   4. whether the truth looks normal after Box-Cox (the premise of the Gaussian estimates);
 * in plain sentences with the numbers, from the statistics the lab already derives (core/ground-truth/derive.ts).
 *
 * Each strategy gets a verdict of its own (`groundTruthVerdicts`), with a headline. While a strategy's truth is
 * incomplete its verdict is **provisional**: it says n of N of that strategy's orderings, and gives 95% intervals
 * (Pearson R by Fisher z, the truth's mean by t with the finite-population correction, ./intervals.ts) — but only when
 * the finished orderings are a uniform random sample of the planned ones (`partial.uniform`); otherwise it says that
 * they are not, and that the final numbers can differ by more than any interval would suggest. A correlation's
 * strength is said only through the claim rule (./claim.ts: p < 0.05 over at least 10 orderings). With a flat
 * similarity (one S, or almost one, over the truth) EDGE's picks are arbitrary: that is said, and EDGE is not compared
 * with RS.
 * Pure; tested in tests/unit/core/verdict/ground-truth.test.ts.
 */
import type { GroundTruthStats, StrategyStats } from '../ground-truth/derive';
import { NO_SPREAD_STD } from '../stats/jsd';
import { claim } from './claim';
import { meanInterval, pearsonInterval } from './intervals';
import { noVerdict, type Verdict, type VerdictSentence } from './types';
import { ALPHA, CONFIDENCE, EXTREME_SHARE, compareErrors, countText, flatScores, num, pText, pctText, plural, sameScore, strategyWord } from './wording';

/** How complete the truth is, from the lab's scheduler (ui/ground-truth/lab-state.svelte.ts `partialSample`). */
export interface PartialSample {
  /** Truth orderings finished. */
  n: number;
  /** Truth orderings planned. */
  total: number;
  /** The finished ones are a seeded uniform random sample of the planned ones (so intervals mean something). */
  uniform: boolean;
  /** The same per strategy (each strategy's finished orderings), when the scheduler says. */
  byStrategy?: Record<string, { n: number; uniform: boolean }>;
}

export interface GroundTruthVerdictInput {
  stats: GroundTruthStats;
  /** From the scheduler; when absent, n and N come from the statistics and the sample is not assumed uniform. */
  partial?: PartialSample | null;
}

const pts = (v: number) => num(100 * v, 1);
const levelText = `${Math.round(CONFIDENCE * 100)}%`;

function estimateSentence(s: StrategyStats, prefix: string): VerdictSentence | null {
  const rq = s.rs.quality.value;
  const eq = s.edge.quality.value;
  if (!rq || !eq) return null;
  const rsName = `${plural(s.rs.need, 'RS ordering')}`;
  const numbers =
    rq.jsd !== null && eq.jsd !== null
      ? `JSD ${num(eq.jsd)} vs ${num(rq.jsd)} bits, W1 ${num(eq.w1, 2)} vs ${num(rq.w1, 2)} points`
      : `W1 ${num(eq.w1, 2)} vs ${num(rq.w1, 2)} points`;
  const byJsd = rq.jsd !== null && eq.jsd !== null ? compareErrors(eq.jsd, rq.jsd) : null;
  const byW1 = compareErrors(eq.w1, rq.w1);
  const verdicts = byJsd === null ? [byW1] : [byJsd, byW1];
  // one draw of each protocol: what these orderings did, not a ranking of the protocols (the sample-count chart averages
  // many random draws)
  const once = 'one draw of each, so this does not rank the protocols: the sample-count chart averages many random draws';
  let text: string;
  if (verdicts.every((v) => v === 'same'))
    text = `In this run EDGE’s three orderings estimate the truth’s distribution about as well as the ${rsName} (${numbers}); ${once}.`;
  else if (verdicts.every((v) => v !== 'worse'))
    text = `In this run EDGE’s three orderings came closer to the truth’s distribution than the ${rsName} (${numbers}); ${once}.`;
  else if (verdicts.every((v) => v !== 'better'))
    text = `In this run the ${rsName} came closer to the truth’s distribution than EDGE’s three orderings (${numbers}); ${once}.`;
  else text = `In this run EDGE’s three orderings and the ${rsName} are each closer to the truth by one measure (${numbers}); ${once}.`;
  return { id: `estimates:${s.strategy}`, kind: 'note', text: prefix + text };
}

/** Share of the truth's values strictly below v. */
function shareBelow(values: readonly number[], v: number): number {
  let below = 0;
  for (const x of values) if (x < v) below++;
  return values.length ? below / values.length : NaN;
}

/**
 * Where EDGE hard and easy land against the truth's mean. Complete: the mean of every ordering (a fact of this run).
 * Partial: only beyond the mean's interval (a uniform sample), else not placed yet.
 */
function edgeClaimSentence(s: StrategyStats, prefix: string, partial: PartialSample | null): VerdictSentence | null {
  const m = s.truth.moments;
  const hard = s.edge.draws.find((d) => d.role === 'edge-hard')?.value ?? null;
  const easy = s.edge.draws.find((d) => d.role === 'edge-easy')?.value ?? null;
  if (!m || s.truth.values.length < 2 || hard === null || easy === null) return null;
  if (partial) {
    const ci = partial.uniform ? meanInterval(s.truth.values, CONFIDENCE, s.truth.planned) : null;
    if (!ci || (hard >= ci.lo && hard <= ci.hi) || (easy >= ci.lo && easy <= ci.hi)) {
      return {
        id: `edge-claim:${s.strategy}`,
        kind: 'note',
        text: `${prefix}EDGE hard scores ${pctText(hard)} and EDGE easy ${pctText(easy)}; ${ci ? `the mean of all orderings is within ${pctText(ci.lo)} – ${pctText(ci.hi)} (${levelText} interval), so where they land against it is not shown yet` : 'the orderings so far are not a random sample, so where they land against the final mean is not shown yet'}.`,
      };
    }
    const side = (v: number) => (v < ci.lo ? 'below' : 'above');
    return {
      id: `edge-claim:${s.strategy}`,
      kind: 'finding',
      text: `${prefix}EDGE hard scores ${pctText(hard)}, ${side(hard)} the mean’s ${levelText} interval (${pctText(ci.lo)} – ${pctText(ci.hi)}), and EDGE easy ${pctText(easy)}, ${side(easy)} it${hard < ci.lo && easy > ci.hi ? ': as they claim' : ''}.`,
    };
  }
  const mean = m.mean;
  const hb = shareBelow(s.truth.values, hard);
  const eb = shareBelow(s.truth.values, easy);
  const hardOk = hard < mean;
  const easyOk = easy > mean;
  const where = (v: number, b: number) => `${pctText(v)} (${pctText(b, 0)} of the truth’s orderings score lower)`;
  let text: string;
  if (hardOk && easyOk) {
    text = `EDGE hard scores ${where(hard, hb)} and EDGE easy ${where(easy, eb)}: below and above the truth’s mean of ${pctText(mean)}, as they claim.`;
  } else {
    const bits: string[] = [];
    if (!hardOk) bits.push(`EDGE hard scores ${where(hard, hb)}, not below the truth’s mean of ${pctText(mean)}: by accuracy it is not a hard ordering here`);
    if (!easyOk)
      bits.push(
        `EDGE easy scores ${where(easy, eb)}, not above the truth’s mean${hardOk ? ` of ${pctText(mean)}` : ''}: by accuracy it is not an easy ordering here`,
      );
    text = `${bits.join('; and ')}.`;
  }
  return { id: `edge-claim:${s.strategy}`, kind: 'finding', text: prefix + text };
}

/**
 * Why EDGE hard / easy are not what they claim by accuracy, when S says so too: the share of the truth's orderings with
 * a lower (higher) S than EDGE hard (easy). Said only when that ordering misses by accuracy.
 */
function edgeWhySentence(s: StrategyStats, prefix: string): VerdictSentence | null {
  const m = s.truth.moments;
  if (!m) return null;
  const hardDraw = s.edge.draws.find((d) => d.role === 'edge-hard');
  const easyDraw = s.edge.draws.find((d) => d.role === 'edge-easy');
  const point = (key: string | undefined) => s.points.find((p) => p.key === key);
  const hard = point(hardDraw?.key);
  const easy = point(easyDraw?.key);
  const truthScores = s.points.filter((p) => p.roles.includes('truth') && p.value !== null && p.score !== null).map((p) => p.score as number);
  if (!hard || !easy || hard.score === null || easy.score === null || hard.value === null || easy.value === null || truthScores.length < 2) return null;
  const hardMissed = !(hard.value < m.mean);
  const easyMissed = !(easy.value > m.mean);
  if (!hardMissed && !easyMissed) return null;
  // S within float noise of EDGE's counts as the same S, not a lower or higher one (the Orderings lab's "Ω below" too)
  const lower = truthScores.filter((v) => v < hard.score! && !sameScore(v, hard.score!)).length / truthScores.length;
  const higher = truthScores.filter((v) => v > easy.score! && !sameScore(v, easy.score!)).length / truthScores.length;
  // near its extreme of S (within EXTREME_SHARE of the truth's orderings): then S, not EDGE, is what misses
  const bits: string[] = [];
  if (hardMissed) {
    bits.push(
      lower <= EXTREME_SHARE
        ? `EDGE hard is among the lowest S (${pctText(lower, 0)} of the truth’s orderings lower), yet not hard: S does not predict accuracy well here`
        : `EDGE hard is not hard by similarity either: ${pctText(lower, 0)} of the truth’s orderings have a lower S`,
    );
  }
  if (easyMissed) {
    bits.push(
      higher <= EXTREME_SHARE
        ? `EDGE easy is among the highest S (${pctText(higher, 0)} higher), yet not easy: S does not predict accuracy well here`
        : `EDGE easy is not easy by similarity either: ${pctText(higher, 0)} of the truth’s orderings have a higher S`,
    );
  }
  return { id: `edge-why:${s.strategy}`, kind: 'why', text: `${prefix}${bits.join('; ')}.` };
}

function correlationSentence(s: StrategyStats, prefix: string, partial: PartialSample | null): VerdictSentence | null {
  const r = s.pearson.value;
  if (!r) return null;
  const stat = `R = ${num(r.statistic, 2)}, ${pText(r.pvalue)}, n = ${countText(r.n)}`;
  let interval = '';
  if (partial?.uniform) {
    const ci = pearsonInterval(r.statistic, r.n, CONFIDENCE);
    if (ci) interval = `; ${levelText} interval ${num(ci.lo, 2)} to ${num(ci.hi, 2)}`;
  }
  const c = claim(
    { kind: 'correlation', r: r.statistic, p: r.pvalue, n: r.n },
    {
      subject: 'Similarity S and accuracy',
      positive: (_, word) => `Similarity S predicts accuracy ${word} (${stat}${interval}): significant at ${Math.round(ALPHA * 100)}%`,
      negative: (_, word) =>
        `Similarity S and accuracy are ${word} negatively correlated (${stat}${interval}; significant at ${Math.round(ALPHA * 100)}%): here orderings with more alike neighbouring tasks scored lower, against the premise that they are easier`,
    },
  );
  const text = c.supported ? c.text : `${c.text}${interval ? ` (${interval.slice(2)})` : ''}`;
  return { id: `correlation:${s.strategy}:${c.outcome}`, kind: 'finding', text: `${prefix}${text}.` };
}

function normalitySentence(s: StrategyStats, prefix: string): VerdictSentence | null {
  const nr = s.normality.value;
  const sw = nr?.after.shapiro.value;
  if (!nr || !sw) return null;
  const tests = [nr.after.shapiro.value, nr.after.normaltest.value, nr.after.ks.value].filter((t): t is NonNullable<typeof t> => !!t);
  const rejecting = tests.filter((t) => t.pvalue < ALPHA).length;
  const agree = tests.length > 1 ? `; ${rejecting} of the ${tests.length} tests reject at ${Math.round(ALPHA * 100)}%` : '';
  const head = `After Box-Cox (λ = ${num(nr.lambda, 2)}), Shapiro–Wilk ${sw.pvalue < ALPHA ? 'rejects' : 'does not reject'} normality (W = ${num(sw.statistic, 3)}, ${pText(sw.pvalue)}, n = ${countText(nr.n)}${agree})`;
  const meaning =
    sw.pvalue < ALPHA
      ? ': a Gaussian misdescribes the shape of the spread, so read the Gaussian estimates’ JSD and W1 with care.'
      : ': a Gaussian is a fair model of the spread — the premise of the RS and EDGE estimates.';
  return { id: `normality:${s.strategy}`, kind: 'note', text: prefix + head + meaning };
}

function truthSentence(s: StrategyStats, prefix: string, partial: PartialSample | null, variableWord: string): VerdictSentence | null {
  const m = s.truth.moments;
  if (!m || s.truth.values.length === 0) return null;
  if (!partial) {
    return {
      id: `truth:${s.strategy}`,
      kind: 'note',
      text: `${prefix}The truth: ${plural(m.n, 'ordering')}, ${variableWord} ${pctText(m.mean)} ± ${pts(m.std)} (mean ± sd), from ${pctText(m.min)} to ${pctText(m.max)}.`,
    };
  }
  const of = `${countText(s.truth.evaluated)} of ${countText(s.truth.planned)} orderings`;
  if (!partial.uniform) {
    return {
      id: `truth:${s.strategy}`,
      kind: 'finding',
      text: `${prefix}So far (${of}): mean ${pctText(m.mean)} ± ${pts(m.std)} (sd); these orderings are not a random sample of the planned ones, so the final mean can lie outside any interval drawn from them.`,
    };
  }
  const ci = meanInterval(s.truth.values, CONFIDENCE, s.truth.planned);
  return {
    id: `truth:${s.strategy}`,
    kind: 'finding',
    text:
      `${prefix}So far (${of}, a uniform random sample of them): mean ${pctText(m.mean)} ± ${pts(m.std)} (sd)` +
      (ci ? `; the mean of all ${countText(s.truth.planned)} is within ${pctText(ci.lo)} – ${pctText(ci.hi)} (${levelText} interval).` : '.'),
  };
}

/** S over the truth's orderings is flat (one value, or almost one): EDGE's picks are arbitrary. */
function flatSimilarity(s: StrategyStats): boolean {
  const scores = s.points.filter((p) => p.roles.includes('truth') && p.score !== null).map((p) => p.score as number);
  return scores.length >= 2 && flatScores(scores);
}

function flatSentence(s: StrategyStats, prefix: string): VerdictSentence {
  return {
    id: `flat-s:${s.strategy}`,
    kind: 'finding',
    text: `${prefix}The similarity is flat: every ordering has ${flatExact(s) ? 'the same' : 'almost the same'} S, so EDGE’s hard and easy orderings are arbitrary picks here, and comparing them with RS says nothing about EDGE. The runs still show the true spread of accuracy over the orderings.`,
  };
}

function flatExact(s: StrategyStats): boolean {
  const scores = s.points.filter((p) => p.roles.includes('truth') && p.score !== null).map((p) => p.score as number);
  return scores.every((v) => sameScore(v, scores[0]));
}

/**
 * A strategy whose orderings all end at one accuracy (a prototype method on frozen features: SimpleCIL, FeCAM) has
 * nothing to estimate, no hard or easy ordering and no correlation to find: one sentence says so instead of the others
 * (whose JSD would be undefined and whose W1 is 0). Up to float rounding (jsd.ts NO_SPREAD_STD).
 */
function noSpreadSentence(s: StrategyStats, prefix: string, variableWord: string): VerdictSentence | null {
  const m = s.truth.moments;
  if (!m || s.truth.values.length < 2 || m.max - m.min > NO_SPREAD_STD) return null;
  const of = s.truth.complete ? `all ${countText(m.n)} orderings` : `all ${countText(m.n)} orderings trained so far`;
  return {
    id: `no-spread:${s.strategy}`,
    kind: 'finding',
    text: `${prefix}Every ordering ends at the same ${variableWord}, ${pctText(m.mean)} (${of}): for this strategy the order of the classes does not matter, so there is no spread to estimate and no ordering is harder or easier than another.`,
  };
}

/** One strategy's verdict, with the strategy it is of. */
export interface StrategyVerdict {
  strategy: string;
  verdict: Verdict;
}

/** The headline of one strategy's verdict. At most 30 words. */
function headlineOf(s: StrategyStats, variableWord: string, partial: PartialSample | null, flat: boolean): string {
  const m = s.truth.moments;
  if (!m) return '';
  const who = strategyWord(s.strategy);
  const of = partial ? `${countText(s.truth.evaluated)} of ${countText(s.truth.planned)} orderings so far` : `${countText(m.n)} orderings`;
  const span = `from ${pctText(m.min)} to ${pctText(m.max)}`;
  if (m.max - m.min <= NO_SPREAD_STD)
    return `With ${who}, every ordering ends at the same ${variableWord} (${pctText(m.mean)}): the order of the classes does not matter.`;
  if (flat) return `Every ordering has the same similarity S here, so EDGE's picks are arbitrary; ${who}'s ${variableWord} spans ${span} over ${of}.`;
  const hard = s.edge.draws.find((d) => d.role === 'edge-hard')?.value ?? null;
  const easy = s.edge.draws.find((d) => d.role === 'edge-easy')?.value ?? null;
  const head = `The class order moves ${who}'s ${variableWord} ${span} over ${of}`;
  if (hard === null || easy === null) return `${head}.`;
  if (partial) return `${head}; where EDGE's hard and easy picks land is not settled yet.`;
  const where =
    hard < m.mean && easy > m.mean
      ? 'below and above its mean, as claimed'
      : hard < m.mean
        ? 'hard below its mean, easy not above it'
        : easy > m.mean
          ? 'easy above its mean, hard not below it'
          : 'on the wrong sides of its mean';
  return `${head}; EDGE's hard and easy picks land ${where}.`;
}

/** One verdict per strategy with a truth value (docs/verdicts.md §Ground truth). */
export function groundTruthVerdicts(input: GroundTruthVerdictInput): StrategyVerdict[] {
  const { stats } = input;
  const variableWord = stats.variable === 'aia' ? 'average incremental accuracy' : 'final accuracy';
  return stats.strategies
    .filter((s) => s.truth.evaluated > 0)
    .map((s) => {
      // this strategy's own count and sample (the scheduler's, else its statistics')
      const own = input.partial?.byStrategy?.[s.strategy];
      const partial: PartialSample | null = s.truth.complete
        ? null
        : { n: own?.n ?? s.truth.evaluated, total: input.partial?.total ?? s.truth.planned, uniform: own?.uniform ?? input.partial?.uniform ?? false };
      const out: VerdictSentence[] = [];
      const spread = noSpreadSentence(s, '', variableWord);
      const flat = !spread && flatSimilarity(s);
      if (spread) out.push(spread);
      else if (flat) {
        out.push(flatSentence(s, ''));
        for (const sentence of [truthSentence(s, '', partial, variableWord), normalitySentence(s, '')]) if (sentence) out.push(sentence);
      } else {
        for (const sentence of [
          edgeClaimSentence(s, '', partial),
          partial ? null : edgeWhySentence(s, ''),
          correlationSentence(s, '', partial),
          truthSentence(s, '', partial, variableWord),
          estimateSentence(s, ''),
          normalitySentence(s, ''),
        ]) {
          if (sentence) out.push(sentence);
        }
      }
      // the truth may be complete while RS/EDGE orderings outside a sampled truth are still training
      const estimatesPending = s.rs.have < s.rs.need || s.edge.have < s.edge.need;
      const who = strategyWord(s.strategy);
      const provisionalNote = partial
        ? `Provisional: ${countText(partial.n)} of ${countText(partial.total)} truth orderings of ${who} trained` +
          (partial.uniform
            ? ' — a seeded uniform random sample of them, so the intervals say how far the final numbers may lie.'
            : ' — not a random sample of them (they finish in training order), so the final numbers can differ by more than these suggest.')
        : estimatesPending
          ? `Provisional: the truth of ${who} is complete, but some RS or EDGE orderings are still to be trained; their estimates follow.`
          : '';
      return {
        strategy: s.strategy,
        verdict: { headline: headlineOf(s, variableWord, partial, flat), sentences: out, provisional: !!partial || estimatesPending, provisionalNote },
      };
    });
}

/**
 * Every strategy's verdict in one (the CLI's `verdict`, and a page with one strategy): the sentences prefixed with
 * their strategy when there are several, the first strategy's headline, provisional while any is.
 */
export function groundTruthVerdict(input: GroundTruthVerdictInput): Verdict {
  const all = groundTruthVerdicts(input);
  if (all.length === 0) return noVerdict();
  if (all.length === 1) return all[0].verdict;
  const prov = all.filter((x) => x.verdict.provisional);
  return {
    headline: all[0].verdict.headline,
    sentences: all.flatMap((x) => x.verdict.sentences.map((q) => ({ ...q, text: `${x.strategy}: ${q.text}` }))),
    provisional: prov.length > 0,
    provisionalNote: prov.map((x) => x.verdict.provisionalNote).join(' '),
  };
}
