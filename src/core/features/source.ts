/**
 * What a feature source is, in words and in classes: which classes the embedded backbone is pre-trained on (the
 * dataset's classes the experiment does not use), and the label every surface shows for a source ("backbone
 * pre-trained on Shirt, Sneaker, Bag, Ankle boot"), so a reader always knows what the features saw.
 *
 * Pure: plain data in, plain data out.
 */
import type { FeaturesConfig } from '../config/types';

/** The classes (indices, ascending) of a dataset of `total` classes that the experiment's `classes` leave out. */
export function backboneClasses(total: number, classes: readonly number[]): number[] {
  const used = new Set(classes);
  const out: number[] = [];
  for (let k = 0; k < total; k++) if (!used.has(k)) out.push(k);
  return out;
}

/** "a, b and c" (names as given). */
function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The label of a feature source: "pixels", "stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)",
 * "image encoder Xenova/clip-vit-base-patch32 (q8)", "uploaded features F.npz". `datasetClassNames` are every class
 * name of the dataset (index = class), `classes` the experiment's.
 */
export function featureSourceLabel(f: FeaturesConfig, datasetClassNames: readonly string[], classes: readonly number[]): string {
  switch (f.source) {
    case 'pixels':
      return 'pixels';
    case 'backbone': {
      const names = backboneClasses(datasetClassNames.length, classes).map((k) => datasetClassNames[k]);
      // a long list (CIFAR-100 has 94 other classes) is counted, with the first few named
      const what = names.length > 8 ? `the other ${names.length} classes (${names.slice(0, 3).join(', ')}, …)` : joinNames(names);
      return `stand-in backbone trained on ${what} (seed ${f.seed})`;
    }
    case 'encoder':
      return `image encoder ${f.model}${f.revision === 'main' ? '' : `@${f.revision}`} (${f.precision})`;
    case 'upload':
      return `uploaded features ${f.file.name}`;
  }
}

/**
 * What the embedded backbone is worth, as measured (docs/science.md appendix E "How good are its features?";
 * `cil-lab features --dataset fashion-mnist --classes 0-5 --source backbone --probe --train-per-class 1000`): on the
 * default Fashion-MNIST 0–5 its features are no better than the pixels it reads, nor than the same network untrained.
 * Accuracies (fractions) of a linear probe and the nearest class mean, all six classes at once, 1,000 training images
 * per class, every test image.
 */
export const BACKBONE_PROBE_FASHION = Object.freeze({
  backbone: { linearProbe: 0.8448, nearestMean: 0.7328 },
  pixels: { linearProbe: 0.89, nearestMean: 0.7902 },
  untrained: { linearProbe: 0.8422, nearestMean: 0.7767 },
});

/** The sentence every page shows beside the embedded backbone: what it is, and that it is no better than its input. */
export function backboneCaveat(): string {
  const p = BACKBONE_PROBE_FASHION;
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  return (
    `A stand-in for offline use and tests, not a pre-trained encoder: on Fashion-MNIST 0–5 its features are no better than the pixels it reads ` +
    `(linear probe ${pct(p.backbone.linearProbe)} against ${pct(p.pixels.linearProbe)}, nearest class mean ${pct(p.backbone.nearestMean)} against ${pct(p.pixels.nearestMean)}; ` +
    `the same network untrained ${pct(p.untrained.linearProbe)} and ${pct(p.untrained.nearestMean)}). For real transfer, extract an image encoder's features (ViT-B/16, DINOv2, CLIP).`
  );
}
