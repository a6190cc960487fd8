/**
 * The orderings worker's request for the Orderings page's current inputs (the page sends exactly this; the unit
 * test of the export builds the default experiment's request with it and compares the page's export to the CLI's).
 */
import type { ExperimentConfig } from '../../core/config/schema';
import type { OrderingsRequest } from '../../core/protocols/orderings-view';
import type { ProtocolId } from '../../core/protocols/types';
import type { SimilaritySpec } from '../../core/similarity/resolve';

/** Protocol settings without a control on the page; they come from the experiment config as they are. */
export interface ProtocolExtras {
  medianSeed: number;
  msSamples: number;
  msSeed: number;
  exactLimit: number;
  sampleSize: number;
  seed: number;
}

/** The protocol settings of an experiment that have no control on the page (the lab and its tests read them with this). */
export function protocolExtrasOf(p: ExperimentConfig['protocols']): ProtocolExtras {
  return {
    medianSeed: p.medianSeed,
    msSamples: p.msSamples,
    msSeed: p.msSeed,
    exactLimit: p.exactLimit,
    sampleSize: p.distribution.sampleSize,
    seed: p.distribution.seed,
  };
}

export function orderingsRequest(a: {
  names: string[];
  sizes: number[];
  similarity: SimilaritySpec;
  protocols: ProtocolId[];
  seeds: number[];
  extras: ProtocolExtras;
}): OrderingsRequest {
  const x = a.extras;
  return {
    classes: a.names.slice(),
    taskSizes: a.sizes.slice(),
    similarity: a.similarity,
    options: {
      protocols: a.protocols.slice(),
      rsSeeds: a.seeds.slice(),
      medianSeed: x.medianSeed,
      msSamples: x.msSamples,
      msSeed: x.msSeed,
      exactLimit: x.exactLimit,
      distribution: { limit: x.exactLimit, sampleSize: x.sampleSize, seed: x.seed },
    },
  };
}
