/**
 * The Forgetting lab's verdict (docs/verdicts.md §Forgetting): per model (MLP = fine-tuning, EWC), over the seeds,
 *   1. whether the base task is learned (≥ MIN_BASE_ACCURACY): forgetting of what was never learned means little;
 *   2. whether old-task accuracy a_prev falls, and whether CPCF rises as it falls (Pearson r < 0), seed by seed;
 *   3. the association: dCor mean ± sd with its permutation p, read against dCor's chance band for the run's points
 *      (src/core/stats/dcor-null.ts), never against 0;
 *   4. the control: the trend-matched null (src/core/stats/dcor-permutation.ts trendMatchedDcorTest) — CPCF's own
 *      straight-line trend over the tasks kept, its deviations shuffled: two series that both move over the tasks have
 *      a large dCor whatever links them, so only a dCor beyond this null says CPCF follows a_prev and not just time;
 *   5. the paper: it reports a "strong correlation"; we compare what can be compared — is the association there beyond
 *      chance (p), and in the direction forgetting implies — not the size of dCor, because the paper does not say what
 *      its dCor is computed over and its Fashion-MNIST values lie below what any 5 points give by chance;
 *   6. every setting that differs from the paper's, or that the paper does not state (a note);
 *   7. why and what to try when the base task is not learned or nothing is forgotten.
 * Every size and direction is said through the claim rule (./claim.ts).
 * `readForgetting` computes the outcomes (checked against scripts/make-verdict-fixtures.py); `forgettingVerdict`
 * words them. Pure.
 */
import { MIN_BASE_ACCURACY, paperFigureOf, summariseDcor, unstatedSettings, type CompareSetup, type DcorSummary, type SeedSeries } from '../forgetting/compare';
import { lrText } from '../forgetting/setup';
import { dcorNullDistribution, dcorNullQuantile } from '../stats/dcor-null';
import { trendMatchedDcorTest, type DcorTest } from '../stats/dcor-permutation';
import { claim, differenceOutcome, type DifferenceOutcome } from './claim';
import { spreadOf, type Spread } from './intervals';
import type { Verdict, VerdictSentence } from './types';
import { ALPHA, countText, listText, num, pText, pctText, significance } from './wording';

/** a_prev falling by less than this (first point − last point) is "hardly any forgetting": nothing for CPCF to follow. */
export const MIN_FORGETTING = 0.1;
/** The chance band drawn and quoted for dCor: these two quantiles of its null distribution (a 90 % band). */
export const DCOR_BAND: readonly [number, number] = [0.05, 0.95];

export interface ForgettingGroup {
  /** 'finetune' (the paper's MLP) or 'ewc' */
  strategy: string;
  ewcLambda?: number;
  runs: readonly SeedSeries[];
  /** runs planned for this group; fewer finished makes the verdict provisional */
  planned?: number;
}

export interface ForgettingVerdictInput {
  setup: CompareSetup;
  alpha: number;
  calibrationRatio: number;
  groups: readonly ForgettingGroup[];
  /** the permutation test's Monte Carlo resamples (default 9 999) */
  resamples?: number;
}

export type AgreementOutcome = 'agrees' | 'no-direction' | 'no-association' | 'not-learned' | 'too-few-points';

export interface ForgettingGroupReading {
  strategy: string;
  summary: DcorSummary | null;
  learned: boolean;
  /** mean over seeds of a_prev's first point minus its last */
  drop: number;
  /** the same per seed, in points, with its direction by the claim rule */
  dropSpread: Spread & { outcome: DifferenceOutcome };
  /** the trend-matched null of the mean dCor (null under 3 points) */
  trend: DcorTest | null;
  agreement: AgreementOutcome;
  null: { mean: number; lo: number; hi: number } | null;
  paper: ReturnType<typeof paperFigureOf>;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function readForgettingGroup(input: ForgettingVerdictInput, g: ForgettingGroup): ForgettingGroupReading {
  const runs = g.runs.filter((r) => r.cpcf.length === g.runs[0]?.cpcf.length);
  const points = runs[0]?.cpcf.length ?? 0;
  const summary = runs.length > 0 && points >= 2 ? summariseDcor(input.setup, runs, { seed: runs[0].seed, resamples: input.resamples }) : null;
  const learned = mean(g.runs.map((r) => r.baseAccuracy)) >= MIN_BASE_ACCURACY;
  const drops = runs.map((r) => r.aPrev[0] - r.aPrev[r.aPrev.length - 1]);
  const drop = mean(drops);
  const ds = spreadOf(drops.map((d) => 100 * d));
  const trend =
    points >= 3
      ? trendMatchedDcorTest(
          runs.map((r) => ({ x: r.cpcf, y: r.aPrev })),
          { resamples: input.resamples, seed: runs[0].seed },
        )
      : null;
  let agreement: AgreementOutcome;
  if (!learned) agreement = 'not-learned';
  else if (!summary || points < 3) agreement = 'too-few-points';
  else if (!(summary.p < ALPHA)) agreement = 'no-association';
  else if (summary.falling < runs.length) agreement = 'no-direction';
  else agreement = 'agrees';
  let band: ForgettingGroupReading['null'] = null;
  if (points >= 2) {
    const d = dcorNullDistribution(points);
    band = { mean: d.mean, lo: dcorNullQuantile(d, DCOR_BAND[0]), hi: dcorNullQuantile(d, DCOR_BAND[1]) };
  }
  return {
    strategy: g.strategy,
    summary,
    learned,
    drop,
    dropSpread: { ...ds, outcome: differenceOutcome(ds) },
    trend,
    agreement,
    null: band,
    paper: paperFigureOf(input.setup.dataset, g.strategy, input.alpha, input.calibrationRatio),
  };
}

/** The headline of one model (the first, prefixed with its name when there are several). At most 30 words. */
function headlineOf(r: ForgettingGroupReading, g: ForgettingGroup, several: boolean): string {
  const prefix = several ? `${modelName(g.strategy)}: ` : '';
  const n = g.runs.length;
  if (!r.learned) return `${prefix}The base task is not learned, so CPCF's link to forgetting cannot be read from this run.`;
  if (r.dropSpread.outcome !== 'positive')
    return `${prefix}Old-task accuracy is not shown to fall over ${seedsText(n)}, so there is no forgetting for CPCF to follow.`;
  const fall = `As old-task accuracy falls ${num(r.dropSpread.mean, 0)} points`;
  const s = r.summary;
  if (!s || r.agreement === 'too-few-points') return `${prefix}${fall}, too few points per run say nothing yet about CPCF.`;
  if (r.agreement === 'no-association') return `${prefix}${fall}, CPCF's association with it is not beyond chance over ${seedsText(n)}.`;
  if (r.agreement === 'no-direction')
    return `${prefix}${fall}, CPCF is associated with it beyond chance but rises in only ${countText(s.falling)} of ${seedsText(n)}.`;
  return r.trend && r.trend.p < ALPHA
    ? `${prefix}${fall}, CPCF rises in every seed, beyond chance and beyond their shared trend over ${seedsText(n)}.`
    : `${prefix}${fall}, CPCF rises in every seed, beyond chance but not beyond CPCF's own trend over the tasks (${seedsText(n)}).`;
}

const modelName = (s: string) => (s === 'finetune' ? 'MLP' : s === 'ewc' ? 'EWC' : s);
const seedsText = (n: number) => `${countText(n)} seed${n === 1 ? '' : 's'}`;

export function forgettingVerdict(input: ForgettingVerdictInput): Verdict {
  const out: VerdictSentence[] = [];
  const several = input.groups.length > 1;
  let planned = 0;
  let finished = 0;
  let head: { r: ForgettingGroupReading; g: ForgettingGroup } | null = null;
  for (const g of input.groups) {
    planned += g.planned ?? g.runs.length;
    finished += g.runs.length;
    if (g.runs.length === 0) continue;
    const r = readForgettingGroup(input, g);
    if (!head) head = { r, g };
    const prefix = several ? `${modelName(g.strategy)}: ` : '';
    const tag = g.strategy;
    const base = mean(g.runs.map((x) => x.baseAccuracy));
    const baseSd = g.runs.length > 1 ? Math.sqrt(g.runs.reduce((a, x) => a + (x.baseAccuracy - base) ** 2, 0) / (g.runs.length - 1)) : NaN;
    const baseText = `${pctText(base)}${Number.isFinite(baseSd) ? ` ± ${num(100 * baseSd, 1)}` : ''} (${seedsText(g.runs.length)})`;
    if (!r.learned) {
      out.push({
        id: `fg-base:${tag}:not-learned`,
        kind: 'finding',
        text: `${prefix}The base task is not learned: ${baseText} right after training it, below the ${pctText(MIN_BASE_ACCURACY, 0)} we ask. Forgetting of what was never learned says little, so CPCF is not read against the paper here.`,
      });
      out.push({
        id: `fg-base-why:${tag}`,
        kind: 'why',
        text: `${prefix}At learning rate ${lrText(input.setup.lr)} the base task gets ${countText(input.setup.firstTaskEpochs)} epochs${input.setup.trainPerClass !== null ? ` of ${countText(input.setup.trainPerClass)} images per class` : ''}: far fewer Adam steps than the paper's ≈ 3 400.`,
      });
      out.push({
        id: `fg-base-try:${tag}`,
        kind: 'try',
        text: 'Try the paper regime on digits (300 epochs on the base task, 85 per later task: the paper’s number of steps), the lab’s default, or a faster learning rate (1e-3).',
      });
    } else {
      out.push({ id: `fg-base:${tag}:learned`, kind: 'finding', text: `${prefix}The base task is learned: ${baseText} right after training it.` });
    }
    const s = r.summary;
    if (s) {
      const rs = s.pearson.filter(Number.isFinite).map((x) => num(x, 2));
      const fall = claim(
        { kind: 'difference', spread: r.dropSpread },
        {
          subject: `${prefix}The fall of old-task accuracy a_prev over the run (first point minus last)`,
          positive: (n) => `${prefix}Old-task accuracy a_prev falls over the run by ${n}`,
          negative: (n) => `${prefix}Old-task accuracy a_prev rises over the run: first point minus last = ${n}`,
        },
      );
      out.push({
        id: `fg-direction:${tag}:${s.falling === g.runs.length ? 'all' : 'not-all'}`,
        kind: 'finding',
        text: `${fall.text}; CPCF rises as it falls (Pearson r < 0) in ${countText(s.falling)} of ${seedsText(g.runs.length)} (r ${listText(rs)}).`,
      });
      if (r.drop < MIN_FORGETTING && r.learned)
        out.push({
          id: `fg-direction-why:${tag}`,
          kind: 'why',
          text: `${prefix}a_prev hardly falls (less than ${num(100 * MIN_FORGETTING, 0)} points): there is little forgetting for CPCF to follow, so neither its rise nor dCor says much.`,
        });
      const band = r.null
        ? `; two unrelated ${countText(s.points)}-point series give ${num(r.null.mean, 2)} on average, ${num(100 * (DCOR_BAND[1] - DCOR_BAND[0]), 0)}% of them between ${num(r.null.lo, 2)} and ${num(r.null.hi, 2)}`
        : '';
      const dc = Number.isFinite(s.dcor.sd) ? `${num(s.dcor.mean, 3)} ± ${num(s.dcor.sd, 3)}` : num(s.dcor.mean, 3);
      out.push({
        id: `fg-association:${tag}:${s.p < ALPHA ? 'significant' : 'not-significant'}`,
        kind: 'finding',
        text: `${prefix}dCor(CPCF, a_prev) = ${dc} over ${seedsText(g.runs.length)}, permutation ${pText(s.p)}: ${significance(s.p)}${band}.`,
      });
      if (r.trend) {
        const t = r.trend;
        const beyond = t.p < ALPHA;
        out.push({
          id: `fg-trend:${tag}:${beyond ? 'beyond' : 'not-beyond'}`,
          kind: 'finding',
          text: beyond
            ? `${prefix}Against the trend-matched control (CPCF's own straight-line trend over the tasks kept, its deviations from it shuffled), dCor is beyond it (${pText(t.p)}; the control's mean dCor ${num(t.nullMean, 2)}): CPCF's ups and downs follow a_prev, not only the passing of tasks.`
            : `${prefix}Against the trend-matched control (CPCF's own straight-line trend over the tasks kept, its deviations from it shuffled), dCor is not beyond it (${pText(t.p)}; the control's mean dCor ${num(t.nullMean, 2)}): a series with CPCF's trend but its ups and downs shuffled matches a_prev as well, so this run does not show that CPCF tracks forgetting beyond the shared trend.`,
        });
      }
      const paperClaim = r.paper
        ? `The paper reports a strong association (its dCor ${num(r.paper.dcor, 4)}, ${r.paper.column}, ${r.paper.model}, Table ${r.paper.table})`
        : 'The paper reports a strong association between CPCF and a_prev';
      const sizes = r.paper
        ? ` The sizes are not compared: the paper does not say what its dCor is computed over, and ${r.null && r.paper.dcor < r.null.lo ? `its ${num(r.paper.dcor, 4)} lies below what ${countText(s.points)} unrelated points give in ${num(100 * DCOR_BAND[0], 0)}% of draws (${num(r.null.lo, 2)}), so it cannot be one run's ${countText(s.points)}-point dCor like ours` : `a ${countText(s.points)}-point dCor like ours is large even by chance`}.`
        : '';
      const said =
        r.agreement === 'agrees'
          ? `here too the association is beyond chance and CPCF rises as a_prev falls in every seed: this agrees.`
          : r.agreement === 'no-direction'
            ? `here the association is beyond chance, but CPCF does not rise as a_prev falls in every seed: the direction is not the paper's in ${countText(g.runs.length - s.falling)} of ${seedsText(g.runs.length)}.`
            : r.agreement === 'no-association'
              ? `here the association is not beyond chance (${pText(s.p)}): this run does not show it.`
              : r.agreement === 'too-few-points'
                ? `with ${countText(s.points)} points per run nothing can be said yet.`
                : `here the base task is not learned, so there is nothing to compare.`;
      out.push({ id: `fg-paper:${tag}:${r.agreement}`, kind: 'finding', text: `${prefix}${paperClaim}; ${said}${sizes}` });
    }
    const notes = s ? s.notes.filter((x) => !/^base task not learned/.test(x)) : [];
    const unstated = unstatedSettings({ batchSize: input.setup.batchSize, strategy: g.strategy, ewcLambda: g.ewcLambda, seeds: g.runs.length });
    out.push({
      id: `fg-comparability:${tag}`,
      kind: 'note',
      text: `${prefix}${notes.length ? `Differs from the paper: ${notes.join('; ')}. ` : 'The paper’s stated setup (data, epochs, learning rate, tasks, full head). '}The paper does not state ${listText(unstated)}.`,
    });
  }
  if (finished > 0 && input.groups.every((g) => g.runs.length < 3))
    out.push({
      id: 'fg-seeds-try',
      kind: 'try',
      text: 'Run 3 or more seeds: the spread of dCor and of the base accuracy shows how much one run can be trusted.',
    });
  const provisional = finished < planned;
  return {
    headline: head ? headlineOf(head.r, head.g, input.groups.filter((g) => g.runs.length > 0).length > 1) : '',
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(finished)} of ${countText(planned)} runs finished.` : '',
  };
}
