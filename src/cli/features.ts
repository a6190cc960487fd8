/**
 * Features as a data source from the command line (docs/science.md "Features as a data source"):
 *
 * - `cil-lab features --dataset D [--classes 0-5] --source backbone|encoder:MODEL_ID_OR_FOLDER|file:PATH.npz --out F.npz`
 *   computes one feature vector per image of the experiment's classes (the first --train-per-class / --test-per-class
 *   of each class, all by default) and writes the `.npz` a researcher opens with `np.load` (src/data/features/npz.ts);
 *   it prints a JSON summary (source, label, model, d, n per split, classes, seconds).
 * - `--features F.npz|SOURCE` on `run`, `sweep` and `cpcf` (run.ts planRunCommand): the runs train the `head` model on
 *   those features; an .npz alone brings its own classes and split (no --dataset needed).
 * - `--similarity features` on `orders` and `--source features` on `similarity`: the class prototypes of the feature
 *   source (each class's mean L2-normalised training feature vector, core/similarity/prototypes.ts), cosine.
 *
 * The embedded backbone needs no network; an encoder is a local transformers.js model folder, or a hub id fetched
 * only with --allow-remote (src/engine/clip/image-encoder.ts). Everything the user must fix is a UsageError (exit 2).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UINT32_MAX } from '../core/config/checker';
import { CONFIG_LIMITS } from '../core/config/limits';
import { contentHash } from '../core/config/url-codec';
import { checkFeatureSet, featureCounts, FeatureSetError, type FeatureSet } from '../core/features/feature-set';
import { backboneClasses } from '../core/features/source';
import { HELD_OUT_NOTE, withTestSplit } from '../core/features/test-split';
import type { SimilaritySpec } from '../core/similarity/resolve';
import { readFeaturesNpz, writeFeaturesNpz } from '../data/features/npz';
import { selectBackend } from '../engine/backend';
import { ModelLoadError } from '../engine/clip/download';
import {
  createImageEncoder,
  encoderRequiredFiles,
  IMAGE_ENCODERS,
  knownEncoderBytes,
  type EncoderPrecision,
  type ImageEncoderOptions,
} from '../engine/clip/image-encoder';
import { BackboneError, type Backbone } from '../engine/features/backbone';
import { probeBackbone, type BackboneProbe } from '../engine/features/probe';
import { backboneFeatureSet, encoderFeatureSet, extractionRows, type ExtractRows } from '../engine/features/extract';
import type { ImageDataset } from '../engine/types';
import { UsageError, intArg } from './args';
import { featurePrototypeRows } from '../core/features/prototypes';
import { FEATURE_SIMILARITY_KEY, readInput, writeOutput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export const FEATURES_HELP = `  cil-lab features (--dataset digits|fashion-mnist|emoji|PATH [--classes 0-5] | --source file:F.npz) --out F.npz | --probe
              --source backbone [--backbone-seed 0] | encoder:MODEL_ID_OR_FOLDER [--precision q8|fp16|fp32] [--revision main] [--allow-remote] | file:PATH.npz
              [--train-per-class N|all] [--test-per-class N|all] [--batch-size 16]
                 → writes the .npz (features, labels, split, class_names) and prints source, label, model, d, n per split, seconds;
                 the backbone is pre-trained on the dataset's classes that --classes leaves out; an encoder downloads only with --allow-remote
              --probe (with --source backbone): probe: {backbone, pixels, untrained}, each a linear probe and the nearest class mean,
                 all classes at once, on the same rows (--out optional): is the backbone better than its input?
              --features F.npz|backbone|encoder:…|file:… on run, sweep and cpcf trains the head model (--hidden "" linear, or one width) on them;
              --similarity features (orders) and --source features (similarity) with --features: class prototypes of the features, cosine`;

/** Where features come from, as a flag gives it. */
export type FeatureSourceArg = { kind: 'backbone' } | { kind: 'encoder'; spec: string } | { kind: 'file'; path: string };

/** `backbone`, `encoder:MODEL_ID_OR_FOLDER`, `file:PATH` or a PATH ending in .npz. */
export function parseFeatureSource(s: string, flag: string): FeatureSourceArg {
  const t = s.trim();
  if (t === 'backbone') return { kind: 'backbone' };
  if (t.startsWith('encoder:')) {
    const spec = t.slice('encoder:'.length).trim();
    if (!spec) throw new UsageError(`${flag} encoder:… needs a model id or a model folder after "encoder:" (e.g. encoder:${IMAGE_ENCODERS[0].id}).`);
    return { kind: 'encoder', spec };
  }
  if (t.startsWith('file:')) {
    const path = t.slice('file:'.length).trim();
    if (!path) throw new UsageError(`${flag} file:PATH needs the path of an .npz file after "file:".`);
    return { kind: 'file', path };
  }
  if (/\.npz$/i.test(t)) return { kind: 'file', path: t };
  throw new UsageError(`${flag} "${s}": use backbone, encoder:MODEL_ID_OR_FOLDER, file:PATH.npz (or a PATH ending in .npz).`);
}

/** What the features are, for every output that used them. */
export interface FeatureInfo {
  source: 'backbone' | 'encoder' | 'file';
  /** in words, as the app labels it ("stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)") */
  label: string;
  d: number;
  model?: { id: string; path?: string; revision: string; precision: EncoderPrecision; device: string; modelType: string; output: string };
  backbone?: { seed: number; classes: number[]; classNames: string[]; trainImages: number; trainAccuracy: number; seconds: number };
  file?: string;
  /** content hash of the features, labels and split (what a sweep's experiment id and a record can name) */
  digest: string;
  seconds: number;
  notes: string[];
}

/** The content hash of a feature set's numbers (features, then labels, then split). */
function digestOf(set: FeatureSet): string {
  const parts = [set.features, set.labels, set.split].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return contentHash(all);
}

const PRECISIONS: readonly EncoderPrecision[] = ['q8', 'fp16', 'fp32'];
const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

/** `--train-per-class N|all` (and test): undefined when not given, null for all. */
export function perClassArg(v: Values, k: string): number | null | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  if (s.trim() === 'all') return null;
  return intArg(s, k, 1, CONFIG_LIMITS.perClass);
}

/** The encoder `encoder:X` names: a local model folder (self-hosted, no network) or a hub id (only with --allow-remote). */
function encoderOptions(spec: string, v: Values): { opts: ImageEncoderOptions; path?: string } {
  const precision = (str(v, 'precision') ?? 'q8') as EncoderPrecision;
  if (!PRECISIONS.includes(precision)) throw new UsageError(`Unknown --precision "${precision}": use q8, fp16 or fp32.`);
  const revision = str(v, 'revision') ?? 'main';
  const base = { precision, revision, device: 'cpu' as const };
  const dir = resolve(spec);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    if (!existsSync(join(dir, 'config.json')))
      throw new UsageError(
        `encoder:${spec}: the folder ${dir} holds no config.json; give a transformers.js model folder (${encoderRequiredFiles('clip-vision', precision).join(', ')}).`,
      );
    return { opts: { ...base, modelId: basename(dir), source: { kind: 'self-hosted', path: dirname(dir) }, allowRemote: false }, path: dir };
  }
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(spec))
    throw new UsageError(`encoder:${spec} is neither a model folder on this disk nor a hub model id like ${IMAGE_ENCODERS[0].id}.`);
  if (v['allow-remote'] !== true) {
    const bytes = knownEncoderBytes(spec, precision);
    const size = bytes === null ? '' : ` (about ${(bytes / 1e6).toFixed(1)} MB as ${precision})`;
    throw new UsageError(
      `Loading ${spec}${size} from the Hugging Face hub needs the network, which the CLI uses only with --allow-remote. ` +
        `Add --allow-remote, or download the model folder once and give encoder:FOLDER.`,
    );
  }
  return { opts: { ...base, modelId: spec, source: { kind: 'hub' }, allowRemote: true } };
}

/** The last feature file read (by its path, size and time): `run` asks for its class names, then its rows. */
let lastRead: { key: string; set: FeatureSet; heldOut: boolean } | null = null;

/**
 * The feature set of an .npz file, checked (a malformed file is one UsageError); without a test split, 20% of each
 * class is held out (core/features/test-split.ts) and `notes` says so. Read once per file and command.
 */
export function readFeatureFile(path: string, notes: string[], what = 'the feature file'): FeatureSet {
  let key = '';
  try {
    const st = statSync(path);
    key = `${resolve(path)}:${st.size}:${st.mtimeMs}`;
  } catch {
    key = '';
  }
  if (!key || lastRead?.key !== key) {
    try {
      const { set, heldOut } = withTestSplit(readFeaturesNpz(readInput(path, what, CONFIG_LIMITS.featureBytes), basename(path)));
      lastRead = { key, set, heldOut };
    } catch (e) {
      if (e instanceof FeatureSetError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (lastRead.heldOut) notes.push(HELD_OUT_NOTE);
  return lastRead.set;
}

/** An .npz's classes must be the dataset's, at the same indices, when both are given. */
function checkSameClasses(set: FeatureSet, ds: ImageDataset, file: string): void {
  const bad = set.classNames.findIndex((name, k) => ds.classNames[k] !== name);
  if (bad >= 0 || set.classNames.length > ds.classNames.length)
    throw new UsageError(
      `${file} names its classes differently from the dataset (class ${bad >= 0 ? bad : ds.classNames.length} is ${JSON.stringify(set.classNames[bad >= 0 ? bad : ds.classNames.length])} there, ${JSON.stringify(ds.classNames[bad] ?? 'missing')} here): give --features alone, without --dataset.`,
    );
}

/** Rows of the set's `classes`, at most the first n of each class per split (file order), as the runs take them. */
function subsetRows(set: FeatureSet, rows: ExtractRows): FeatureSet {
  const wanted = new Set(rows.classes);
  const seen = [new Map<number, number>(), new Map<number, number>()];
  const keep: number[] = [];
  for (let i = 0; i < set.n; i++) {
    const y = set.labels[i];
    if (!wanted.has(y)) continue;
    const s = set.split[i] as 0 | 1;
    const n = (seen[s].get(y) ?? 0) + 1;
    seen[s].set(y, n);
    const cap = s === 0 ? rows.trainPerClass : rows.testPerClass;
    if (cap === null || n <= cap) keep.push(i);
  }
  const features = new Float32Array(keep.length * set.d);
  keep.forEach((r, k) => features.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d));
  return checkFeatureSet({
    features,
    n: keep.length,
    d: set.d,
    labels: Int32Array.from(keep, (r) => set.labels[r]),
    split: Uint8Array.from(keep, (r) => set.split[r]),
    classNames: set.classNames.slice(),
  });
}

/**
 * The features of `rows` from `source`: the embedded backbone or an encoder over the image dataset `ds` (the whole
 * dataset: the backbone pre-trains on its other classes), or an .npz (checked against `ds` when given).
 */
export async function featureSetFrom(
  source: FeatureSourceArg,
  v: Values,
  ds: ImageDataset | null,
  rows: ExtractRows,
  onProgress?: (done: number, total: number) => void,
  probe?: { backbone?: Backbone },
): Promise<{ set: FeatureSet; info: FeatureInfo }> {
  const t0 = performance.now();
  const notes: string[] = [];
  const seconds = () => Math.round((performance.now() - t0) / 10) / 100;
  if (source.kind === 'file') {
    const full = readFeatureFile(source.path, notes);
    if (ds) checkSameClasses(full, ds, source.path);
    const bad = rows.classes.find((c) => c >= full.classNames.length);
    if (bad !== undefined) throw new UsageError(`Class ${bad} does not exist in ${source.path}: it has classes 0..${full.classNames.length - 1}.`);
    const set = subsetRows(full, rows);
    return {
      set,
      info: {
        source: 'file',
        label: `features from ${basename(source.path)}`,
        d: set.d,
        file: resolve(source.path),
        digest: digestOf(set),
        seconds: seconds(),
        notes,
      },
    };
  }
  if (!ds)
    throw new UsageError(`--features ${source.kind === 'backbone' ? 'backbone' : `encoder:${source.spec}`} computes features from images: give --dataset.`);
  const picked = extractionRows(ds, rows);
  if (picked.train.length + picked.test.length === 0)
    throw new UsageError(`The dataset has no images of classes ${rows.classes.join(', ')}; check --classes (its classes are 0..${ds.classNames.length - 1}).`);
  if (source.kind === 'backbone') {
    const seed = intArg(str(v, 'backbone-seed'), 'backbone-seed', 0, UINT32_MAX) ?? 0;
    if (backboneClasses(ds.classNames.length, rows.classes).length === 0)
      throw new UsageError(
        `The embedded backbone is pre-trained on the dataset's other classes, and --classes uses all ${ds.classNames.length}: select fewer classes, or use --features encoder:MODEL or an .npz.`,
      );
    try {
      const { set, backbone } = await backboneFeatureSet(ds, rows, seed, (p) => (p.stage === 'extract' ? onProgress?.(p.done, p.total) : undefined));
      if (probe) probe.backbone = backbone;
      const names = backbone.classNames;
      const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
      return {
        set,
        info: {
          source: 'backbone',
          label: `stand-in backbone trained on ${list} (seed ${seed})`,
          d: set.d,
          digest: digestOf(set),
          backbone: {
            seed,
            classes: backbone.classes,
            classNames: names,
            trainImages: backbone.trainImages,
            trainAccuracy: Math.round(backbone.trainAccuracy * 1e4) / 1e4,
            seconds: Math.round(backbone.seconds * 100) / 100,
          },
          seconds: seconds(),
          notes,
        },
      };
    } catch (e) {
      if (e instanceof BackboneError) throw new UsageError(e.message);
      throw e;
    }
  }
  const { opts, path } = encoderOptions(source.spec, v);
  const batchSize = intArg(str(v, 'batch-size'), 'batch-size', 1, CONFIG_LIMITS.encoderBatch) ?? 16;
  try {
    const encoder = await createImageEncoder(opts);
    try {
      const set = await encoderFeatureSet(ds, rows, encoder, { batchSize, onProgress: (p) => onProgress?.(p.done, p.total) });
      return {
        set,
        info: {
          source: 'encoder',
          label: `image encoder ${opts.modelId}${opts.revision === 'main' ? '' : `@${opts.revision}`} (${opts.precision})`,
          d: set.d,
          digest: digestOf(set),
          model: {
            id: opts.modelId,
            path,
            revision: opts.revision ?? 'main',
            precision: opts.precision,
            device: encoder.device,
            modelType: encoder.modelType,
            output: encoder.output,
          },
          seconds: seconds(),
          notes: [...notes, ...encoder.notes],
        },
      };
    } finally {
      await encoder.dispose();
    }
  } catch (e) {
    if (e instanceof ModelLoadError) throw new UsageError(`${e.message} ${e.hint}`);
    throw e;
  }
}

/** `cil-lab features`: compute, write the .npz, print the summary. */
export async function featuresCommand(
  v: Values,
  io: { loadDataset: (arg: string, notes: string[]) => Promise<ImageDataset>; classesOf: (arg: string | undefined, total: number) => number[] },
): Promise<string> {
  const sourceArg = str(v, 'source');
  if (!sourceArg) throw new UsageError('Give --source backbone, encoder:MODEL_ID_OR_FOLDER or file:PATH.npz.');
  const out = str(v, 'out');
  const probing = v.probe === true;
  if (!out && !probing) throw new UsageError('Give --out F.npz, the file to write the features to (or --probe with --source backbone).');
  const source = parseFeatureSource(sourceArg, '--source');
  if (probing && source.kind !== 'backbone')
    throw new UsageError(
      '--probe compares the embedded backbone with its input: give --source backbone (an encoder or a file has no pixels or untrained twin here).',
    );
  intArg(str(v, 'batch-size'), 'batch-size', 1, CONFIG_LIMITS.encoderBatch);
  // given for another source, these would change nothing
  const unread = source.kind === 'encoder' ? undefined : (['batch-size', 'precision', 'revision', 'allow-remote'] as const).find((f) => v[f] !== undefined);
  if (unread) throw new UsageError(`--${unread} is read only with --source encoder:MODEL_ID_OR_FOLDER.`);
  if (source.kind !== 'backbone' && v['backbone-seed'] !== undefined) throw new UsageError('--backbone-seed is read only with --source backbone.');
  const datasetArg = str(v, 'dataset');
  const notes: string[] = [];
  const ds = datasetArg ? await io.loadDataset(datasetArg, notes) : null;
  if (!ds && source.kind !== 'file') throw new UsageError(`--source ${sourceArg} computes features from images: give --dataset.`);
  const total = ds ? ds.classNames.length : readFeatureFile((source as { path: string }).path, []).classNames.length;
  const rows: ExtractRows = {
    classes: io.classesOf(str(v, 'classes'), total),
    trainPerClass: perClassArg(v, 'train-per-class') ?? null,
    testPerClass: perClassArg(v, 'test-per-class') ?? null,
  };
  const held: { backbone?: Backbone } = {};
  const { set, info } = await featureSetFrom(source, v, ds, rows, undefined, held);
  const written = out ? writeOutput(out, writeFeaturesNpz(set)) : undefined;
  // the linear probes train with the fused WebAssembly step (wasm), as `npm run probe:backbone` and the labs do
  if (probing) await selectBackend('wasm', { strict: true });
  const probe = probing && ds && held.backbone ? roundProbe(await probeBackbone(ds, rows, held.backbone, set)) : undefined;
  const [train, test] = featureCounts(set);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return JSON.stringify({
    ...(written ? { out: written } : {}),
    source: info.source,
    label: info.label,
    ...(info.model ? { model: info.model } : {}),
    ...(info.backbone ? { backbone: info.backbone } : {}),
    ...(info.file ? { file: info.file } : {}),
    d: set.d,
    digest: info.digest,
    n: { train: sum(train), test: sum(test) },
    classes: rows.classes.map((c) => set.classNames[c]),
    seconds: info.seconds,
    ...(probe ? { probe } : {}),
    warnings: [...notes, ...info.notes],
  });
}

/** The probe's accuracies to 4 decimals (what a table shows), with a sentence saying what they mean. */
function roundProbe(p: BackboneProbe): BackboneProbe & { verdict: string } {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  const one = (x: BackboneProbe['backbone']) => ({ d: x.d, linearProbe: r(x.linearProbe), nearestMean: r(x.nearestMean) });
  const b = one(p.backbone);
  const best = Math.max(p.pixels.linearProbe, p.untrained.linearProbe);
  const bestMean = Math.max(p.pixels.nearestMean, p.untrained.nearestMean);
  const pts = (x: number) => (100 * x).toFixed(1);
  const verdict =
    p.backbone.linearProbe <= best + 0.01 && p.backbone.nearestMean <= bestMean + 0.01
      ? `The backbone is no better than its input here: linear probe ${pts(p.backbone.linearProbe)} % against ${pts(p.pixels.linearProbe)} % on the pixels and ${pts(p.untrained.linearProbe)} % untrained; nearest mean ${pts(p.backbone.nearestMean)} % against ${pts(p.pixels.nearestMean)} % and ${pts(p.untrained.nearestMean)} %. It is a stand-in for offline use and tests, not a pre-trained encoder.`
      : `The backbone's features beat its input by more than a point on ${p.backbone.linearProbe > best + 0.01 ? 'the linear probe' : 'the nearest mean'}: linear probe ${pts(p.backbone.linearProbe)} % (pixels ${pts(p.pixels.linearProbe)} %, untrained ${pts(p.untrained.linearProbe)} %), nearest mean ${pts(p.backbone.nearestMean)} % (${pts(p.pixels.nearestMean)} %, ${pts(p.untrained.nearestMean)} %).`;
  return { backbone: b, pixels: one(p.pixels), untrained: one(p.untrained), n: p.n, training: p.training, verdict };
}

/**
 * `--similarity features` / `--source features`: the class prototypes (mean L2-normalised training feature vector,
 * core/similarity/prototypes.ts) of `names`' classes, in that order, as embeddings compared by cosine.
 */
export function featurePrototypeSpec(set: FeatureSet, names: readonly string[], label: string): SimilaritySpec {
  const index = names.map((name) => {
    const k = set.classNames.indexOf(name);
    if (k < 0) throw new UsageError(`The features have no class named ${JSON.stringify(name)} (they have ${set.classNames.slice(0, 5).join(', ')}…).`);
    return k;
  });
  try {
    return { kind: 'embeddings', rows: featurePrototypeRows(set, index).rows, label: `class prototypes of ${label}` };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Commands that cannot honestly take features, and why (one line each). */
const REFUSALS: Record<string, string> = {
  stream:
    "stream takes no --features: its drifting stream is made by transforming the images' pixels bucket by bucket, and frozen features of the original images would not drift with them.",
  curriculum:
    'curriculum takes no --features: it joins whole datasets by resizing their pixels to one shape, and one feature source over those joined images is not built yet (compute features per dataset with cil-lab features, then cil-lab run --features).',
  ood: "ood takes no --features yet: its OOD sets are other datasets' images, which would need the same backbone's or encoder's features as the ID data (not built yet; train on features with cil-lab run --features).",
};

/** The one-line refusal of `--features` for a command that cannot take it; undefined when it can (or ignores it). */
export function featuresRefusal(command: string, v: Values): string | undefined {
  return v.features !== undefined ? REFUSALS[command] : undefined;
}

/**
 * `orders --similarity features` / `similarity --source features`: the flags with the prototypes of `--features`
 * computed and put under FEATURE_SIMILARITY_KEY (classes from --dataset/--subset, --classes, or the .npz's own).
 */
export async function withFeaturePrototypes(
  v: Values,
  io: {
    classInput: (v: Values) => { names: string[]; dataset?: string } | undefined;
    loadDataset: (arg: string, notes: string[]) => Promise<ImageDataset>;
    imageDatasetOf: (classListId: string) => string | undefined;
  },
): Promise<Values> {
  const featuresArg = str(v, 'features');
  if (!featuresArg) throw new UsageError('--similarity features needs the feature source: --features F.npz, backbone or encoder:MODEL_ID_OR_FOLDER.');
  const source = parseFeatureSource(featuresArg, '--features');
  const out: Values = { ...v };
  let classes = io.classInput(v);
  const notes: string[] = [];
  if (!classes && source.kind === 'file') {
    // the file's classes that have training rows
    const file = readFeatureFile(source.path, notes);
    const names = file.classNames.filter((_, k) => featureCounts(file)[0][k] > 0);
    if (names.some((n) => n.includes(','))) throw new UsageError(`A class name of ${source.path} has a comma: give the classes with --classes-file F.`);
    out.classes = names.join(',');
    classes = io.classInput(out);
  }
  if (!classes) throw new UsageError('Give the classes: --dataset ID [--subset 0-5], --classes a,b,c or --classes-file F.');
  let ds: ImageDataset | null = null;
  if (source.kind !== 'file') {
    const id = classes.dataset ? io.imageDatasetOf(classes.dataset) : undefined;
    if (!id)
      throw new UsageError(`--features ${featuresArg} computes features from images: give --dataset with an image dataset (digits, fashion-mnist, emoji).`);
    ds = await io.loadDataset(id, notes);
  }
  const total = ds ? ds.classNames : readFeatureFile((source as { path: string }).path, []).classNames;
  const indices = classes.names.map((name) => {
    const k = total.indexOf(name);
    if (k < 0) throw new UsageError(`The feature source has no class named ${JSON.stringify(name)}.`);
    return k;
  });
  const { set, info } = await featureSetFrom(source, v, ds, {
    classes: indices,
    trainPerClass: perClassArg(v, 'train-per-class') ?? null,
    testPerClass: 0,
  });
  out[FEATURE_SIMILARITY_KEY] = JSON.stringify(featurePrototypeSpec(set, classes.names, info.label), (_, x) => (x instanceof Float32Array ? Array.from(x) : x));
  for (const n of [...notes, ...info.notes]) process.stderr.write(`note: ${n}\n`);
  return out;
}
