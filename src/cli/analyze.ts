/**
 * `cil-lab analyze`: the Ground-truth lab's statistics for runs trained elsewhere.
 *
 *   cil-lab analyze --results F [--similarity wordnet|file:PATH] [--tasks K | --task-sizes …]
 *                   [--dataset ID [--classes 0-5] | --classes a,b,c] [--accuracy final|aia] [--seeds 0,42,1993]
 *                   [--method NAME]
 *
 * F is any format the lab's "Import results" reads (src/core/results-import: CSV, JSON, JSON lines, PyCIL/PILOT
 * logs). The classes come from --dataset/--classes, else from the file; the task sizes from --tasks/--task-sizes,
 * else from the file. The statistics are deriveGroundTruth's (src/core/ground-truth/derive.ts) on the plan
 * analysisPlan builds — for an enumerable Ω exactly the lab's plan — with the lab's sample-count settings, so the
 * numbers equal the lab's for the same experiment. `statistics` is the object the lab's "Statistics JSON" export
 * holds under the same name.
 */
import { basename } from 'node:path';
import { getClassList } from '../core/classes/builtin';
import { validateClassNames } from '../core/classes/validate';
import { deriveGroundTruth, type AccuracyVariable } from '../core/ground-truth/derive';
import { statisticsJson } from '../core/ground-truth/stats-export';
import { analysisPlan } from '../core/results-import/analysis-plan';
import { detectFormat } from '../core/results-import/detect-format';
import { importResults, inferClasses, parseWithFormat } from '../core/results-import/import-results';
import type { SquareMatrix } from '../core/orderings/types';
import { groundTruthVerdict, groundTruthVerdicts } from '../core/verdict/ground-truth';
import { parseSimilarityUpload } from '../core/similarity/parse-upload';
import { resolveSimilarity, type SimilaritySpec } from '../core/similarity/resolve';
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';
import { datasetClassListId, PTM_STRATEGY_IDS } from '../core/config/defaults';
import { CONFIG_LIMITS } from '../core/config/limits';
import { UsageError, rangeListArg, taskSizesArg } from './args';
import { seedListArg } from './seeds';
import { PLACE_FLAGS } from './flags';
import { datasetRef, readInput, readTextInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export const ANALYZE_HELP = `  cil-lab analyze --results F [--similarity wordnet|file:PATH] [--tasks K | --task-sizes 2,2,2]
                [--dataset ID [--classes 0-5] | --classes a,b,c] [--accuracy final|aia] [--seeds 0,42,1993] [--method NAME]
    → the Ground-truth lab's statistics (truth, RS/EDGE Gaussians with JSD/W1, Pearson(S, A), normality, rankings,
      sample-count study) for accuracies trained elsewhere. F: CSV (method,order,final_accuracy[,aia][,seed][,matrix]),
      JSON ([{"method","order","final_accuracy",…}] or {"runs":[…]}), JSON lines ({"order":[…],"acc":…} per line) or a
      PyCIL/PILOT log ("CNN top1 curve: [...]" with the class order it logs). Percent or fraction is detected.`;

export interface AnalyzeDeps {
  loadWordnet: () => WordnetGraph;
}

function classesOf(v: Values): { names: string[]; datasetClasses: number[]; pins?: (string | undefined)[]; dataset?: string } | null {
  const ds = typeof v.dataset === 'string' ? v.dataset : undefined;
  const cls = typeof v.classes === 'string' ? v.classes : typeof v.subset === 'string' ? v.subset : undefined;
  if (ds) {
    // the dataset ids of every command (digits is the Digits dataset, whose classes are MNIST's ten digits)
    const ref = datasetRef(ds);
    const list = getClassList(datasetClassListId(ref));
    const idx = cls ? rangeListArg(cls, 'classes', list.classes.length, ref) : list.classes.map((_, i) => i);
    return { names: idx.map((i) => list.classes[i]), datasetClasses: idx, pins: idx.map((i) => list.synsets[i]), dataset: ref };
  }
  if (cls) {
    const names = validateClassNames(cls.split(',').map((s) => s.trim()));
    return { names, datasetClasses: names.map((_, i) => i) };
  }
  return null;
}

export function analyzeCommand(v: Values, deps: AnalyzeDeps): string {
  const placing = PLACE_FLAGS.find((f) => v[f] !== undefined && f !== 'features' && f !== 'strategy');
  if (placing)
    throw new UsageError(
      `--${placing} is read only when placing orders in a pre-trained method's distribution: give --features F.npz --strategy ${PTM_STRATEGY_IDS.join('|')}.`,
    );
  const path = typeof v.results === 'string' ? v.results : undefined;
  if (!path) throw new UsageError(`Give --results F, the file of runs to analyse.\n\n${ANALYZE_HELP}`);
  const text = readTextInput(path, 'the --results file');
  const variable = ((v.accuracy as string | undefined) ?? 'final') as AccuracyVariable;
  if (variable !== 'final' && variable !== 'aia') throw new UsageError(`--accuracy must be final or aia; got "${String(v.accuracy)}".`);

  // the experiment: classes from the flags or the file; task sizes from the flags or the file
  let classes = classesOf(v);
  const fromFlags = classes !== null;
  if (!classes) {
    const names = inferClasses(parseWithFormat(detectFormat(text, path), text, []));
    if (names) classes = { names, datasetClasses: names.map((_, i) => i) };
  }
  let taskSizes: number[] | undefined;
  if (v.tasks !== undefined || v['task-sizes'] !== undefined) {
    if (!classes) throw new UsageError('The classes could not be inferred from the file: give --dataset ID [--classes 0-5] or --classes a,b,c.');
    taskSizes = taskSizesArg(v, classes.names.length);
  }
  const result = importResults(text, basename(path), {
    classNames: classes?.names,
    datasetClasses: classes?.datasetClasses,
    taskSizes,
    defaultMethod: typeof v.method === 'string' ? v.method : undefined,
  });
  for (const n of result.notes) process.stderr.write(`note: ${n}\n`);
  if (result.error && result.runs.length === 0) {
    const reasons = result.skipped
      .slice(0, 5)
      .map((s) => `  ${s.where}: ${s.reason}`)
      .join('\n');
    throw new UsageError(`${result.error}${reasons ? `\n${reasons}` : ''}`);
  }

  // the similarity over the experiment's positions
  const source = (v.similarity as string | undefined) ?? 'wordnet';
  let spec: SimilaritySpec;
  if (source === 'wordnet') {
    if (result.classNames.every((n) => /^\d+$/.test(n))) {
      throw new UsageError(
        'WordNet needs class names, and the file has only class indices: give --dataset ID [--classes 0-5], --classes a,b,c, or --similarity file:PATH.',
      );
    }
    spec = { kind: 'wordnet', pins: classes?.pins };
  } else if (source.startsWith('file:')) {
    const p = source.slice(5);
    spec = { kind: 'upload', fileName: p, bytes: readInput(p, 'the similarity file') };
  } else throw new UsageError(`Unknown --similarity "${source}": use wordnet or file:PATH.`);
  let sim: { matrix: SquareMatrix; description: string; warnings: string[] };
  let classNames = result.classNames;
  try {
    if (spec.kind === 'upload' && !fromFlags && classNames.every((n) => /^\d+$/.test(n))) {
      // classes known only by index: row p of the file is class p; its names (if any) name the classes
      const up = parseSimilarityUpload(spec.fileName, spec.bytes);
      if (up.matrix.n !== classNames.length)
        throw new Error(`The similarity file is ${up.matrix.n}×${up.matrix.n} but the runs have ${classNames.length} classes.`);
      if (up.classNames) classNames = up.classNames;
      sim = { matrix: up.matrix, description: `similarity matrix from ${spec.fileName} (row p = class index p)`, warnings: up.warnings };
    } else sim = resolveSimilarity(spec, result.classNames, { wordnet: spec.kind === 'wordnet' ? deps.loadWordnet : undefined });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  for (const w of sim.warnings) process.stderr.write(`note: ${w}\n`);

  const strategies = [...new Set(result.runs.map((r) => r.method))];
  const plan = analysisPlan({
    classes: result.datasetClasses,
    taskSizes: result.taskSizes,
    similarity: sim.matrix,
    rsSeeds: typeof v.seeds === 'string' ? seedListArg(v.seeds, 'seeds', CONFIG_LIMITS.rsSeeds) : [0, 42, 1993],
    medianSeed: 0,
    importedKeys: result.runs.map((r) => r.orderingKey),
    strategies,
    seeds: result.runs.map((r) => r.seed),
  });
  const stats = deriveGroundTruth({
    runs: result.runs.map((r) => ({
      orderingKey: r.orderingKey,
      strategy: r.method,
      seed: r.seed,
      matrix: [],
      testCounts: [],
      finalAccuracy: r.finalAccuracy,
      aia: r.aia ?? Number.NaN,
    })),
    plan,
    variable,
    strategies,
    sampleCount: { maxL: 20, repeats: 100, seed: 0 },
  });
  return JSON.stringify({
    results: path,
    format: result.format,
    formatLabel: result.formatLabel,
    unit: result.unit,
    unitReason: result.unitReason,
    rowsRead: result.rowsRead,
    imported: result.runs.length,
    skipped: result.skipped,
    notes: result.notes,
    classes: classNames,
    datasetClasses: result.datasetClasses,
    dataset: classes?.dataset,
    taskSizes: result.taskSizes,
    taskSizesFrom: result.taskSizesFrom,
    omega: plan.omega,
    similarity: sim.description,
    accuracy: variable,
    statistics: statisticsJson(stats),
    // the Ground-truth lab's "What this shows", in the same words (core/verdict/ground-truth.ts): every strategy's
    // sentences (prefixed when several) with the first strategy's headline, and each strategy's verdict on its own
    headline: groundTruthVerdict({ stats }).headline,
    verdict: groundTruthVerdict({ stats }).sentences,
    verdicts: groundTruthVerdicts({ stats }).map((x) => ({ strategy: x.strategy, headline: x.verdict.headline, sentences: x.verdict.sentences })),
  });
}
