/**
 * The whole distribution as `cil-lab run --summary` prints it and the Ground-truth lab shows it (docs/science.md §9,
 * "The whole distribution"): the AIA and final accuracy summaries with the orderings at their extremes, RS's and
 * EDGE's orderings placed in them with the JSD and W1 of each protocol's Gaussian against the truth
 * (src/core/stats/estimate.ts, the same code as every other estimate), and any orders the user places. Orders and
 * tasks are over the experiment's label ids (the feature set's labels, the dataset's class indices); the
 * distribution itself works on positions.
 */
import type { Ordering } from '../orderings/types';
import { gaussianEstimate, prepareTruth, qualityAgainstTruth, type PreparedTruth } from '../stats/estimate';
import type { ValueSummary } from '../stats/value-summary';
import { placeOrdering, type AccuracyDistribution, type ExtremeOrdering } from './accuracy-distribution';

/** How percentiles treat ties, in words (the help and the report say it). */
export const TIE_RULE = 'percentile = 100 · (orderings below + half the orderings tied) / all orderings (mid-rank; values within 1e-12 tie)';

/** An ordering to place: over class positions, with its flat order as drawn or written (positions) when it has one. */
export interface OrderingToPlace {
  label: string;
  tasks: Ordering;
  /** the flat class order as drawn (RS: numpy's permutation) or written; default: the tasks, each ascending */
  order?: number[];
}

export interface PlacedReport {
  label: string;
  /** the flat class order, label ids */
  order: number[];
  /** each task ascending, label ids */
  tasks: number[][];
  aia: number;
  final: number;
  /** of the AIA, 0–100 (TIE_RULE) */
  percentile: number;
  finalPercentile: number;
  /** AIA above the lowest and below the highest over the distribution, in points */
  aboveWorstPoints: number;
  belowBestPoints: number;
}

export interface ExtremeReport {
  order: number[];
  tasks: number[][];
  aia: number;
  final: number;
  /** orderings with the same value (within 1e-12) */
  ties: number;
}

export type SideSummary = ValueSummary & { worst: ExtremeReport; best: ExtremeReport };

export interface GaussianReport {
  mean: number;
  sd: number;
  /** bits, against the truth; null when the truth has no spread */
  jsd: number | null;
  /** points */
  w1: number;
}

export interface ProtocolReport {
  orderings: PlacedReport[];
  aia: GaussianReport;
  final: GaussianReport;
}

export interface DistributionReport {
  summary: {
    method: string;
    /** orderings summarised */
    orderings: number;
    /** |Ω| exactly, as a decimal string */
    omega: string;
    /** every ordering of Ω (else a uniform sample: the numbers are estimates) */
    exact: boolean;
    what: string;
    path: string;
    states: number;
    ties: string;
    aia: SideSummary;
    final: SideSummary;
  };
  rs: ProtocolReport | null;
  edge: ProtocolReport | null;
  /** the orders placed (`--place`, an imported log's orders) */
  places: PlacedReport[];
}

export interface ReportInput {
  dist: AccuracyDistribution;
  /** label id of each class position */
  classes: readonly number[];
  rs?: readonly OrderingToPlace[];
  edge?: readonly OrderingToPlace[];
  place?: readonly OrderingToPlace[];
}

const points = (x: number): number => 100 * x;

/** One ordering placed in `dist`, reported over label ids. */
export function placedReport(dist: AccuracyDistribution, classes: readonly number[], o: OrderingToPlace): PlacedReport {
  const p = placeOrdering(dist, o.tasks);
  const tasks = p.tasks.map((t) => t.map((q) => classes[q]).sort((a, b) => a - b));
  return {
    label: o.label,
    order: o.order ? o.order.map((q) => classes[q]) : tasks.flat(),
    tasks,
    aia: p.aia,
    final: p.final,
    percentile: p.percentile,
    finalPercentile: p.finalPercentile,
    aboveWorstPoints: points(p.aboveWorst),
    belowBestPoints: points(p.belowBest),
  };
}

function extremeReport(e: ExtremeOrdering, classes: readonly number[]): ExtremeReport {
  const tasks = e.tasks.map((t) => t.map((q) => classes[q]).sort((a, b) => a - b));
  return { order: tasks.flat(), tasks, aia: e.aia, final: e.final, ties: e.ties };
}

function gaussianReport(truth: PreparedTruth, values: number[]): GaussianReport {
  const g = gaussianEstimate(values);
  const q = qualityAgainstTruth(truth, g);
  return { mean: g.mean, sd: g.std, jsd: Number.isFinite(q.jsd) ? q.jsd : null, w1: q.w1 };
}

/** The report of a distribution, with RS's and EDGE's orderings and the orders to place. */
export function distributionReport(input: ReportInput): DistributionReport {
  const { dist, classes } = input;
  const side = (s: ValueSummary, ext: { worst: ExtremeOrdering; best: ExtremeOrdering }): SideSummary => ({
    ...s,
    worst: extremeReport(ext.worst, classes),
    best: extremeReport(ext.best, classes),
  });
  let truths: { aia: PreparedTruth; final: PreparedTruth } | null = null;
  const protocol = (list: readonly OrderingToPlace[] | undefined): ProtocolReport | null => {
    if (!list || list.length === 0) return null;
    truths ??= { aia: prepareTruth(dist.sortedAia), final: prepareTruth(dist.sortedFinal) };
    const orderings = list.map((o) => placedReport(dist, classes, o));
    return {
      orderings,
      aia: gaussianReport(
        truths.aia,
        orderings.map((o) => o.aia),
      ),
      final: gaussianReport(
        truths.final,
        orderings.map((o) => o.final),
      ),
    };
  };
  return {
    summary: {
      method: dist.method,
      orderings: dist.orderings,
      omega: dist.omega,
      exact: dist.exact,
      what: dist.what,
      path: dist.path,
      states: dist.states,
      ties: TIE_RULE,
      aia: side(dist.aia, dist.extremes.aia),
      final: side(dist.final, dist.extremes.final),
    },
    rs: protocol(input.rs),
    edge: protocol(input.edge),
    places: (input.place ?? []).map((o) => placedReport(dist, classes, o)),
  };
}
