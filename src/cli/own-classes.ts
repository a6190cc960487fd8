/**
 * `cil-lab own-classes` (usage: OWN_CLASSES_HELP): the Your-classes lab headless (docs/science.md §10) on a samples
 * zip (the lab's Export zip, or any image-folder zip with `train/` and `test/` in each class folder), through the
 * page's own steps and code: each image decoded and scaled to OWN_SAMPLE_SIZE RGB, its features through the frozen
 * encoder (the `own-encode` job), the classes in teaching order as one task each, then per strategy R of the
 * teaching order (`own-train`) and, with `--orderings all`, every ordering (`own-orderings`) with EDGE's and RS's
 * picks (with `--names`, EDGE on the CLIP text embeddings of the bare names as well, the page's default prompt); the
 * verdict's sentences are the page's. PNG only (src/data/parsers/png.ts): the page's webcam samples are JPEG, whose
 * decoders differ by a pixel value here and there, so a zip of them is refused in one line.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UINT32_MAX } from '../core/config/checker';
import { V1_FILL } from '../core/config/defaults';
import { grouped } from '../core/config/limits';
import {
  isHeadStrategy,
  OWN_CLASSES_SETTINGS,
  OWN_LIMITS,
  OWN_STRATEGIES,
  ownSizeProblem,
  type OwnEncoder,
  type OwnStrategy,
} from '../core/labs/own-classes/section';
import type { IntField } from '../core/config/settings-table';
import type { FeatureSet } from '../core/features/feature-set';
import { aiaWeighted, finalAccuracyWeighted } from '../core/metrics/accuracy-matrix';
import { ownEdge, ownNamesEdge, type OwnEdge } from '../core/own-classes/edge';
import { overviewOfRuns, type OrderingNumbers, type OrderingsOverview } from '../core/own-classes/order-states';
import {
  everyOwnOrder,
  numbersAmongRuns,
  orderingsSentences,
  ownOrderingsPlan,
  ownOrderingsResult,
  pickOrders,
  type PickedOrder,
} from '../core/own-classes/orders';
import { ownRsOrders } from '../core/own-classes/rs';
import { isClosedForm, OWN_SAMPLE_SIZE, ownFeatureSet, ownSampleList, type OwnClassRows } from '../core/own-classes/settings';
import { forgettingPerTask, jointVerdict, orderingsHeadline, updateHeadline, updateVerdict } from '../core/own-classes/verdict';
import { PtmInputError } from '../core/ptm/problem';
import { readSamplesZip } from '../data/own-samples-zip';
import { resizeToRgb, sniffImageType } from '../data/parsers/image-folder-zip';
import { decodePng } from '../data/parsers/png';
import { promptTexts } from '../core/similarity/prompts';
import { ClipLoadError, createTextEmbedder, type ClipDtype } from '../engine/clip/text-embedder';
import { RunControl } from '../engine/control';
import { jobContext, type JobContext } from '../engine/jobs/job';
import { ownEncodeJob, ownJointJob, ownOrderingsJob, ownOverviewJob, ownStepsJob } from '../engine/own-classes/job';
import { backendArg, intArg, str, UsageError } from './args';
import { selectCliBackend } from './backend';
import { readInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export const OWN_CLASSES_HELP = `  cil-lab own-classes --samples ZIP --encoder FOLDER_OR_ID [--precision q8|fp16|fp32] [--allow-remote]
                      [--strategy finetune,replay,simplecil,ncm,fecam,ranpac] [--seed N]
                      [--orderings all|N [--sample-seed N] [--names FOLDER_OR_ID [--names-dtype q8|fp32]]]
                      [--train-per-class N --test-per-class N] [--backend wasm|cpu]
                 → the Your-classes lab on a samples zip (PNG images; the lab's Export zip format), the classes taught one at a
                   time in the zip's order: per strategy R (row t computed when class t arrives), forgetting per class, the ms
                   each closed-form class took, the verdict, and a head trained on every class at once beside it (joint).
                   Up to ${OWN_LIMITS.classes} classes for a closed-form strategy, ${OWN_LIMITS.headClasses} for finetune / replay (default: finetune,simplecil, or
                   simplecil alone above ${OWN_LIMITS.headClasses} classes). --orderings all: every ordering (up to ${OWN_LIMITS.exactClasses} classes closed-form, 8! = 40 320;
                   ${OWN_LIMITS.headExactClasses} for a trained head); --orderings N: N drawn at random with --sample-seed (default --seed); each with
                   the range of final accuracy and of AIA, where the taught order lands, EDGE's and RS's picks; --names: EDGE on the
                   class names' CLIP text embeddings too (a CLIP text model folder, or a hub id with --allow-remote)`;

/** A whole-number flag of the lab's settings table (--seed, --train-per-class, --test-per-class): its flag and bounds, the link's, from the row. */
const rowArg = (f: IntField & { flag: string }, v: Values): number | undefined => intArg(str(v, f.flag), f.flag, f.min, f.max);
const PRECISIONS = ['q8', 'fp16', 'fp32'] as const;
const round = (x: number): number => Math.round(x * 1e6) / 1e6;
const rows = (m: readonly (readonly number[])[]): number[][] => m.map((r) => r.map(round));
const sentences = (...texts: string[]) => ({ sentences: texts.map((text) => ({ kind: 'finding', text })) });

/** The encoder --encoder names: a model folder on this disk (self-hosted) or a hub model id (with --allow-remote). */
function encoderOf(v: Values): OwnEncoder {
  const spec = str(v, 'encoder');
  if (!spec) throw new UsageError('Give --encoder FOLDER_OR_ID: a transformers.js image-encoder folder, or a hub id like Xenova/clip-vit-base-patch32.');
  const precision = str(v, 'precision') ?? 'q8';
  if (!(PRECISIONS as readonly string[]).includes(precision)) throw new UsageError(`Unknown --precision "${precision.slice(0, 40)}": use q8, fp16 or fp32.`);
  const p = precision as OwnEncoder['precision'];
  return { source: 'encoder', precision: p, ...modelOf(spec, 'encoder', v) };
}

/** A model folder on this disk (self-hosted) or a hub model id (only with --allow-remote), as --encoder and --names take it. */
function modelOf(spec: string, flag: string, v: Values): { model: string; weights: OwnEncoder['weights'] } {
  const dir = resolve(spec);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    if (!existsSync(join(dir, 'config.json')))
      throw new UsageError(`--${flag} ${spec}: the folder ${dir} holds no config.json; give a transformers.js model folder.`);
    return { model: basename(dir), weights: { kind: 'self-hosted', path: dirname(dir) } };
  }
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(spec))
    throw new UsageError(`--${flag} ${spec.slice(0, 80)} is neither a model folder on this disk nor a hub model id like Xenova/clip-vit-base-patch32.`);
  if (v['allow-remote'] !== true)
    throw new UsageError(
      `Loading ${spec} from the Hugging Face hub needs the network, which the CLI uses only with --allow-remote; or give the model's folder.`,
    );
  return { model: spec, weights: { kind: 'hub' } };
}

/** --names FOLDER_OR_ID [--names-dtype q8|fp32]: CLIP's text side for EDGE on the class names (bare names as prompts). */
function namesModelOf(v: Values): { model: string; weights: OwnEncoder['weights']; dtype: ClipDtype } | null {
  const spec = str(v, 'names');
  const dtype = str(v, 'names-dtype') ?? 'q8';
  if (spec === undefined) {
    if (v['names-dtype'] !== undefined) throw new UsageError('--names-dtype goes with --names FOLDER_OR_ID (a CLIP text model).');
    return null;
  }
  if (dtype !== 'q8' && dtype !== 'fp32') throw new UsageError(`Unknown --names-dtype "${dtype.slice(0, 40)}": use q8 or fp32.`);
  return { ...modelOf(spec, 'names', v), dtype };
}

/** CLIP's text embedding of each class name (the bare name as its prompt, as the page's default prompt). */
async function embedNames(m: NonNullable<ReturnType<typeof namesModelOf>>, names: readonly string[], allowRemote: boolean): Promise<Float32Array[]> {
  try {
    const embedder = await createTextEmbedder({ modelId: m.model, dtype: m.dtype, device: 'cpu', source: m.weights, allowRemote });
    try {
      return await embedder.embed(promptTexts(names, { kind: 'bare' }));
    } finally {
      await embedder.dispose();
    }
  } catch (e) {
    if (e instanceof ClipLoadError) throw new UsageError(`--names: ${e.message} ${e.hint}`);
    throw e;
  }
}

function strategiesOf(v: Values, classes: number): OwnStrategy[] {
  const list = (str(v, 'strategy') ?? (classes > OWN_LIMITS.headClasses ? 'simplecil' : 'finetune,simplecil'))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((s) => !(OWN_STRATEGIES as readonly string[]).includes(s));
  if (bad !== undefined || list.length === 0)
    throw new UsageError(`Unknown --strategy "${(bad ?? '').slice(0, 40)}": use ${OWN_STRATEGIES.join(', ')} (a comma list).`);
  return [...new Set(list)] as OwnStrategy[];
}

/** A class's images as OWN_SAMPLE_SIZE RGB, back to back. */
function pixelsOf(name: string, files: readonly Uint8Array[]): Uint8Array {
  const side = OWN_SAMPLE_SIZE * OWN_SAMPLE_SIZE * 3;
  const out = new Uint8Array(files.length * side);
  files.forEach((b, i) => {
    const type = sniffImageType(b);
    if (type !== 'png')
      throw new UsageError(
        `“${name}” has a ${type ? type.toUpperCase() : 'non-image'} sample; the command line reads PNG samples only (a JPEG decoder would not give the page's pixels): convert the zip's images to PNG.`,
      );
    let img;
    try {
      img = decodePng(b, `“${name}” sample ${i + 1}`);
    } catch (e) {
      throw new UsageError(`--samples: ${(e as Error).message}.`);
    }
    out.set(resizeToRgb(img.data, img.width, img.height, [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE]), i * side);
  });
  return out;
}

/** `--orderings all|N`: null (none), 'all', or a sample size. */
function orderingsArgOf(v: Values): 'all' | number | null {
  const a = str(v, 'orderings');
  if (a === undefined) {
    if (v['sample-seed'] !== undefined) throw new UsageError('--sample-seed draws the orderings of --orderings N.');
    return null;
  }
  if (a === 'all') return 'all';
  if (!/^\d+$/.test(a))
    throw new UsageError(`--orderings takes "all" (every ordering of the classes) or a number of orderings to draw at random; got "${a.slice(0, 40)}".`);
  return intArg(a, 'orderings', 1, OWN_LIMITS.sampledOrderings)!;
}

const r6 = (x: number): number => round(x);
const picked = (p: PickedOrder) => ({ order: p.order, final: r6(p.final), aia: r6(p.aia) });

/** The every-ordering part of a strategy's output (field names kept from the first release: runs, summary, edge, rs). */
async function orderingsOf(
  set: FeatureSet,
  strategy: OwnStrategy,
  seed: number,
  want: 'all' | number,
  sampleSeed: number,
  namesEdge: OwnEdge | null,
  ctx: JobContext,
): Promise<Record<string, unknown>> {
  const C = set.classNames.length;
  const head = isHeadStrategy(strategy);
  if (want === 'all' && C > (head ? OWN_LIMITS.headExactClasses : OWN_LIMITS.exactClasses))
    throw new UsageError(
      `--orderings all takes up to ${head ? `${OWN_LIMITS.headExactClasses} classes for ${strategy} (each ordering is a training run)` : `${OWN_LIMITS.exactClasses} classes (8! = 40 320 orderings)`}; the zip has ${C}: draw some with --orderings N.`,
    );
  let plan;
  try {
    plan = ownOrderingsPlan(C, strategy, sampleSeed, want === 'all' ? undefined : want);
  } catch (e) {
    throw new UsageError(`--orderings: ${(e as Error).message}`);
  }
  const edge = ownEdge(set);
  const rs = ownRsOrders(V1_FILL.protocols.rsSeeds, C);
  const taught = Array.from({ length: C }, (_, k) => k);
  const picks = [...pickOrders(edge, rs, namesEdge), taught];
  let overview: OrderingsOverview;
  let numbers: OrderingNumbers[];
  let runs: { order: number[]; finalAccuracy: number; aia: number }[] | null = null;
  if (head) {
    const orders = plan.headOrders!;
    const keys = new Set(orders.map((o) => o.join(',')));
    const extra = picks.filter((o, i, all) => !keys.has(o.join(',')) && all.findIndex((x) => x.join(',') === o.join(',')) === i);
    const trained = await ownOrderingsJob({ set, strategy, seed, orders: [...orders, ...extra] }, ctx, () => {});
    runs = trained.slice(0, orders.length);
    numbers = numbersAmongRuns(trained, picks);
    overview = overviewOfRuns(
      runs.map((r) => ({ final: r.finalAccuracy, aia: r.aia })),
      numbers[numbers.length - 1],
      C,
      plan.exact,
      plan.exact ? undefined : orders,
    );
  } else {
    const classKeys = set.classNames.map((n, k) => `${k}:${n}`);
    const out = await ownOverviewJob({ set, strategy, seed, classKeys, sample: plan.sample, picks }, ctx, () => {});
    overview = out.overview;
    numbers = out.picks;
    if (overview.exact && overview.orderings <= 720)
      runs = everyOwnOrder(C).map((order, i) => ({ order, finalAccuracy: overview.finals[i], aia: overview.aias[i] }));
  }
  const result = ownOrderingsResult(overview, strategy, edge, rs, namesEdge, numbers.slice(0, -1));
  const o = result.overview;
  const sentences = orderingsSentences(result, strategy, set.classNames);
  return {
    exact: o.exact,
    omega: o.omega,
    ...(o.exact ? {} : { sampleSeed }),
    states: o.states,
    metric: result.metric,
    ...(runs ? { runs: runs.map((r) => ({ order: r.order, finalAccuracy: r6(r.finalAccuracy), aia: r6(r.aia) })) } : {}),
    summary: {
      orderings: o.orderings,
      min: r6(o.final.min),
      max: r6(o.final.max),
      mean: r6(o.final.mean),
      taught: r6(o.taught.final),
      better: o.taught.betterFinal,
      aia: { min: r6(o.aia.min), max: r6(o.aia.max), mean: r6(o.aia.mean), taught: r6(o.taught.aia), better: o.taught.betterAia },
    },
    edge: edgeOut(result.edge),
    rs: result.rs.map((r) => ({ seed: r.seed, ...picked(r) })),
    ...(result.namesEdge ? { edgeNames: edgeOut(result.namesEdge) } : {}),
    verdict: {
      headline: orderingsHeadline(o, strategy, set.classNames.length),
      sentences: sentences.map((x) => ({ kind: 'finding', text: x.text })),
    },
  };
}

const edgeOut = (e: { hard: PickedOrder; easy: PickedOrder }) => ({
  hard: e.hard.order,
  easy: e.easy.order,
  hardFinal: r6(e.hard.final),
  easyFinal: r6(e.easy.final),
  hardAia: r6(e.hard.aia),
  easyAia: r6(e.easy.aia),
});

/**
 * Runs the command. Samples per class: as the zip has them, or cut as the lab cuts an imported zip
 * (`--train-per-class N --test-per-class N`). Prints `{"classes", "samples": [{name, train, test}], "encoder": {model,
 * precision, source}, "names"?: {model, dtype, source, prompt}, "dim", "seed", "joint": {finalAccuracy, seconds},
 * "strategies": [{strategy, matrix, finalAccuracy, aia, forgetting, teach: {msPerClass: {mean, max}}?, verdict:
 * {headline, sentences}, orderings?: {exact, omega, states, metric, runs?, summary: {…, aia: {min, max, mean, taught,
 * better}}, edge: {hard, easy, hardFinal, easyFinal, hardAia, easyAia}, edgeNames?: {…}, rs: [{seed, order, final,
 * aia}], verdict}}], "seconds"}`.
 */
export async function ownClassesCommand(v: Values): Promise<string> {
  const started = performance.now();
  const zipPath = str(v, 'samples');
  if (!zipPath) throw new UsageError('Give --samples ZIP: a samples zip (the Your-classes lab’s Export zip, or an image-folder zip).');
  const encoder = encoderOf(v);
  const namesModel = namesModelOf(v);
  const seed = rowArg(OWN_CLASSES_SETTINGS.seed, v) ?? OWN_CLASSES_SETTINGS.seed.default;
  const orderingsWanted = orderingsArgOf(v);
  const sampleSeed = intArg(str(v, 'sample-seed'), 'sample-seed', 0, UINT32_MAX) ?? seed;
  const trainPer = rowArg(OWN_CLASSES_SETTINGS.trainPerClass, v);
  const testPer = rowArg(OWN_CLASSES_SETTINGS.testPerClass, v);
  if ((trainPer === undefined) !== (testPer === undefined))
    throw new UsageError('Give --train-per-class and --test-per-class together (or neither: the zip’s own split).');
  const backend = backendArg(v);
  if (!existsSync(zipPath)) throw new UsageError(`--samples ${zipPath.slice(0, 120)}: no such file.`);
  let zip;
  try {
    // the bounded reader: a regular file of at most 256 MiB (a 3 GB file is refused before it is read)
    zip = readSamplesZip(readInput(zipPath, 'the --samples zip'), basename(zipPath));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--samples: ${(e as Error).message}`);
  }
  if (zip.length < 1 || zip.length > OWN_LIMITS.classes) throw new UsageError(`The zip has ${zip.length} classes; the lab takes 1 to ${OWN_LIMITS.classes}.`);
  // the zip's own split is the lab's only within the lab's bounds (as the page cuts an import: --train-per-class N)
  if (trainPer === undefined) {
    const over = zip.find((c) => c.train.length > OWN_LIMITS.trainPerClass || c.test.length > OWN_LIMITS.testPerClass);
    if (over)
      throw new UsageError(
        `“${over.name}” has ${over.train.length} training and ${over.test.length} test samples; the lab takes at most ${OWN_LIMITS.trainPerClass} and ${OWN_LIMITS.testPerClass} per class: give --train-per-class N --test-per-class N to take the first ones.`,
      );
  }
  const strategies = strategiesOf(v, zip.length);
  const samples = zip.map((c) => {
    const list = trainPer === undefined ? [...c.train, ...c.test] : ownSampleList(c.train, c.test, trainPer, testPer!);
    const train = trainPer ?? c.train.length;
    if (train < 2 || list.length <= train)
      throw new UsageError(
        `“${c.name}” has ${Math.min(train, list.length)} training and ${Math.max(0, list.length - train)} test samples; each class needs at least 2 and 1.`,
      );
    return { name: c.name, list, train };
  });
  const total = samples.reduce((n, s) => n + s.list.length, 0);
  if (total > OWN_LIMITS.samples)
    throw new UsageError(
      `The zip has ${grouped(total)} samples; the lab keeps at most ${grouped(OWN_LIMITS.samples)} (e.g. ${OWN_LIMITS.classes} classes of ${OWN_LIMITS.samples / OWN_LIMITS.classes}).`,
    );
  for (const s of strategies) {
    const problem = ownSizeProblem(samples.length, 0, s);
    if (problem) throw new UsageError(`--strategy ${s}: ${problem.message}`);
  }
  if (namesModel && orderingsWanted === null) throw new UsageError('--names is EDGE on the class names among the orderings: add --orderings all (or N).');
  if (orderingsWanted !== null && samples.length < 2) throw new UsageError(`--orderings needs at least 2 classes; the zip has ${samples.length}.`);
  // decode everything first: a bad image is a one-line error before any model loads
  const pixels = samples.map((s) => pixelsOf(s.name, s.list));

  const ctx = jobContext(() => Promise.reject(new Error('The Your-classes lab reads no built-in dataset.')), new RunControl());
  let dim = 0;
  const classes: OwnClassRows[] = [];
  for (let k = 0; k < samples.length; k++) {
    const out = await ownEncodeJob(
      { encoder, images: pixels[k], shape: [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE, 3], count: samples[k].list.length, device: 'cpu' },
      ctx,
      () => {},
    );
    pixels[k] = new Uint8Array(0);
    dim = out.dim;
    classes.push({ name: samples[k].name, rows: out.features, train: samples[k].train });
  }
  const set = ownFeatureSet(classes, dim);
  await selectCliBackend(backend);
  const names = set.classNames;
  const namesEdge = namesModel ? ownNamesEdge(await embedNames(namesModel, names, v['allow-remote'] === true), names) : null;
  const joint = await ownJointJob({ set, seed }, ctx, () => {});
  const classKeys = names.map((n, k) => `${k}:${n}`);
  const results = [];
  for (const strategy of strategies) {
    let steps;
    try {
      steps = await ownStepsJob({ set, strategy, seed, classKeys, from: 0 }, ctx, () => {});
    } catch (e) {
      if (e instanceof PtmInputError) throw new UsageError(`--strategy ${strategy}: ${e.message}`);
      throw e;
    }
    const K = names.length;
    const matrix = steps.rows.map((r) => [...r.row, ...new Array<number>(K - r.row.length).fill(0)]);
    const counts = steps.rows[K - 1].testCounts;
    const finalAccuracy = finalAccuracyWeighted(matrix, counts);
    const ms = steps.rows.map((r) => r.ms);
    const result: Record<string, unknown> = {
      strategy,
      matrix: rows(matrix),
      finalAccuracy: round(finalAccuracy),
      aia: round(aiaWeighted(matrix, counts)),
      forgetting: forgettingPerTask(matrix).map(round),
      ...(isClosedForm(strategy) ? { teach: { msPerClass: { mean: round(ms.reduce((a, b) => a + b, 0) / ms.length), max: round(Math.max(...ms)) } } } : {}),
      verdict: {
        headline: updateHeadline(updateVerdict(matrix, names, strategy), names),
        ...sentences(updateVerdict(matrix, names, strategy).text, jointVerdict(joint.accuracy, finalAccuracy, strategy, K)),
      },
    };
    if (orderingsWanted !== null) {
      try {
        result.orderings = await orderingsOf(set, strategy, seed, orderingsWanted, sampleSeed, namesEdge, ctx);
      } catch (e) {
        if (e instanceof PtmInputError) throw new UsageError(`--orderings with ${strategy}: ${e.message}`);
        throw e;
      }
    }
    results.push(result);
  }
  return JSON.stringify({
    classes: names,
    samples: samples.map((s) => ({ name: s.name, train: s.train, test: s.list.length - s.train })),
    encoder: { model: encoder.model, precision: encoder.precision, source: encoder.weights.kind },
    ...(namesModel ? { names: { model: namesModel.model, dtype: namesModel.dtype, source: namesModel.weights.kind, prompt: 'bare' } } : {}),
    dim,
    seed,
    joint: { finalAccuracy: round(joint.accuracy), seconds: round(joint.seconds) },
    strategies: results,
    seconds: round((performance.now() - started) / 1000),
  });
}
