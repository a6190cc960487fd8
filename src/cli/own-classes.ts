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
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UINT32_MAX } from '../core/config/checker';
import { V1_FILL } from '../core/config/defaults';
import { OWN_LIMITS, OWN_STRATEGIES, type OwnEncoder, type OwnStrategy } from '../core/config/sections/own-classes';
import { finalOf, ownEdge, ownNamesEdge } from '../core/own-classes/edge';
import { OWN_MAX_ORDERINGS } from '../core/own-classes/orders';
import { ownRsOrders } from '../core/own-classes/rs';
import { OWN_SAMPLE_SIZE, ownFeatureSet, ownSampleList, type OwnClassRows } from '../core/own-classes/settings';
import { edgeVerdict, forgettingPerTask, orderingsVerdict, rsVerdict, summariseOrderings, updateVerdict } from '../core/own-classes/verdict';
import { readSamplesZip } from '../data/own-samples-zip';
import { resizeToRgb, sniffImageType } from '../data/parsers/image-folder-zip';
import { decodePng } from '../data/parsers/png';
import { promptTexts } from '../core/similarity/prompts';
import { ClipLoadError, createTextEmbedder, type ClipDtype } from '../engine/clip/text-embedder';
import { RunControl } from '../engine/control';
import { jobContext } from '../engine/jobs/job';
import { ownEncodeJob, ownOrderingsJob, ownTrainJob } from '../engine/own-classes/job';
import { backendArg, intArg, str, UsageError } from './args';
import { selectCliBackend } from './backend';

type Values = Record<string, string | boolean | undefined>;

export const OWN_CLASSES_HELP = `  cil-lab own-classes --samples ZIP --encoder FOLDER_OR_ID [--precision q8|fp16|fp32] [--allow-remote] [--strategy finetune,simplecil]
                      [--seed N] [--orderings all [--names FOLDER_OR_ID [--names-dtype q8|fp32]]]
                      [--train-per-class N --test-per-class N] [--backend wasm|cpu]
                 → the Your-classes lab on a samples zip (PNG images; the lab's Export zip format): per strategy R of the teaching
                   order, forgetting per class and the verdict; --orderings all: every ordering's final accuracy, EDGE's and RS's picks;
                   --names: EDGE on the class names' CLIP text embeddings too (a CLIP text model folder, or a hub id with --allow-remote)`;

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

function strategiesOf(v: Values): OwnStrategy[] {
  const list = (str(v, 'strategy') ?? 'finetune,simplecil')
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
    const img = decodePng(b, `${name} sample ${i + 1}`);
    out.set(resizeToRgb(img.data, img.width, img.height, [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE]), i * side);
  });
  return out;
}

/**
 * Runs the command. Samples per class: as the zip has them, or cut as the lab cuts an imported zip
 * (`--train-per-class N --test-per-class N`). Prints `{"classes", "samples": [{name, train, test}], "encoder": {model,
 * precision, source}, "names"?: {model, dtype, source, prompt}, "dim", "seed", "strategies": [{strategy, matrix,
 * finalAccuracy, forgetting, verdict: {sentences}, orderings?: {runs: [{order, finalAccuracy}], summary, edge: {hard,
 * easy, hardFinal, easyFinal}, edgeNames?: {…}, rs: [{seed, order, final}], verdict}}], "seconds"}`.
 */
export async function ownClassesCommand(v: Values): Promise<string> {
  const started = performance.now();
  const zipPath = str(v, 'samples');
  if (!zipPath) throw new UsageError('Give --samples ZIP: a samples zip (the Your-classes lab’s Export zip, or an image-folder zip).');
  const encoder = encoderOf(v);
  const namesModel = namesModelOf(v);
  const strategies = strategiesOf(v);
  const seed = intArg(str(v, 'seed'), 'seed', 0, UINT32_MAX) ?? 0;
  const orderingsArg = str(v, 'orderings');
  if (orderingsArg !== undefined && orderingsArg !== 'all')
    throw new UsageError(`--orderings takes "all" (every ordering of the classes); got "${orderingsArg.slice(0, 40)}".`);
  const trainPer = intArg(str(v, 'train-per-class'), 'train-per-class', 2, OWN_LIMITS.trainPerClass);
  const testPer = intArg(str(v, 'test-per-class'), 'test-per-class', 1, OWN_LIMITS.testPerClass);
  if ((trainPer === undefined) !== (testPer === undefined))
    throw new UsageError('Give --train-per-class and --test-per-class together (or neither: the zip’s own split).');
  const backend = backendArg(v);
  if (!existsSync(zipPath) || !statSync(zipPath).isFile()) throw new UsageError(`--samples ${zipPath.slice(0, 120)}: no such file.`);
  let zip;
  try {
    zip = readSamplesZip(new Uint8Array(readFileSync(zipPath)), basename(zipPath));
  } catch (e) {
    throw new UsageError(`--samples: ${(e as Error).message}`);
  }
  if (zip.length < 1 || zip.length > OWN_LIMITS.classes) throw new UsageError(`The zip has ${zip.length} classes; the lab takes 1 to ${OWN_LIMITS.classes}.`);
  const samples = zip.map((c) => {
    const list = trainPer === undefined ? [...c.train, ...c.test] : ownSampleList(c.train, c.test, trainPer, testPer!);
    const train = trainPer ?? c.train.length;
    if (train < 1 || list.length <= train)
      throw new UsageError(
        `“${c.name}” has ${Math.min(train, list.length)} training and ${Math.max(0, list.length - train)} test samples; each class needs both.`,
      );
    return { name: c.name, list, train };
  });
  const orderingsWanted = orderingsArg === 'all';
  if (namesModel && !orderingsWanted) throw new UsageError('--names is EDGE on the class names among every ordering: add --orderings all.');
  if (orderingsWanted && (samples.length < 2 || samples.length > 6))
    throw new UsageError(`--orderings all needs 2 to 6 classes (at most ${OWN_MAX_ORDERINGS} orderings); the zip has ${samples.length}.`);
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
    dim = out.dim;
    classes.push({ name: samples[k].name, rows: out.features, train: samples[k].train });
  }
  const set = ownFeatureSet(classes, dim);
  await selectCliBackend(backend);
  const names = set.classNames;
  const namesEdge = namesModel ? ownNamesEdge(await embedNames(namesModel, names, v['allow-remote'] === true), names) : null;
  const results = [];
  for (const strategy of strategies) {
    const run = await ownTrainJob({ set, strategy, seed }, ctx, () => {});
    const result: Record<string, unknown> = {
      strategy,
      matrix: rows(run.matrix),
      finalAccuracy: round(run.finalAccuracy),
      forgetting: forgettingPerTask(run.matrix).map(round),
      verdict: sentences(updateVerdict(run.matrix, names, strategy).text),
    };
    if (orderingsWanted) {
      const runs = await ownOrderingsJob({ set, strategy, seed }, ctx, () => {});
      const finals = runs.map((r) => r.finalAccuracy);
      const s = summariseOrderings(finals, 0);
      const edge = ownEdge(set);
      const edgeFinals = { hard: finalOf(runs, edge.hard), easy: finalOf(runs, edge.easy) };
      const rs = ownRsOrders(V1_FILL.protocols.rsSeeds, names.length).map((r) => ({ ...r, final: finalOf(runs, r.order) }));
      result.orderings = {
        runs: runs.map((r) => ({ order: r.order, finalAccuracy: round(r.finalAccuracy) })),
        summary: { orderings: s.orderings, min: round(s.min), max: round(s.max), mean: round(s.mean), taught: round(s.taught), better: s.better },
        edge: { hard: edge.hard, easy: edge.easy, hardFinal: round(edgeFinals.hard), easyFinal: round(edgeFinals.easy) },
        rs: rs.map((r) => ({ ...r, final: round(r.final) })),
        verdict: sentences(orderingsVerdict(s, strategy), edgeVerdict(edge, edgeFinals, s, names), rsVerdict(rs, edgeFinals, s)),
      };
      if (namesEdge) {
        const f = { hard: finalOf(runs, namesEdge.hard), easy: finalOf(runs, namesEdge.easy) };
        Object.assign(result.orderings as object, {
          edgeNames: { hard: namesEdge.hard, easy: namesEdge.easy, hardFinal: round(f.hard), easyFinal: round(f.easy) },
        });
        (result.orderings as { verdict: { sentences: unknown[] } }).verdict.sentences.push(
          ...sentences(edgeVerdict(namesEdge, f, s, names, 'names')).sentences,
        );
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
    strategies: results,
    seconds: round((performance.now() - started) / 1000),
  });
}
