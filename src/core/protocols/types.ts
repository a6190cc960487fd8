/** What a protocol run is asked for and what it reports (shared by the CLI, the worker and the UI). */
import type { ScoreDistribution, ScoreDistributionOptions } from '../orderings/score-distribution';
import type { Sequence } from '../orderings/types';

export type ProtocolId = 'rs' | 'edge' | 'edge+' | 'exact' | 'as' | 'ms';
export const PROTOCOL_IDS: readonly ProtocolId[] = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'];

export interface ProtocolOptions {
  protocols: ProtocolId[];
  /** RS seeds (numpy legacy RandomState); default 0, 42, 1993. */
  rsSeeds?: number[];
  /** Seed of EDGE's random "median" ordering (numpy default_rng); default 0. */
  medianSeed?: number;
  /** MS baseline: number of random orderings and their seed; default 200 and 0. */
  msSamples?: number;
  msSeed?: number;
  /** Largest |Ω| enumerated for exact extremes; default 10^6. */
  exactLimit?: number;
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
