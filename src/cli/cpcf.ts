/**
 * `cil-lab cpcf`: one training run (the flags of `cil-lab run`) that records softmax outputs on each task's
 * calibration and test data after every task, then the CPCF series (docs/science.md §3): CPCF_j, a_prev,j, a_new,j,
 * coverage against 1−α, Kemker's Ω, dCor and Pearson between CPCF and a_prev.
 * Infinite thresholds (calibration set too small for α) print as null with `qInfinite` (JSON has no Infinity).
 *
 * Over seeds (docs/science.md §3 "Our dCor beside the paper's"):
 * - `--seeds 0-4` (or `0,1,2`) trains the same run at each seed; without it, a config's seeds (`--config`/`--link`)
 *   when it lists several or its `forgetting.seeds` asks for several (seed, seed+1, …), else `--seed`. (With `--protocol rs`, `--seeds` keeps its meaning of RS seeds.)
 * - `--preset digits|fashion|fashion-paper`: the Forgetting lab's paper preset (src/core/forgetting/setup.ts): its
 *   dataset, 10 classes in tasks 5,1,1,1,1,1, MLP 256-128, full head, batch 64, lr 2e-5, epochs, images per class
 *   and 5 seeds (seed, seed+1, …); any flag given wins. One strategy per command (`--strategy finetune|ewc`).
 * - Output: one seed prints the run's object as before; several print `{runs: [...]}`. Both add `summary`: dCor
 *   mean ± sd over the seeds, the pooled permutation p (Monte Carlo, 9 999 resamples seeded by the first seed; exact
 *   for one seed of ≤ 8 points), base accuracy mean ± sd, the paper's figure for this dataset/model/α/ratio, and
 *   `notComparable` — the plain reasons the numbers are not the paper's (empty when they are). One line with the
 *   same goes to stderr.
 */
import { cpcfFromRun } from '../core/conformal/from-run';
import type { ScoreName } from '../core/conformal/scores';
import {
  comparabilityNotes,
  DCOR_RESAMPLES,
  PAPER_STATISTIC_NOTE,
  meanSdText,
  pText,
  paperFigureOf,
  summariseDcor,
  unstatedSettings,
  type CompareSetup,
} from '../core/forgetting/compare';
import { dcorNullDistribution } from '../core/stats/dcor-null';
import { forgettingVerdict } from '../core/verdict/forgetting';
import { PRESETS, baseJob, lrText } from '../core/forgetting/setup';
import { runCommand, RunUsageError } from './run';
import { intArg, numberArg, UsageError } from './args';
import { flagUsage, settingsDefaults, type SettingField } from '../core/config/settings-table';
import { CONFORMAL_SETTINGS, reportSettingsOf, type ConformalSettings } from '../core/labs/forgetting/settings';
import { RUN_FLAGS, type Flag } from './flags';
import { loadExperimentConfig } from './config-args';
import { CONFIG_LIMITS } from '../core/config/limits';
import { seedListArg, seedRange } from './seeds';
import { isPtmStrategyId, PTM_STRATEGY_IDS } from '../core/ptm/defaults';
import { meanSd } from '../core/stats/dcor-permutation';

type Values = Record<string, string | boolean | undefined>;

function fraction(v: Values, key: string, fallback: number, lo: number, hi: number): number {
  const s = v[key];
  if (s === undefined) return fallback;
  const x = Number(s);
  if (typeof s !== 'string' || s.trim() === '' || !Number.isFinite(x) || x <= lo || x >= hi) {
    throw new UsageError(`--${key} must be a number strictly between ${lo} and ${hi}; got "${String(s)}".`);
  }
  return x;
}

/** The conformal fields with a flag, in the table's order (the order they are read in). */
const CONFORMAL_FLAGGED = Object.entries(CONFORMAL_SETTINGS as Record<string, SettingField>).filter(([, f]) => f.flag);
/** The same, the calibration ratio first, as the command's usage line has always written them. */
const USAGE_ORDER = [...CONFORMAL_FLAGGED].sort(([a], [b]) => Number(b === 'calibrationRatio') - Number(a === 'calibrationRatio'));

/** `cil-lab cpcf`'s flags: run's, the conformal table's, the preset. */
export const CPCF_FLAGS: readonly Flag[] = [...RUN_FLAGS, ...USAGE_ORDER.map(([, f]) => f.flag as Flag), 'preset'];

export const CPCF_HELP = `  cil-lab cpcf <the flags of run> ${USAGE_ORDER.map(([, f]) => flagUsage(f)).join(' ')}   → CPCF, a_prev, a_new, coverage, Ω, dCor
               [--seeds 0-4] [--preset digits|fashion|fashion-paper]   → summary: dCor mean ± sd over seeds, permutation p, paper's figure, notComparable;
               verdict (the Forgetting lab's sentences)`;

/** "a, b or c" */
const orList = (xs: readonly string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}` : xs.join(''));

/**
 * The conformal settings of the flags (`--alpha`, `--calibration-ratio`, `--score`, each field of the table with a
 * flag) over a given experiment's conformal section, else over the table's defaults; bad input is one line that
 * names the flag.
 */
function conformalFlags(v: Values): ConformalSettings {
  // a --config / --link experiment's own section first (its RAPS λ and k_reg have no flag), the flags over it
  const out: Record<string, unknown> = { ...settingsDefaults(CONFORMAL_SETTINGS), ...loadExperimentConfig(v)?.conformal };
  for (const [key, f] of CONFORMAL_FLAGGED) {
    const flag = f.flag!;
    const text = v[flag];
    if (text === undefined) continue;
    if (f.kind === 'number' && f.above && f.below) out[key] = fraction(v, flag, f.default, f.min, f.max);
    else if (f.kind === 'choice') {
      if (typeof text !== 'string' || !(f.options as readonly string[]).includes(text))
        throw new UsageError(`Unknown --${flag} "${String(text)}": use ${orList(f.options)}.`);
      out[key] = text;
    } else if (f.kind === 'int') out[key] = intArg(String(text), flag, f.min, f.max);
    else if (f.kind === 'number') out[key] = numberArg(String(text), flag, { min: f.min, max: f.max, exclusiveMin: f.above, exclusiveMax: f.below });
    else if (f.kind === 'bool') out[key] = text === true;
    else throw new UsageError(`--${flag}: not a flag cpcf reads.`);
  }
  return out as ConformalSettings;
}

const finite = (xs: number[]) => xs.map((x) => (Number.isFinite(x) ? x : null));
const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

/** The paper presets `--preset` takes (the ones with a regime). */
const CLI_PRESETS = PRESETS.filter((p) => p.regime);

/** The flags a paper preset stands for; the command line's win. */
export function presetFlags(id: string, v: Values): Values {
  const p = CLI_PRESETS.find((x) => x.id === id);
  if (!p || !p.regime || !p.dataset) throw new UsageError(`Unknown --preset "${id}": use ${CLI_PRESETS.map((x) => x.id).join(', ')}.`);
  const r = p.regime;
  const job = baseJob(p.dataset);
  const seed = Number(str(v, 'seed') ?? '0');
  const out: Values = {
    dataset: p.dataset,
    classes: '0-9',
    'task-sizes': job.tasks.map((t) => t.length).join(','),
    hidden: job.hidden.join(','),
    'first-epochs': String(r.firstTaskEpochs),
    epochs: String(r.epochs),
    lr: String(job.lr),
    'batch-size': String(job.batchSize),
    head: job.head,
    'calibration-ratio': String(job.calibrationRatio),
    seeds: Number.isInteger(seed) ? `${seed}-${seed + r.seeds - 1}` : undefined,
  };
  if (r.trainPerClass !== null) out['train-per-class'] = String(r.trainPerClass);
  if (r.testPerClass !== null) out['test-per-class'] = String(r.testPerClass);
  const given = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
  const merged: Values = { ...out, ...given };
  // the preset's EWC is the paper's (single-penalisation, λ = 1000), not the engine's default (multi); keys the
  // command line gives in --strategy-options win one by one
  if (merged.strategy === 'ewc') {
    const own = typeof given['strategy-options'] === 'string' ? (given['strategy-options'] as string) : '';
    const keys = new Set(
      own
        .split(',')
        .map((p) => p.split('=')[0].trim())
        .filter(Boolean),
    );
    const preset = [`mode=${job.ewcMode}`, `lambda=${job.ewcLambda}`].filter((kv) => !keys.has(kv.split('=')[0]));
    merged['strategy-options'] = [...preset, ...(own ? [own] : [])].join(',');
  }
  return merged;
}

/** The training seeds: --seeds (a list or ranges: "0-4", "0,3,7"), a config's seeds, or --seed. */
function trainingSeeds(v: Values): number[] | null {
  if (str(v, 'protocol')) return null;
  const s = str(v, 'seeds');
  // the experiment's seeds list, each one cpcf run (CONFIG_LIMITS.seeds, as the link's)
  if (s !== undefined) return seedListArg(s, 'seeds', CONFIG_LIMITS.seeds);
  if (str(v, 'seed') === undefined || v.config !== undefined || v.link !== undefined) {
    const config = loadExperimentConfig(v);
    if (config && config.seeds.length > 1 && str(v, 'seed') === String(config.seeds[0])) return [...config.seeds];
    // the Forgetting lab's seeds: one run at seeds[0], seeds[0] + 1, …
    const n = config?.forgetting.seeds ?? 1;
    if (config && n > 1 && str(v, 'seed') === String(config.seeds[0])) return seedRange(config.seeds[0], n);
  }
  return null;
}

export async function cpcfCommand(v0: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
  const preset = str(v0, 'preset');
  const v = preset ? presetFlags(preset, v0) : v0;
  const strategy = str(v, 'strategy');
  if (isPtmStrategyId(strategy))
    throw new UsageError(
      `--strategy ${strategy}: CPCF measures how a trained network's softmax outputs change as it learns, and ${PTM_STRATEGY_IDS.join(', ')} train no network (frozen features, no softmax); use a training strategy such as finetune or ewc.`,
    );
  const conformal = conformalFlags(v);
  const { alpha, calibrationRatio } = conformal;
  const score: ScoreName = conformal.score;
  const seeds = trainingSeeds(v);
  const runOne = (seedFlags: Values) =>
    runCommand(seedFlags, options, {
      probs: { calibrationRatio },
      report: (result) => {
        const r = cpcfFromRun(result, reportSettingsOf(conformal));
        return {
          alpha,
          calibrationRatio,
          score,
          ...(score === 'raps' ? { raps: r.raps } : {}),
          cpcf: r.cpcf,
          aPrev: r.aPrev,
          aNew: r.aNew,
          coverage: r.coverage,
          q: finite(r.q),
          qInfinite: r.q.map((q) => !Number.isFinite(q)),
          omega: r.omega,
          dcor: r.dcor,
          pearson: Number.isFinite(r.pearson) ? r.pearson : null,
          pearsonP: Number.isFinite(r.pearsonP) ? r.pearsonP : null,
          calibrationCounts: result.calibrationCounts,
        };
      },
    });
  try {
    const t0 = performance.now();
    const texts: string[] = [];
    if (seeds) for (const s of seeds) texts.push(await runOne({ ...v, seed: String(s), seeds: undefined }));
    else texts.push(await runOne(v));
    const seconds = (performance.now() - t0) / 1000;
    const parsed = texts.map((t) => JSON.parse(t) as Record<string, unknown>);
    // several orderings (--protocol rs / --orderings) print {runs}; the summary is over every run given
    const runs = parsed.flatMap((p) => (Array.isArray(p.runs) ? (p.runs as Record<string, unknown>[]) : [p]));
    const tpc = str(v, 'train-per-class');
    const summary = summaryOf(runs, { alpha, calibrationRatio, seconds, trainPerClass: tpc === undefined ? null : Number(tpc) });
    options.onNote?.(summary.line);
    const { line: _line, headline, verdict, ...rest } = summary;
    if (runs.length === 1) return JSON.stringify({ ...runs[0], summary: rest, headline, verdict });
    return JSON.stringify({ runs, summary: rest, headline, verdict });
  } catch (e) {
    if (e instanceof RunUsageError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * dCor mean ± sd and permutation p over the runs, the paper's figure, why they are not comparable, dCor's chance band
 * for the runs' points, and the Forgetting lab's verdict in the same words (core/verdict/forgetting.ts).
 */
function summaryOf(runs: Record<string, unknown>[], o: { alpha: number; calibrationRatio: number; seconds: number; trainPerClass: number | null }) {
  const first = runs[0];
  const config = first.config as {
    lr: number;
    epochs: number;
    firstTaskEpochs: number;
    batchSize: number;
    head: 'all' | 'seen';
    seed: number;
    strategyOptions?: { lambda?: number };
  };
  const tasks = first.tasks as number[][];
  const dataset = String(first.dataset);
  const strategy = String(first.strategy);
  const paper = paperFigureOf(dataset, strategy, o.alpha, o.calibrationRatio);
  const setup: CompareSetup = {
    dataset,
    taskSizes: tasks.map((t) => t.length),
    lr: config.lr,
    firstTaskEpochs: config.firstTaskEpochs,
    epochs: config.epochs,
    // --train-per-class as given (none: all the dataset has, as the lab's presets count it)
    trainPerClass: o.trainPerClass,
    head: config.head,
    batchSize: config.batchSize,
  };
  const series = runs.map((r) => ({
    seed: Number((r.config as { seed: number }).seed),
    cpcf: r.cpcf as number[],
    aPrev: r.aPrev as number[],
    baseAccuracy: (r.matrix as number[][])[0][0],
  }));
  const points = series[0].cpcf.length;
  // dCor and its permutation test need two CPCF points (three tasks: CPCF is measured from the second task on)
  const s = points >= 2 ? summariseDcor(setup, series, { seed: config.seed, resamples: DCOR_RESAMPLES }) : null;
  const notes = s ? s.notes : comparabilityNotes(setup, { baseAccuracy: meanSd(series.map((x) => x.baseAccuracy)).mean, points, seeds: runs.length });
  if (strategy !== 'finetune' && strategy !== 'ewc') notes.push(`the paper has MLP (finetune) and EWC only, not ${strategy}`);
  if (Math.abs(o.alpha - 0.1) > 1e-9 && Math.abs(o.calibrationRatio - 0.1) > 1e-9) notes.push('the paper’s tables fix α = 0.1 or the calibration ratio at 0.1');
  const comparable = notes.length === 0 && paper !== null;
  const ewcLambda = strategy === 'ewc' ? config.strategyOptions?.lambda : undefined;
  const unstated = unstatedSettings({ batchSize: config.batchSize, strategy, ewcLambda, seeds: runs.length });
  const band = points >= 2 ? dcorNullDistribution(points) : null;
  const verdict = forgettingVerdict({
    setup,
    alpha: o.alpha,
    calibrationRatio: o.calibrationRatio,
    groups: [{ strategy, ewcLambda, runs: series }],
  });
  const base = meanSd(series.map((x) => x.baseAccuracy));
  const line =
    (s
      ? `dCor(CPCF, a_prev) ${meanSdText(s.dcor)}, permutation ${pText(s.p)}${s.exact ? ' (exact)' : ` (${DCOR_RESAMPLES} resamples)`}, null mean ${s.nullMean.toFixed(3)}; ` +
        `CPCF rises as a_prev falls in ${s.falling} of ${runs.length}; `
      : `dCor(CPCF, a_prev) – (${points} CPCF point${points === 1 ? '' : 's'}: it needs 3 tasks or more); `) +
    `base accuracy ${meanSdText({ mean: 100 * base.mean, sd: 100 * base.sd, n: base.n }, 1, '%')}; ` +
    `paper ${paper === null ? '–' : paper.dcor.toFixed(4)}${comparable ? '' : ` — not comparable: ${notes.join('; ') || 'the paper has no figure for this'}`}`;
  return {
    line,
    headline: verdict.headline,
    verdict: verdict.sentences,
    seeds: runs.map((r) => Number((r.config as { seed: number }).seed)),
    dcor: s ? { mean: s.dcor.mean, sd: Number.isFinite(s.dcor.sd) ? s.dcor.sd : null, values: s.values } : null,
    permutation: s ? { p: s.p, exact: s.exact, resamples: s.exact ? null : DCOR_RESAMPLES, nullMean: s.nullMean, points: s.points } : null,
    // dCor of two unrelated series of this many points (core/stats/dcor-null.ts): the band to read ours against
    dcorNull: band && { points: band.n, draws: band.draws, seed: band.seed, mean: band.mean, quantiles: band.quantiles },
    pearson: s ? s.pearson.map((r) => (Number.isFinite(r) ? r : null)) : series.map(() => null),
    falling: s ? s.falling : null,
    baseAccuracy: { mean: base.mean, sd: Number.isFinite(base.sd) ? base.sd : null },
    paper,
    comparable,
    notComparable: notes,
    unstated,
    paperNote: PAPER_STATISTIC_NOTE,
    lr: lrText(config.lr),
    seconds: Math.round(o.seconds * 10) / 10,
  };
}
