/**
 * CLIP text embeddings with transformers.js (docs/science.md §6 "CLIP text"; EDGE paper §4.2, App. E.3):
 * `AutoTokenizer` + `CLIPTextModelWithProjection`, `text_embeds` L2-normalised here (the model does not). Runs in
 * Node (onnxruntime-node, 'cpu') and in a browser worker (onnxruntime-web, 'webgpu' or 'wasm'); no DOM.
 * transformers.js is imported lazily, so importing this module (for CLIP_MODELS, ClipLoadError, types) costs
 * nothing. Weight sources, guarded downloads, caching, the device plan and the failures (`ClipLoadError`: a reason,
 * a message naming the file or URL, a hint) are shared with the image encoders (weights.ts, download.ts).
 */

import {
  ModelLoadError,
  MODEL_DEVICES,
  checkDeviceAndSource,
  checkedLoad,
  classifyLoadError,
  hintFor,
  modelDownloadSizes,
  startLoad,
  withDeviceFallback,
  type FileSize,
  type HintContext,
  type LoadProgress,
  type ModelDevice,
  type ModelLoadOptions,
  type OpenedModel,
} from './download';
import { resolveLocation } from './weights';

export { resolveLocation, type Location, type WeightSource } from './weights';
/** Load failures of the text and image sides are one class (download.ts); the text side's name for it. */
export { ModelLoadError as ClipLoadError } from './download';

export type ClipDtype = 'q8' | 'fp32';
/** 'cpu' = onnxruntime-node in Node. */
export type ClipDevice = ModelDevice;
export type ClipProgress = LoadProgress;

export interface EmbedderOptions extends ModelLoadOptions {
  dtype: ClipDtype;
}

export interface TextEmbedder {
  modelId: string;
  /** The device that actually ran (after any fallback). */
  device: ClipDevice;
  dtype: ClipDtype;
  /** The device that was asked for. */
  requestedDevice: ClipDevice;
  /** Embedding length (the model's projection_dim). */
  dim: number;
  /** Why the device differs from the request, and similar remarks; empty when nothing to say. */
  notes: string[];
  /**
   * One L2-normalised text_embeds row per text, in order. fp32 gives the same vector whatever the batch (right
   * padding does not reach the pooled token); q8 exports are dynamically quantized over the whole batch tensor, so a
   * q8 vector moves slightly with its batch mates (cosine > 0.9999 on the fixture).
   */
  embed(texts: string[], batchSize?: number): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

/** Models offered in the app (all exist on the Hugging Face hub with ONNX weights for transformers.js). */
export const CLIP_MODELS: { id: string; label: string; note: string }[] = [
  {
    id: 'Xenova/clip-vit-base-patch32',
    label: 'CLIP ViT-B/32',
    note: 'Default. OpenAI CLIP ViT-B/32; 63 M-parameter text encoder (about 64 MB as q8, 254 MB as fp32).',
  },
  {
    id: 'Xenova/clip-vit-base-patch16',
    label: 'CLIP ViT-B/16',
    note: "The EDGE authors' backbone (clip.load('ViT-B/16')); same text-encoder size as B/32, different weights.",
  },
  {
    id: 'Xenova/clip-vit-large-patch14',
    label: 'CLIP ViT-L/14',
    note: 'Larger: 123 M-parameter text encoder (about 125 MB as q8, 490 MB as fp32); slower to download and run.',
  },
];

export const CLIP_DTYPES: readonly ClipDtype[] = ['q8', 'fp32'];
export const CLIP_DEVICES: readonly ClipDevice[] = MODEL_DEVICES;

/** The ONNX file transformers.js loads for a dtype. */
export function onnxFileFor(dtype: ClipDtype): string {
  return dtype === 'fp32' ? 'onnx/text_model.onnx' : 'onnx/text_model_quantized.onnx';
}

/**
 * Every file a complete model folder needs for a dtype (what to copy when self-hosting): what transformers.js 4.3.1
 * fetches (checked in dist/transformers.node.mjs). The tokenizer: tokenizer_config.json (an existence probe first, a
 * ranged GET for remote hosts), then tokenizer.json; the model: config.json, then the dtype's ONNX file, with no
 * external-data files unless config.json's "transformers.js_config" asks for them. The session is fed only the
 * inputs the graph declares (`input_ids` int64 [batch, seq]; `attention_mask` if declared) and we read
 * `text_embeds` [batch, projection_dim].
 */
export function requiredFiles(dtype: ClipDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(dtype)];
}

/** What this side's load failures suggest instead of CLIP text (download.ts hintFor). */
function hintsOf(opts: EmbedderOptions): HintContext {
  return {
    modelId: opts.modelId,
    files: requiredFiles(opts.dtype),
    alternative: {
      node: 'or use another similarity source (--source wordnet or --source file:PATH with embeddings made in Python)',
      browser: 'or upload precomputed embeddings or a similarity matrix instead (e.g. CLIP ViT-B/16 embeddings made in Python)',
    },
  };
}

/** Minimal shapes of the transformers.js objects we use (its own typings are loose for these). */
interface TfTensor {
  dims: number[];
  data: ArrayLike<number> | BigInt64Array;
  dispose?: () => void;
}
type TfTokenizer = ((texts: string[], opts: { padding: boolean; truncation: boolean }) => { input_ids: TfTensor; attention_mask?: TfTensor }) & {
  eos_token_id?: number;
  pad_token_id?: number;
};
type TfModel = ((inputs: Record<string, unknown>) => Promise<Record<string, TfTensor>>) & OpenedModel;

/**
 * Programming errors (an unknown dtype, device or source kind) are TypeErrors; things a person typed (model id,
 * folder, mirror URL) are ClipLoadErrors ('not-found') so the UI can show them like any other load failure.
 */
function checkOptions(opts: EmbedderOptions): void {
  if (!CLIP_DTYPES.includes(opts.dtype)) throw new TypeError(`Unknown dtype "${String(opts.dtype)}": use q8 or fp32.`);
  checkDeviceAndSource(opts);
}

/**
 * CLIP's context is 77 tokens, and transformers.js truncates after adding the special tokens, which can cut off the
 * closing <|endoftext|>, the token CLIP pools at. So a row left without EOS gets it in its last slot (what Hugging
 * Face's Python tokenizer and OpenAI's clip.tokenize(truncate=True) produce). `ids` is the row-major [batch, seq]
 * input_ids; returns how many rows were patched.
 */
export function ensureEos(ids: BigInt64Array | number[], batch: number, seq: number, eosId: number): number {
  let patched = 0;
  const eos = typeof ids[0] === 'bigint' ? BigInt(eosId) : eosId;
  for (let b = 0; b < batch; b++) {
    let has = false;
    for (let t = 0; t < seq; t++) {
      if (ids[b * seq + t] == eos) {
        has = true;
        break;
      }
    }
    if (!has) {
      (ids as unknown as (bigint | number)[])[b * seq + seq - 1] = eos;
      patched++;
    }
  }
  return patched;
}

/** L2-normalise one row (float64 arithmetic). */
function unitRow(data: ArrayLike<number>, offset: number, dim: number, text: string): Float32Array {
  let ss = 0;
  for (let k = 0; k < dim; k++) {
    const x = Number(data[offset + k]);
    ss += x * x;
  }
  const norm = Math.sqrt(ss);
  if (!(norm > 0) || !Number.isFinite(norm)) {
    throw new Error(`The model returned a ${norm === 0 ? 'zero' : 'non-finite'} embedding for ${JSON.stringify(text)}; it cannot be normalised.`);
  }
  const out = new Float32Array(dim);
  for (let k = 0; k < dim; k++) out[k] = Number(data[offset + k]) / norm;
  return out;
}

/**
 * The files a load of this text model would download and their sizes, asked with HEAD requests before anything is
 * downloaded (download.ts downloadSizes), as the image encoders do; every size null for a local folder in Node.
 */
export async function textEmbedderDownloadSizes(opts: EmbedderOptions): Promise<FileSize[]> {
  checkOptions(opts);
  const loc = resolveLocation(opts.modelId.trim(), opts.source);
  return modelDownloadSizes(hintsOf(opts), loc, opts, requiredFiles(opts.dtype));
}

export function createTextEmbedder(opts: EmbedderOptions): Promise<TextEmbedder> {
  return checkedLoad(opts, checkOptions, load);
}

async function load(opts: EmbedderOptions): Promise<TextEmbedder> {
  const loc = resolveLocation(opts.modelId.trim(), opts.source);
  const hints = hintsOf(opts);
  const { tf, ctx, progress_callback } = await startLoad(loc, hints, opts);
  const onProgress = opts.onProgress;

  // ── tokenizer ──
  let tokenizer: TfTokenizer;
  try {
    tokenizer = (await tf.AutoTokenizer.from_pretrained(loc.pretrainedId, { progress_callback })) as unknown as TfTokenizer;
  } catch (e) {
    throw classifyLoadError(e, 'tokenizer', ctx, onnxFileFor(opts.dtype));
  }
  const eosId = tokenizer.eos_token_id;
  if (typeof eosId !== 'number') {
    throw new ModelLoadError('bad-model', `tokenizer_config.json at ${loc.where} names no eos_token that tokenizer.json knows; CLIP pools at <|endoftext|>.`, {
      file: 'tokenizer_config.json',
      hint: hintFor('bad-model', hints),
    });
  }

  // ── model, with device fallback ──
  const file = onnxFileFor(opts.dtype);
  const loaded = await withDeviceFallback(
    opts.device,
    ctx,
    file,
    async (device) =>
      (await tf.CLIPTextModelWithProjection.from_pretrained(loc.pretrainedId, {
        dtype: opts.dtype,
        device,
        progress_callback,
      } as never)) as unknown as TfModel,
    async (m, { ins, outs }) => {
      if (!outs.includes('text_embeds') || !ins.includes('input_ids')) {
        throw new ModelLoadError(
          'bad-model',
          `The ONNX model ${loc.at(file)} is not a CLIP text model with projection: it takes [${ins.join(', ')}] and gives [${outs.join(', ')}], not input_ids → text_embeds.`,
          { file, hint: hintFor('bad-model', hints) },
        );
      }
      // the warm-up run
      const rows = await runBatch(tokenizer, m, [''], eosId);
      return { model: m, dim: rows[0].length };
    },
  );
  const { model, dim } = loaded.value;
  const ran = loaded.device;
  const notes = loaded.notes;
  onProgress?.({ file: '', loaded: 1, total: 1, status: 'ready' });

  const finalModel = model;
  let disposed = false;
  return {
    modelId: opts.modelId,
    device: ran,
    dtype: opts.dtype,
    requestedDevice: opts.device,
    dim,
    notes,
    async embed(texts: string[], batchSize = 32): Promise<Float32Array[]> {
      if (disposed) throw new Error('This text embedder has been disposed.');
      if (!Array.isArray(texts)) throw new TypeError('embed() takes an array of strings.');
      texts.forEach((t, i) => {
        if (typeof t !== 'string') throw new TypeError(`Text ${i} is not a string.`);
      });
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1; got ${batchSize}.`);
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await runBatch(tokenizer, finalModel, texts.slice(i, i + batchSize), eosId)));
      }
      return out;
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await finalModel.dispose?.();
    },
  };
}

async function runBatch(tokenizer: TfTokenizer, model: TfModel, texts: string[], eosId: number): Promise<Float32Array[]> {
  const inputs = tokenizer(texts, { padding: true, truncation: true });
  const ids = inputs.input_ids;
  const [batch, seq] = ids.dims;
  ensureEos(ids.data as BigInt64Array, batch, seq, eosId);
  let outputs: Record<string, TfTensor> | undefined;
  try {
    outputs = await model(inputs as unknown as Record<string, unknown>);
    const e = outputs.text_embeds;
    if (!e || e.dims.length !== 2 || e.dims[0] !== batch) {
      throw new Error(`text_embeds has shape [${e?.dims?.join(', ') ?? ''}], expected [${batch}, projection_dim].`);
    }
    const dim = e.dims[1];
    const data = e.data as ArrayLike<number>;
    const rows: Float32Array[] = [];
    for (let b = 0; b < batch; b++) rows.push(unitRow(data, b * dim, dim, texts[b]));
    return rows;
  } finally {
    ids.dispose?.();
    inputs.attention_mask?.dispose?.();
    if (outputs) for (const t of Object.values(outputs)) t?.dispose?.();
  }
}
