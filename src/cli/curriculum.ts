/**
 * `cil-lab curriculum [--datasets a,b,c,…] --order m2i|i2m|pair|all|a,b,c --scenario cil|til|both [training flags]`:
 * the Curriculum lab headless (docs/science.md §8; src/engine/curriculum). Each task is a whole 10-class dataset at
 * 28×28 grey. First the isolated accuracy a_j of every dataset (the same model trained on it alone), then the orders
 * asked for (M2I = easy → hard by a_j, I2M the reverse, `pair` both, every K! order, or a hand order), each one
 * class-incremental run read as CIL and as TIL (logits masked to the task's classes) from the same model. With
 * `--config FILE` / `--link URL` it trains what the lab trains for that experiment (`curriculumFlags`).
 */
import { validateConfig } from '../core/config/schema';
import { CURRICULUM_FILL, type CurriculumConfig } from '../core/labs/curriculum/section';
import { CURRICULUM_SETTINGS as S, curriculumTraining } from '../core/labs/curriculum/settings';
import type { SettingsTable } from '../core/config/settings-table';
import { curriculumLab } from '../core/labs/curriculum';
import {
  checkCurriculum,
  CLASSES_PER_DATASET,
  CURRICULUM_DATASET_IDS,
  CURRICULUM_SHAPE_TEXT,
  CurriculumError,
  type CurriculumSource,
} from '../core/curriculum/catalogue';
import { curriculumMetrics, m2iLead } from '../core/curriculum/metrics';
import { curriculumVerdict, curriculumVerdictInput, readCurriculum } from '../core/verdict/curriculum';
import { seedListArg } from './seeds';
import { allOrders, handOrder, i2mOrder, m2iOrder, MAX_ALL_ORDERS_K, sameOrder } from '../core/curriculum/orders';
import { joinCurriculum } from '../engine/curriculum/data';
import { trainIsolated, trainOrder, type OrderRun } from '../engine/curriculum/run';
import { STRATEGY_DEFAULTS, STRATEGY_IDS, TRAINER_DEFAULTS, type StrategyId } from '../engine/defaults';
import type { RunSettings } from '../engine/run-config';
import type { ImageDataset } from '../engine/types';
import { backendArg, intArg, nameListArg, str, refuseUnused, UsageError } from './args';
import { selectCliBackend } from './backend';
import { loadExperimentConfig } from './config-args';
import { loadBuiltinImages } from './inputs';
import { CONFIG_FLAGS, TRAIN_FLAGS } from './flags';
import { fieldHelp, fieldUsages, flagNames, flagValues, usageLines } from './lab-flags';
import { checkAsLink, LAB_RUN_FLAGS, TRAINING_FLAGS } from './link-check';
import { augmentFor, trainingFields } from './run';

type Values = Record<string, string | boolean | undefined>;
const listOf = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e6) / 1e6);

function oneOf<T extends string>(v: Values, key: string, allowed: readonly T[], fallback: T): T {
  const s = str(v, key) ?? fallback;
  if (!(allowed as readonly string[]).includes(s)) throw new UsageError(`Unknown --${key} "${s.slice(0, 40)}": use ${allowed.join(', ')}.`);
  return s as T;
}

/**
 * What the command trains without --config/--link: the lab's fill-in (its table's defaults), one strategy, and the
 * engine's epochs (the trainer's default) unless --epochs says.
 */
const CLI_START: CurriculumConfig = { ...structuredClone(CURRICULUM_FILL as CurriculumConfig), strategies: ['finetune'], epochs: TRAINER_DEFAULTS.epochs };

/** The flag each field of the config's Curriculum section comes from: its field's in the lab's table (--seeds: run's). */
const FLAG_OF = Object.fromEntries(Object.entries(S as SettingsTable).map(([k, f]) => [k, f.flag ? `--${f.flag}` : LAB_RUN_FLAGS.seeds])) as Record<
  keyof CurriculumConfig,
  string
>;

/** The usage lines of `cil-lab curriculum`: the lab's settings' flags (its table's), then run's training flags. */
export const CURRICULUM_HELP = `${usageLines('curriculum', [
  '[--config F | --link URL]',
  ...fieldUsages(S, CLI_START, ['strategies', 'epochs', 'hidden', 'seed']),
  '[the training flags of run: --strategy a,b --model --hidden --epochs --lr --seed --backend]',
  '[--seeds 0-2]',
])}
                 → datasets, isolated a_j, runs (order, scenario, matrix R, acc, bwt, fwt, acc0), summary (M2I − I2M ACC and ACC₀'s share), verdict`;

/** What `cil-lab curriculum --help` adds: each setting's flag with its bounds. */
export const CURRICULUM_DETAILS = `${fieldHelp(S, CLI_START, 21)}
  --seeds            the seeds to run (a range or a list: 0-2, 0,42,1993; default the --seed alone)`;

/** The flags `cil-lab curriculum` reads: its settings' (the table's), run's training flags, then its own. */
export const CURRICULUM_FLAGS = [...flagNames(S).filter((f) => !TRAIN_FLAGS.includes(f)), ...TRAIN_FLAGS, 'seeds', 'features', ...CONFIG_FLAGS] as const;

/**
 * The lab's settings among the flags, checked by the share link's Curriculum section (its bounds: limits.ts
 * CURRICULUM_LIMITS), and the training flags by the link's training sections: no flag accepts what a link refuses.
 */
function checkCurriculumFlags(v: Values, ids: string[], strategies: StrategyId[]): void {
  const whole = (k: string): number | undefined => intArg(str(v, k), k);
  const hidden = str(v, 'hidden')
    ?.split(',')
    .map((h) => Number(h.trim()));
  const orderArg = str(v, 'order');
  const section: Record<string, unknown> = {
    datasets: ids,
    // the section has no 'pair': its m2i (or i2m) is what the lab trains as the pair
    ...(orderArg === undefined
      ? {}
      : { order: orderArg === 'm2i' || orderArg === 'i2m' || orderArg === 'all' ? orderArg : orderArg === 'pair' ? 'm2i' : listOf(orderArg) }),
    scenario: str(v, 'scenario'),
    strategies,
    epochs: Math.max(whole('epochs') ?? 1, whole('first-epochs') ?? 1),
    // the lab trains one hidden layer of at most CURRICULUM_LIMITS.hidden units: every width given is held to it
    hidden: hidden && hidden.every(Number.isInteger) && hidden.length > 0 ? Math.max(...hidden) : undefined,
    trainPerClass: whole('train-per-class'),
    testPerClass: whole('test-per-class'),
    seed: whole('seed'),
  };
  const { errors } = validateConfig({ curriculum: Object.fromEntries(Object.entries(section).filter(([, x]) => x !== undefined)) });
  if (errors.length > 0) {
    const e = errors[0];
    const field = /^curriculum\.(\w+)/.exec(e.path)?.[1] as keyof CurriculumConfig | undefined;
    const flag = field === 'epochs' && str(v, 'first-epochs') !== undefined ? '--epochs / --first-epochs' : field ? FLAG_OF[field] : '--datasets';
    throw new UsageError(`${flag}: ${e.message}`);
  }
  checkAsLink(trainingFields(v, strategies, false), TRAINING_FLAGS);
}

/**
 * The run settings: the lab's (`curriculumTraining`, what the app's runs train with) of the curriculum `datasets`,
 * under run's training flags.
 */
export function curriculumSettings(v: Values, strategies: StrategyId[], datasets: readonly string[]): RunSettings {
  const fields = trainingFields(v, strategies, false);
  const training = fields.training as { epochs?: number; firstTaskEpochs?: number; lr?: number; batchSize?: number; head?: 'seen' | 'all' };
  const lab = curriculumTraining({ datasets: datasets.slice(), hidden: CLI_START.hidden, epochs: training.epochs ?? CLI_START.epochs });
  // the lab's model: one hidden layer of the section's width (256), not run's two-layer default, unless --hidden says
  const given = fields.model as RunSettings['model'];
  const model = given?.kind === 'mlp' && given.hidden === undefined ? { ...given, hidden: lab.model.hidden } : given;
  const memory = intArg(str(v, 'memory'), 'memory', 1);
  const strategyOptions: Record<string, Record<string, number>> = {};
  if (memory !== undefined) {
    const withMemory = strategies.filter((s) => 'memory' in STRATEGY_DEFAULTS[s]);
    if (withMemory.length === 0)
      throw new UsageError(`--memory applies to ${STRATEGY_IDS.filter((s) => 'memory' in STRATEGY_DEFAULTS[s]).join(', ')}, not ${strategies.join(', ')}.`);
    for (const s of withMemory) strategyOptions[s] = { memory };
  }
  const head = str(v, 'head');
  if (head !== undefined && head !== 'seen' && head !== 'all') throw new UsageError(`Unknown --head "${head.slice(0, 40)}": use seen or all.`);
  return {
    model,
    lr: training.lr,
    epochs: lab.epochs,
    firstTaskEpochs: training.firstTaskEpochs,
    batchSize: training.batchSize,
    head: head as 'seen' | 'all' | undefined,
    augment: str(v, 'augment') === undefined ? lab.augment : augmentFor(v, 'digits'),
    strategyOptions,
  };
}

/**
 * The flags the Curriculum lab's settings of a config stand for (the lab entry's `view`: its section and the common sections;
 * one hidden layer, the lab's subset; the lab's other training settings are the engine's defaults, as here). Flags
 * given on the command line win. An order `m2i` or `i2m` becomes `--order pair`: the lab trains both to compare them.
 */
export function curriculumFlags(c: CurriculumConfig): Values {
  return {
    ...flagValues(S, c),
    // the lab trains M2I and I2M both for either (src/services/curriculum-runner.ts orderJobs)
    ...(c.order === 'm2i' || c.order === 'i2m' ? { order: 'pair' } : {}),
    ...((c.seeds ?? 1) > 1 ? { seeds: `${c.seed}-${c.seed + (c.seeds ?? 1) - 1}` } : {}),
  };
}

/** --config FILE / --link URL: the config's Curriculum section under the flags given. */
function withCurriculumConfig(v: Values): Values {
  const config = loadExperimentConfig(v);
  if (!config) return v;
  const given = Object.fromEntries(Object.entries(v).filter(([k, x]) => x !== undefined && k !== 'config' && k !== 'link'));
  // the lab's training is the config's common sections: what the lab cannot train there is refused, not replaced
  refuseUnused(curriculumLab.labName, curriculumLab.tab.unused(config));
  return { ...curriculumFlags(curriculumLab.view(config)), ...given };
}

/**
 * Runs the command. Training flags: --strategy (one or a comma list), --memory, --model, --hidden (default one layer
 * of 256, as the lab trains), --epochs, --first-epochs, --lr, --batch-size, --seed, --backend, --augment (default on
 * with an emoji dataset), --head, --train-per-class (default 100), --test-per-class (default 50); without --datasets
 * the lab's default curriculum. Prints `{"datasets", "isolated": {name: a_j}, "runs": [{"order", "scenario",
 * "strategy", "seed", "matrix", "acc", "bwt", "fwt", "acc0", "gain", "m2i", "i2m"}], "summary": [{strategy, scenario,
 * m2iAcc, i2mAcc, deltaAcc, deltaAcc0, share}], "shape", "trainPerClass", "testPerClass", "backend", "seconds"}`.
 */
export async function curriculumCommand(flags: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
  const started = performance.now();
  const v = withCurriculumConfig(flags);
  const ids = str(v, 'datasets') === undefined ? [...CLI_START.datasets] : nameListArg(str(v, 'datasets') as string, 'datasets', CURRICULUM_DATASET_IDS.length);
  let datasets;
  try {
    datasets = checkCurriculum(ids);
  } catch (e) {
    if (e instanceof CurriculumError) throw new UsageError(`${e.message} (datasets: ${CURRICULUM_DATASET_IDS.join(', ')})`);
    throw e;
  }
  const orderArg = str(v, 'order') ?? (CLI_START.order as string);
  const scenario = oneOf(v, 'scenario', S.scenario.options, CLI_START.scenario);
  const hand = orderArg === 'm2i' || orderArg === 'i2m' || orderArg === 'pair' || orderArg === 'all' ? null : listOf(orderArg);
  let handPositions: number[] | null = null;
  if (hand) {
    try {
      handPositions = handOrder(hand, ids);
    } catch (e) {
      throw new UsageError(`--order takes m2i, i2m, pair, all or the datasets in the order wanted: ${(e as Error).message}`);
    }
  }
  if (orderArg === 'all' && ids.length > MAX_ALL_ORDERS_K)
    throw new UsageError(`--order all trains every order only for at most ${MAX_ALL_ORDERS_K} datasets; the curriculum has ${ids.length}.`);
  const strategies = nameListArg(str(v, 'strategy') ?? CLI_START.strategies.join(','), 'strategy', STRATEGY_IDS.length) as StrategyId[];
  for (const s of strategies) if (!STRATEGY_IDS.includes(s)) throw new UsageError(`Unknown --strategy "${s.slice(0, 40)}": use ${STRATEGY_IDS.join(', ')}.`);
  checkCurriculumFlags(v, ids, strategies);
  const seedArg = intArg(str(v, 'seed'), 'seed', S.seed.min, S.seed.max) ?? CLI_START.seed;
  const seeds = str(v, 'seeds') === undefined ? [seedArg] : seedListArg(str(v, 'seeds') as string);
  const trainPerClass = intArg(str(v, 'train-per-class'), 'train-per-class', S.trainPerClass.min, S.trainPerClass.max) ?? CLI_START.trainPerClass;
  const testPerClass = intArg(str(v, 'test-per-class'), 'test-per-class', S.testPerClass.min, S.testPerClass.max) ?? CLI_START.testPerClass;
  const settings = curriculumSettings(v, strategies, ids);
  const backend = backendArg(v);

  const sources: Partial<Record<CurriculumSource, ImageDataset>> = {};
  for (const src of new Set(datasets.map((d) => d.source))) sources[src] = await loadBuiltinImages(src, options.root, '--datasets');
  const joined = joinCurriculum(datasets, sources, { trainPerClass, testPerClass });
  await selectCliBackend(backend);

  const runSeed = async (seed: number) => {
    const isolated = await trainIsolated(joined, settings, seed);
    const m2i = m2iOrder(isolated);
    const i2m = i2mOrder(isolated);
    const orders =
      orderArg === 'm2i'
        ? [m2i]
        : orderArg === 'i2m'
          ? [i2m]
          : orderArg === 'pair'
            ? [m2i, i2m]
            : orderArg === 'all'
              ? allOrders(ids.length)
              : [handPositions as number[]];
    const trained: OrderRun[] = [];
    for (const strategy of strategies) {
      for (const order of orders) {
        options.onNote?.(`training ${strategy} on ${order.map((p) => ids[p]).join(' → ')}`);
        trained.push(await trainOrder(joined, settings, { order, strategy, seed }));
      }
    }
    const scenarios = scenario === 'both' ? (['cil', 'til'] as const) : ([scenario] as const);
    const runs = trained.flatMap((r) =>
      scenarios.map((sc) => {
        const matrix = sc === 'cil' ? r.cil : r.til;
        const m = curriculumMetrics(matrix, isolated, r.order);
        return {
          order: r.order.map((p) => ids[p]),
          scenario: sc,
          strategy: r.strategy,
          seed: r.seed,
          matrix: matrix.map((row) => row.map((x) => round(x))),
          acc: round(m.acc),
          bwt: round(m.bwt),
          fwt: round(m.fwt),
          acc0: round(m.acc0),
          gain: round(m.gain),
          m2i: sameOrder(r.order, m2i),
          i2m: sameOrder(r.order, i2m),
        };
      }),
    );
    const summary = [];
    for (const strategy of strategies) {
      for (const sc of scenarios) {
        const pick = (o: number[]) => trained.find((r) => r.strategy === strategy && sameOrder(r.order, o));
        const a = pick(m2i);
        const b = pick(i2m);
        if (!a || !b) continue;
        const ma = curriculumMetrics(sc === 'cil' ? a.cil : a.til, isolated, m2i);
        const mb = curriculumMetrics(sc === 'cil' ? b.cil : b.til, isolated, i2m);
        const lead = m2iLead(ma, mb);
        summary.push({
          strategy,
          scenario: sc,
          m2iAcc: round(ma.acc),
          i2mAcc: round(mb.acc),
          deltaAcc: round(lead.deltaAcc),
          deltaAcc0: round(lead.deltaAcc0),
          share: round(lead.share),
        });
      }
    }
    return {
      seed,
      datasets: ids,
      isolated: Object.fromEntries(ids.map((id, p) => [id, round(isolated[p])])),
      m2i: m2i.map((p) => ids[p]),
      i2m: i2m.map((p) => ids[p]),
      runs,
      summary,
      shape: CURRICULUM_SHAPE_TEXT,
      trainPerClass,
      testPerClass,
      backend: trained[0]?.backend ?? null,
      trained,
      isolatedRaw: isolated,
      m2iOrder: m2i,
      i2mOrder: i2m,
    };
  };
  const perSeed: Awaited<ReturnType<typeof runSeed>>[] = [];
  for (const seed of seeds) perSeed.push(await runSeed(seed));
  const counts = new Array<number>(ids.length).fill(0);
  for (const label of joined.train.labels) counts[Math.floor(label / CLASSES_PER_DATASET)]++;
  const input = curriculumVerdictInput({
    datasets: datasets.map((d, p) => ({ id: d.id, name: d.name, trainImagesPerClass: Math.floor(counts[p] / CLASSES_PER_DATASET) })),
    epochs: settings.epochs ?? TRAINER_DEFAULTS.epochs,
    batchSize: settings.batchSize ?? TRAINER_DEFAULTS.batchSize,
    strategies,
    scenarios: scenario === 'both' ? ['cil', 'til'] : [scenario],
    seeds: perSeed.map((x) => ({ seed: x.seed, isolated: x.isolatedRaw, orders: x.trained })),
  });
  const cv = curriculumVerdict(input);
  const verdict = cv.sentences;
  const headline = cv.headline;
  const strip = ({ trained: _t, isolatedRaw: _i, m2iOrder: _m, i2mOrder: _n, ...rest }: (typeof perSeed)[number]) => rest;
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  if (perSeed.length === 1) {
    const { seed: _seed, ...only } = strip(perSeed[0]);
    return JSON.stringify({ ...only, seconds, headline, verdict });
  }
  const reading = readCurriculum(input);
  return JSON.stringify({
    seeds: perSeed.map(strip),
    summary: { seeds, pairs: reading.pairs, atChance: reading.atChance, firstTask: reading.firstTask },
    seconds,
    headline,
    verdict,
  });
}
