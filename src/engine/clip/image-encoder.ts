/**
 * Image encoders through transformers.js (docs/science.md "Image encoders"): CLIP's vision tower
 * (`CLIPVisionModelWithProjection`, `image_embeds`), DINOv2 and any other model transformers.js loads with `AutoModel`
 * for image feature extraction (`pooler_output`, else the first token of `last_hidden_state`). Frozen: it gives each
 * image one feature vector, as the model gives it (not normalised). Runs in Node (onnxruntime-node, device 'cpu') and
 * in a browser worker (onnxruntime-web, 'webgpu' or 'wasm'); no DOM; transformers.js is imported lazily.
 *
 * What transformers.js 4.3.1 fetches for a model id: `preprocessor_config.json` (AutoImageProcessor; we read its
 * fields only), `config.json` (AutoConfig: model_type decides the class), then `onnx/vision_model{suffix}.onnx`
 * (CLIP) or `onnx/model{suffix}.onnx` (AutoModel), suffix '' for fp32, '_fp16', '_quantized' for q8.
 *
 * The preprocessing is ours (image-preprocess.ts), the same in Node and every browser, from the processor's fields;
 * transformers.js's own resizes with sharp in Node and a canvas in a browser, which disagree. Weight sources (hub,
 * mirror, self-hosted, at a revision), guarded downloads with their sizes asked first, the device plan and the
 * errors are the text side's (weights.ts, download.ts).
 *
 * Batching: fp32 and fp16 give an image the same vector whatever its batch; q8 exports quantize activations with one
 * scale per batch tensor, so a q8 vector moves slightly with its batch mates (as on the text side).
 */
import {
  ModelLoadError,
  checkDeviceAndSource,
  checkedLoad,
  classifyLoadError,
  hintFor,
  importTransformers,
  modelDownloadSizes,
  startLoad,
  withDeviceFallback,
  type FileSize,
  type HintContext,
  type ModelDevice,
  type ModelLoadOptions,
  type OpenedModel,
} from './download';
import { outputSize, preprocessImages, preprocessingFromConfig, PreprocessingError, type ImagePreprocessing } from './image-preprocess';
import { resolveLocation } from './weights';

export type EncoderPrecision = 'q8' | 'fp16' | 'fp32';
export const ENCODER_PRECISIONS: readonly EncoderPrecision[] = ['q8', 'fp16', 'fp32'];

/** One encoder offered by name, with what a visitor should know before anything downloads. */
export interface KnownImageEncoder {
  id: string;
  label: string;
  note: string;
  /** feature length and the output it is read from */
  dim: number;
  /**
   * The ONNX file's size in bytes per precision, as the hub lists it (decimal MB, rounded as the hub shows it: about,
   * not exact) at the revision in `listedAt`; the config files add about 1 kB. Shown before a download where the hub
   * cannot be asked (offline, a mirror that does not answer HEAD); the button asks the real size first.
   */
  sizes: Record<EncoderPrecision, number>;
  listedAt: string;
  /** the licence of the weights, in a few words */
  licence: string;
}

/** Encoders offered by name (each exists on the Hugging Face hub with ONNX weights for transformers.js); any other id works too. */
export const IMAGE_ENCODERS: KnownImageEncoder[] = [
  {
    id: 'Xenova/clip-vit-base-patch32',
    label: 'CLIP ViT-B/32',
    note: 'Default. OpenAI CLIP ViT-B/32 vision tower, 512-dimensional image_embeds.',
    dim: 512,
    sizes: { q8: 89.1e6, fp16: 176e6, fp32: 352e6 },
    listedAt: 'revision 4c1807b',
    licence: 'MIT (OpenAI CLIP)',
  },
  {
    id: 'Xenova/clip-vit-base-patch16',
    label: 'CLIP ViT-B/16',
    note: "The EDGE authors' similarity model (clip.load('ViT-B/16')); 512-dimensional image_embeds, about 4× the compute of B/32 per image.",
    dim: 512,
    sizes: { q8: 87.5e6, fp16: 173e6, fp32: 345e6 },
    listedAt: 'main, revision 9a1940e',
    licence: 'MIT (OpenAI CLIP)',
  },
  {
    id: 'Xenova/vit-base-patch16-224-in21k',
    label: 'ViT-B/16 ImageNet-21k',
    note:
      "The papers' backbone (EDGE Table 1, PILOT, RanPAC): ViT-B/16 pre-trained on ImageNet-21k (google/vit-base-patch16-224-in21k), " +
      '768-dimensional [CLS] token after the final LayerNorm. The papers load timm’s weights of the same name, which may be a later training run.',
    dim: 768,
    sizes: { q8: 87.5e6, fp16: 172e6, fp32: 343e6 },
    listedAt: 'revision 096edaa',
    licence: 'Apache-2.0',
  },
  {
    id: 'Xenova/dinov2-small',
    label: 'DINOv2 small',
    note: 'Self-supervised ViT-S/14 (22 M parameters), 384-dimensional pooler_output (its normalised [CLS] token).',
    dim: 384,
    sizes: { q8: 24.5e6, fp16: 44.4e6, fp32: 88.5e6 },
    listedAt: 'revision bd222e8',
    licence: 'Apache-2.0',
  },
  {
    id: 'Xenova/mobileclip_s1',
    label: 'MobileCLIP-S1',
    note: "Apple's MobileCLIP-S1 image tower (FastViT-MCI1, 21.5 M parameters), 512-dimensional image_embeds; small and fast.",
    dim: 512,
    sizes: { q8: 22.4e6, fp16: 43.2e6, fp32: 86e6 },
    listedAt: 'revision 7b30c95',
    licence: 'Apple AMLR (research use)',
  },
];

/** The listed download of a known encoder at a precision (the ONNX file; the configs add about 1 kB), or null. */
export function knownEncoderBytes(modelId: string, precision: EncoderPrecision): number | null {
  return IMAGE_ENCODERS.find((e) => e.id === modelId.trim())?.sizes[precision] ?? null;
}

/** Which model class transformers.js loads: CLIP's vision tower for model_type "clip", AutoModel for the rest. */
export type EncoderKind = 'clip-vision' | 'auto';

const SUFFIX: Record<EncoderPrecision, string> = { fp32: '', fp16: '_fp16', q8: '_quantized' };

/** The ONNX file transformers.js loads for an encoder kind and precision. */
export function encoderOnnxFile(kind: EncoderKind, precision: EncoderPrecision): string {
  return `onnx/${kind === 'clip-vision' ? 'vision_model' : 'model'}${SUFFIX[precision]}.onnx`;
}

/** Every file a complete model folder needs (what to copy when self-hosting, and what a download fetches). */
export function encoderRequiredFiles(kind: EncoderKind, precision: EncoderPrecision): string[] {
  return ['config.json', 'preprocessor_config.json', encoderOnnxFile(kind, precision)];
}

/** The kind a model id most likely is, before its config.json is read (for the sizes shown before a download). */
export function likelyEncoderKind(modelId: string): EncoderKind {
  return /clip/i.test(modelId) ? 'clip-vision' : 'auto';
}

export interface ImageEncoderOptions extends ModelLoadOptions {
  /** Hub branch, tag or commit (default 'main'). */
  revision?: string;
  precision: EncoderPrecision;
}

export interface ImageEncoder {
  modelId: string;
  revision: string;
  precision: EncoderPrecision;
  /** The config's model_type, and the class that loaded it. */
  modelType: string;
  kind: EncoderKind;
  /** The output the features are read from. */
  output: 'image_embeds' | 'pooler_output' | 'last_hidden_state[:, 0]';
  /** The device that actually ran (after any fallback), and the one asked for. */
  device: ModelDevice;
  requestedDevice: ModelDevice;
  /** Feature length. */
  dim: number;
  /** The preprocessing read from preprocessor_config.json (image-preprocess.ts). */
  preprocessing: ImagePreprocessing;
  /** Why the device differs from the request, and similar remarks. */
  notes: string[];
  /**
   * Features of images `rows` of `images` (uint8, `shape` [height, width, channels], 1 or 3 channels): rows.length ×
   * dim float32, row-major, in `rows` order. `onBatch` is told the images done after every batch.
   */
  encode(
    images: Uint8Array,
    shape: readonly [number, number, number],
    rows: ArrayLike<number>,
    opts?: { batchSize?: number; onBatch?: (done: number) => void },
  ): Promise<Float32Array>;
  dispose(): Promise<void>;
}

function hintsOf(modelId: string, kind: EncoderKind, precision: EncoderPrecision): HintContext {
  return {
    modelId,
    files: encoderRequiredFiles(kind, precision),
    alternative: {
      node: 'or use the embedded backbone (--source backbone) or features exported in Python (--source file:F.npz)',
      browser: 'or use the embedded backbone, or upload features exported in Python (.npz)',
    },
  };
}

function checkOptions(opts: ImageEncoderOptions): void {
  if (!ENCODER_PRECISIONS.includes(opts.precision)) throw new TypeError(`Unknown precision "${String(opts.precision)}": use q8, fp16 or fp32.`);
  checkDeviceAndSource(opts);
}

/**
 * The files a load of this encoder would download and their sizes, asked with HEAD requests before anything is
 * downloaded (download.ts downloadSizes): what a button says ("Download 88 MB") before the user presses it. `kind`
 * defaults to the likely one for the id. For a local folder in Node every size is null (nothing is downloaded).
 */
export async function encoderDownloadSizes(opts: ImageEncoderOptions, kind = likelyEncoderKind(opts.modelId)): Promise<FileSize[]> {
  checkOptions(opts);
  const revision = opts.revision ?? 'main';
  const loc = resolveLocation(opts.modelId.trim(), opts.source, revision);
  return modelDownloadSizes(hintsOf(opts.modelId, kind, opts.precision), loc, opts, encoderRequiredFiles(kind, opts.precision));
}

export function createImageEncoder(opts: ImageEncoderOptions): Promise<ImageEncoder> {
  return checkedLoad(opts, checkOptions, load);
}

/** Minimal shapes of the transformers.js objects used here. */
interface TfTensor {
  dims: number[];
  data: ArrayLike<number>;
  dispose?: () => void;
}
type TfModel = ((inputs: Record<string, unknown>) => Promise<Record<string, TfTensor>>) & OpenedModel;

const OUTPUTS = ['image_embeds', 'pooler_output', 'last_hidden_state'] as const;

/**
 * The output a model's features are read from, first found in this order. A ViT's ([EDGE]'s, PILOT's and RanPAC's
 * backbone) is its [CLS] token after the final LayerNorm, `last_hidden_state[:, 0]`, what timm's ViT hands its head:
 * Hugging Face's `pooler_output` puts a dense + tanh layer on it (the in21k checkpoint's pre-logits), which the papers'
 * timm backbones do not have. DINOv2's pooler_output is that same normalised [CLS] token; CLIP's is its projection.
 */
export function featureOutputOrder(modelType: string): readonly (typeof OUTPUTS)[number][] {
  return modelType === 'vit' ? ['last_hidden_state'] : OUTPUTS;
}

async function load(opts: ImageEncoderOptions): Promise<ImageEncoder> {
  const revision = opts.revision ?? 'main';
  const loc = resolveLocation(opts.modelId.trim(), opts.source, revision);
  let kind = likelyEncoderKind(opts.modelId);
  const { tf, ctx, progress_callback } = await startLoad(loc, hintsOf(opts.modelId, kind, opts.precision), opts);
  const common = { revision, progress_callback };

  // ── preprocessing: the processor's fields, applied by image-preprocess.ts ──
  let preprocessing: ImagePreprocessing;
  try {
    const processor = (await tf.AutoImageProcessor.from_pretrained(loc.pretrainedId, common as never)) as unknown as { config: Record<string, unknown> };
    preprocessing = preprocessingFromConfig(processor.config);
  } catch (e) {
    if (e instanceof PreprocessingError)
      throw new ModelLoadError('bad-model', `${e.message.replace(/^preprocessor_config.json/, `preprocessor_config.json at ${loc.where}`)}`, {
        file: 'preprocessor_config.json',
        hint: hintFor('bad-model', ctx.hints),
      });
    throw classifyLoadError(e, 'preprocessor', ctx, encoderOnnxFile(kind, opts.precision));
  }

  // ── config: which model class ──
  let modelType: string;
  try {
    const config = (await tf.AutoConfig.from_pretrained(loc.pretrainedId, common as never)) as unknown as { model_type?: string };
    modelType = String(config.model_type ?? '');
  } catch (e) {
    throw classifyLoadError(e, 'model', ctx, 'config.json');
  }
  kind = modelType === 'clip' ? 'clip-vision' : 'auto';
  ctx.hints = hintsOf(opts.modelId, kind, opts.precision);
  const file = encoderOnnxFile(kind, opts.precision);
  const [h, w] = outputSize(preprocessing, 224, 224);

  // ── model, with device fallback ──
  const cls = kind === 'clip-vision' ? tf.CLIPVisionModelWithProjection : tf.AutoModel;
  const loaded = await withDeviceFallback(
    opts.device,
    ctx,
    file,
    async (device) => (await cls.from_pretrained(loc.pretrainedId, { ...common, dtype: opts.precision, device } as never)) as unknown as TfModel,
    async (m, { ins, outs }) => {
      const output = featureOutputOrder(modelType).find((o) => outs.includes(o));
      if (!ins.includes('pixel_values') || !output) {
        const expected = featureOutputOrder(modelType)
          .join(', ')
          .replace(/, ([^,]+)$/, ' or $1');
        throw new ModelLoadError(
          'bad-model',
          `The ONNX model ${loc.at(file)} is not an image encoder: it takes [${ins.join(', ')}] and gives [${outs.join(', ')}], not pixel_values → ${expected}.`,
          { file, hint: hintFor('bad-model', ctx.hints) },
        );
      }
      // the warm-up run, on a blank image of the model's input size
      const rows = await run(tf, m, new Float32Array(3 * h * w), [1, 3, h, w], output);
      return { model: m, output, dim: rows.length };
    },
  );
  const { model, output, dim } = loaded.value;
  opts.onProgress?.({ file: '', loaded: 1, total: 1, status: 'ready' });
  let disposed = false;
  return {
    modelId: opts.modelId,
    revision,
    precision: opts.precision,
    modelType,
    kind,
    output: output === 'last_hidden_state' ? 'last_hidden_state[:, 0]' : output,
    device: loaded.device,
    requestedDevice: opts.device,
    dim,
    preprocessing,
    notes: loaded.notes,
    async encode(images, shape, rows, o = {}) {
      if (disposed) throw new Error('This image encoder has been disposed.');
      const batchSize = o.batchSize ?? 16;
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1; got ${batchSize}.`);
      const out = new Float32Array(rows.length * dim);
      const idx = Array.from(rows);
      for (let at = 0; at < idx.length; at += batchSize) {
        const part = idx.slice(at, at + batchSize);
        const { data, dims } = preprocessImages(images, shape, part, preprocessing);
        out.set(await run(tf, model, data, dims, output), at * dim);
        o.onBatch?.(at + part.length);
      }
      return out;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await model.dispose?.();
    },
  };
}

/** The features of one batch of pixel_values: `output` (its first token for last_hidden_state), row-major. */
async function run(
  tf: Awaited<ReturnType<typeof importTransformers>>,
  model: TfModel,
  data: Float32Array,
  dims: number[],
  output: (typeof OUTPUTS)[number],
): Promise<Float32Array> {
  const pixel_values = new tf.Tensor('float32', data, dims);
  let outputs: Record<string, TfTensor> | undefined;
  try {
    outputs = await model({ pixel_values });
    const t = outputs[output];
    const n = dims[0];
    if (!t || t.dims[0] !== n || (output === 'last_hidden_state' ? t.dims.length !== 3 : t.dims.length !== 2))
      throw new Error(`${output} has shape [${t?.dims?.join(', ') ?? ''}], expected [${n}, …].`);
    const d = t.dims[t.dims.length - 1];
    const stride = output === 'last_hidden_state' ? t.dims[1] * d : d;
    const src = t.data;
    const rows = new Float32Array(n * d);
    for (let b = 0; b < n; b++) for (let k = 0; k < d; k++) rows[b * d + k] = Number(src[b * stride + k]);
    for (let i = 0; i < rows.length; i++)
      if (!Number.isFinite(rows[i])) throw new Error(`The model gave a non-finite feature (${rows[i]}) for image ${Math.floor(i / d)} of the batch.`);
    return rows;
  } finally {
    pixel_values.dispose?.();
    if (outputs) for (const t of Object.values(outputs)) t?.dispose?.();
  }
}
