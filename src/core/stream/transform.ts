/**
 * The looks of the drifting stream (docs/science.md §7) as pure functions on one image: a Float32Array of
 * H×W×C values in [0, 1] (row-major, channels last; 0 = the dark background of Fashion-MNIST). Each returns a new
 * array and leaves its input alone. `applyLook` composes them in a fixed order: rotation, stroke, then contrast
 * against a background gradient.
 */

export type ImageShape = readonly [number, number, number];

/** One image's look: what the drift schedule (schedule.ts) moves smoothly from bucket to bucket. */
export interface Look {
  /** rotation in degrees, positive = counter-clockwise on screen */
  angle: number;
  /** stroke in [−1, 1]: > 0 blends towards a 3×3 dilation (thicker), < 0 towards a 3×3 erosion (thinner) */
  stroke: number;
  /** the brightest value the object reaches (1 = unchanged) */
  contrast: number;
  /** background brightness at the image's right edge; it falls to 35% of that at the left edge */
  background: number;
}

export const IDENTITY_LOOK: Readonly<Look> = Object.freeze({ angle: 0, stroke: 0, contrast: 1, background: 0 });

/**
 * Rotation about the image centre with bilinear sampling (each output pixel reads the source at the inverse image
 * of its centre); outside the source reads as 0.
 */
export function rotateImage(src: Float32Array, shape: ImageShape, degrees: number): Float32Array {
  const [h, w, c] = shape;
  if (degrees === 0) return src.slice();
  const out = new Float32Array(src.length);
  const th = (degrees * Math.PI) / 180;
  const cos = Math.cos(th);
  const sin = Math.sin(th);
  const cy = (h - 1) / 2;
  const cx = (w - 1) / 2;
  const at = (y: number, x: number, ch: number): number => (y < 0 || y >= h || x < 0 || x >= w ? 0 : src[(y * w + x) * c + ch]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // screen y points down: a counter-clockwise turn on screen by θ maps source (u, v) to (x, y) with
      // x − cx = cos·(u − cx) + sin·(v − cy), y − cy = −sin·(u − cx) + cos·(v − cy); invert it
      const dx = x - cx;
      const dy = y - cy;
      const u = cos * dx - sin * dy + cx;
      const v = sin * dx + cos * dy + cy;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      for (let ch = 0; ch < c; ch++) {
        const val = (1 - fy) * ((1 - fx) * at(y0, x0, ch) + fx * at(y0, x0 + 1, ch)) + fy * ((1 - fx) * at(y0 + 1, x0, ch) + fx * at(y0 + 1, x0 + 1, ch));
        out[(y * w + x) * c + ch] = val;
      }
    }
  }
  return out;
}

/** 3×3 max (dilate) or min (erode) filter per channel; the border is clamped. */
export function morph3x3(src: Float32Array, shape: ImageShape, op: 'max' | 'min'): Float32Array {
  const [h, w, c] = shape;
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let ch = 0; ch < c; ch++) {
        let best = op === 'max' ? -Infinity : Infinity;
        for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
          for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) {
            const v = src[(yy * w + xx) * c + ch];
            best = op === 'max' ? Math.max(best, v) : Math.min(best, v);
          }
        }
        out[(y * w + x) * c + ch] = best;
      }
    }
  }
  return out;
}

/** Stroke change: a blend of the image with its dilation (amount > 0) or erosion (amount < 0), |amount| ≤ 1. */
export function strokeImage(src: Float32Array, shape: ImageShape, amount: number): Float32Array {
  if (amount === 0) return src.slice();
  const a = Math.min(1, Math.abs(amount));
  const m = morph3x3(src, shape, amount > 0 ? 'max' : 'min');
  const out = new Float32Array(src.length);
  for (let p = 0; p < src.length; p++) out[p] = (1 - a) * src[p] + a * m[p];
  return out;
}

/**
 * Contrast against a background: value v becomes g·(1 − v) + contrast·v, where g is the background brightness of
 * the column (a left-to-right gradient from 0.35·background to background). v = 0 → the background, v = 1 → contrast.
 */
export function contrastBackground(src: Float32Array, shape: ImageShape, contrast: number, background: number): Float32Array {
  const [h, w, c] = shape;
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const g = background * (0.35 + (0.65 * x) / Math.max(1, w - 1));
      for (let ch = 0; ch < c; ch++) {
        const p = (y * w + x) * c + ch;
        out[p] = Math.min(1, Math.max(0, g * (1 - src[p]) + contrast * src[p]));
      }
    }
  }
  return out;
}

/** The whole look: rotate, change the stroke, then contrast and background. */
export function applyLook(src: Float32Array, shape: ImageShape, look: Look): Float32Array {
  const rotated = rotateImage(src, shape, look.angle);
  const stroked = strokeImage(rotated, shape, look.stroke);
  return contrastBackground(stroked, shape, look.contrast, look.background);
}
