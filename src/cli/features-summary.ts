/**
 * `cil-lab run --features F --strategy simplecil|ranpac|fecam --summary [--place 3,1,0,…]`: a pre-trained method's
 * whole distribution over Ω without one record per ordering (docs/science.md §9 "The whole distribution";
 * src/core/ptm/accuracy-distribution.ts): every ordering when |Ω| ≤ --limit (at most 20 000 000), else a uniform
 * sample whose size is the EDGE paper's Theorem 1 bound (--epsilon, --delta: the Orderings lab's calculator's
 * defaults 0.1 and 0.05) or --orderings sample:N. It prints the AIA and final-accuracy summaries with the orderings at
 * their extremes, RS's and EDGE's orderings placed in them (percentile; JSD and W1 of each protocol's Gaussian against
 * the truth), and the order of --place with its percentiles and the sentences that say where it lands.
 *
 * JSON: {"summary": {orderings, omega, exact, final: {min, max, mean, sd, quantiles, histogram, worst, best}, aia: {…}},
 * "rs": {orderings, aia: {mean, sd, jsd, w1}, final}, "edge": {…}, "place": {order, tasks, aia, final, percentile,
 * finalPercentile, …} (only with --place), "verdict": [...], …}. Orders are label ids.
 */
import { basename, resolve } from 'node:path';
import { CONFIG_LIMITS, grouped } from '../core/config/limits';
import { UINT32_MAX } from '../core/config/checker';
import { featurePrototypeRows } from '../core/features/prototypes';
import type { FeatureSet } from '../core/features/feature-set';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { splitIntoTasks } from '../core/orderings/key';
import { sampleOrderingsByShuffle } from '../core/orderings/sample';
import type { Ordering, SquareMatrix } from '../core/orderings/types';
import { theorem1SampleSize } from '../core/protocols/bounds';
import { DEFAULT_RS_SEEDS } from '../core/protocols/rs';
import { runProtocols } from '../core/protocols/run';
import { accuracyDistribution, EXACT_DISTRIBUTION_LIMIT, StepAccuracies, type AccuracyDistributionInput } from '../core/ptm/accuracy-distribution';
import { firstSessionWidth, type PtmStrategy } from '../core/ptm/defaults';
import { distributionReport, TIE_RULE, type DistributionReport, type OrderingToPlace } from '../core/ptm/distribution-report';
import { preparePtm, type PtmSetupInput } from '../core/ptm/ground-truth';
import { defaultThreads, startStatesWorker, statesInParallel } from './parallel-states';
import { PtmInputError } from '../core/ptm/problem';
import { resolveSimilarity, type SimilaritySpec } from '../core/similarity/resolve';
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';
import { placementSentences, whoOf } from '../core/verdict/order-placement';
import { UsageError, intArg, intListArg, numberArg, str } from './args';
import { readInput } from './inputs';
import { seedListArg } from './seeds';

type Values = Record<string, string | boolean | undefined>;

/** Theorem 1's ε and δ when the summary samples (the Orderings lab's sample-size calculator's defaults). */
export const SUMMARY_EPSILON = 0.1;
export const SUMMARY_DELTA = 0.05;

/** The flags only the summary reads. */
export const SUMMARY_FLAGS = ['summary', 'place', 'similarity', 'epsilon', 'delta', 'threads'] as const;

/** Whether `run` asks for the whole distribution. */
export function isSummaryRun(v: Values): boolean {
  return v.summary === true || str(v, 'place') !== undefined;
}

export interface SummaryContext {
  features: FeatureSet;
  /** the --features argument, for the output */
  path: string;
  /** label ids of the experiment's classes (position p ↔ classes[p]) */
  classes: number[];
  sizes: number[];
  strategy: PtmStrategy;
  seed: number;
  trainPerClass?: number;
  testPerClass?: number;
  onNote?: (note: string) => void;
  loadWordnet?: () => WordnetGraph;
}

/** The orderings to summarise: all of Ω, or a uniform sample (asked for, or because Ω is too large). */
function orderingsOf(v: Values, sizes: number[]): { input: AccuracyDistributionInput['orderings']; sample: Record<string, unknown> | null; note?: string } {
  const omega = countOrderings(sizes);
  const limit = intArg(str(v, 'limit'), 'limit', 1, EXACT_DISTRIBUTION_LIMIT) ?? EXACT_DISTRIBUTION_LIMIT;
  const seed = intArg(str(v, 'sample-seed'), 'sample-seed', 0, UINT32_MAX) ?? 0;
  const many = str(v, 'orderings');
  const sample = (n: number, how: string, extra: Record<string, unknown> = {}) => ({
    input: {
      kind: 'list' as const,
      orderings: sampleOrderingsByShuffle(sizes, n, seed),
      label: `a uniform sample of ${formatOmega(BigInt(n))} of ${formatOmega(omega)} orderings (seed ${seed})`,
    },
    sample: { size: n, seed, how, ...extra },
  });
  if (many === 'all' || (many === undefined && omega <= BigInt(limit))) {
    if (omega > BigInt(limit))
      throw new UsageError(
        `There are ${formatOmega(omega)} orderings, more than --limit ${grouped(limit)}: leave out --orderings for a uniform sample of the size the EDGE paper's Theorem 1 asks for, or give --orderings sample:N.`,
      );
    return { input: { kind: 'all' }, sample: null };
  }
  if (many !== undefined) {
    const m = /^(?:sample:)?(\d+)$/.exec(many.trim());
    if (!m) throw new UsageError(`--orderings takes all or sample:N (N orderings drawn uniformly); got "${many}".`);
    const n = Number(m[1]);
    if (n < 1 || n > EXACT_DISTRIBUTION_LIMIT) throw new UsageError(`--orderings sample:N takes N from 1 to ${grouped(EXACT_DISTRIBUTION_LIMIT)}; got ${n}.`);
    if (BigInt(n) > omega) throw new UsageError(`--orderings sample:${n}: there are only ${formatOmega(omega)} orderings; use --orderings all.`);
    return sample(n, '--orderings sample:N');
  }
  // beyond what is enumerated: the sample size the EDGE paper's Theorem 1 asks for
  const epsilon = numberArg(str(v, 'epsilon'), 'epsilon', { min: 0, max: 1, exclusiveMin: true }) ?? SUMMARY_EPSILON;
  const delta = numberArg(str(v, 'delta'), 'delta', { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }) ?? SUMMARY_DELTA;
  const bound = theorem1SampleSize(omega, epsilon, delta);
  if (bound.L === null || bound.L > BigInt(limit))
    throw new UsageError(
      `Theorem 1 asks for ${bound.L === null ? 'every ordering' : formatOmega(bound.L)} of the ${formatOmega(omega)} at ε = ${epsilon}, δ = ${delta}, more than --limit ${grouped(limit)}: raise --epsilon or --delta, or give --orderings sample:N.`,
    );
  const n = Number(bound.L);
  const s = sample(n, "the EDGE paper's Theorem 1", { epsilon, delta });
  return {
    ...s,
    note: `${formatOmega(omega)} orderings are more than the ${grouped(limit)} enumerated: a uniform sample of ${grouped(n)} (Theorem 1 at ε = ${epsilon}, δ = ${delta}); its numbers are estimates`,
  };
}

/** The similarity EDGE builds its orderings from: the features' class prototypes (default), WordNet or a file. */
function similarityOf(v: Values, ctx: SummaryContext): { matrix: SquareMatrix; description: string } {
  const source = str(v, 'similarity') ?? 'features';
  const names = ctx.classes.map((c) => ctx.features.classNames[c]);
  let spec: SimilaritySpec;
  if (source === 'features') {
    try {
      spec = { kind: 'embeddings', rows: featurePrototypeRows(ctx.features, ctx.classes).rows, label: `the class prototypes of ${basename(ctx.path)}` };
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  } else if (source === 'wordnet') spec = { kind: 'wordnet' };
  else if (source.startsWith('file:')) spec = { kind: 'upload', fileName: source.slice(5), bytes: readInput(source.slice(5), 'the similarity file') };
  else throw new UsageError(`--similarity takes features (the class prototypes of the features), wordnet or file:PATH; got "${source}".`);
  try {
    const r = resolveSimilarity(spec, names, { wordnet: ctx.loadWordnet });
    for (const w of r.warnings) ctx.onNote?.(w);
    return { matrix: r.matrix, description: r.description };
  } catch (e) {
    throw new UsageError(`--similarity ${source}: ${(e as Error).message}`);
  }
}

/** --place: a flat class order of label ids, cut into the task sizes. */
function placeOf(v: Values, classes: number[], sizes: number[]): OrderingToPlace | null {
  const text = str(v, 'place');
  if (text === undefined) return null;
  const labels = intListArg(text, 'place')!;
  const position = new Map(classes.map((c, p) => [c, p]));
  if (labels.length !== classes.length || labels.some((c) => !position.has(c)) || new Set(labels).size !== labels.length)
    throw new UsageError(`--place must list each class of the run once (${classes.length} classes: ${classes.join(',')}); got ${labels.join(',')}.`);
  const order = labels.map((c) => position.get(c)!);
  return { label: 'given order', tasks: splitIntoTasks(order, sizes), order };
}

export interface WholeDistribution {
  report: DistributionReport;
  /** the run's settings and what was computed, for the output */
  info: Record<string, unknown>;
}

/** The whole distribution of the method in `ctx` with RS's and EDGE's orderings and `place` placed in it. */
export async function wholeDistribution(v: Values, ctx: SummaryContext, place: readonly OrderingToPlace[]): Promise<WholeDistribution> {
  if (firstSessionWidth(ctx.strategy) > 0)
    throw new UsageError(
      '--summary covers the methods whose state after a step is the set of classes seen: with firstSession the state also depends on the first task (an adaptation each); run without --summary.',
    );
  const { classes, sizes } = ctx;
  const { input: orderings, sample, note } = orderingsOf(v, sizes);
  if (note) ctx.onNote?.(note);
  const rsSeeds = str(v, 'seeds') === undefined ? [...DEFAULT_RS_SEEDS] : seedListArg(str(v, 'seeds')!, 'seeds', CONFIG_LIMITS.rsSeeds);
  const sim = similarityOf(v, ctx);

  const threads = intArg(str(v, 'threads'), 'threads', 1, 2) ?? defaultThreads();
  const t0 = performance.now();
  let dist;
  const setup: PtmSetupInput = {
    features: ctx.features,
    classes,
    strategy: ctx.strategy,
    seed: ctx.seed,
    trainPerClass: ctx.trainPerClass,
    testPerClass: ctx.testPerClass,
  };
  // RanPAC's states on a second thread, started before this one sets the method up (./parallel-states.ts)
  const helper = statesInParallel(setup, threads, orderings.kind === 'all') ? startStatesWorker({ setup, taskSizes: sizes }) : null;
  try {
    const evaluator = preparePtm(setup);
    const table = new StepAccuracies(evaluator, sizes);
    if (helper) await helper.finish(table);
    dist = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings, table });
  } catch (e) {
    if (e instanceof PtmInputError) throw new UsageError(e.message);
    throw e;
  } finally {
    await helper?.stop();
  }
  const protocols = runProtocols(sim.matrix, sizes, { protocols: ['rs', 'edge'], rsSeeds, medianSeed: 0 });
  const toPlace = (s: { label: string; tasks: Ordering; order: number[]; protocol: string }): OrderingToPlace => ({
    label: s.label,
    tasks: s.tasks,
    // RS keeps numpy's drawn order (PyCIL's class_order); EDGE's tasks are sets
    order: s.protocol === 'rs' ? s.order : undefined,
  });
  const report = distributionReport({
    dist,
    classes,
    rs: protocols.sequences.filter((s) => s.protocol === 'rs').map(toPlace),
    edge: protocols.sequences.filter((s) => s.protocol === 'edge').map(toPlace),
    place,
  });
  const seconds = (performance.now() - t0) / 1000;
  ctx.onNote?.(dist.path);
  return {
    report,
    info: {
      features: resolve(ctx.path),
      classes: classes.map((c) => ctx.features.classNames[c]),
      classIds: classes,
      taskSizes: sizes,
      strategy: ctx.strategy.id,
      strategyOptions: ctx.strategy.options,
      seed: ctx.seed,
      rsSeeds,
      similarity: sim.description,
      sample,
      threads: helper ? 2 : 1,
      ties: TIE_RULE,
      seconds: Math.round(seconds * 1000) / 1000,
    },
  };
}

/** Runs `run --summary`; returns the JSON text to print. */
export async function featuresSummary(v: Values, ctx: SummaryContext): Promise<string> {
  if (str(v, 'order') !== undefined || str(v, 'protocol') !== undefined)
    throw new UsageError('--summary summarises every ordering (or a sample): place one order with --place a,b,… instead of --order or --protocol.');
  const place = placeOf(v, ctx.classes, ctx.sizes);
  const { report, info } = await wholeDistribution(v, ctx, place ? [place] : []);
  const placed = report.places[0];
  return JSON.stringify({
    summary: report.summary,
    edge: report.edge,
    rs: report.rs,
    ...(placed ? { place: placed } : {}),
    verdict: placed ? placementSentences(report.summary, placed, whoOf(placed.label)) : [],
    ...info,
  });
}
