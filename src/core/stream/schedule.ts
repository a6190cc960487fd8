/**
 * The drift schedule (docs/science.md §7): where each bucket's look sits on a smooth path from the first look
 * (Fashion-MNIST as it is) to the last (rotated, thicker strokes, lower contrast, a bright background gradient), and
 * each image's seeded jitter around its bucket's look, so neighbouring buckets overlap and the drift is gradual.
 *
 * Level of bucket b of K: ℓ_b = b/(K − 1) (0 when K = 1). Look at level ℓ with strength s (1 = the default):
 * angle = s·ℓ·ANGLE, stroke = s·ℓ·STROKE, contrast = 1 − s·ℓ·(1 − CONTRAST), background = s·ℓ·BACKGROUND, each then
 * clamped to its range. Jitter: four doubles per image, in the order angle, stroke, contrast, background, each
 * uniform in ±JITTER of that parameter.
 */
import type { Look } from './transform';

/** The end of the path (strength 1, level 1). */
export const DRIFT_END = Object.freeze({ angle: 60, stroke: 1, contrast: 0.55, background: 0.45 });
/** Per-image jitter half-widths. */
export const DRIFT_JITTER = Object.freeze({ angle: 8, stroke: 0.15, contrast: 0.05, background: 0.05 });

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** ℓ_b = b/(K − 1). */
export function bucketLevel(b: number, K: number): number {
  return K <= 1 ? 0 : b / (K - 1);
}

/** The look at level ℓ ∈ [0, 1] with drift strength s ≥ 0. */
export function lookAt(level: number, strength: number): Look {
  const t = level * strength;
  return {
    angle: t * DRIFT_END.angle,
    stroke: clamp(t * DRIFT_END.stroke, -1, 1),
    contrast: clamp(1 - t * (1 - DRIFT_END.contrast), 0.05, 1),
    background: clamp(t * DRIFT_END.background, 0, 0.95),
  };
}

/** The look of one image: its bucket's look plus jitter from four draws of `random` (see the header). */
export function jitteredLook(base: Look, random: () => number): Look {
  const u = (): number => 2 * random() - 1;
  return {
    angle: base.angle + u() * DRIFT_JITTER.angle,
    stroke: clamp(base.stroke + u() * DRIFT_JITTER.stroke, -1, 1),
    contrast: clamp(base.contrast + u() * DRIFT_JITTER.contrast, 0.05, 1),
    background: clamp(base.background + u() * DRIFT_JITTER.background, 0, 0.95),
  };
}
