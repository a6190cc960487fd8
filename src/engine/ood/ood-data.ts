/**
 * OOD sets for the Open-world lab (docs/science.md §5), brought to the CIL model's input shape.
 *
 * - near OOD: held-out classes of the ID dataset itself, e.g. `fashion-mnist:6-9` (must not overlap the run's
 *   classes);
 * - far OOD: another dataset, e.g. `digits` or `emoji` (optionally `emoji:0-4` for some categories).
 * The test split of the source is used. Images are resized to the model's H×W by bilinear interpolation with
 * half-pixel centres (as `tf.image.resizeBilinear(…, halfPixelCenters = true)`; no antialiasing), RGB becomes grey
 * by the luma weights 0.299, 0.587, 0.114 and grey becomes RGB by repetition; pixels stay uint8.
 */
import { parseIndexRanges } from '../../core/config/index-ranges';
import { takeSplit } from '../dataset';
import type { ImageDataset, ImageSplit } from '../types';

export interface OodSpec {
  /** as written, e.g. "fashion-mnist:6-9" */
  name: string;
  dataset: string;
  /** dataset labels to keep; undefined = every class */
  classes?: number[];
}

/** An OOD set at the model's input shape. */
export interface OodSet {
  name: string;
  kind: 'near' | 'far';
  split: ImageSplit;
}

export class OodSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OodSpecError';
  }
}

/** "digits", "fashion-mnist:6-9", "emoji:0,3,5-7" → spec. */
export function parseOodSpec(text: string): OodSpec {
  const s = text.trim();
  const m = /^([A-Za-z0-9_.\-/]+?)(?::([\d,\s-]+))?$/.exec(s);
  if (!m || !m[1]) throw new OodSpecError(`"${text}" is not an OOD set: write a dataset id, optionally with classes, e.g. digits or fashion-mnist:6-9.`);
  if (m[2] === undefined) return { name: s, dataset: m[1] };
  // bounded before it is expanded (core/config/index-ranges.ts): "digits:0-4000000000" is a message, not an abort
  const r = parseIndexRanges(m[2].replace(/\s+/g, ''));
  if (!r.ok) throw new OodSpecError(`OOD set "${text}": ${r.error}`);
  const classes = r.indices;
  if (classes.length === 0) throw new OodSpecError(`OOD set "${text}" lists no classes.`);
  return { name: s, dataset: m[1], classes };
}

/** Bilinear resize (half-pixel centres) and channel conversion of every image of `split`. */
export function toInputShape(split: ImageSplit, from: [number, number, number], to: [number, number, number]): ImageSplit {
  const [h0, w0, c0] = from;
  const [h1, w1, c1] = to;
  if (h0 === h1 && w0 === w1 && c0 === c1) return split;
  if (!((c0 === 1 || c0 === 3) && (c1 === 1 || c1 === 3))) throw new OodSpecError(`Cannot convert ${c0}-channel images to ${c1} channels.`);
  const n = split.labels.length;
  const inSize = h0 * w0 * c0;
  const outSize = h1 * w1 * c1;
  const out = new Uint8Array(n * outSize);
  // source coordinates and weights per output row / column
  const axis = (nIn: number, nOut: number) =>
    Array.from({ length: nOut }, (_, o) => {
      const src = Math.max(0, (o + 0.5) * (nIn / nOut) - 0.5);
      const lo = Math.min(Math.floor(src), nIn - 1);
      const hi = Math.min(lo + 1, nIn - 1);
      return { lo, hi, t: src - lo };
    });
  const ys = axis(h0, h1);
  const xs = axis(w0, w1);
  const grey = new Float32Array(h0 * w0 * c0);
  for (let i = 0; i < n; i++) {
    const img = split.images.subarray(i * inSize, (i + 1) * inSize);
    for (let p = 0; p < inSize; p++) grey[p] = img[p];
    for (let y = 0; y < h1; y++) {
      const { lo: y0, hi: y1, t: ty } = ys[y];
      for (let x = 0; x < w1; x++) {
        const { lo: x0, hi: x1, t: tx } = xs[x];
        const px = (yy: number, xx: number, ch: number) => grey[(yy * w0 + xx) * c0 + ch];
        const sample = (ch: number) => {
          const top = px(y0, x0, ch) * (1 - tx) + px(y0, x1, ch) * tx;
          const bottom = px(y1, x0, ch) * (1 - tx) + px(y1, x1, ch) * tx;
          return top * (1 - ty) + bottom * ty;
        };
        const o = i * outSize + (y * w1 + x) * c1;
        if (c0 === c1) for (let ch = 0; ch < c1; ch++) out[o + ch] = Math.round(sample(ch));
        else if (c0 === 3) out[o] = Math.round(0.299 * sample(0) + 0.587 * sample(1) + 0.114 * sample(2));
        else {
          const v = Math.round(sample(0));
          for (let ch = 0; ch < 3; ch++) out[o + ch] = v;
        }
      }
    }
  }
  return { images: out, labels: split.labels.slice() };
}

/**
 * The OOD set `spec` from its source dataset's test split, at the ID dataset's input shape. `sameDataset` marks a
 * near set, whose classes must not be among `idClasses` (the run's dataset labels).
 */
export function buildOodSet(spec: OodSpec, source: ImageDataset, target: ImageDataset, sameDataset: boolean, idClasses: readonly number[]): OodSet {
  const nClasses = source.classNames.length;
  const classes = spec.classes ?? Array.from({ length: nClasses }, (_, c) => c);
  const bad = classes.find((c) => c >= nClasses);
  if (bad !== undefined) throw new OodSpecError(`OOD set "${spec.name}": class ${bad} does not exist; ${spec.dataset} has classes 0..${nClasses - 1}.`);
  if (sameDataset) {
    const overlap = classes.filter((c) => idClasses.includes(c));
    if (overlap.length > 0)
      throw new OodSpecError(
        `OOD set "${spec.name}" shares class${overlap.length > 1 ? 'es' : ''} ${overlap.join(', ')} with the in-distribution classes; a near-OOD set must be held-out classes.`,
      );
  }
  const keep: number[] = [];
  const want = new Set(classes);
  for (let i = 0; i < source.test.labels.length; i++) if (want.has(source.test.labels[i])) keep.push(i);
  if (keep.length === 0) throw new OodSpecError(`OOD set "${spec.name}" has no test images.`);
  const size = source.shape[0] * source.shape[1] * source.shape[2];
  const split = toInputShape(takeSplit(source.test, Int32Array.from(keep), size), source.shape, target.shape);
  return { name: spec.name, kind: sameDataset ? 'near' : 'far', split };
}
