/**
 * Strategy rankings under the truth and under each protocol, and the ranking error (docs/science.md §2; EDGE paper
 * App. E.1.3, Tables A5/A6): for several strategies, each protocol's values (Truth = every ordering, EDGE = its
 * three, RS = its seeds') are summarised by
 *   - lower bound  `min`  (higher is better),
 *   - upper bound  `max`  (higher is better),
 *   - stability    `std`  (lower is better; population std, as every estimate in §2),
 * strategies are ranked on each dimension (rank 1 = best), and a protocol's ranking error on a dimension is
 * Σ_strategies |rank_protocol − rank_truth|; `total` sums the three dimensions (the single number the paper quotes
 * per dataset, e.g. "EDGE's ranking error is 6 compared to 12 for RS" on CIFAR-100).
 *
 * Ties: strategies with exactly equal scores share the average of the ranks they span (scipy rankdata 'average'),
 * so ranks and errors can be halves. (The paper's tables show no ties; average ranks keep the error symmetric and
 * independent of the order strategies are listed in.)
 */
import { max, min, populationStd } from './moments';
import { averageRanks } from './rank';

export type RankingDimension = 'min' | 'max' | 'std';
export const RANKING_DIMENSIONS: readonly RankingDimension[] = ['min', 'max', 'std'];
/** Whether a higher score is better on each dimension. */
export const HIGHER_IS_BETTER: Readonly<Record<RankingDimension, boolean>> = { min: true, max: true, std: false };

export interface OutcomeSummary {
  min: number;
  max: number;
  std: number;
}

export interface StrategyValues {
  strategy: string;
  /** Values per protocol, e.g. `{ truth: [...90 values], edge: [h, e, m], rs: [a, b, c] }`. */
  values: Readonly<Record<string, ArrayLike<number>>>;
}

export type DimensionNumbers = Record<RankingDimension, number[]>;

export interface RankingError extends Record<RankingDimension, number> {
  total: number;
}

export interface StrategyRankings {
  strategies: string[];
  /** The reference first, then the protocols compared with it. */
  protocols: string[];
  reference: string;
  /** summaries[protocol][dimension][s] for strategy s. */
  summaries: Record<string, DimensionNumbers>;
  /** ranks[protocol][dimension][s]: 1 = best, ties averaged. */
  ranks: Record<string, DimensionNumbers>;
  /** errors[protocol] for every protocol but the reference. */
  errors: Record<string, RankingError>;
}

/** min, max and population std of one protocol's values for one strategy. */
export function summarizeOutcomes(values: ArrayLike<number>): OutcomeSummary {
  if (!values || values.length === 0) throw new RangeError('A ranking summary needs at least one value.');
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`Ranking summary: value ${i} is ${values[i]}, not a finite number.`);
  }
  return { min: min(values), max: max(values), std: populationStd(values) };
}

/** Ranks of scores, 1 = best, ties averaged. */
export function rankScores(scores: ArrayLike<number>, higherIsBetter: boolean): number[] {
  const keyed = Array.from(scores, (s) => (higherIsBetter ? -s : s));
  return Array.from(averageRanks(keyed));
}

/** Σ |ranks − reference|. */
export function rankingError(ranks: ArrayLike<number>, reference: ArrayLike<number>): number {
  if (ranks.length !== reference.length) throw new RangeError(`rankingError: ${ranks.length} and ${reference.length} ranks.`);
  let s = 0;
  for (let i = 0; i < ranks.length; i++) s += Math.abs(ranks[i] - reference[i]);
  return s;
}

/**
 * Summaries, ranks and ranking errors for several strategies. `reference` defaults to 'truth'; `protocols`
 * defaults to every other key of the first strategy's values, in their order. Every strategy must have values for
 * the reference and every protocol.
 */
export function strategyRankings(strategies: readonly StrategyValues[], options: { reference?: string; protocols?: readonly string[] } = {}): StrategyRankings {
  if (strategies.length === 0) throw new RangeError('Rankings need at least one strategy.');
  const reference = options.reference ?? 'truth';
  const others = options.protocols ? [...options.protocols] : Object.keys(strategies[0].values).filter((k) => k !== reference);
  const protocols = [reference, ...others.filter((p) => p !== reference)];
  const summaries: Record<string, DimensionNumbers> = {};
  const ranks: Record<string, DimensionNumbers> = {};
  for (const p of protocols) {
    const sums = strategies.map((s) => {
      const v = s.values[p];
      if (!v) throw new RangeError(`Strategy "${s.strategy}" has no values for "${p}".`);
      return summarizeOutcomes(v);
    });
    summaries[p] = { min: sums.map((x) => x.min), max: sums.map((x) => x.max), std: sums.map((x) => x.std) };
    ranks[p] = {
      min: rankScores(summaries[p].min, HIGHER_IS_BETTER.min),
      max: rankScores(summaries[p].max, HIGHER_IS_BETTER.max),
      std: rankScores(summaries[p].std, HIGHER_IS_BETTER.std),
    };
  }
  const errors: Record<string, RankingError> = {};
  for (const p of protocols.slice(1)) {
    const e = { min: 0, max: 0, std: 0, total: 0 };
    for (const d of RANKING_DIMENSIONS) {
      e[d] = rankingError(ranks[p][d], ranks[reference][d]);
      e.total += e[d];
    }
    errors[p] = e;
  }
  return { strategies: strategies.map((s) => s.strategy), protocols, reference, summaries, ranks, errors };
}
