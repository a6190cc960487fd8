/**
 * A small synthetic image dataset for engine tests: each class is a fixed random 6×6 grey prototype; an image is
 * its class prototype plus seeded noise, so classes are learnable in a few steps and every number is reproducible.
 */
import { createDefaultRng } from '../../../src/core/random/default-rng';
import type { ImageDataset, ImageSplit } from '../../../src/engine/types';

export function syntheticDataset(
  opts: { classes?: number; trainPerClass?: number; testPerClass?: number; side?: number; noise?: number; seed?: number } = {},
): ImageDataset {
  const classes = opts.classes ?? 6;
  const side = opts.side ?? 6;
  const size = side * side;
  const noise = opts.noise ?? 60;
  const rng = createDefaultRng(opts.seed ?? 7);
  const protos = Array.from({ length: classes }, () => Float64Array.from({ length: size }, () => rng.random() * 255));
  const split = (perClass: number): ImageSplit => {
    const n = classes * perClass;
    const images = new Uint8Array(n * size);
    const labels = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const c = i % classes; // classes interleaved, like a shuffled file
      labels[i] = c;
      for (let p = 0; p < size; p++) {
        const v = protos[c][p] + (rng.random() * 2 - 1) * noise;
        images[i * size + p] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
    return { images, labels };
  };
  return {
    shape: [side, side, 1],
    classNames: Array.from({ length: classes }, (_, c) => `class ${c}`),
    train: split(opts.trainPerClass ?? 40),
    test: split(opts.testPerClass ?? 12),
  };
}
