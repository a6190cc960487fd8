/**
 * The Orderings lab's commands (count, enumerate, orders, score, similarity, bounds): class orderings, their
 * similarity scores and the sample sizes of the theorems, on the class lists of src/core (docs/science.md §1, §6).
 * Each is one run function of the command table (./commands.ts).
 */
import { UINT32_MAX } from '../core/config/checker';
import { V1_FILL } from '../core/config/defaults';
import { CONFIG_LIMITS } from '../core/config/limits';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { forEachOrdering, labelsToOrdering, orderingToLabels } from '../core/orderings/enumerate';
import { orderingKey, splitIntoTasks } from '../core/orderings/key';
import { matrixToRows } from '../core/orderings/matrix';
import { sampleOrderings } from '../core/orderings/sample';
import { similarityPairMean, similarityScore } from '../core/orderings/score';
import { theorem1SampleSize, theorem2SampleSize } from '../core/protocols/bounds';
import { EXPORT_FORMATS, formatSequences, ordersDocument, type ExportFormat } from '../core/protocols/export';
import { computeOrderingsView } from '../core/protocols/orderings-view';
import { PROTOCOL_IDS, type ProtocolId } from '../core/protocols/types';
import { resolveSimilarity } from '../core/similarity/resolve';
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';
import { orderingsVerdict } from '../core/verdict/orderings';
import { UsageError, intArg, intListArg, numberArg, taskSizesArg } from './args';
import { classInput, loadWordnetFrom, similaritySpec, writeOutput } from './inputs';
import type { CommandContext } from './command';
import { seedListArg } from './seeds';
import { similarityClipOrCompare } from './similarity-clip';

type Values = Record<string, string | boolean | undefined>;

/** The distribution of S over Ω that `orders` computes: the experiment config's default (the page's, unless a link changes it). */
const ORDERS_DISTRIBUTION = V1_FILL.protocols.distribution;

/** Most orderings `enumerate` lists (or samples) in one call: checked before any work starts. */
const MAX_LISTED_ORDERINGS = 1_000_000;

/** The WordNet graph of the repository's public/data, read when a command needs it. */
const wordnetOf = (ctx: CommandContext) => (): WordnetGraph => loadWordnetFrom(ctx.root);

function taskSizesFor(n: number, v: Values): number[] {
  return taskSizesArg(v, n);
}

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

/** The classes (a count, names or a dataset), their task sizes and |Ω|: what count and enumerate read. */
function orderingSpace(v: Values): { n: number; sizes: number[]; omega: bigint } {
  const classes = classInput(v);
  const n = classes ? classes.names.length : intArg(v.classes as string | undefined, 'classes', 1, CONFIG_LIMITS.classes);
  if (n === undefined) throw new UsageError('Give --classes N (a number or a list of names).');
  const sizes = taskSizesFor(n, v);
  return { n, sizes, omega: countOrderings(sizes) };
}

/** `cil-lab count`: |Ω|, the number of orderings of N classes into tasks of the given sizes. */
export function countCommand(v: Values): string {
  const { n, sizes, omega } = orderingSpace(v);
  return JSON.stringify({ omega: omega.toString(), omegaDisplay: formatOmega(omega), classes: n, taskSizes: sizes });
}

/** `cil-lab enumerate`: every ordering (up to --limit), or a uniform sample of them. */
export function enumerateCommand(v: Values): string {
  const { sizes, omega } = orderingSpace(v);
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

/** `cil-lab orders`: the protocols' orderings of a class list with their similarity scores (the Orderings lab's numbers). */
export function ordersCommand(v: Values, ctx: CommandContext): string {
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
    { wordnet: spec.kind === 'wordnet' ? wordnetOf(ctx) : undefined },
  );
  for (const note of view.notes) process.stderr.write(`note: ${note}\n`);
  if (protocols.length === 0) process.stderr.write('note: no protocol is enabled, so there are no orderings (--protocol rs,edge,… or all).\n');
  if (format !== 'json') return formatSequences(view.sequences, format as ExportFormat, { classes: view.classes });
  // the page's JSON export is the same document (core/protocols/export.ts), with its "What this shows" in the same words
  const ov = orderingsVerdict(view);
  return JSON.stringify(ordersDocument(view, { dataset: classes.dataset, taskSizes: sizes, headline: ov.headline, verdict: ov.sentences }));
}

/** `cil-lab score`: the similarity score S of one order. */
export function scoreCommand(v: Values, ctx: CommandContext): string {
  const order = intListArg(v.order as string | undefined, 'order');
  if (!order) throw new UsageError('Give --order, the class order as indices (e.g. 3,1,0,2).');
  if (typeof v.similarity !== 'string') throw new UsageError('Give --similarity file:PATH (or wordnet with --classes/--dataset).');
  const classes = classInput(v) ?? { names: order.map((_, i) => `class ${i}`) };
  if (v.similarity === 'wordnet' && !classInput(v)) throw new UsageError('WordNet similarity needs the class names: --classes or --dataset.');
  const spec = similaritySpec(v.similarity, classes);
  const names = spec.kind === 'upload' && !classInput(v) ? undefined : classes.names;
  const sim = resolveSimilarity(spec, names ?? order.map((_, i) => `class ${i}`), {
    wordnet: spec.kind === 'wordnet' ? wordnetOf(ctx) : undefined,
  }).matrix;
  if (order.length !== sim.n) throw new UsageError(`--order has ${order.length} classes; the similarity matrix is ${sim.n}×${sim.n}.`);
  const sizes = taskSizesFor(order.length, v);
  const tasks = splitIntoTasks(order, sizes);
  orderingToLabels(tasks, sizes); // checks duplicates and range
  return JSON.stringify({ tasks, score: similarityScore(tasks, sim), pairMean: similarityPairMean(tasks, sim) });
}

/** `cil-lab similarity`: the class-similarity matrix of a source (WordNet, a file; CLIP and --compare in similarity-clip.ts). */
export function similarityCommand(v: Values, positionals: string[], ctx: CommandContext): string | Promise<string> {
  if (v.compare !== undefined || v.source === 'clip' || positionals.length > 0) return similarityClipOrCompare(v, positionals, () => classInput(v));
  const classes = classInput(v);
  if (!classes) throw new UsageError('Give the classes: --dataset ID, --classes a,b,c or --classes-file F.');
  const source = (v.source as string | undefined) ?? 'wordnet';
  const spec = similaritySpec(source, classes, v);
  const sim = resolveSimilarity(spec, classes.names, { wordnet: spec.kind === 'wordnet' ? wordnetOf(ctx) : undefined });
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

/** `cil-lab bounds`: Theorems 1 and 2's sample sizes for |Ω| orderings. */
export function boundsCommand(v: Values): string {
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
