/**
 * Where one class order lands in a method's whole distribution, in words (docs/verdicts.md "Placing an order";
 * docs/science.md §9 "The whole distribution"): "Your seed-1993 order sits at the 81st percentile of AIA (72.3%),
 * exact over all 369 600 orderings: the worst order is 6.2 points lower, the best 1.3 points higher." Every number is
 * computed over every ordering (or, beyond what can be enumerated, over a uniform sample, and then said to be an
 * estimate); nothing here compares across runs, so no interval rule applies. An imported log's own accuracies are
 * reported as the log's, not placed: they come from its run, on its features and model.
 */
import type { DistributionReport, PlacedReport } from '../ptm/distribution-report';
import type { VerdictSentence } from './types';
import { countText, num, pctText } from './wording';

/** Values of a distribution this close are one value (an accuracy invariant over Ω differs only by rounding). */
const SAME = 1e-12;

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st, … */
export function ordinal(n: number): string {
  const r100 = n % 100;
  const suffix = r100 >= 11 && r100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "at the 81st percentile", or within the lowest / highest 1 % with the percentile to one decimal. */
export function percentileWords(p: number): string {
  if (p < 1) return `in the lowest 1% (percentile ${num(p, 1)})`;
  if (p > 99) return `in the highest 1% (percentile ${num(p, 1)})`;
  return `at the ${ordinal(Math.round(p))} percentile`;
}

/** "exact over all 369 600 orderings" / "estimated from a uniform sample of 10 820 of 2.357e92 orderings". */
export function overWhat(summary: DistributionReport['summary']): string {
  return summary.exact ? `exact over all ${countText(summary.orderings)} orderings` : `estimated from ${summary.what}`;
}

const pointsText = (x: number): string => (x < 0.05 ? 'less than 0.1 points' : `${num(x, 1)} points`);

/** The sentences for one placed order; `who` names it ("Your seed-1993 order", "RS seed 0's order"). */
export function placementSentences(
  summary: DistributionReport['summary'],
  placed: PlacedReport,
  who: string,
  logged?: { aia: number | null; final: number | null },
): VerdictSentence[] {
  const out: VerdictSentence[] = [];
  const where = overWhat(summary);
  const { aia } = summary;
  if (aia.max - aia.min <= SAME) {
    out.push({ id: 'place:aia', kind: 'finding', text: `${who} has AIA ${pctText(placed.aia)}, as every ordering does (${where}).` });
  } else if (placed.belowBestPoints <= 100 * SAME || placed.aboveWorstPoints <= 100 * SAME) {
    // the order is (tied for) the best or the worst: said with how far the other end lies
    const best = placed.belowBestPoints <= 100 * SAME;
    const others = (best ? aia.best : aia.worst).ties - 1;
    const shared = others > 0 ? `, shared with ${countText(others)} other ordering${others === 1 ? '' : 's'}` : '';
    const otherEnd = best
      ? `the worst order is ${pointsText(placed.aboveWorstPoints)} lower`
      : `the best order is ${pointsText(placed.belowBestPoints)} higher`;
    out.push({
      id: 'place:aia',
      kind: 'finding',
      text: `${who} has the ${best ? 'highest' : 'lowest'} AIA, ${pctText(placed.aia)}${shared} (${where}): ${otherEnd}.`,
    });
  } else {
    out.push({
      id: 'place:aia',
      kind: 'finding',
      text: `${who} sits ${percentileWords(placed.percentile)} of AIA (${pctText(placed.aia)}), ${where}: the worst order is ${pointsText(placed.aboveWorstPoints)} lower, the best ${pointsText(placed.belowBestPoints)} higher.`,
    });
  }
  const { final } = summary;
  if (final.max - final.min <= SAME) {
    out.push({
      id: 'place:final',
      kind: 'why',
      text: `Its final accuracy, ${pctText(placed.final)}, is the same for every ordering: after the last task the method has seen every class, and its classifier depends only on the classes seen.`,
    });
  } else {
    out.push({
      id: 'place:final',
      kind: 'finding',
      text: `Its final accuracy, ${pctText(placed.final)}, sits ${percentileWords(placed.finalPercentile)} (every ordering: ${pctText(final.min)} to ${pctText(final.max)}).`,
    });
  }
  if (logged && (logged.aia !== null || logged.final !== null)) {
    const parts = [logged.aia !== null ? `AIA ${pctText(logged.aia)}` : '', logged.final !== null ? `final accuracy ${pctText(logged.final)}` : ''].filter(
      Boolean,
    );
    out.push({
      id: 'place:logged',
      kind: 'note',
      text: `The log reports ${parts.join(' and ')} for this order from its own run: comparable with the numbers above only if that run used these features and this method.`,
    });
  }
  return out;
}

/** "Your seed-1993 order" / "Your order" / "RS seed 0's order". */
export function whoOf(label: string): string {
  if (label === '' || label === 'given order') return 'Your order';
  const seed = /^seed (\d+)$/.exec(label);
  if (seed) return `Your seed-${seed[1]} order`;
  return `${label}’s order`;
}
