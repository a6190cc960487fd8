/**
 * An image encoder's preprocessing, done by us from the model's `preprocessor_config.json` (the Hugging Face image
 * processor's fields), so Node and every browser give the same `pixel_values` for the same image: transformers.js's
 * own processor resizes with sharp in Node and with a canvas in a browser, which disagree. One algorithm runs
 * everywhere (`preprocessImages`), and scripts/make-clip-vision-fixture.py implements it again in numpy for the
 * reference outputs. Pure: typed arrays in, typed arrays out.
 */

export type ResampleFilter = 'nearest' | 'lanczos' | 'bilinear' | 'bicubic' | 'box' | 'hamming';
/** PIL's resample codes as image processors store them. */
const PIL_CODES: readonly ResampleFilter[] = ['nearest', 'lanczos', 'bilinear', 'bicubic', 'box', 'hamming'];

export interface ImagePreprocessing {
  convertRgb: boolean;
  resize: null | { shortestEdge: number } | { height: number; width: number };
  resample: ResampleFilter;
  crop: null | { height: number; width: number };
  /** multiplies the 0–255 pixel values; null = none */
  rescale: number | null;
  /** per channel (R, G, B); null = no normalisation */
  mean: [number, number, number] | null;
  std: [number, number, number] | null;
}

export class PreprocessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreprocessingError';
  }
}

const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 4096;

function sizeOf(v: unknown, field: string): { height: number; width: number } | { shortestEdge: number } {
  if (positiveInt(v)) return { height: v, width: v };
  const o = v as Record<string, unknown> | undefined;
  if (o && positiveInt(o.shortest_edge) && o.longest_edge === undefined) return { shortestEdge: o.shortest_edge };
  if (o && positiveInt(o.height) && positiveInt(o.width)) return { height: o.height, width: o.width };
  throw new PreprocessingError(
    `preprocessor_config.json: "${field}" must be a size ({"shortest_edge": S}, {"height": H, "width": W} or a number); got ${JSON.stringify(v)}.`,
  );
}

function triple(v: unknown, field: string, fill: number): [number, number, number] {
  if (v === undefined) return [fill, fill, fill];
  if (typeof v === 'number' && Number.isFinite(v)) return [v, v, v];
  if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) return [v[0], v[1], v[2]];
  throw new PreprocessingError(`preprocessor_config.json: "${field}" must be a number or three numbers (R, G, B); got ${JSON.stringify(v)}.`);
}

/** The preprocessing a `preprocessor_config.json` describes (the defaults are the Hugging Face processors'). */
export function preprocessingFromConfig(config: Record<string, unknown>): ImagePreprocessing {
  const on = (k: string, fill: boolean): boolean => (config[k] === undefined ? fill : config[k] === true);
  const resampleCode = config.resample ?? 3;
  if (typeof resampleCode !== 'number' || !Number.isInteger(resampleCode) || resampleCode < 0 || resampleCode >= PIL_CODES.length)
    throw new PreprocessingError(`preprocessor_config.json: "resample" must be a PIL filter code 0–5; got ${JSON.stringify(resampleCode)}.`);
  const resize = on('do_resize', true) ? sizeOf(config.size ?? { shortest_edge: 224 }, 'size') : null;
  let crop: ImagePreprocessing['crop'] = null;
  if (on('do_center_crop', false)) {
    const c = sizeOf(config.crop_size ?? 224, 'crop_size');
    if ('shortestEdge' in c) throw new PreprocessingError('preprocessor_config.json: "crop_size" must be {"height", "width"} or a number.');
    crop = c;
  }
  const std = on('do_normalize', true) ? triple(config.image_std, 'image_std', 0.5) : null;
  if (std && std.some((s) => s === 0)) throw new PreprocessingError('preprocessor_config.json: "image_std" has a 0; normalising would divide by zero.');
  return {
    convertRgb: on('do_convert_rgb', true),
    resize,
    resample: PIL_CODES[resampleCode],
    crop,
    rescale: on('do_rescale', true) ? (typeof config.rescale_factor === 'number' ? config.rescale_factor : 1 / 255) : null,
    mean: on('do_normalize', true) ? triple(config.image_mean, 'image_mean', 0.5) : null,
    std,
  };
}

/** The output height and width of `p` for an input of `h` × `w`. */
export function outputSize(p: ImagePreprocessing, h: number, w: number): [number, number] {
  let [rh, rw] = resizedSize(p, h, w);
  if (p.crop) [rh, rw] = [p.crop.height, p.crop.width];
  return [rh, rw];
}

function resizedSize(p: ImagePreprocessing, h: number, w: number): [number, number] {
  if (!p.resize) return [h, w];
  if ('shortestEdge' in p.resize) {
    const s = p.resize.shortestEdge;
    return h <= w ? [s, Math.floor((s * w) / h)] : [Math.floor((s * h) / w), s];
  }
  return [p.resize.height, p.resize.width];
}

// ───────────────────────────── PIL's filters ─────────────────────────────

const sinc = (x: number): number => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
const FILTERS: Record<Exclude<ResampleFilter, 'nearest'>, { support: number; f: (x: number) => number }> = {
  box: { support: 0.5, f: (x) => (x > -0.5 && x <= 0.5 ? 1 : 0) },
  bilinear: { support: 1, f: (x) => (x < 0 ? (x > -1 ? 1 + x : 0) : x < 1 ? 1 - x : 0) },
  hamming: { support: 1, f: (x) => (x <= -1 || x >= 1 ? 0 : x === 0 ? 1 : sinc(x) * (0.54 + 0.46 * Math.cos(Math.PI * x))) },
  bicubic: {
    support: 2,
    f: (x) => {
      const a = -0.5;
      const t = Math.abs(x);
      if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
      if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
      return 0;
    },
  },
  lanczos: { support: 3, f: (x) => (x > -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0) },
};

/** For each output index: the first input index and the normalised weights (PIL's precompute_coeffs). */
export function resampleCoefficients(inSize: number, outSize: number, filter: ResampleFilter): { start: number; weights: Float64Array }[] {
  const scale = inSize / outSize;
  if (filter === 'nearest') {
    // PIL's nearest: the input pixel under the output pixel's centre
    return Array.from({ length: outSize }, (_, x) => ({ start: Math.min(inSize - 1, Math.floor((x + 0.5) * scale)), weights: Float64Array.of(1) }));
  }
  const { support: base, f } = FILTERS[filter];
  const filterscale = Math.max(scale, 1);
  const support = base * filterscale;
  const ss = 1 / filterscale;
  const out: { start: number; weights: Float64Array }[] = [];
  for (let x = 0; x < outSize; x++) {
    const center = (x + 0.5) * scale;
    const xmin = Math.max(Math.trunc(center - support + 0.5), 0);
    const xmax = Math.min(Math.trunc(center + support + 0.5), inSize) - xmin;
    const w = new Float64Array(xmax);
    let total = 0;
    for (let k = 0; k < xmax; k++) {
      w[k] = f((k + xmin - center + 0.5) * ss);
      total += w[k];
    }
    if (total !== 0) for (let k = 0; k < xmax; k++) w[k] /= total;
    out.push({ start: xmin, weights: w });
  }
  return out;
}

type Coefficients = ReturnType<typeof resampleCoefficients>;

/**
 * Resize one image of `h` × `w` × `c` float64 values (row-major) to `oh` × `ow` × `c` (coefficients `cx`, `cy`):
 * rows first, then columns. A grey image is resized as one channel and made RGB afterwards (the same numbers: the
 * filter acts on each channel alone).
 */
function resize(src: Float64Array, h: number, w: number, c: number, oh: number, ow: number, cx: Coefficients, cy: Coefficients): Float64Array {
  const tmp = new Float64Array(h * ow * c);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < ow; x++) {
      const { start, weights } = cx[x];
      for (let k0 = 0; k0 < c; k0++) {
        let s = 0;
        for (let k = 0; k < weights.length; k++) s += weights[k] * src[(y * w + start + k) * c + k0];
        tmp[(y * ow + x) * c + k0] = s;
      }
    }
  }
  const out = new Float64Array(oh * ow * c);
  for (let y = 0; y < oh; y++) {
    const { start, weights } = cy[y];
    for (let x = 0; x < ow; x++) {
      for (let k0 = 0; k0 < c; k0++) {
        let s = 0;
        for (let k = 0; k < weights.length; k++) s += weights[k] * tmp[((start + k) * ow + x) * c + k0];
        out[(y * ow + x) * c + k0] = s;
      }
    }
  }
  return out;
}

/**
 * pixel_values [rows.length, 3, H, W] of images `rows` of `images` (uint8, `shape` = [height, width, channels], 1 or
 * 3 channels, row-major channels last), as the model's processor describes, in the processor's order
 * (CLIPImageProcessor; BitImageProcessor for DINOv2; ViTImageProcessor):
 * 1. RGB (`do_convert_rgb`, default true): a grey channel repeated three times;
 * 2. resize (`do_resize`, `size`, `resample`): `{shortest_edge: S}` scales the shorter side to S keeping the aspect
 *    (the longer floor(S · long / short)), `{height, width}` or a number to that size. PIL's filters (`resample`
 *    0 nearest, 1 Lanczos-3, 2 bilinear, 3 bicubic a = −0.5, 4 box, 5 Hamming) with PIL's support scaling when
 *    shrinking, separably in float64 (PIL rounds to 8 bits between and after the passes, so its pixels differ from
 *    these by at most about one level in 255);
 * 3. centre crop (`do_center_crop`, `crop_size`): top = floor((H − h) / 2), left = floor((W − w) / 2);
 * 4. rescale (`rescale_factor`, default 1/255) and normalise (`image_mean`, `image_std`): (v · factor − mean) / std;
 * 5. channels first: pixel_values [n, 3, H, W] float32.
 */
export function preprocessImages(
  images: Uint8Array,
  shape: readonly [number, number, number],
  rows: ArrayLike<number>,
  p: ImagePreprocessing,
): { data: Float32Array; dims: [number, number, number, number] } {
  const [h, w, ch] = shape;
  if (ch !== 1 && ch !== 3) throw new PreprocessingError(`An image encoder takes grey or RGB images; these have ${ch} channels.`);
  if (ch === 1 && !p.convertRgb) throw new PreprocessingError('The model wants RGB images (do_convert_rgb is false) and these are grey.');
  const [rh, rw] = resizedSize(p, h, w);
  const [oh, ow] = outputSize(p, h, w);
  if (p.crop && (p.crop.height > rh || p.crop.width > rw))
    throw new PreprocessingError(`The centre crop ${p.crop.height}×${p.crop.width} is larger than the resized image ${rh}×${rw}.`);
  const top = p.crop ? Math.floor((rh - oh) / 2) : 0;
  const left = p.crop ? Math.floor((rw - ow) / 2) : 0;
  const n = rows.length;
  const size = h * w * ch;
  const data = new Float32Array(n * 3 * oh * ow);
  const pixels = new Float64Array(size);
  const factor = p.rescale ?? 1;
  const mean = p.mean ?? [0, 0, 0];
  const std = p.std ?? [1, 1, 1];
  const resizes = p.resize !== null && (rh !== h || rw !== w);
  // the filter's taps depend on the sizes only: computed once for every image of the call
  const cx = resizes ? resampleCoefficients(w, rw, p.resample) : [];
  const cy = resizes ? resampleCoefficients(h, rh, p.resample) : [];
  for (let r = 0; r < n; r++) {
    const base = rows[r] * size;
    for (let i = 0; i < size; i++) pixels[i] = images[base + i];
    const resized = resizes ? resize(pixels, h, w, ch, rh, rw, cx, cy) : pixels;
    const o = r * 3 * oh * ow;
    for (let c = 0; c < 3; c++) {
      const from = ch === 1 ? 0 : c; // grey to RGB: the channel three times
      for (let y = 0; y < oh; y++) {
        for (let x = 0; x < ow; x++) {
          const v = resized[((y + top) * rw + x + left) * ch + from];
          data[o + (c * oh + y) * ow + x] = (v * factor - mean[c]) / std[c];
        }
      }
    }
  }
  return { data, dims: [n, 3, oh, ow] };
}
