/**
 * The orderings worker's request for the Orderings page's current inputs (the page sends exactly this; the unit
 * test of the export builds the default experiment's request with it and compares the page's export to the CLI's).
 */
import type { ExperimentConfig } from '../../core/config/schema';
import type { ProtocolsSettings } from '../../core/labs/orderings/settings';
import type { OrderingsRequest } from '../../core/protocols/orderings-view';
import type { ProtocolId } from '../../core/protocols/types';
import type { SimilaritySpec } from '../../core/similarity/resolve';

/**
 * The protocol settings besides the protocols and the RS seeds (which the request takes from their own forms,
 * resolved): the lab's table's other fields (src/core/labs/orderings/settings.ts), as the experiment config holds them
 * (checked: a field's control writes it there through the lab entry's `apply`).
 */
export type ProtocolExtras = Omit<ProtocolsSettings, 'enabled' | 'rsSeeds'>;

/** The protocol settings of an experiment besides the protocols and the RS seeds (the lab and its tests read them with this). */
export function protocolExtrasOf(p: ExperimentConfig['protocols']): ProtocolExtras {
  const { enabled: _enabled, rsSeeds: _rsSeeds, ...extras } = structuredClone(p);
  return extras;
}

export function orderingsRequest(a: {
  names: string[];
  sizes: number[];
  similarity: SimilaritySpec;
  protocols: ProtocolId[];
  seeds: number[];
  extras: ProtocolExtras;
}): OrderingsRequest {
  const { distribution, ...x } = a.extras;
  return {
    classes: a.names.slice(),
    taskSizes: a.sizes.slice(),
    similarity: a.similarity,
    options: {
      protocols: a.protocols.slice(),
      rsSeeds: a.seeds.slice(),
      ...x,
      distribution: { limit: x.exactLimit, ...distribution },
    },
  };
}
