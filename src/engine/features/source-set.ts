/**
 * The feature set a lab trains on, from its config's feature source (docs/science.md appendix E): the one seam
 * between the training worker and where feature vectors come from. The embedded backbone is computed here (on first
 * use, ≈ 3.5 s, then kept by the worker's job context while the settings stay the same); an image encoder's or an
 * uploaded file's features come from the Data tab's extraction, and until that has run this says so in one sentence.
 */
import type { FeatureSet } from '../../core/features/feature-set';
import type { ImageDataset } from '../types';
import { backboneFeatureSet, type ExtractProgress } from './extract';

/** Which feature vectors a worker trains on: the source (as the config's `features` section) and the rows. */
export type WorkerFeatures =
  { source: 'backbone'; seed: number } | { source: 'encoder'; model: string; revision: string; precision: string } | { source: 'upload'; file: string };

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
  return JSON.stringify([datasetId, features, [...rows.classes].sort((a, b) => a - b), rows.trainPerClass, rows.testPerClass]);
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
