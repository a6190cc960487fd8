/**
 * The feature set a lab trains on, from its config's feature source (docs/science.md appendix E): the one seam
 * between the training worker and where feature vectors come from. The embedded backbone is computed here (on first
 * use, ≈ 3.5 s, then kept by the worker's job context while the settings stay the same); an image encoder's or an
 * uploaded file's features come from the Data tab's extraction, sent by the runner as `cached` (the encoder and upload
 * sources themselves say in one sentence that they must be extracted first).
 */
import { rowsOf, type FeatureSet } from '../../core/features/feature-set';
import type { ImageDataset } from '../types';
import { backboneFeatureSet, type ExtractProgress } from './extract';

/**
 * Which feature vectors a worker trains on: the source (as the config's `features` section) and the rows. An image
 * encoder's or an uploaded file's features come as `cached`: the set the Data tab extracted (or the upload), read
 * from the page's feature cache by the runner and sent with the job under its cache key.
 */
export type WorkerFeatures =
  | { source: 'backbone'; seed: number }
  | { source: 'encoder'; model: string; revision: string; precision: string }
  | { source: 'upload'; file: string }
  | { source: 'cached'; key: string; set: FeatureSet };

export interface FeatureRows {
  /** the experiment's classes (dataset class indices) */
  classes: readonly number[];
  trainPerClass: number | null;
  testPerClass: number | null;
}

/** A source whose features must be extracted first (the Data tab's job) and are not. */
export class FeaturesNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeaturesNotReadyError';
  }
}

/** What the seam needs of the worker: the full built-in dataset, and a slot that keeps a derived value. */
export interface FeatureSourceContext {
  builtin(id: string): Promise<ImageDataset>;
  derived<T>(slot: string, key: string, make: () => Promise<T>): Promise<T>;
}

/** The key the worker keeps a feature set under: the dataset, the source and the rows. */
export function featureSetKey(datasetId: string, features: WorkerFeatures, rows: FeatureRows): string {
  const source = features.source === 'cached' ? { source: 'cached', key: features.key } : features;
  return JSON.stringify([datasetId, source, [...rows.classes].sort((a, b) => a - b), rows.trainPerClass, rows.testPerClass]);
}

/**
 * The rows of a whole feature set an experiment trains on: of each of its classes, the first `trainPerClass` training
 * and `testPerClass` test rows in the set's order (null: all), as the built-in images are picked. A class the set
 * has no training or no test rows of is refused, naming it.
 */
export function pickFeatureRows(set: FeatureSet, rows: FeatureRows): FeatureSet {
  const picked: number[] = [];
  for (const split of [0, 1] as const) {
    const cap = split === 0 ? rows.trainPerClass : rows.testPerClass;
    for (const c of rows.classes) {
      const idx = rowsOf(set, split, [c]);
      if (idx.length === 0)
        throw new FeaturesNotReadyError(
          `The cached features have no ${split === 0 ? 'training' : 'test'} rows of class ${c} (${set.classNames[c] ?? 'not in the set'}): extract the features of the experiment's classes in the Data tab.`,
        );
      picked.push(...(cap === null ? idx : idx.subarray(0, cap)));
    }
  }
  const n = picked.length;
  const features = new Float32Array(n * set.d);
  const labels = new Int32Array(n);
  const split = new Uint8Array(n);
  picked.forEach((r, k) => {
    features.set(set.features.subarray(r * set.d, (r + 1) * set.d), k * set.d);
    labels[k] = set.labels[r];
    split[k] = set.split[r];
  });
  return { features, n, d: set.d, labels, split, classNames: set.classNames.slice() };
}

/**
 * The feature set of `rows` of built-in dataset `datasetId` through `features`, kept in the context's 'features' slot
 * (the next run on the same settings reuses it). Encoders and uploads: FeaturesNotReadyError.
 */
export function featureSetOf(
  ctx: FeatureSourceContext,
  datasetId: string,
  features: WorkerFeatures,
  rows: FeatureRows,
  onProgress?: (p: ExtractProgress) => void,
): Promise<FeatureSet> {
  if (features.source === 'cached') {
    const whole = features.set;
    return ctx.derived('features', featureSetKey(datasetId, features, rows), async () => pickFeatureRows(whole, rows));
  }
  if (features.source !== 'backbone') {
    const what = features.source === 'encoder' ? `the image encoder ${features.model}` : `the uploaded feature file ${features.file}`;
    return Promise.reject(
      new FeaturesNotReadyError(`The features of ${what} are not extracted yet: extract the features in the Data tab first, then run again.`),
    );
  }
  return ctx.derived('features', featureSetKey(datasetId, features, rows), async () => {
    const ds = await ctx.builtin(datasetId);
    const { set } = await backboneFeatureSet(ds, rows, features.seed, onProgress);
    return set;
  });
}

/**
 * A job's feature set of the experiment's classes (`featureSetOf`): the 'features' stage said before it (with the
 * extraction's progress, for the embedded backbone), the run control's checkpoint after it (a Cancel while the
 * features were computed is heard before the job goes on).
 */
export async function jobFeatureSet(
  ctx: FeatureSourceContext & { control: { checkpoint(): Promise<void> } },
  input: { datasetId: string; features: WorkerFeatures; classes: readonly number[]; trainPerClass: number | null; testPerClass: number | null },
  emit: (e: { kind: 'stage'; stage: 'features'; extract?: ExtractProgress }) => void,
): Promise<FeatureSet> {
  emit({ kind: 'stage', stage: 'features' });
  const set = await featureSetOf(
    ctx,
    input.datasetId,
    input.features,
    { classes: input.classes, trainPerClass: input.trainPerClass, testPerClass: input.testPerClass },
    (extract) => emit({ kind: 'stage', stage: 'features', extract }),
  );
  await ctx.control.checkpoint();
  return set;
}
