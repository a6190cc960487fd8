/**
 * `cil-lab similarity --source clip …` and `cil-lab similarity --compare F1 F2 …` (docs/science.md §6; EDGE paper
 * App. E.3). main.ts parses the arguments and hands them here.
 *
 * CLIP: the text encoder runs in Node (transformers.js + onnxruntime-node, device cpu) on a LOCAL model folder
 * (`--model-path DIR`); nothing is downloaded unless `--allow-remote` is given (then, without --model-path, the
 * model `--model-id` — default Xenova/clip-vit-base-patch32 — comes from the Hugging Face hub into
 * transformers.js's file cache). `--model-path` may be the model folder itself (the one holding config.json) or a
 * folder holding `<model-id>/config.json` (like public/models/).
 *
 * Compare: two similarity files (what `cil-lab similarity` writes, or any upload format: JSON, CSV/TSV, .npy,
 * matrix or embeddings) → MAE and Spearman ρ over pairs i < j, CSG of EDGE hard/easy (compare.ts).
 * F2's classes are aligned to F1's (or to --classes/--dataset when given) by name when the files name them.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { matrixToRows } from '../core/orderings/matrix';
import { resolveTaskSizes } from '../core/orderings/task-sizes';
import { compareSimilarities } from '../core/similarity/compare';
import { cosineSimilarity } from '../core/similarity/cosine';
import { parseSimilarityUpload } from '../core/similarity/parse-upload';
import { PromptError, promptLabel, promptTexts, validateTemplate, type PromptSpec } from '../core/similarity/prompts';
import { CLIP_MODELS, ClipLoadError, createTextEmbedder, requiredFiles, type ClipDtype, type WeightSource } from '../engine/clip/text-embedder';
import { UsageError, intArg, intListArg } from './args';
import { readInput, writeOutput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export interface CliClasses {
  names: string[];
}

/** Entry point from main.ts's `similarity` case. */
export function similarityClipOrCompare(v: Values, positionals: string[], classes: () => CliClasses | undefined): Promise<string> | string {
  if (v.compare !== undefined) return similarityCompare(v, positionals, classes);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  return similarityFromClip(v, classes);
}

function readBytes(path: string, what: string): Uint8Array {
  return readInput(path, what);
}

function str(v: Values, key: string): string | undefined {
  const x = v[key];
  return typeof x === 'string' ? x : undefined;
}

// ───────────────────────────── CLIP ─────────────────────────────

function promptSpecFrom(v: Values): PromptSpec {
  const template = str(v, 'prompt');
  const descriptionsFile = str(v, 'descriptions');
  try {
    if (template !== undefined) validateTemplate(template);
  } catch (e) {
    throw new UsageError(`--prompt: ${(e as Error).message}`);
  }
  if (descriptionsFile !== undefined) {
    const text = new TextDecoder().decode(readBytes(descriptionsFile, 'the descriptions file'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--descriptions: ${descriptionsFile} is not valid JSON (${(e as Error).message}); give an object {"class name": "caption", …}.`);
    }
    const obj = (parsed && typeof parsed === 'object' && 'descriptions' in parsed ? (parsed as { descriptions: unknown }).descriptions : parsed) as unknown;
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new UsageError(`--descriptions: ${descriptionsFile} must hold an object {"class name": "caption", …}.`);
    }
    for (const [k, val] of Object.entries(obj)) {
      if (typeof val !== 'string') throw new UsageError(`--descriptions: the description of ${JSON.stringify(k)} is not text.`);
    }
    return { kind: 'descriptions', descriptions: obj as Record<string, string>, template };
  }
  return template !== undefined ? { kind: 'template', template } : { kind: 'bare' };
}

interface ModelChoice {
  modelId: string;
  source: WeightSource;
  /** What to call the model in the output. */
  label: string;
  path?: string;
}

function modelChoice(v: Values, dtype: ClipDtype): ModelChoice {
  const modelPath = str(v, 'model-path');
  const modelId = str(v, 'model-id')?.trim() || undefined;
  const files = requiredFiles(dtype).join(', ');
  if (modelPath !== undefined) {
    const dir = resolve(modelPath);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--model-path: the folder ${dir} does not exist.`);
    if (modelId && existsSync(join(dir, modelId, 'config.json'))) {
      return { modelId, source: { kind: 'self-hosted', path: dir }, label: modelId, path: join(dir, modelId) };
    }
    if (existsSync(join(dir, 'config.json'))) {
      return { modelId: basename(dir), source: { kind: 'self-hosted', path: dirname(dir) }, label: modelId ?? basename(dir), path: dir };
    }
    throw new UsageError(
      `--model-path: ${dir} holds no config.json${modelId ? `, and neither does ${join(dir, modelId)}` : ''}. ` +
        `Give the model folder itself (${files}), or the folder above it together with --model-id ORG/NAME.`,
    );
  }
  const id = modelId ?? CLIP_MODELS[0].id;
  if (v['allow-remote'] !== true) {
    throw new UsageError(
      modelId
        ? `Loading ${id} from the Hugging Face hub needs the network, which the CLI uses only with --allow-remote. ` +
            `Add --allow-remote, or download the model folder (${files}) and pass --model-path DIR.`
        : `--source clip needs --model-path DIR, a local transformers.js model folder (${files}); ` +
            `or --allow-remote [--model-id ID] to download one from the Hugging Face hub (default ${CLIP_MODELS[0].id}).`,
    );
  }
  return { modelId: id, source: { kind: 'hub' }, label: id };
}

async function similarityFromClip(v: Values, classInput: () => CliClasses | undefined): Promise<string> {
  const classes = classInput();
  if (!classes) throw new UsageError('Give the classes: --dataset ID, --classes a,b,c or --classes-file F.');
  const dtype = (str(v, 'dtype') ?? 'q8') as ClipDtype;
  if (dtype !== 'q8' && dtype !== 'fp32') throw new UsageError(`Unknown --dtype "${dtype}": use q8 or fp32.`);
  const spec = promptSpecFrom(v);
  const model = modelChoice(v, dtype);
  let texts: string[];
  try {
    texts = promptTexts(classes.names, spec);
  } catch (e) {
    if (e instanceof PromptError) throw new UsageError(e.message);
    throw e;
  }

  let embeddings: Float32Array[];
  let device: string;
  let notes: string[];
  try {
    const embedder = await createTextEmbedder({
      modelId: model.modelId,
      dtype,
      device: 'cpu',
      source: model.source,
      allowRemote: v['allow-remote'] === true,
    });
    try {
      embeddings = await embedder.embed(texts);
      device = embedder.device;
      notes = embedder.notes;
    } finally {
      await embedder.dispose();
    }
  } catch (e) {
    if (e instanceof ClipLoadError) throw new UsageError(`${e.message} ${e.hint}`);
    throw e;
  }
  const matrix = cosineSimilarity(embeddings, classes.names);
  const description = `CLIP text embeddings (${model.label}, ${dtype}, prompt ${promptLabel(spec)}), cosine similarity`;
  const out = JSON.stringify({
    classes: classes.names,
    source: description,
    matrix: matrixToRows(matrix),
    model: { id: model.label, path: model.path, source: model.source.kind, dtype, device },
    prompt: spec.kind === 'descriptions' ? { kind: spec.kind, template: spec.template } : spec,
    prompts: texts,
    warnings: notes,
  });
  const outFile = str(v, 'out');
  if (outFile !== undefined) {
    const written = writeOutput(outFile, out);
    return JSON.stringify({ out: written, classes: classes.names.length, source: description });
  }
  return out;
}

// ───────────────────────────── compare ─────────────────────────────

function similarityCompare(v: Values, positionals: string[], classInput: () => CliClasses | undefined): string {
  const f1 = str(v, 'compare');
  if (f1 === undefined || positionals.length !== 1) {
    throw new UsageError(
      positionals.length > 1
        ? `--compare takes two files; got ${positionals.length + 1}: ${[f1, ...positionals].join(' ')}.`
        : '--compare takes two files: --compare F1 F2 (what `cil-lab similarity` wrote, or any similarity upload: JSON, CSV, .npy).',
    );
  }
  const f2 = positionals[0];
  const given = classInput();
  const a = parseSimilarityUpload(f1, readBytes(f1, 'the first similarity file'), given?.names);
  const names = given?.names ?? a.classNames;
  const b = parseSimilarityUpload(f2, readBytes(f2, 'the second similarity file'), names);
  if (a.matrix.n !== b.matrix.n) {
    throw new UsageError(`${f1} has ${a.matrix.n} classes and ${f2} has ${b.matrix.n}; they must cover the same classes.`);
  }
  const tasks = intArg(str(v, 'tasks'), 'tasks', 1);
  const sizesArg = intListArg(str(v, 'task-sizes'), 'task-sizes');
  if (tasks === undefined && !sizesArg) throw new UsageError('Give --tasks K or --task-sizes m1,m2,… (EDGE runs on both matrices for CSG).');
  const taskSizes = resolveTaskSizes(a.matrix.n, { tasks, taskSizes: sizesArg });
  const c = compareSimilarities(a.matrix, b.matrix, taskSizes);
  const warnings = [...a.warnings.map((w) => `${f1}: ${w}`), ...b.warnings.map((w) => `${f2}: ${w}`)];
  if (!names) warnings.push('Neither file names its classes: rows were matched by position.');
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  return JSON.stringify({
    files: [resolve(f1), resolve(f2)],
    classes: names ?? b.classNames,
    n: c.n,
    taskSizes,
    pairCount: c.pairCount,
    mae: finite(c.mae),
    spearman: finite(c.spearman),
    csg: finite(c.csg),
    csgHard: finite(c.csgHard),
    csgEasy: finite(c.csgEasy),
    hard: { a: c.hard.a, b: c.hard.b, match: c.hard.match },
    easy: { a: c.easy.a, b: c.easy.b, match: c.easy.match },
    warnings,
  });
}
