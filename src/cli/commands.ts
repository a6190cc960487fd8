/**
 * The commands of `cil-lab`, one entry each (./command.ts): its help, the flags it reads and its run function.
 * main.ts dispatches from this table, builds `cil-lab --help` and `cil-lab CMD --help` from it, and refuses any flag
 * outside a command's row. A new command is one entry here (and its module); a new flag goes in flags.ts OPTIONS and
 * in its command's row.
 */
import { PTM_STRATEGY_IDS, STRATEGY_IDS } from '../core/config/defaults';
import { BUILTIN_DATASET_IDS, BUILTIN_DATASETS } from '../data/registry';
import { ANALYZE_HELP, analyzeCommand } from './analyze';
import { ANALYZE_PLACE_HELP, analyzePlacement, isPlacementAnalysis } from './analyze-place';
import { rangeListArg } from './args';
import type { Command, CommandContext } from './command';
import { conformalCommand } from './conformal';
import { CPCF_FLAGS, CPCF_HELP, cpcfCommand } from './cpcf';
import { CURRICULUM_DETAILS, CURRICULUM_FLAGS, CURRICULUM_HELP, curriculumCommand } from './curriculum';
import { FEATURES_HELP, featuresCommand, withFeaturePrototypes } from './features';
import { CLASS_FLAGS, CONFIG_FLAGS, FEATURE_FLAGS, FEATURE_ONLY, PLACE_FLAGS, RUN_FLAGS, TASK_FLAGS, TRAIN_FLAGS } from './flags';
import { classInput, loadBuiltinImages, loadWordnetFrom } from './inputs';
import { LESSON_HELP, lessonCommand } from './lesson';
import { OOD_DETAILS, OOD_SETTING_FLAGS, oodCommand } from './ood';
import { oodMetricsCommand, oodScoresCommand } from './ood-metrics';
import { boundsCommand, countCommand, enumerateCommand, ordersCommand, scoreCommand, similarityCommand } from './orderings';
import { OWN_CLASSES_HELP, ownClassesCommand } from './own-classes';
import { reservoirCommand } from './reservoir';
import { loadUserData, runCommand } from './run';
import { statsCommand } from './stats';
import { STREAM_DETAILS, STREAM_FLAGS, STREAM_HELP, streamCommand } from './stream';
import { SWEEP_HELP, sweepCommand } from './sweep';

/** A help block written from column 0, indented as the table's usage lines. */
function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** The feature commands' datasets (a built-in image dataset or the user's files) and class lists. */
function featureIo(ctx: CommandContext) {
  return {
    classInput,
    loadDataset: (arg: string, notes: string[]) =>
      (BUILTIN_DATASET_IDS as readonly string[]).includes(arg) ? loadBuiltinImages(arg, ctx.root) : loadUserData(arg, notes),
    /** the built-in image dataset a class list names (fashion-mnist, digits for mnist, emoji), if any */
    imageDatasetOf: (classListId: string) => BUILTIN_DATASETS.find((d) => d.classListId === classListId)?.id,
  };
}

/** Every command, in the order `cil-lab --help` lists them. */
export const COMMANDS: readonly Command[] = [
  {
    name: 'count',
    help: `  cil-lab count --classes N (--tasks K | --task-sizes 2,2,2)`,
    flags: [...CLASS_FLAGS, ...TASK_FLAGS, ...CONFIG_FLAGS],
    config: () => 'count',
    run: (v) => countCommand(v),
  },
  {
    name: 'enumerate',
    help: `  cil-lab enumerate --classes N (--tasks K | --task-sizes …) [--limit 1000000] [--sample L --seed S]`,
    flags: [...CLASS_FLAGS, ...TASK_FLAGS, 'limit', 'sample', 'seed'],
    run: (v) => enumerateCommand(v),
  },
  {
    name: 'orders',
    help: `  cil-lab orders (--dataset ID [--subset 0-5] | --classes a,b,c | --classes-file F) (--tasks K | --task-sizes …)
                 [--protocol rs,edge,edge+,exact,as,ms|all] [--seeds 0,42,1993] [--similarity wordnet|file:PATH]
                 [--format json|pycil|mammoth|avalanche|csv] [--exact-limit 1000000]`,
    flags: [
      ...CLASS_FLAGS,
      ...TASK_FLAGS,
      'protocol',
      'seeds',
      'similarity',
      'format',
      'exact-limit',
      ...FEATURE_FLAGS,
      'train-per-class',
      'batch-size',
      ...CONFIG_FLAGS,
    ],
    config: () => 'orders',
    featureOnly: [...FEATURE_ONLY, 'train-per-class', 'batch-size'],
    run: (v, _p, ctx) =>
      // --similarity features: the feature source's class prototypes first
      v.similarity === 'features' ? withFeaturePrototypes(v, featureIo(ctx)).then((w) => ordersCommand(w, ctx)) : ordersCommand(v, ctx),
  },
  {
    name: 'score',
    help: `  cil-lab score --order 3,1,0,2 (--tasks K | --task-sizes …) --similarity file:PATH [--classes … | --dataset ID]`,
    flags: [...CLASS_FLAGS, ...TASK_FLAGS, 'order', 'similarity'],
    run: (v, _p, ctx) => scoreCommand(v, ctx),
  },
  {
    name: 'similarity',
    help: `  cil-lab similarity --source wordnet|file:PATH (--classes … | --dataset ID [--subset …] | --classes-file F) [--out F]
  cil-lab similarity --source clip --model-path DIR [--model-id ID] [--prompt "a photo of a {}"] [--descriptions F.json]
                     [--dtype q8|fp32] (--classes … | --dataset ID | --classes-file F) [--out F]   (no network unless --allow-remote)
  cil-lab similarity --compare F1 F2 (--tasks K | --task-sizes …)   → mae, spearman, csgHard, csgEasy`,
    flags: [
      ...CLASS_FLAGS,
      ...TASK_FLAGS,
      'source',
      'out',
      'compare',
      'model-path',
      'model-id',
      'prompt',
      'descriptions',
      'dtype',
      ...FEATURE_FLAGS,
      'train-per-class',
      'batch-size',
      ...CONFIG_FLAGS,
    ],
    positionals: true,
    config: () => 'similarity',
    featureOnly: [...FEATURE_ONLY, 'train-per-class', 'batch-size'],
    run: (v, positionals, ctx) =>
      // --source features: the feature source's class prototypes first
      v.source === 'features'
        ? withFeaturePrototypes(v, featureIo(ctx)).then((w) => similarityCommand({ ...w, source: 'features' }, positionals, ctx))
        : similarityCommand(v, positionals, ctx),
  },
  {
    name: 'bounds',
    help: `  cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05 [--range R]`,
    flags: ['omega', 'epsilon', 'delta', 'range'],
    run: (v) => boundsCommand(v),
  },
  {
    name: 'stats',
    help: `  cil-lab stats --values F.json   → moments, Box-Cox λ, Shapiro–Wilk / D'Agostino K² / KS before and after Box-Cox
  cil-lab stats --truth F.json --estimate F.json   → JSD (bits) and W1 (points) of the estimate's Gaussian vs the truth`,
    flags: ['values', 'truth', 'estimate'],
    run: (v) => statsCommand(v),
  },
  {
    name: 'analyze',
    help: `${ANALYZE_HELP}\n${indent(ANALYZE_PLACE_HELP)}`,
    flags: [
      'results',
      'dataset',
      'classes',
      'subset',
      ...TASK_FLAGS,
      'similarity',
      'accuracy',
      'seeds',
      'method',
      // placing orders in a pre-trained method's whole distribution (analyze-place.ts)
      ...PLACE_FLAGS,
    ],
    run: (v, _p, ctx) => (isPlacementAnalysis(v) ? analyzePlacement(v, ctx) : analyzeCommand(v, { loadWordnet: () => loadWordnetFrom(ctx.root) })),
  },
  {
    name: 'cpcf',
    help: CPCF_HELP,
    flags: CPCF_FLAGS,
    config: () => 'cpcf',
    run: (v, _p, ctx) => cpcfCommand(v, ctx),
  },
  {
    name: 'conformal',
    help: `  cil-lab conformal --calibration F.json --test F.json --alpha 0.1 [--score aps|lac|raps]   → q, sets, sizes, coverage`,
    flags: ['calibration', 'test', 'alpha', 'score'],
    run: (v) => conformalCommand(v),
  },
  {
    name: 'ood-metrics',
    help: `  cil-lab ood-metrics --id ID.json --ood OOD.json   → auroc, fpr95, auprIn, auprOut (ID positive; JSON arrays of scores, higher = more ID)`,
    flags: ['id', 'ood'],
    run: (v) => oodMetricsCommand(v),
  },
  {
    name: 'ood-scores',
    help: `  cil-lab ood-scores --logits L.json [--detectors msp,maxlogit,energy,gen,odin]   → {detector: scores} from logit rows`,
    flags: ['logits', 'detectors'],
    run: (v) => oodScoresCommand(v),
  },
  {
    name: 'ood',
    help: `  cil-lab ood <the flags of run> [--ood digits,fashion-mnist:6-9] [--detectors msp,maxlogit,energy,gen,odin,react,klm,relation,nnguide,
              ber,ber-nter,ber-oter,ber-ce,logitnorm,regmixup] [--head-epochs 10] [--head-lr 0.01] [--margin-in M --margin-out M] [--ood-seed S]
              [--seeds 0-2]   → per step, detector and OOD set: auroc, fpr95, auprIn, auprOut (ID positive); accuracy per step;
                 verdict; with several seeds every run and a summary over them`,
    details: OOD_DETAILS,
    flags: [
      // --features only to say why ood cannot take it (features.ts featuresRefusal)
      ...RUN_FLAGS.filter((f) => !FEATURE_ONLY.includes(f) && f !== 'allow-remote'),
      // the lab's settings' flags the run's do not have (its table's)
      ...OOD_SETTING_FLAGS.filter((f) => !RUN_FLAGS.includes(f)),
      'head-lr',
      'ood-seed',
    ],
    run: (v, _p, ctx) => oodCommand(v, ctx),
  },
  {
    name: 'stream',
    help: STREAM_HELP,
    details: STREAM_DETAILS,
    // --features only to say why stream cannot take it (features.ts featuresRefusal)
    flags: STREAM_FLAGS,
    run: (v, _p, ctx) => streamCommand(v, ctx),
  },
  {
    name: 'curriculum',
    help: CURRICULUM_HELP,
    details: CURRICULUM_DETAILS,
    flags: CURRICULUM_FLAGS,
    run: (v, _p, ctx) => curriculumCommand(v, ctx),
  },
  {
    name: 'reservoir',
    help: `  cil-lab reservoir --bucket-sizes 100,100,… --k N --alpha A|dynamic:C [--trials 1000] [--seed S]   → shares, sizes (CLEAR's Alg. 1 alone)`,
    flags: ['bucket-sizes', 'k', 'alpha', 'trials', 'seed'],
    run: (v) => reservoirCommand(v),
  },
  {
    name: 'run',
    help: `  cil-lab run --dataset digits|fashion-mnist|emoji|PATH [--classes 0-9] (--tasks K | --task-sizes …) [--order 3,1,…|--protocol rs --seeds 1993]
              --strategy ${STRATEGY_IDS.join('|')} [--memory 200] [--model mlp|cnn] [--hidden 256,128]
              [--epochs E] [--first-epochs E1] [--lr L] [--batch-size B] [--seed S] [--backend wasm|cpu|webgpu] [--train-per-class N --test-per-class N] [--augment on|off] [--head seen|all]
              [--init he-glorot|pytorch] [--strategy-options key=value,… (e.g. lambda=5000,mode=single for ewc)]
              [--orderings all|N [--limit 5000] [--sample-seed S]] [--fast on|off] [--population auto|N]
                 --orderings trains every ordering (or N sampled) on the fast path: shared task prefixes once, same numbers;
                 the output's runs (final_accuracy, aia, matrix) go straight into "cil-lab analyze --results"
  cil-lab run --features F.npz [--classes 0-5] (--tasks K | --task-sizes …) --strategy ${PTM_STRATEGY_IDS.join('|')}
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
                 --threads 2 (the default on two cores or more) computes RanPAC's states on a second thread, same numbers`,
    flags: [...RUN_FLAGS, 'summary', 'place', 'similarity', 'epsilon', 'delta', 'threads'],
    config: () => 'run',
    run: (v, _p, ctx) => runCommand(v, ctx),
  },
  {
    name: 'sweep',
    help: SWEEP_HELP,
    flags: [...RUN_FLAGS, 'shard', 'shards', 'out', 'allow-missing'],
    positionals: true,
    // `sweep merge FILES…` merges shards: no experiment to read
    config: (_v, positionals) => (positionals[0] === 'merge' ? null : 'run'),
    run: (v, positionals, ctx) => sweepCommand(v, positionals, { ...ctx, env: process.env }),
  },
  {
    name: 'features',
    help: FEATURES_HELP,
    flags: [
      'dataset',
      'classes',
      'source',
      'out',
      'backbone-seed',
      'precision',
      'revision',
      'allow-remote',
      'train-per-class',
      'test-per-class',
      'batch-size',
      'probe',
    ],
    // the feature source's own flags
    featureOnly: [],
    run: (v, _p, ctx) =>
      featuresCommand(v, {
        loadDataset: featureIo(ctx).loadDataset,
        classesOf: (arg, total) => (arg !== undefined ? rangeListArg(arg, 'classes', total) : [...Array(total).keys()]),
      }),
  },
  {
    name: 'own-classes',
    help: OWN_CLASSES_HELP,
    flags: [
      'samples',
      'encoder',
      'precision',
      'allow-remote',
      'strategy',
      'seed',
      'orderings',
      'sample-seed',
      'names',
      'names-dtype',
      'train-per-class',
      'test-per-class',
      'backend',
    ],
    // --precision of its own --encoder
    featureOnly: [],
    run: (v) => ownClassesCommand(v),
  },
  {
    name: 'lesson',
    help: LESSON_HELP,
    flags: ['list', 'control', 'backend'],
    positionals: true,
    // a lesson's play runs the lab's own command through this table
    run: (v, positionals, ctx) => lessonCommand(v, positionals, ctx),
  },
];

/** The command named `name`, if there is one. */
export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
