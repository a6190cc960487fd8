/**
 * Seeded augmentation of training images (emoji: shift, scale, rotation, colour jitter, background). It works on the
 * uint8 H×W×C bytes of a batch before they become a tensor, in plain TypeScript, so a batch is the same bytes on
 * every backend and a run's cpu/wasm reproducibility is untouched. Every example draws exactly DRAWS_PER_EXAMPLE
 * doubles in a fixed order (`sampleAugmentParams`), whatever the options, so changing one magnitude does not
 * reshuffle the others; each task has its own generator (`augmentSeed`), so the batch order and every other stream
 * are what they are without augmentation.
 */
import { AUGMENT_DEFAULTS, type AugmentOptions } from './defaults';
import { deriveSeed } from './seeds';

export type { AugmentOptions } from './defaults';

/**
 * The purpose number of the augmentation stream under a task seed (seeds.ts `deriveSeed`). Deliberately far from
 * STREAM's 1, 2, 3… so a stream added there later cannot collide with it. Part of the results: never change it.
 */
export const AUGMENT_STREAM = 101;

/** The seed of task `taskSeed`'s augmentation generator. */
export function augmentSeed(taskSeed: number): number {
  return deriveSeed(taskSeed, AUGMENT_STREAM);
}

/** Uniform doubles in [0, 1): what the augmentation needs of a generator (`createDefaultRng` has it). */
export interface UniformSource {
  random(): number;
}

/** The random choices for one example (`sampleAugmentParams`), or set by hand (tests, previews). */
export interface AugmentParams {
  /** translation in pixels (right, down) */
  dx: number;
  dy: number;
  /** zoom factor about the centre (1 = none) */
  scale: number;
  /** rotation in degrees, positive = counter-clockwise on screen */
  angle: number;
  /** the new background colour [r, g, b], or null to keep the background */
  background: [number, number, number] | null;
  /** colour jitter factors (1 = none) */
  brightness: number;
  contrast: number;
  saturation: number;
}

export const IDENTITY_PARAMS: Readonly<AugmentParams> = Object.freeze({
  dx: 0,
  dy: 0,
  scale: 1,
  angle: 0,
  background: null,
  brightness: 1,
  contrast: 1,
  saturation: 1,
});

/** Doubles drawn per example (fixed). */
export const DRAWS_PER_EXAMPLE = 11;

/** Channels of the background colour must all be at least this for background replacement ("light"). */
export const LIGHT_BACKGROUND = 192;

export class AugmentOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AugmentOptionsError';
  }
}

const LIMITS: Record<keyof AugmentOptions, { min: number; max: number; maxOpen?: boolean; integer?: boolean; what: string }> = {
  shift: { min: 0, max: 1024, integer: true, what: 'a whole number of pixels ≥ 0' },
  scale: { min: 0, max: 1, maxOpen: true, what: 'in [0, 1)' },
  rotation: { min: 0, max: 180, what: 'in [0, 180] degrees' },
  brightness: { min: 0, max: 1, what: 'in [0, 1]' },
  contrast: { min: 0, max: 1, what: 'in [0, 1]' },
  saturation: { min: 0, max: 1, what: 'in [0, 1]' },
  background: { min: 0, max: 1, what: 'a probability in [0, 1]' },
  backgroundMin: { min: 0, max: 255, what: 'in [0, 255]' },
  backgroundTolerance: { min: 0, max: 255, what: 'in [0, 255]' },
};

/**
 * The options a run trains with: `false`/`undefined` → null (no augmentation), `true` → AUGMENT_DEFAULTS, an
 * object → the defaults with its fields replaced. Unknown fields and out-of-range values throw.
 */
export function resolveAugmentOptions(a: boolean | Partial<AugmentOptions> | undefined | null): AugmentOptions | null {
  if (a === undefined || a === null || a === false) return null;
  const out: AugmentOptions = { ...AUGMENT_DEFAULTS };
  if (a === true) return out;
  if (typeof a !== 'object' || Array.isArray(a))
    throw new AugmentOptionsError(`augment must be true, false or an object of options; got ${JSON.stringify(a)}.`);
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined) continue;
    const lim = LIMITS[k as keyof AugmentOptions];
    if (!lim) throw new AugmentOptionsError(`Unknown augmentation option "${k}": use ${Object.keys(LIMITS).join(', ')}.`);
    const ok =
      typeof v === 'number' && Number.isFinite(v) && v >= lim.min && (lim.maxOpen ? v < lim.max : v <= lim.max) && (!lim.integer || Number.isInteger(v));
    if (!ok) throw new AugmentOptionsError(`augment.${k} must be ${lim.what}; got ${JSON.stringify(v)}.`);
    out[k as keyof AugmentOptions] = v;
  }
  return out;
}

/** One example's random choices: `DRAWS_PER_EXAMPLE` draws in a fixed order. */
export function sampleAugmentParams(rng: UniformSource, o: AugmentOptions): AugmentParams {
  const u = (): number => rng.random();
  const sym = (m: number): number => (2 * u() - 1) * m; // uniform in [−m, m)
  const k = o.shift;
  const dx = Math.floor(u() * (2 * k + 1)) - k;
  const dy = Math.floor(u() * (2 * k + 1)) - k;
  const scale = 1 + sym(o.scale);
  const angle = sym(o.rotation);
  const replace = u() < o.background;
  const lo = o.backgroundMin;
  const r = lo + u() * (255 - lo);
  const g = lo + u() * (255 - lo);
  const b = lo + u() * (255 - lo);
  const brightness = 1 + sym(o.brightness);
  const contrast = 1 + sym(o.contrast);
  const saturation = 1 + sym(o.saturation);
  return { dx, dy, scale, angle, background: replace ? [r, g, b] : null, brightness, contrast, saturation };
}

/** The background colour of the image at `offset`: the per-channel (lower) median of its border pixels. */
export function borderMedian(src: ArrayLike<number>, offset: number, shape: readonly [number, number, number]): number[] {
  const [H, W, C] = shape;
  const out: number[] = [];
  const hist = new Int32Array(256);
  for (let c = 0; c < C; c++) {
    hist.fill(0);
    let n = 0;
    for (let y = 0; y < H; y++) {
      const edgeRow = y === 0 || y === H - 1;
      for (let x = 0; x < W; x += edgeRow || W === 1 ? 1 : W - 1) {
        hist[src[offset + (y * W + x) * C + c]]++;
        n++;
      }
    }
    const want = Math.floor((n - 1) / 2);
    let seen = 0;
    let v = 0;
    for (; v < 255; v++) {
      seen += hist[v];
      if (seen > want) break;
    }
    out.push(v);
  }
  return out;
}

const clamp255 = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

/**
 * Augments the image at `src[srcOffset …]` with the given parameters into `out[outOffset …]` (H·W·C bytes), in this
 * order (magnitudes: AUGMENT_DEFAULTS): (1) geometry: content point p (pixel centres, relative to the image centre,
 * y down) goes to s·Rot(θ)·p + (dx, dy), θ > 0 counter-clockwise on screen; each output pixel samples the source
 * bilinearly at the inverse image of its centre, outside the image the background colour (the per-channel median of
 * the border); an integer shift alone moves the bytes exactly; (2) background replacement (RGB, light background):
 * pixels near the background colour take a random light colour, the rim blending linearly up to 2·tolerance;
 * (3) colour jitter (RGB): brightness, contrast, saturation by torchvision's ColorJitter formulas in this order,
 * clamped after each. The result is rounded to the nearest byte and clamped to 0–255.
 * `tolerance`: AugmentOptions.backgroundTolerance. `scratch` (H·W·C doubles) may be passed to avoid allocation.
 */
export function augmentImage(
  src: ArrayLike<number>,
  srcOffset: number,
  shape: readonly [number, number, number],
  p: AugmentParams,
  out: Uint8Array,
  outOffset: number,
  tolerance: number = AUGMENT_DEFAULTS.backgroundTolerance,
  scratch?: Float64Array,
): void {
  const [H, W, C] = shape;
  const size = H * W * C;
  const buf = scratch && scratch.length >= size ? scratch : new Float64Array(size);
  const bg = borderMedian(src, srcOffset, shape);

  // 1. geometry
  if (p.dx === 0 && p.dy === 0 && p.scale === 1 && p.angle === 0) {
    for (let i = 0; i < size; i++) buf[i] = src[srcOffset + i];
  } else {
    const cx = (W - 1) / 2;
    const cy = (H - 1) / 2;
    const th = (p.angle * Math.PI) / 180;
    // exact values at the quarter turns, so a 90° turn moves whole pixels
    const quarter = Number.isInteger(p.angle / 90);
    const cos = quarter ? [1, 0, -1, 0][(((p.angle / 90) % 4) + 4) % 4] : Math.cos(th);
    const sin = quarter ? [0, 1, 0, -1][(((p.angle / 90) % 4) + 4) % 4] : Math.sin(th);
    const inv = 1 / p.scale;
    const at = (xi: number, yi: number, c: number): number => (xi >= 0 && xi < W && yi >= 0 && yi < H ? src[srcOffset + (yi * W + xi) * C + c] : bg[c]);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        // inverse map: p = Rot(−θ)·(p' − t) / s
        const ox = x - cx - p.dx;
        const oy = y - cy - p.dy;
        const u = cx + (cos * ox - sin * oy) * inv;
        const v = cy + (sin * ox + cos * oy) * inv;
        const x0 = Math.floor(u);
        const y0 = Math.floor(v);
        const fx = u - x0;
        const fy = v - y0;
        const o = (y * W + x) * C;
        for (let c = 0; c < C; c++) {
          const top = (1 - fx) * at(x0, y0, c) + fx * at(x0 + 1, y0, c);
          const bottom = (1 - fx) * at(x0, y0 + 1, c) + fx * at(x0 + 1, y0 + 1, c);
          buf[o + c] = (1 - fy) * top + fy * bottom;
        }
      }
    }
  }

  if (C === 3) {
    const n = H * W;
    // 2. background replacement
    if (p.background && bg.every((v) => v >= LIGHT_BACKGROUND)) {
      const shift = [p.background[0] - bg[0], p.background[1] - bg[1], p.background[2] - bg[2]];
      for (let i = 0; i < n; i++) {
        const o = i * 3;
        const d = Math.max(Math.abs(buf[o] - bg[0]), Math.abs(buf[o + 1] - bg[1]), Math.abs(buf[o + 2] - bg[2]));
        const f = d <= tolerance ? 1 : d < 2 * tolerance ? (2 * tolerance - d) / tolerance : 0;
        if (f > 0) for (let c = 0; c < 3; c++) buf[o + c] = clamp255(buf[o + c] + f * shift[c]);
      }
    }
    // 3. colour jitter
    if (p.brightness !== 1) for (let i = 0; i < 3 * n; i++) buf[i] = clamp255(buf[i] * p.brightness);
    if (p.contrast !== 1) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += 0.299 * buf[3 * i] + 0.587 * buf[3 * i + 1] + 0.114 * buf[3 * i + 2];
      const m = sum / n;
      for (let i = 0; i < 3 * n; i++) buf[i] = clamp255(m + p.contrast * (buf[i] - m));
    }
    if (p.saturation !== 1) {
      for (let i = 0; i < n; i++) {
        const o = 3 * i;
        const g = 0.299 * buf[o] + 0.587 * buf[o + 1] + 0.114 * buf[o + 2];
        for (let c = 0; c < 3; c++) buf[o + c] = clamp255(g + p.saturation * (buf[o + c] - g));
      }
    }
  }

  for (let i = 0; i < size; i++) out[outOffset + i] = clamp255(Math.round(buf[i]));
}

/**
 * The augmented batch: image `indices[k]` of `images` (N × H × W × C bytes), augmented with the k-th draw of
 * `rng`, at position k of the result (a new Uint8Array of indices.length · H·W·C bytes).
 */
export function augmentBatch(
  images: Uint8Array,
  indices: ArrayLike<number>,
  shape: readonly [number, number, number],
  rng: UniformSource,
  options: AugmentOptions,
): Uint8Array {
  const size = shape[0] * shape[1] * shape[2];
  const out = new Uint8Array(indices.length * size);
  const scratch = new Float64Array(size);
  for (let k = 0; k < indices.length; k++) {
    const idx = indices[k];
    if (!(Number.isInteger(idx) && idx >= 0 && (idx + 1) * size <= images.length)) throw new RangeError(`augmentBatch: image ${idx} is not in the split.`);
    const params = sampleAugmentParams(rng, options);
    augmentImage(images, idx * size, shape, params, out, k * size, options.backgroundTolerance, scratch);
  }
  return out;
}
