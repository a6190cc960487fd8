/** What a protocol run is asked for and what it reports (shared by the CLI, the worker and the UI). */
import type { ProtocolsSettings } from '../labs/orderings/settings';
import type { ScoreDistribution, ScoreDistributionOptions } from '../orderings/score-distribution';
import type { Sequence } from '../orderings/types';
import type { ProtocolId } from './ids';

export { PROTOCOL_IDS, type ProtocolId } from './ids';

/**
 * The protocols' parameters that the Orderings lab's settings table declares (src/core/labs/orderings/settings.ts:
 * the median seed, the MS samples and seed, the exact limit, and any row added after them), each optional here (run.ts
 * says what its absence means). Derived from the table, so a new row reaches the run's options without a line here.
 */
type TableOptions = Partial<Omit<ProtocolsSettings, 'enabled' | 'rsSeeds' | 'distribution'>>;

export interface ProtocolOptions extends TableOptions {
  protocols: ProtocolId[];
  /** RS seeds (numpy legacy RandomState); default 0, 42, 1993. */
  rsSeeds?: number[];
  /** Also report the distribution of S over Ω (exact or sampled) and where each ordering falls in it. */
  distribution?: boolean | ScoreDistributionOptions;
}

/** A sequence as reported: which extreme it aims at, and its distance to the exact extreme when known. */
export interface SequenceReport extends Sequence {
  /** 'hard' aims at min S, 'easy' at max S, 'random' at neither. */
  aim: 'hard' | 'easy' | 'random';
  /** S − min S over Ω (hard) or max S − S (easy), when the exact extremes were computed. */
  gapToExact?: number;
  /** The per-pair mean of Sim over adjacent tasks (the authors' code's number). */
  pairMean: number;
  /** Share of Ω (or of the sample) with a strictly lower S than this ordering, when asked for. */
  fractionBelow?: number;
}

export interface ProtocolReport {
  omega: string;
  sequences: SequenceReport[];
  /** Messages about what was not done and why (e.g. Ω too large to enumerate). */
  notes: string[];
  exact?: { min: number; max: number; enumerated: number };
  distribution?: ScoreDistribution;
}
