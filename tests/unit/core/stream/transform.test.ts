import { describe, expect, it } from 'vitest';
import { applyLook, contrastBackground, IDENTITY_LOOK, morph3x3, rotateImage, strokeImage } from '../../../../src/core/stream/transform';
import { bucketLevel, jitteredLook, lookAt, DRIFT_END } from '../../../../src/core/stream/schedule';

const shape = [5, 5, 1] as const;
const dot = (): Float32Array => {
  const a = new Float32Array(25);
  a[1 * 5 + 3] = 1; // row 1, column 3: up and right of the centre (2, 2)
  return a;
};

describe('stream transforms', () => {
  it('rotation by 0 is the identity; by 90° turns counter-clockwise on screen exactly', () => {
    const src = dot();
    expect(Array.from(rotateImage(src, shape, 0))).toEqual(Array.from(src));
    const r = rotateImage(src, shape, 90);
    // (x=3, y=1) is (+1, −1) from the centre; a counter-clockwise quarter turn on screen takes it to (−1, −1): (x=1, y=1)
    expect(r[1 * 5 + 1]).toBeCloseTo(1, 6);
    expect(r.reduce((a, v) => a + v, 0)).toBeCloseTo(1, 6);
    expect(src[1 * 5 + 3]).toBe(1); // input untouched
  });
  it('stroke thickens with dilation and thins with erosion', () => {
    const src = dot();
    const d = morph3x3(src, shape, 'max');
    expect(d.reduce((a, v) => a + v, 0)).toBe(9);
    expect(strokeImage(src, shape, 1).reduce((a, v) => a + v, 0)).toBe(9);
    expect(strokeImage(src, shape, 0.5).reduce((a, v) => a + v, 0)).toBeCloseTo(5, 6);
    expect(strokeImage(src, shape, -1).reduce((a, v) => a + v, 0)).toBe(0);
  });
  it('contrast maps 0 to the background gradient and 1 to the contrast', () => {
    const src = dot();
    const out = contrastBackground(src, shape, 0.6, 0.4);
    expect(out[1 * 5 + 3]).toBeCloseTo(0.6, 6);
    expect(out[0]).toBeCloseTo(0.4 * 0.35, 6); // left edge
    expect(out[4]).toBeCloseTo(0.4, 6); // right edge
    expect(Array.from(applyLook(src, shape, IDENTITY_LOOK))).toEqual(Array.from(src));
  });
  it('the schedule moves linearly from the identity to DRIFT_END; jitter stays near', () => {
    expect(lookAt(0, 1)).toEqual({ angle: 0, stroke: 0, contrast: 1, background: 0 });
    expect(lookAt(1, 1).angle).toBe(DRIFT_END.angle);
    expect(lookAt(0.5, 1).background).toBeCloseTo(DRIFT_END.background / 2, 12);
    expect(bucketLevel(2, 5)).toBe(0.5);
    expect(bucketLevel(0, 1)).toBe(0);
    const base = lookAt(0.5, 1);
    const j = jitteredLook(base, () => 1 - 1e-12);
    expect(j.angle).toBeGreaterThan(base.angle);
    expect(Math.abs(j.angle - base.angle)).toBeLessThanOrEqual(8);
  });
});
