/**
 * `cil-lab run --features F.npz --strategy simplecil|ranpac|fecam …`: the pre-trained methods on frozen features
 * (docs/science.md §9) and their ground truth by class set (src/core/ptm/ground-truth.ts), the same numbers the
 * Ground-truth lab shows. The feature set is the `.npz` of src/data/features/npz.ts (`features`, `labels`, `split`,
 * `class_names`); its classes and split are the experiment's, `--classes` picks among its label ids.
 *
 * Orderings: `--orderings all` (every ordering, up to `--limit`), `--orderings sample:N` (or `N`; a seeded uniform
 * sample, `--sample-seed`), `--order a,b,…` (one, as label ids), `--protocol rs --seeds …`, or the classes in
 * ascending order. Output: one run record, or `{runs, training}` with the path taken ("exact by class set: …").
 */
import { basename, resolve } from 'node:path';
import { CONFIG_LIMITS } from '../core/config/limits';
import type { FeatureSet } from '../core/features/feature-set';
import { allMetrics } from '../core/metrics/index';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { splitIntoTasks } from '../core/orderings/key';
import type { Ordering } from '../core/orderings/types';
import { rsClassOrder } from '../core/protocols/rs';
import { isPtmStrategyId, PTM_DEFAULTS, PTM_LIMITS, PTM_OPTIONAL, PTM_STRATEGY_IDS, type PtmStrategy, type PtmStrategyId } from '../core/ptm/defaults';
import { allOrderings, sampledOrderings, type PtmRunRecord } from '../core/ptm/ground-truth';
import { runPtmTruth } from '../engine/features/first-session';
import { FeaturesNotReadyError } from '../engine/features/source-set';
import { PtmInputError } from '../core/ptm/problem';
import { classesWithRows } from '../core/features/test-split';
import { readFeatureFile } from './features';
import { UsageError, decimalNumber, intArg, intListArg, numberArg, rangeListArg, strategyOptionParts, taskSizesArg } from './args';
import { V1_FILL } from '../core/config/defaults';
import { HEAD_TRAINING } from '../core/config/sections/features';
import { seedListArg } from './seeds';
import { UINT32_MAX } from '../core/config/checker';
import { featuresSummary, isSummaryRun, SUMMARY_FLAGS } from './features-summary';
import { loadWordnetFrom } from './inputs';

type Values = Record<string, string | boolean | undefined>;

const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

/** A feature file read through the bounded reader, with a test split held out where it has none (noted in `notes`). */
export function loadFeatures(path: string, notes: string[] = []): FeatureSet {
  return readFeatureFile(path, notes, 'the --features file');
}

/** `--strategy-options key=value,…` over the method's options (numbers where the default is a number). */
export function ptmStrategyOf(id: PtmStrategyId, text: string | undefined): PtmStrategy {
  const options: Record<string, number | string> = { ...PTM_DEFAULTS[id] };
  const optional: Record<string, number> = PTM_OPTIONAL[id];
  const known = [...Object.keys(options), ...Object.keys(optional)];
  for (const [key, raw] of strategyOptionParts(text ?? '')) {
    if (!known.includes(key)) throw new UsageError(`--strategy-options: ${id} has no option "${key}" (it has ${known.join(', ')}).`);
    if (key in optional) {
      const n = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || n > PTM_LIMITS[key as keyof typeof PTM_LIMITS])
        throw new UsageError(`--strategy-options: ${key} must be a whole number from 0 to ${PTM_LIMITS[key as keyof typeof PTM_LIMITS]}; got "${raw}".`);
      if (n !== optional[key]) options[key] = n;
      continue;
    }
    if (typeof options[key] === 'number') {
      const n = decimalNumber(raw);
      if (n === null) throw new UsageError(`--strategy-options: ${key} must be a number written in decimal; got "${raw}".`);
      options[key] = n;
    } else options[key] = raw.trim();
  }
  return { id, options } as unknown as PtmStrategy;
}

/** The orderings asked for, over class positions, with a label each. */
function orderingsOf(v: Values, classes: number[], sizes: number[]): { orderings: Iterable<Ordering>; total: number; label: (k: number) => string } {
  const many = str(v, 'orderings');
  const order = str(v, 'order');
  const protocol = str(v, 'protocol');
  if ([many, order, protocol].filter((x) => x !== undefined).length > 1) throw new UsageError('Give one of --orderings, --order or --protocol.');
  const position = new Map(classes.map((c, p) => [c, p]));
  if (many !== undefined) {
    if (many === 'all') {
      const limit = intArg(str(v, 'limit'), 'limit', 1, CONFIG_LIMITS.groundTruthRuns) ?? CONFIG_LIMITS.groundTruthRuns;
      const omega = countOrderings(sizes);
      if (omega > BigInt(limit)) {
        throw new UsageError(
          `There are ${formatOmega(omega)} orderings, more than --limit ${limit}: give --orderings sample:N for a seeded uniform sample of N (with --sample-seed S), or raise --limit.`,
        );
      }
      return { ...allOrderings(sizes, limit), label: (k) => `ordering ${k}` };
    }
    const m = /^(?:sample:)?(\d+)$/.exec(many.trim());
    if (!m) throw new UsageError(`--orderings takes all or sample:N (N orderings drawn uniformly); got "${many}".`);
    const n = Number(m[1]);
    if (n < 1 || n > CONFIG_LIMITS.groundTruthRuns) throw new UsageError(`--orderings sample:N takes N from 1 to ${CONFIG_LIMITS.groundTruthRuns}; got ${n}.`);
    if (BigInt(n) > countOrderings(sizes))
      throw new UsageError(`--orderings sample:${n}: there are only ${countOrderings(sizes)} orderings; use --orderings all.`);
    const seed = intArg(str(v, 'sample-seed'), 'sample-seed', 0, UINT32_MAX) ?? 0;
    return { ...sampledOrderings(sizes, n, seed), label: (k) => `sample ${k} (seed ${seed})` };
  }
  if (order !== undefined) {
    const labels = intListArg(order, 'order')!;
    if (labels.length !== classes.length || labels.some((c) => !position.has(c)) || new Set(labels).size !== labels.length) {
      throw new UsageError(`--order must list each class of the run once (${classes.length} classes: ${classes.join(',')}); got ${labels.join(',')}.`);
    }
    return {
      orderings: [
        splitIntoTasks(
          labels.map((c) => position.get(c)!),
          sizes,
        ),
      ],
      total: 1,
      label: () => 'given order',
    };
  }
  if (protocol !== undefined) {
    if (protocol !== 'rs')
      throw new UsageError(`run supports --protocol rs; for ${protocol} orderings run "cil-lab orders … --protocol ${protocol}" and pass one with --order.`);
    const seedsText = str(v, 'seeds');
    const seeds = seedsText === undefined ? [1993] : seedListArg(seedsText, 'seeds', CONFIG_LIMITS.seeds);
    return { orderings: seeds.map((s) => splitIntoTasks(rsClassOrder(s, classes.length), sizes)), total: seeds.length, label: (k) => `RS seed ${seeds[k]}` };
  }
  return {
    orderings: [
      splitIntoTasks(
        classes.map((_, p) => p),
        sizes,
      ),
    ],
    total: 1,
    label: () => 'ascending',
  };
}

/** Runs the command; returns the JSON text to print. */
export async function featuresRunCommand(v: Values, options: { onNote?: (note: string) => void; root?: string } = {}, computed?: FeatureSet): Promise<string> {
  const strategyId = str(v, 'strategy');
  const path = str(v, 'features');
  if (path === undefined) {
    throw new UsageError(`--strategy ${strategyId} is a pre-trained method on frozen features: give --features F.npz (features, labels, split, class_names).`);
  }
  if (!isPtmStrategyId(strategyId)) {
    throw new UsageError(`--features F.npz takes a pre-trained method: --strategy ${PTM_STRATEGY_IDS.join(', ')}${strategyId ? ` (not ${strategyId})` : ''}.`);
  }
  // `computed`: features a source computed from --dataset (the embedded backbone, an encoder; run.ts)
  const notes: string[] = [];
  const features = computed ?? readFeatureFile(path, notes, 'the --features file');
  for (const note of notes) options.onNote?.(note);
  if (!computed && str(v, 'dataset') !== undefined) options.onNote?.(`--features ${basename(path)} brings its own classes and split: --dataset is not used`);
  const classArg = str(v, 'classes');
  // without --classes: the classes the file has rows of (its class_names may list a whole dataset's)
  const classes = classArg !== undefined ? rangeListArg(classArg, 'classes') : classesWithRows(features);
  const sizes = taskSizesArg(v, classes.length);
  const strategy = ptmStrategyOf(strategyId, str(v, 'strategy-options'));
  const seed = intArg(str(v, 'seed'), 'seed', 0, UINT32_MAX) ?? 0;
  if (isSummaryRun(v)) {
    const root = options.root;
    return featuresSummary(v, {
      features,
      path,
      classes,
      sizes,
      strategy,
      seed,
      trainPerClass: intArg(str(v, 'train-per-class'), 'train-per-class', 1, CONFIG_LIMITS.perClass),
      testPerClass: intArg(str(v, 'test-per-class'), 'test-per-class', 1, CONFIG_LIMITS.perClass),
      onNote: options.onNote,
      loadWordnet: root ? () => loadWordnetFrom(root) : undefined,
    });
  }
  const orphan = SUMMARY_FLAGS.find((f) => v[f] !== undefined);
  if (orphan) throw new UsageError(`--${orphan} is read only with --summary (the whole distribution); without it, it would change nothing.`);
  const { orderings, total, label } = orderingsOf(v, classes, sizes);

  // a first-session layer (--strategy-options firstSession=W) trains as a run's network does: --epochs, --lr,
  // --batch-size (when --epochs and --lr are both absent, the head's settings HEAD_TRAINING, as the app writes them
  // for an experiment on features), Adam
  const fill = V1_FILL.training;
  const pair = v.epochs === undefined && v.lr === undefined ? HEAD_TRAINING : fill;
  const adaptTraining = {
    // at least one: a first-session layer trained for 0 epochs is its random initial weights, reported as adapted
    epochs: intArg(str(v, 'epochs'), 'epochs', 1, CONFIG_LIMITS.epochs) ?? pair.epochs,
    lr: numberArg(str(v, 'lr'), 'lr') ?? pair.lr,
    batchSize: intArg(str(v, 'batch-size'), 'batch-size', 1, CONFIG_LIMITS.batchSize) ?? fill.batchSize,
    beta1: fill.optimiser.beta1,
    beta2: fill.optimiser.beta2,
    epsilon: fill.optimiser.epsilon,
  };

  const t0 = performance.now();
  const records: PtmRunRecord[] = [];
  let summary;
  try {
    ({ summary } = await runPtmTruth(
      {
        set: features,
        classes,
        strategy,
        seed,
        trainPerClass: intArg(str(v, 'train-per-class'), 'train-per-class', 1, CONFIG_LIMITS.perClass),
        testPerClass: intArg(str(v, 'test-per-class'), 'test-per-class', 1, CONFIG_LIMITS.perClass),
        taskSizes: sizes,
        orderings,
        total,
        training: adaptTraining,
      },
      // in the order asked (with first-session adaptation they come grouped by first task)
      { onRecord: (r, k) => (records[k] = r) },
    ));
  } catch (e) {
    if (e instanceof PtmInputError || e instanceof FeaturesNotReadyError) throw new UsageError(e.message);
    throw e;
  }
  const seconds = (performance.now() - t0) / 1000;
  const file = resolve(path);
  const names = classes.map((c) => features.classNames[c]);
  const runs = records.map((r, k) => {
    const untrained = new Array<number>(sizes.length).fill(0);
    const metrics = allMetrics(r.matrix, { untrained, testCounts: r.testCounts });
    return {
      label: label(k),
      features: file,
      classes: names,
      order: r.tasks.flat(),
      tasks: r.tasks,
      strategy: strategy.id,
      strategyOptions: strategy.options,
      method: summary.method,
      seed,
      final_accuracy: r.finalAccuracy,
      aia: r.aia,
      matrix: r.matrix,
      metrics,
      untrained,
      testCounts: r.testCounts,
      trainCounts: r.trainCounts,
    };
  });
  for (const note of summary.notes) options.onNote?.(note);
  if (runs.length === 1) {
    options.onNote?.(summary.path);
    return JSON.stringify(runs[0]);
  }
  const training = {
    path: summary.path,
    method: summary.method,
    stateRule: summary.stateRule,
    orderings: summary.orderings,
    states: summary.cache.computed,
    cache: summary.cache,
    notes: summary.notes,
    seconds: Math.round(seconds * 1000) / 1000,
  };
  // one record per line of the array: the text for 10⁵ orderings is built piece by piece
  return `{"runs":[${runs.map((r) => JSON.stringify(r)).join(',\n')}],"training":${JSON.stringify(training)}}`;
}
