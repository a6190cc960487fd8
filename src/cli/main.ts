/**
 * `cil-lab`: the ordering science headless (docs/architecture.md, src/cli). JSON on stdout, errors on stderr,
 * exit code 0 on success, 2 on a usage or input error, 1 on anything unexpected.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILTIN_CLASS_LISTS } from '../core/classes/builtin';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { matrixToRows } from '../core/orderings/matrix';
import { similarityPairMean, similarityScore } from '../core/orderings/score';
import { splitIntoTasks } from '../core/orderings/key';
import { forEachOrdering, labelsToOrdering, orderingToLabels } from '../core/orderings/enumerate';
import { orderingKey } from '../core/orderings/key';
import { sampleOrderings } from '../core/orderings/sample';
import { theorem1SampleSize, theorem2SampleSize } from '../core/protocols/bounds';
import { EXPORT_FORMATS, formatSequences, ordersDocument, type ExportFormat } from '../core/protocols/export';
import { computeOrderingsView } from '../core/protocols/orderings-view';
import { V1_FILL } from '../core/config/defaults';
import { UINT32_MAX } from '../core/config/checker';
import { CONFIG_LIMITS } from '../core/config/limits';
import { LABS } from '../core/labs';
import { orderingsVerdict } from '../core/verdict/orderings';
import { PROTOCOL_IDS, type ProtocolId } from '../core/protocols/types';
import { resolveSimilarity } from '../core/similarity/resolve';
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';
import { UsageError, intArg, intListArg, joinNegativeNumbers, numberArg, oneLineParseError, rangeListArg, taskSizesArg } from './args';
import { seedListArg } from './seeds';
import { COMMAND_FLAGS, FEATURE_ONLY, OPTIONS, unreadFlagRefusal, type Flag } from './flags';
import { classInput, loadBuiltinImages, loadWordnetFrom, resetInputsRead, similaritySpec, writeOutput } from './inputs';
import { runCommand } from './run';
import { similarityClipOrCompare } from './similarity-clip';
import { statsCommand } from './stats';
import { conformalCommand } from './conformal';
import { cpcfCommand } from './cpcf';
import { withConfig } from './config-args';
import { ANALYZE_HELP, analyzeCommand } from './analyze';
import { ANALYZE_PLACE_HELP, analyzePlacement, isPlacementAnalysis } from './analyze-place';
import { oodMetricsCommand, oodScoresCommand } from './ood-metrics';
import { oodCommand } from './ood';
import { reservoirCommand } from './reservoir';
import { streamCommand } from './stream';
import { curriculumCommand } from './curriculum';
import { OWN_CLASSES_HELP, ownClassesCommand } from './own-classes';
import { LESSON_HELP, lessonCommand } from './lesson';
import { SWEEP_HELP, sweepCommand } from './sweep';
import { FEATURES_HELP, featuresCommand, featuresRefusal, withFeaturePrototypes } from './features';
import { BUILTIN_DATASET_IDS, BUILTIN_DATASETS } from '../data/registry';
import { loadUserData } from './run';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The distribution of S over Ω that `orders` computes: the experiment config's default (the page's, unless a link changes it). */
const ORDERS_DISTRIBUTION = V1_FILL.protocols.distribution;

const HELP = `cil-lab — class orderings for class-incremental learning (JSON on stdout)

  cil-lab count --classes N (--tasks K | --task-sizes 2,2,2)
  cil-lab enumerate --classes N (--tasks K | --task-sizes …) [--limit 1000000] [--sample L --seed S]
  cil-lab orders (--dataset ID [--subset 0-5] | --classes a,b,c | --classes-file F) (--tasks K | --task-sizes …)
                 [--protocol rs,edge,edge+,exact,as,ms|all] [--seeds 0,42,1993] [--similarity wordnet|file:PATH]
                 [--format json|pycil|mammoth|avalanche|csv] [--exact-limit 1000000]
  cil-lab score --order 3,1,0,2 (--tasks K | --task-sizes …) --similarity file:PATH [--classes … | --dataset ID]
  cil-lab similarity --source wordnet|file:PATH (--classes … | --dataset ID [--subset …] | --classes-file F) [--out F]
  cil-lab similarity --source clip --model-path DIR [--model-id ID] [--prompt "a photo of a {}"] [--descriptions F.json]
                     [--dtype q8|fp32] (--classes … | --dataset ID | --classes-file F) [--out F]   (no network unless --allow-remote)
  cil-lab similarity --compare F1 F2 (--tasks K | --task-sizes …)   → mae, spearman, csgHard, csgEasy
  cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05 [--range R]
  cil-lab stats --values F.json   → moments, Box-Cox λ, Shapiro–Wilk / D'Agostino K² / KS before and after Box-Cox
  cil-lab stats --truth F.json --estimate F.json   → JSD (bits) and W1 (points) of the estimate's Gaussian vs the truth
${indent(ANALYZE_HELP)}
${indent(ANALYZE_PLACE_HELP)}
  cil-lab cpcf <the flags of run> [--calibration-ratio 0.1] [--alpha 0.1] [--score aps|lac|raps]   → CPCF, a_prev, a_new, coverage, Ω, dCor
               [--seeds 0-4] [--preset digits|fashion|fashion-paper]   → summary: dCor mean ± sd over seeds, permutation p, paper's figure, notComparable;
               verdict (the Forgetting lab's sentences)
  cil-lab conformal --calibration F.json --test F.json --alpha 0.1 [--score aps|lac|raps]   → q, sets, sizes, coverage
  cil-lab ood-metrics --id ID.json --ood OOD.json   → auroc, fpr95, auprIn, auprOut (ID positive; JSON arrays of scores, higher = more ID)
  cil-lab ood-scores --logits L.json [--detectors msp,maxlogit,energy,gen,odin]   → {detector: scores} from logit rows
  cil-lab ood <the flags of run> [--ood digits,fashion-mnist:6-9] [--detectors msp,maxlogit,energy,gen,odin,react,klm,relation,nnguide,
              ber,ber-nter,ber-oter,ber-ce,logitnorm,regmixup] [--head-epochs 10] [--head-lr 0.01] [--margin-in M --margin-out M] [--ood-seed S]
              [--seeds 0-2]   → per step, detector and OOD set: auroc, fpr95, auprIn, auprOut (ID positive); accuracy per step;
                 verdict; with several seeds every run and a summary over them
  cil-lab stream [--stream drift|abrupt|mixed] --protocol iid|streaming|iid,streaming [--seeds 0-2] [--buckets 5] [--mode finetune|scratch|linear]
                 [--buffer cumulative|reservoir --k N --alpha A|dynamic:C] [--per-class 100] [--strength 0.2] [--train-ratio 0.7]
                 [--dataset fashion-mnist] [the training flags of run: --model --hidden --epochs --lr --batch-size --seed --backend]
                 [--control: each seed again at strength 0, iid — the no-drift control]
                 → matrix R, metrics (CLEAR averages: inDomain, nextDomain, backwardTransfer, forwardTransfer, accuracy), headline, verdict;
                   several runs: runs, control, summary (gap, controlGap, gapMinusControl, streaming − iid: mean, sd, 95% interval)
  cil-lab curriculum [--config F | --link URL] [--datasets digits,fashion-mnist,emoji-animals,emoji-vehicles] [--order m2i|i2m|pair|all|a,b,c] [--scenario cil|til|both]
                 [--train-per-class 100] [--test-per-class 50] [the training flags of run: --strategy a,b --model --hidden --epochs --lr --seed --backend] [--seeds 0-2]
                 → datasets, isolated a_j, runs (order, scenario, matrix R, acc, bwt, fwt, acc0), summary (M2I − I2M ACC and ACC₀'s share), verdict
  cil-lab reservoir --bucket-sizes 100,100,… --k N --alpha A|dynamic:C [--trials 1000] [--seed S]   → shares, sizes (CLEAR's Alg. 1 alone)
  cil-lab run --dataset digits|fashion-mnist|emoji|PATH [--classes 0-9] (--tasks K | --task-sizes …) [--order 3,1,…|--protocol rs --seeds 1993]
              --strategy finetune|joint|ewc|lwf|si|replay|icarl|agem|gdumb|ncm [--memory 200] [--model mlp|cnn] [--hidden 256,128]
              [--epochs E] [--first-epochs E1] [--lr L] [--batch-size B] [--seed S] [--backend wasm|cpu|webgpu] [--train-per-class N --test-per-class N] [--augment on|off] [--head seen|all]
              [--init he-glorot|pytorch] [--strategy-options key=value,… (e.g. lambda=5000,mode=single for ewc)]
              [--orderings all|N [--limit 5000] [--sample-seed S]] [--fast on|off] [--population auto|N]
                 --orderings trains every ordering (or N sampled) on the fast path: shared task prefixes once, same numbers;
                 the output's runs (final_accuracy, aia, matrix) go straight into "cil-lab analyze --results"
  cil-lab run --features F.npz [--classes 0-5] (--tasks K | --task-sizes …) --strategy simplecil|ranpac|fecam
              [--strategy-options metric=cosine|euclidean, projection=2000,lambdaFrom=task|seen, shrinkage=1, firstSession=W] [--seed S]
              [--epochs E --lr L --batch-size B: the first-session layer's training (firstSession=W: W ReLU units adapted on task 1)]
              [--orderings all|sample:N [--limit 200000] [--sample-seed S] | --order … | --protocol rs --seeds …] [--train-per-class N --test-per-class N]
                 pre-trained methods on frozen features (an .npz of features, labels, split, class_names): every ordering's
                 run from each class set's state, computed once ("training": {"path": "exact by class set: …"})
              [--summary [--place 3,1,0,…] [--seeds 0,42,1993] [--similarity features|wordnet|file:PATH] [--limit 20000000]
               [--orderings all|sample:N] [--epsilon 0.1 --delta 0.05] [--sample-seed S] [--threads 1|2]]
                 --summary: the whole distribution without one record per ordering: {"summary": {orderings, omega, exact,
                 aia|final: {min, max, mean, sd, quantiles, histogram, worst, best}}, "rs"|"edge": {orderings placed, aia|final:
                 {mean, sd, jsd, w1}}, "place": {order, tasks, aia, final, percentile, finalPercentile}, "verdict"}; every
                 ordering when |Ω| ≤ --limit, else a uniform sample of Theorem 1's size (ε, δ); percentiles 0–100 by mid-rank
                 (orderings below + half those tied, within 1e-12) of all orderings; --place: a flat order of label ids;
                 --threads 2 (the default on two cores or more) computes RanPAC's states on a second thread, same numbers
${SWEEP_HELP}
${FEATURES_HELP}
${OWN_CLASSES_HELP}
${LESSON_HELP}

orders, run, sweep, cpcf, count and similarity also take --config FILE (a config file saved from the app's "What ran"
panel) or --link URL (a share link); flags given on the command line win over the config's settings.

The labs of the app and the commands that print their numbers:
${LABS.map((l) => `  ${l.name.padEnd(13)} ${l.commands.join(', ')}`).join('\n')}

Datasets: ${BUILTIN_CLASS_LISTS.map((l) => l.id).join(', ')}`;

/** A help block written from column 0, indented as HELP's command lines (commandHelp finds them by it). */
function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

function loadWordnet(): WordnetGraph {
  return loadWordnetFrom(root);
}

function taskSizesFor(n: number, v: Record<string, string | boolean | undefined>): number[] {
  return taskSizesArg(v, n);
}

/** This command's lines of HELP (its usage and the lines that continue it). */
function commandHelp(command: string): string {
  const lines = HELP.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^ {2}cil-lab [a-z-]+/.test(line)) inside = line.startsWith(`  cil-lab ${command} `) || line === `  cil-lab ${command}`;
    else if (!/^ {3,}/.test(line)) inside = false;
    if (inside) out.push(line);
  }
  return `cil-lab ${command} (JSON on stdout; exit code 2 on bad input)\n\n${out.join('\n')}\n\nflags: ${COMMAND_FLAGS[command].map((f) => `--${f}`).join(' ')}`;
}

function run(argv: string[]): string | Promise<string> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return HELP;
  const allowed = COMMAND_FLAGS[command];
  if (!allowed) throw new UsageError(`Unknown command "${command.slice(0, 40)}": cil-lab --help lists the commands.`);
  if (rest.includes('--help') || rest.includes('-h')) return commandHelp(command);
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  const options = Object.fromEntries(allowed.map((f) => [f, OPTIONS[f]]));
  try {
    // a negative number after a flag is its value (`--seed -1`), not an unknown option
    const args = joinNegativeNumbers(rest, OPTIONS);
    ({ values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: command === 'similarity' || command === 'sweep' || command === 'lesson',
      strict: true,
    }));
  } catch (e) {
    const flag = /'--([^' =<]+)/.exec((e as Error).message)?.[1];
    if ((e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag && flag in OPTIONS)
      throw new UsageError(`--${flag} is not a flag of cil-lab ${command}: it would change nothing (cil-lab ${command} --help lists its flags).`);
    throw new UsageError(oneLineParseError(e as Error, command));
  }
  // --config FILE / --link URL: the shared experiment's settings, under the flags given on the command line
  const v = ['orders', 'run', 'cpcf', 'count', 'similarity'].includes(command)
    ? withConfig(values, command)
    : command === 'sweep' && positionals[0] !== 'merge'
      ? withConfig(values, 'run')
      : values;
  const refusal = featuresRefusal(command, v) ?? unreadFlagRefusal(command, values, v);
  if (refusal) throw new UsageError(refusal);
  // own-classes reads --precision of its own --encoder
  if (command !== 'features' && command !== 'own-classes' && v.features === undefined) {
    const orphan = [...FEATURE_ONLY, ...(command === 'orders' || command === 'similarity' ? (['train-per-class', 'batch-size'] as Flag[]) : [])].find(
      (f) => v[f] !== undefined,
    );
    if (orphan) throw new UsageError(`--${orphan} is read only with --features (the feature source); without it, it would change nothing.`);
  }
  // --similarity features (orders) / --source features (similarity): the feature source's class prototypes first
  if ((command === 'orders' && v.similarity === 'features') || (command === 'similarity' && v.source === 'features'))
    return withFeaturePrototypes(v, { classInput, loadDataset, imageDatasetOf }).then((w) =>
      dispatch(command, command === 'similarity' ? { ...w, source: 'features' } : w, positionals),
    );
  return dispatch(command, v, positionals);
}

/** A dataset for the feature commands: a built-in image dataset or the user's files (run.ts's loaders). */
function loadDataset(arg: string, notes: string[]) {
  return (BUILTIN_DATASET_IDS as readonly string[]).includes(arg) ? loadBuiltinImages(arg, root) : loadUserData(arg, notes);
}

/** The built-in image dataset a class list names (fashion-mnist, digits for mnist, emoji), if any. */
function imageDatasetOf(classListId: string): string | undefined {
  return BUILTIN_DATASETS.find((d) => d.classListId === classListId)?.id;
}

function dispatch(command: string, v: Record<string, string | boolean | undefined>, positionals: string[]): string | Promise<string> {
  switch (command) {
    case 'count': {
      const classes = classInput(v);
      const n = classes ? classes.names.length : intArg(v.classes as string | undefined, 'classes', 1, CONFIG_LIMITS.classes);
      if (n === undefined) throw new UsageError('Give --classes N (a number or a list of names).');
      const sizes = taskSizesFor(n, v);
      const omega = countOrderings(sizes);
      return JSON.stringify({ omega: omega.toString(), omegaDisplay: formatOmega(omega), classes: n, taskSizes: sizes });
    }
    case 'enumerate': {
      const classes = classInput(v);
      const n = classes ? classes.names.length : intArg(v.classes as string | undefined, 'classes', 1, CONFIG_LIMITS.classes);
      if (n === undefined) throw new UsageError('Give --classes N (a number or a list of names).');
      const sizes = taskSizesFor(n, v);
      const omega = countOrderings(sizes);
      const sample = intArg(v.sample as string | undefined, 'sample', 1);
      if (sample !== undefined && sample > MAX_LISTED_ORDERINGS) {
        throw new UsageError(`--sample is at most ${MAX_LISTED_ORDERINGS} (the most orderings cil-lab lists at once); got ${sample}.`);
      }
      if (sample !== undefined) {
        const seed = intArg(v.seed as string | undefined, 'seed', 0, UINT32_MAX) ?? 0;
        const drawn = sampleOrderings(sizes, sample, seed);
        return JSON.stringify({
          omega: omega.toString(),
          sampled: true,
          seed,
          orderings: drawn.map((d) => ({ rank: d.rank.toString(), key: orderingKey(d.tasks), tasks: d.tasks })),
        });
      }
      const limit = intArg(v.limit as string | undefined, 'limit', 1) ?? 1_000_000;
      if (limit > MAX_LISTED_ORDERINGS)
        throw new UsageError(`--limit is at most ${MAX_LISTED_ORDERINGS} (the most orderings cil-lab lists at once); got ${limit}.`);
      if (omega > BigInt(limit)) {
        throw new UsageError(
          `There are ${omega} orderings (${formatOmega(omega)}), more than the limit of ${limit}: ` +
            'draw a uniform sample instead with --sample L [--seed S], or raise --limit.',
        );
      }
      const orderings: { rank: string; key: string; tasks: number[][] }[] = [];
      forEachOrdering(sizes, (labels, rank) => {
        const tasks = labelsToOrdering(labels, sizes.length);
        orderings.push({ rank: String(rank), key: orderingKey(tasks), tasks });
      });
      return JSON.stringify({ omega: omega.toString(), sampled: false, orderings });
    }
    case 'orders': {
      const classes = classInput(v);
      if (!classes) throw new UsageError('Give the classes: --dataset ID, --classes a,b,c or --classes-file F.');
      const sizes = taskSizesFor(classes.names.length, v);
      const protocols = parseProtocols((v.protocol as string | undefined) ?? 'all');
      const format = (v.format as string | undefined) ?? 'json';
      if (!EXPORT_FORMATS.includes(format as ExportFormat)) {
        throw new UsageError(`Unknown --format "${format}": use ${EXPORT_FORMATS.join(', ')}.`);
      }
      const exactLimit = intArg(v['exact-limit'] as string | undefined, 'exact-limit', 1, CONFIG_LIMITS.exactLimit);
      const omega = countOrderings(sizes);
      if (protocols.length === 1 && protocols[0] === 'exact' && omega > BigInt(exactLimit ?? 1_000_000)) {
        throw new UsageError(
          `There are ${omega} orderings (${formatOmega(omega)}), more than the ${exactLimit ?? 1_000_000} that are enumerated for the exact extremes: ` +
            'use a sampled protocol instead (--protocol rs,edge,edge+,ms), or raise --exact-limit.',
        );
      }
      const spec = similaritySpec((v.similarity as string | undefined) ?? 'wordnet', classes, v);
      const view = computeOrderingsView(
        {
          classes: classes.names,
          taskSizes: sizes,
          similarity: spec,
          options: {
            protocols,
            rsSeeds: typeof v.seeds === 'string' ? seedListArg(v.seeds, 'seeds', CONFIG_LIMITS.rsSeeds) : undefined,
            exactLimit,
            // S over Ω as the page computes it (exact up to the limit, else the config's default sample): the verdict's
            // "Ω below" sentence reads it, so the page's JSON export and this one say the same
            distribution: { limit: exactLimit, ...ORDERS_DISTRIBUTION },
          },
        },
        { wordnet: spec.kind === 'wordnet' ? loadWordnet : undefined },
      );
      for (const note of view.notes) process.stderr.write(`note: ${note}\n`);
      if (protocols.length === 0) process.stderr.write('note: no protocol is enabled, so there are no orderings (--protocol rs,edge,… or all).\n');
      if (format !== 'json') return formatSequences(view.sequences, format as ExportFormat, { classes: view.classes });
      // the page's JSON export is the same document (core/protocols/export.ts), with its "What this shows" in the same words
      const ov = orderingsVerdict(view);
      return JSON.stringify(ordersDocument(view, { dataset: classes.dataset, taskSizes: sizes, headline: ov.headline, verdict: ov.sentences }));
    }
    case 'score': {
      const order = intListArg(v.order as string | undefined, 'order');
      if (!order) throw new UsageError('Give --order, the class order as indices (e.g. 3,1,0,2).');
      if (typeof v.similarity !== 'string') throw new UsageError('Give --similarity file:PATH (or wordnet with --classes/--dataset).');
      const classes = classInput(v) ?? { names: order.map((_, i) => `class ${i}`) };
      if (v.similarity === 'wordnet' && !classInput(v)) throw new UsageError('WordNet similarity needs the class names: --classes or --dataset.');
      const spec = similaritySpec(v.similarity, classes);
      const names = spec.kind === 'upload' && !classInput(v) ? undefined : classes.names;
      const sim = resolveSimilarity(spec, names ?? order.map((_, i) => `class ${i}`), {
        wordnet: spec.kind === 'wordnet' ? loadWordnet : undefined,
      }).matrix;
      if (order.length !== sim.n) throw new UsageError(`--order has ${order.length} classes; the similarity matrix is ${sim.n}×${sim.n}.`);
      const sizes = taskSizesFor(order.length, v);
      const tasks = splitIntoTasks(order, sizes);
      orderingToLabels(tasks, sizes); // checks duplicates and range
      return JSON.stringify({ tasks, score: similarityScore(tasks, sim), pairMean: similarityPairMean(tasks, sim) });
    }
    case 'similarity': {
      if (v.compare !== undefined || v.source === 'clip' || positionals.length > 0) return similarityClipOrCompare(v, positionals, () => classInput(v));
      const classes = classInput(v);
      if (!classes) throw new UsageError('Give the classes: --dataset ID, --classes a,b,c or --classes-file F.');
      const source = (v.source as string | undefined) ?? 'wordnet';
      const spec = similaritySpec(source, classes, v);
      const sim = resolveSimilarity(spec, classes.names, { wordnet: spec.kind === 'wordnet' ? loadWordnet : undefined });
      const out = JSON.stringify({
        classes: classes.names,
        source: sim.description,
        matrix: matrixToRows(sim.matrix),
        synsets: sim.synsets,
        warnings: sim.warnings,
      });
      if (typeof v.out === 'string') {
        const written = writeOutput(v.out, out);
        return JSON.stringify({ out: written, classes: classes.names.length, source: sim.description, synsets: sim.synsets });
      }
      return out;
    }
    case 'bounds': {
      if (typeof v.omega !== 'string' || !/^\d+$/.test(v.omega)) throw new UsageError('Give --omega, the number of orderings, as a whole number (e.g. 90).');
      const omega = BigInt(v.omega);
      const epsilon = numberArg(v.epsilon as string | undefined, 'epsilon') ?? 0.1;
      const delta = numberArg(v.delta as string | undefined, 'delta') ?? 0.05;
      const range = numberArg(v.range as string | undefined, 'range') ?? 1;
      const wrap = <T>(f: () => T): T => {
        try {
          return f();
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
      };
      const t1 = wrap(() => theorem1SampleSize(omega, epsilon, delta));
      const t2 = omega >= 4n ? wrap(() => theorem2SampleSize(omega, epsilon, delta, range)) : null;
      const show = (b: typeof t1 | null) => (b ? { ...b, L: b.L === null ? null : b.L.toString() } : null);
      return JSON.stringify({ omega: v.omega, epsilon, delta, range, theorem1: show(t1), theorem2: show(t2) });
    }
    case 'run':
      return runCommand(v, { root, onNote: (note) => process.stderr.write(`note: ${note}\n`) });
    case 'conformal':
      return conformalCommand(v);
    case 'cpcf':
      return cpcfCommand(v, { root, onNote: (note) => process.stderr.write(`note: ${note}\n`) });
    case 'stats':
      return statsCommand(v);
    case 'analyze':
      if (isPlacementAnalysis(v)) return analyzePlacement(v, { root, onNote: (note) => process.stderr.write(`note: ${note}\n`) });
      return analyzeCommand(v, { loadWordnet });
    case 'ood-metrics':
      return oodMetricsCommand(v);
    case 'ood-scores':
      return oodScoresCommand(v);
    case 'ood':
      return oodCommand(v, { root });
    case 'reservoir':
      return reservoirCommand(v);
    case 'stream':
      return streamCommand(v, { root });
    case 'sweep':
      return sweepCommand(v, positionals, { root, env: process.env, onNote: (note) => process.stderr.write(`note: ${note}\n`) });
    case 'curriculum':
      return curriculumCommand(v, { root, onNote: (note) => process.stderr.write(`note: ${note}\n`) });
    case 'own-classes':
      return ownClassesCommand(v);
    case 'lesson':
      // a lesson's play runs the lab's own command through this dispatcher
      return lessonCommand(v, positionals, { root, cli: async (argv) => run(argv) });
    case 'features':
      return featuresCommand(v, {
        loadDataset,
        classesOf: (arg, total) => (arg !== undefined ? rangeListArg(arg, 'classes', total) : [...Array(total).keys()]),
      });
    default:
      throw new UsageError(`Unknown command "${command.slice(0, 40)}": cil-lab --help lists the commands.`);
  }
}

/** Most orderings `enumerate` lists (or samples) in one call: checked before any work starts. */
const MAX_LISTED_ORDERINGS = 1_000_000;

function parseProtocols(text: string): ProtocolId[] {
  if (text === 'all') return [...PROTOCOL_IDS];
  // no protocol (a config with protocols.enabled = []): as in the app, the similarity and |Ω| without orderings
  if (text.trim() === '') return [];
  const out = text.split(',').map((p) => p.trim().toLowerCase());
  for (const p of out) {
    if (!PROTOCOL_IDS.includes(p as ProtocolId)) throw new UsageError(`Unknown protocol "${p}": use ${PROTOCOL_IDS.join(', ')} or all.`);
  }
  return out as ProtocolId[];
}

/**
 * Errors that are the user's to fix (exit 2): the CLI's own, and the input errors core, data and engine throw with a
 * message written for the user. Anything else (a RangeError, a TypeError, a plain Error) is a bug (exit 1).
 */
const INPUT_ERRORS = new Set([
  'UsageError',
  'RunUsageError',
  'AccuracyMatrixError',
  'AugmentOptionsError',
  'ClassListError',
  'ClipLoadError',
  'ConfigError',
  'ConformalInputError',
  'CurriculumError',
  'DataFormatError',
  'DatasetFormatError',
  'FeatureSetError',
  'NpyError',
  'OodInputError',
  'OodSpecError',
  'OrderingError',
  'PromptError',
  'ReservoirError',
  'SimilarityError',
  'StrategyConfigError',
  'StreamSpecError',
  'TrainConfigError',
]);

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').slice(0, 2000);

/** Runs one command; returns the exit code. Output goes to stdout, errors to stderr: one line, never a stack trace. */
export async function main(argv: string[]): Promise<number> {
  resetInputsRead();
  try {
    const out = await run(argv);
    process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
    return 0;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    if (INPUT_ERRORS.has(err.name)) {
      process.stderr.write(`cil-lab: ${oneLine(String(err.message))}\n`);
      return 2;
    }
    process.stderr.write(
      `cil-lab: internal error (${err.name}: ${oneLine(String(err.message))}); this is a bug in cil-lab: please report it with the command line that caused it.\n`,
    );
    return 1;
  }
}

/**
 * A reader that stops reading (`cil-lab … | head`) closes the pipe: the next write fails with EPIPE. That is not
 * an error of the command: end quietly instead of printing a stack. bin/cil-lab.mjs calls this once.
 */
export function endQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}
