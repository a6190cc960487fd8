/**
 * The bucket samples of the Time lab (docs/science.md §7): pure helpers (tested in tests/unit/ui/time-charts.test.ts)
 * that turn one image's bytes into canvas pixels and label each row of the grid.
 */

/** RGBA pixels of one H×W×C uint8 image (grey images repeat their channel). */
export function toRgba(bytes: Uint8Array, shape: readonly [number, number, number]): Uint8ClampedArray<ArrayBuffer> {
  const [h, w, c] = shape;
  const out = new Uint8ClampedArray(h * w * 4);
  for (let p = 0; p < h * w; p++) {
    out[4 * p] = bytes[p * c];
    out[4 * p + 1] = bytes[p * c + (c > 1 ? 1 : 0)];
    out[4 * p + 2] = bytes[p * c + (c > 2 ? 2 : 0)];
    out[4 * p + 3] = 255;
  }
  return out;
}

/** "bucket 3 · look 50 % along the drift" for a row of the grid. */
export function rowLabel(b: number, level: number, stream: string): string {
  const along = `${Math.round(100 * level)} %`;
  return stream === 'mixed' ? `bucket ${b + 1} · mixed looks (mean ${along})` : `bucket ${b + 1} · look ${along} along the drift`;
}
