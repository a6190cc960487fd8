/**
 * The curriculum's datasets joined into one ImageDataset of one input shape (docs/science.md §8): dataset p of the
 * curriculum holds labels 10p … 10p+9 (src/core/curriculum/labels.ts), every image is brought to CURRICULUM_SHAPE
 * (28×28 grey) by bilinear resampling (pixel centres aligned, as tf.image.resizeBilinear with halfPixelCenters) and
 * the ITU-R BT.601 luma of RGB. Plain typed arrays, no tensors: it runs in a worker or in Node before training.
 */
import { CLASSES_PER_DATASET, CURRICULUM_SHAPE, sourceClassIndices, type CurriculumDataset, type CurriculumSource } from '../../core/curriculum/catalogue';
import { labelOffset } from '../../core/curriculum/labels';
import { indicesByClass } from '../dataset';
import type { ImageDataset, ImageSplit } from '../types';

/** One image (H×W×C uint8) resampled to h×w grey. */
export function toGrey(src: Uint8Array | Uint8ClampedArray, shape: readonly [number, number, number], h: number, w: number): Uint8Array {
  const [H, W, C] = shape;
  const grey = new Float32Array(H * W);
  for (let p = 0; p < H * W; p++) {
    grey[p] = C === 1 ? src[p] : 0.299 * src[p * C] + 0.587 * src[p * C + 1] + 0.114 * src[p * C + 2];
  }
  const out = new Uint8Array(h * w);
  const sy = H / h;
  const sx = W / w;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), H - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, H - 1);
    const dy = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), W - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, W - 1);
      const dx = fx - x0;
      const v = (grey[y0 * W + x0] * (1 - dx) + grey[y0 * W + x1] * dx) * (1 - dy) + (grey[y1 * W + x0] * (1 - dx) + grey[y1 * W + x1] * dx) * dy;
      out[y * w + x] = Math.round(v);
    }
  }
  return out;
}

export interface JoinOptions {
  /** at most this many training / test images of each class (the first in file order), as subsetPerClass does */
  trainPerClass?: number;
  testPerClass?: number;
}

/** The curriculum's datasets as one ImageDataset; `sources` holds the loaded built-in datasets by id. */
export function joinCurriculum(
  datasets: readonly CurriculumDataset[],
  sources: Partial<Record<CurriculumSource, ImageDataset>>,
  opts: JoinOptions = {},
): ImageDataset {
  const [h, w] = CURRICULUM_SHAPE;
  const size = h * w;
  const classNames: string[] = [];
  const parts = { train: [] as { img: Uint8Array; label: number }[], test: [] as { img: Uint8Array; label: number }[] };
  datasets.forEach((d, p) => {
    const src = sources[d.source];
    if (!src) throw new Error(`The curriculum needs the built-in dataset "${d.source}" for ${d.name}; it is not loaded.`);
    const classes = sourceClassIndices(d, src.classNames);
    d.classes.forEach((name) => classNames.push(`${d.name}: ${name}`));
    for (const split of ['train', 'test'] as const) {
      const s = src[split];
      const byClass = indicesByClass(s.labels, src.classNames.length);
      const limit = split === 'train' ? opts.trainPerClass : opts.testPerClass;
      const srcSize = src.shape[0] * src.shape[1] * src.shape[2];
      classes.forEach((c, k) => {
        const idx = limit === undefined ? byClass[c] : byClass[c].subarray(0, limit);
        if (idx.length === 0) throw new Error(`${d.name}: class "${d.classes[k]}" has no ${split} images.`);
        for (const i of idx) parts[split].push({ img: toGrey(s.images.subarray(i * srcSize, (i + 1) * srcSize), src.shape, h, w), label: labelOffset(p) + k });
      });
    }
  });
  const pack = (list: { img: Uint8Array; label: number }[]): ImageSplit => {
    const images = new Uint8Array(list.length * size);
    const labels = new Uint8Array(list.length);
    list.forEach((e, i) => {
      images.set(e.img, i * size);
      labels[i] = e.label;
    });
    return { images, labels };
  };
  if (classNames.length !== datasets.length * CLASSES_PER_DATASET) throw new Error('Every curriculum dataset must have 10 classes.');
  return { shape: [h, w, 1], classNames, train: pack(parts.train), test: pack(parts.test) };
}
