/**
 * The Ground-truth lab's derived statistics (docs/science.md §2; EDGE paper §5, App. E): everything its charts and
 * tables show, recomputed from the stored runs by pure functions, so a reload, a second tab or an import shows the
 * same numbers. Per strategy: the truth (A(O) of every evaluated truth ordering), the RS and EDGE estimates with
 * their JSD and W1 against it, Pearson's r of S(O) against A(O), normality after Box-Cox, min / max / std per
 * protocol and the sample-count study; across strategies, the rankings. The decisions (the value of a run, seeds
 * averaged, truth in plan order, all-or-nothing estimates, r over truth orderings only) are science.md §2's.
 * Nothing here throws on partial data: a statistic that cannot be computed yet is null with a reason a person can
 * read ("needs at least 8 truth values; 5 so far").
 */
import { aiaWeighted, finalAccuracyWeighted } from '../metrics/accuracy-matrix';
import { similarityScore } from '../orderings/score';
import type { SquareMatrix } from '../orderings/types';
import { gaussianEstimate, prepareTruth, qualityAgainstTruth, type GaussianEstimate } from '../stats/estimate';
import { moments, type Moments } from '../stats/moments';
import { pearson, type CorrelationResult } from '../stats/pearson';
import { strategyRankings, summarizeOutcomes, type OutcomeSummary, type StrategyRankings } from '../stats/rankings';
import { sampleCountStudy, type SampleCountStudy } from '../stats/sample-count';
import { no, ok, type Maybe } from './maybe';
import { allEqual, normalityAfterBoxCox, type NormalityReport } from './normality';

// ═══════════════════════════════════════════ inputs ═══════════════════════════════════════════

/** A(O): the sample-weighted final accuracy (default) or the average incremental accuracy (docs/science.md §2). */
export type AccuracyVariable = 'final' | 'aia';

export type OrderingRole = 'truth' | 'rs' | 'edge-hard' | 'edge-easy' | 'edge-median';
export type ProtocolRole = Exclude<OrderingRole, 'truth'>;

/** The fields of a stored run (./stored-run.ts StoredRun) that the statistics read. */
export interface RunRecord {
  orderingKey: string;
  strategy: string;
  seed: number;
  /** R (K×K), fractions; may be empty for an imported accuracy. */
  matrix: readonly (readonly number[])[];
  testCounts: readonly number[];
  finalAccuracy: number;
  aia: number;
}

/** A planned ordering (src/core/ground-truth/plan.ts PlannedOrdering). */
export interface PlanOrdering {
  key: string;
  /** Over dataset class indices. */
  tasks: readonly (readonly number[])[];
  roles: readonly OrderingRole[];
  label?: string;
  /** S(O), when the plan computed it; else it is computed from `similarity`. */
  score?: number;
}

/** One protocol draw (plan.ts ProtocolDraw): duplicates kept, so RS with 3 seeds is 3 draws. */
export interface PlanDraw {
  role: ProtocolRole;
  label: string;
  key: string;
}

export interface PlanLike {
  orderings: readonly PlanOrdering[];
  /** Without it, one draw per protocol role listed on an ordering. */
  protocolOrderings?: readonly PlanDraw[];
  exhaustive?: boolean;
  /** "all 90 orderings" / "a uniform sample of 500 of …" */
  truthLabel?: string;
}

export interface SampleCountSettings {
  /** Largest L (default 20, capped at the truth count). */
  maxL?: number;
  /** Seeded repeats per L (default 100). */
  repeats?: number;
  /** Seed of numpy's default_rng (default 0). */
  seed?: number;
}

export interface DeriveInput {
  runs: readonly RunRecord[];
  plan: PlanLike;
  variable: AccuracyVariable;
  /** Strategies to report, in this order (default: the order they first appear in `runs`). */
  strategies?: readonly string[];
  /** Class × class similarity over positions of `classes` (only needed when the plan carries no `score`). */
  similarity?: SquareMatrix | readonly (readonly number[])[] | null;
  /** Dataset class index of each similarity row (default: row p is class p). */
  classes?: readonly number[];
  /** Settings of the sample-count study, or false to skip it (e.g. while a run streams in). */
  sampleCount?: SampleCountSettings | false;
}

// ═══════════════════════════════════════════ outputs ═══════════════════════════════════════════

export interface OrderingPoint {
  key: string;
  tasks: number[][];
  roles: OrderingRole[];
  label?: string;
  /** S(O) (paper Eq. 5); null when neither the plan nor a similarity matrix gives it. */
  score: number | null;
  /** A(O): mean over the finished seeds; null until one has finished. */
  value: number | null;
  /** The seeds that finished, ascending, and A of each. */
  seeds: number[];
  seedValues: number[];
}

export interface EstimateQualityReport {
  /** JSD in bits; null when the truth has no spread (its grid is undefined). */
  jsd: number | null;
  /** W1 in accuracy points (×100). */
  w1: number;
  w1Raw: number;
}

export interface ProtocolEstimate {
  protocol: 'rs' | 'edge';
  /** The protocol's draws, each with its ordering's A(O) (null until trained). */
  draws: { role: ProtocolRole; label: string; key: string; value: number | null }[];
  /** Draws with a value, and the draws the protocol defines. */
  have: number;
  need: number;
  /** N(μ̂, σ̂²), population variance; null until every draw is trained. */
  gaussian: Maybe<GaussianEstimate>;
  /** Against the truth. */
  quality: Maybe<EstimateQualityReport>;
}

export interface TruthSummary {
  values: number[];
  keys: string[];
  /** Truth orderings in the plan, and how many have a value. */
  planned: number;
  evaluated: number;
  complete: boolean;
  moments: Moments | null;
}

export type ProtocolName = 'truth' | 'edge' | 'rs';

export interface StrategyStats {
  strategy: string;
  /** Every planned ordering, in plan order. */
  points: OrderingPoint[];
  truth: TruthSummary;
  rs: ProtocolEstimate;
  edge: ProtocolEstimate;
  /** min / max / population std of each protocol's values (paper Tables 1–2, A5). */
  summaries: Record<ProtocolName, Maybe<OutcomeSummary>>;
  /** Pearson R of S(O) vs A(O) over the evaluated truth orderings. */
  pearson: Maybe<CorrelationResult>;
  normality: Maybe<NormalityReport>;
  sampleCount: Maybe<SampleCountStudy & { provisional: boolean }>;
}

export interface GroundTruthStats {
  variable: AccuracyVariable;
  truthLabel: string;
  exhaustive: boolean | null;
  strategies: StrategyStats[];
  rankings: Maybe<StrategyRankings & { provisional: boolean }>;
  /** Runs that fed a value. */
  usedRuns: number;
  /** Runs left out, with why (unknown ordering, strategy not reported, no usable accuracy). */
  skippedRuns: { orderingKey: string; strategy: string; seed: number; reason: string }[];
}

// ═══════════════════════════════════════════ constants and small helpers ═══════════════════════════════════════════

export const VARIABLE_LABEL: Record<AccuracyVariable, string> = {
  final: 'final accuracy',
  aia: 'average incremental accuracy',
};

/** Fewest truth values for which the sample-count study is drawn. */
export const SAMPLE_COUNT_MIN_TRUTH = 10;
/** Fewest pairs for Pearson R (two points always give ±1). */
export const PEARSON_MIN_N = 3;
export const EDGE_ROLES: readonly ProtocolRole[] = ['edge-hard', 'edge-easy', 'edge-median'];
const EDGE_LABEL: Record<string, string> = { 'edge-hard': 'EDGE hard', 'edge-easy': 'EDGE easy', 'edge-median': 'EDGE median' };

function isFraction(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
}

function completeMatrix(run: RunRecord): boolean {
  const R = run.matrix;
  const K = Array.isArray(R) ? R.length : 0;
  return K > 0 && Array.isArray(run.testCounts) && run.testCounts.length === K && R.every((row) => Array.isArray(row) && row.length === K);
}

/**
 * A(O) of one run (science.md §2): recomputed from R and the test counts when complete, else the stored field;
 * null (with the reason) when neither is usable.
 */
export function runValue(run: RunRecord, variable: AccuracyVariable): { value: number | null; reason?: string } {
  if (completeMatrix(run)) {
    try {
      const R = run.matrix as number[][];
      const counts = run.testCounts as number[];
      return { value: variable === 'final' ? finalAccuracyWeighted(R, counts) : aiaWeighted(R, counts) };
    } catch {
      // fall through to the stored field
    }
  }
  const stored = variable === 'final' ? run.finalAccuracy : run.aia;
  if (isFraction(stored)) return { value: stored };
  return { value: null, reason: `no usable ${VARIABLE_LABEL[variable]}: the accuracy matrix is incomplete and the stored value is ${String(stored)}` };
}

function toSquare(sim: DeriveInput['similarity']): SquareMatrix | null {
  if (!sim) return null;
  if ('n' in sim && 'data' in sim) return sim as SquareMatrix;
  const rows = sim as readonly (readonly number[])[];
  const n = rows.length;
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    if (!rows[i] || rows[i].length !== n) return null;
    for (let j = 0; j < n; j++) data[i * n + j] = rows[i][j];
  }
  return { n, data };
}

/** S(O) over dataset class indices, through the similarity's class positions; null if a class is not in it. */
export function orderingScore(tasks: readonly (readonly number[])[], sim: SquareMatrix, classes?: readonly number[]): number | null {
  const pos = new Map<number, number>();
  if (classes) classes.forEach((c, p) => pos.set(c, p));
  const local: number[][] = [];
  for (const t of tasks) {
    const row: number[] = [];
    for (const c of t) {
      const p = classes ? pos.get(c) : c;
      if (p === undefined || p < 0 || p >= sim.n) return null;
      row.push(p);
    }
    local.push(row);
  }
  return similarityScore(local, sim);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

// ═══════════════════════════════════════════ the derivation ═══════════════════════════════════════════

function drawsOf(plan: PlanLike): PlanDraw[] {
  if (plan.protocolOrderings) return plan.protocolOrderings.map((d) => ({ role: d.role, label: d.label, key: d.key }));
  const out: PlanDraw[] = [];
  for (const o of plan.orderings) {
    for (const role of o.roles) {
      if (role === 'truth') continue;
      out.push({ role, label: role === 'rs' ? (o.label ?? 'RS') : EDGE_LABEL[role], key: o.key });
    }
  }
  return out;
}

function estimateOf(
  protocol: 'rs' | 'edge',
  draws: PlanDraw[],
  valueOf: Map<string, number>,
  truth: ReturnType<typeof prepareTruth> | null,
  truthReason: string,
): ProtocolEstimate {
  const mine = draws
    .filter((d) => (protocol === 'rs' ? d.role === 'rs' : EDGE_ROLES.includes(d.role)))
    .map((d) => ({ ...d, value: valueOf.get(d.key) ?? null }));
  const need = mine.length;
  const values = mine.map((d) => d.value).filter((v): v is number => v !== null);
  const have = values.length;
  const name = protocol === 'rs' ? 'RS' : 'EDGE';
  let gaussian: Maybe<GaussianEstimate>;
  if (need === 0) gaussian = no(`the plan has no ${name} orderings`);
  else if (have < need) gaussian = no(`${have} of ${need} ${name} orderings trained`);
  else gaussian = ok(gaussianEstimate(values));
  let quality: Maybe<EstimateQualityReport>;
  if (gaussian.value === null) quality = no(gaussian.reason);
  else if (!truth) quality = no(truthReason);
  else {
    const q = qualityAgainstTruth(truth, gaussian.value);
    quality = ok({ jsd: Number.isFinite(q.jsd) ? q.jsd : null, w1: q.w1, w1Raw: q.w1Raw });
  }
  return { protocol, draws: mine, have, need, gaussian, quality };
}

function strategyStats(
  strategy: string,
  input: DeriveInput,
  draws: PlanDraw[],
  valuesByKey: Map<string, Map<number, number>>,
  scoreOf: (o: PlanOrdering) => number | null,
): StrategyStats {
  const { plan } = input;
  const points: OrderingPoint[] = plan.orderings.map((o) => {
    const bySeed = valuesByKey.get(o.key);
    const seeds = bySeed ? [...bySeed.keys()].sort((a, b) => a - b) : [];
    const seedValues = seeds.map((s) => bySeed!.get(s)!);
    const value = seedValues.length ? seedValues.reduce((a, b) => a + b, 0) / seedValues.length : null;
    return {
      key: o.key,
      tasks: o.tasks.map((t) => [...t]),
      roles: [...o.roles],
      ...(o.label !== undefined ? { label: o.label } : {}),
      score: scoreOf(o),
      value,
      seeds,
      seedValues,
    };
  });
  const valueOf = new Map<string, number>();
  for (const p of points) if (p.value !== null) valueOf.set(p.key, p.value);

  // the truth
  const truthPoints = points.filter((p) => p.roles.includes('truth'));
  const evaluated = truthPoints.filter((p) => p.value !== null);
  const values = evaluated.map((p) => p.value as number);
  const truth: TruthSummary = {
    values,
    keys: evaluated.map((p) => p.key),
    planned: truthPoints.length,
    evaluated: values.length,
    complete: truthPoints.length > 0 && values.length === truthPoints.length,
    moments: values.length ? moments(values) : null,
  };
  let prepared: ReturnType<typeof prepareTruth> | null = null;
  let truthReason = '';
  if (truthPoints.length === 0) truthReason = 'the plan has no truth orderings';
  else if (values.length < 2) truthReason = `the truth needs at least 2 values; ${values.length} so far`;
  else prepared = prepareTruth(values);

  const rs = estimateOf('rs', draws, valueOf, prepared, truthReason);
  const edge = estimateOf('edge', draws, valueOf, prepared, truthReason);

  const summaryOf = (vals: number[], reason: string): Maybe<OutcomeSummary> => (vals.length ? ok(summarizeOutcomes(vals)) : no(reason));
  const drawValues = (e: ProtocolEstimate) => (e.gaussian.value ? e.draws.map((d) => d.value as number) : []);
  const summaries: Record<ProtocolName, Maybe<OutcomeSummary>> = {
    truth: summaryOf(values, 'no truth ordering trained yet'),
    edge: summaryOf(drawValues(edge), edge.gaussian.reason ?? ''),
    rs: summaryOf(drawValues(rs), rs.gaussian.reason ?? ''),
  };

  // Pearson R of S vs A over the evaluated truth orderings
  let pearsonR: Maybe<CorrelationResult>;
  const pairs = evaluated.filter((p) => p.score !== null);
  if (pairs.length < PEARSON_MIN_N) {
    pearsonR = no(
      evaluated.length > 0 && pairs.length === 0
        ? 'no similarity score S for these orderings'
        : `needs at least ${PEARSON_MIN_N} evaluated truth orderings; ${pairs.length} so far`,
    );
  } else {
    const s = pairs.map((p) => p.score as number);
    const a = pairs.map((p) => p.value as number);
    if (allEqual(s)) pearsonR = no('S is the same for every evaluated ordering, so R is undefined');
    else if (allEqual(a)) pearsonR = no(`A(O) is the same (${Number(a[0].toPrecision(6))}) for every evaluated ordering, so R is undefined`);
    else {
      try {
        const r = pearson(s, a);
        pearsonR = Number.isFinite(r.statistic) ? ok(r) : no('R is undefined for these values');
      } catch (e) {
        pearsonR = no(e instanceof Error ? e.message : String(e));
      }
    }
  }

  // normality after Box-Cox
  const normality = normalityAfterBoxCox(values);

  // the sample-count study
  let sampleCount: Maybe<SampleCountStudy & { provisional: boolean }>;
  if (input.sampleCount === false) sampleCount = no('drawn when the run finishes, is paused or is cancelled');
  else if (values.length < SAMPLE_COUNT_MIN_TRUTH) sampleCount = no(`needs at least ${SAMPLE_COUNT_MIN_TRUTH} truth values; ${values.length} so far`);
  else if (allEqual(values)) sampleCount = no('the truth values are all equal: JSD and W1 against it are undefined');
  else if (!edge.gaussian.value) sampleCount = no(`needs EDGE's three orderings: ${edge.gaussian.reason}`);
  else {
    const settings = input.sampleCount ?? {};
    const maxL = Math.max(1, Math.min(settings.maxL ?? 20, values.length));
    const truthIndex = new Map(truth.keys.map((k, i) => [k, i]));
    const edgeIdx = edge.draws.map((d) => truthIndex.get(d.key));
    const byIndex = edgeIdx.length === 3 && edgeIdx.every((i) => i !== undefined);
    try {
      const study = sampleCountStudy({
        truth: values,
        ...(byIndex ? { edgeIndices: edgeIdx as number[] } : { edgeValues: edge.draws.map((d) => d.value as number) }),
        maxL,
        repeats: settings.repeats ?? 100,
        seed: settings.seed ?? 0,
      });
      sampleCount = ok({ ...study, provisional: !truth.complete });
    } catch (e) {
      sampleCount = no(e instanceof Error ? e.message : String(e));
    }
  }

  return { strategy, points, truth, rs, edge, summaries, pearson: pearsonR, normality, sampleCount };
}

/**
 * Every statistic of the Ground-truth lab, from the stored runs (docs/science.md §2). Rankings and the sample-count
 * study are computed on the truth so far and flagged `provisional` while it is incomplete. The study needs at least
 * SAMPLE_COUNT_MIN_TRUTH truth values with spread and EDGE's three values; EDGE's orderings are passed by index when
 * all three are truth orderings (the enumerable case: they are then excluded from the extra random draws), else by
 * value; L runs to min(maxL, truth count).
 */
export function deriveGroundTruth(input: DeriveInput): GroundTruthStats {
  const { plan, runs, variable } = input;
  const planned = new Set(plan.orderings.map((o) => o.key));
  const strategies = input.strategies ? [...input.strategies] : [...new Set(runs.map((r) => r.strategy))];
  const wanted = new Set(strategies);
  const skippedRuns: GroundTruthStats['skippedRuns'] = [];
  // strategy → ordering key → seed → A
  const values = new Map<string, Map<string, Map<number, number>>>(strategies.map((s) => [s, new Map()]));
  let usedRuns = 0;
  for (const run of runs) {
    const where = { orderingKey: run.orderingKey, strategy: run.strategy, seed: run.seed };
    if (!wanted.has(run.strategy)) {
      skippedRuns.push({ ...where, reason: `strategy "${run.strategy}" is not among the strategies shown` });
      continue;
    }
    if (!planned.has(run.orderingKey)) {
      skippedRuns.push({ ...where, reason: 'this ordering is not in the plan' });
      continue;
    }
    const v = runValue(run, variable);
    if (v.value === null) {
      skippedRuns.push({ ...where, reason: v.reason ?? 'no usable accuracy' });
      continue;
    }
    const byKey = values.get(run.strategy)!;
    let bySeed = byKey.get(run.orderingKey);
    if (!bySeed) byKey.set(run.orderingKey, (bySeed = new Map()));
    if (!bySeed.has(run.seed)) usedRuns++;
    bySeed.set(run.seed, v.value);
  }

  const sim = toSquare(input.similarity);
  const scores = new Map<string, number | null>();
  const scoreOf = (o: PlanOrdering): number | null => {
    if (typeof o.score === 'number' && Number.isFinite(o.score)) return o.score;
    if (!sim) return null;
    if (!scores.has(o.key)) scores.set(o.key, orderingScore(o.tasks, sim, input.classes));
    return scores.get(o.key) ?? null;
  };

  const draws = drawsOf(plan);
  const perStrategy = strategies.map((s) => strategyStats(s, input, draws, values.get(s)!, scoreOf));

  // rankings across strategies
  let rankings: GroundTruthStats['rankings'];
  if (perStrategy.length < 2) rankings = no(`rankings compare strategies: choose at least 2 (${plural(perStrategy.length, 'strategy', 'strategies')} now)`);
  else {
    const missing = perStrategy
      .map((s) => {
        const why = [s.summaries.truth, s.summaries.edge, s.summaries.rs].find((m) => m.value === null);
        return why ? `${s.strategy}: ${why.reason}` : null;
      })
      .filter((x): x is string => x !== null);
    if (missing.length) rankings = no(`waiting for ${missing.join('; ')}`);
    else {
      try {
        const r = strategyRankings(
          perStrategy.map((s) => ({
            strategy: s.strategy,
            values: { truth: s.truth.values, edge: s.edge.draws.map((d) => d.value as number), rs: s.rs.draws.map((d) => d.value as number) },
          })),
          { reference: 'truth', protocols: ['edge', 'rs'] },
        );
        rankings = ok({ ...r, provisional: perStrategy.some((s) => !s.truth.complete) });
      } catch (e) {
        rankings = no(e instanceof Error ? e.message : String(e));
      }
    }
  }

  return {
    variable,
    truthLabel: plan.truthLabel ?? (plan.exhaustive === false ? 'a uniform sample of orderings' : 'all orderings'),
    exhaustive: plan.exhaustive ?? null,
    strategies: perStrategy,
    rankings,
    usedRuns,
    skippedRuns,
  };
}
