import { describe, expect, it } from 'vitest';
import type { DistributionReport, PlacedReport } from '../../../../src/core/ptm/distribution-report';
import { ordinal, percentileWords, placementSentences, whoOf } from '../../../../src/core/verdict/order-placement';

// Where an order lands, in words (docs/verdicts.md "Placing an order").
function summary(over: Partial<DistributionReport['summary']> = {}): DistributionReport['summary'] {
  const side = (min: number, max: number) => ({
    count: 369600,
    min,
    max,
    mean: (min + max) / 2,
    sd: 0.01,
    quantiles: {},
    histogram: { edges: [min, max], counts: [369600] },
    worst: { order: [], tasks: [], aia: min, final: 0.5, ties: 3 },
    best: { order: [], tasks: [], aia: max, final: 0.5, ties: 1 },
  });
  return {
    method: 'SimpleCIL (cosine)',
    orderings: 369600,
    omega: '369600',
    exact: true,
    what: 'all 369\u2009600 orderings',
    path: '',
    states: 1365,
    ties: '',
    aia: side(0.6, 0.7),
    final: side(0.55, 0.55),
    ...over,
  };
}
function placed(aia: number, extra: Partial<PlacedReport> = {}): PlacedReport {
  return {
    label: 'seed 1993',
    order: [],
    tasks: [],
    aia,
    final: 0.55,
    percentile: 81.2,
    finalPercentile: 50,
    aboveWorstPoints: 100 * (aia - 0.6),
    belowBestPoints: 100 * (0.7 - aia),
    ...extra,
  };
}

describe('placementSentences', () => {
  it('the issue’s sentence: percentile, exact over all orderings, the worst and best in points', () => {
    const [aia, final] = placementSentences(summary(), placed(0.662), 'Your seed-1993 order');
    expect(aia).toMatchObject({ id: 'place:aia', kind: 'finding' });
    expect(aia.text).toBe(
      'Your seed-1993 order sits at the 81st percentile of AIA (66.2%), exact over all 369\u2009600 orderings: the worst order is 6.2 points lower, the best 3.8 points higher.',
    );
    expect(final.text).toMatch(/^Its final accuracy, 55\.0%, is the same for every ordering/);
  });

  it('the highest and the lowest, with the orderings tied with it', () => {
    expect(placementSentences(summary(), placed(0.7), 'Your order')[0].text).toBe(
      'Your order has the highest AIA, 70.0% (exact over all 369\u2009600 orderings): the worst order is 10.0 points lower.',
    );
    expect(placementSentences(summary(), placed(0.6), 'Your order')[0].text).toBe(
      'Your order has the lowest AIA, 60.0%, shared with 2 other orderings (exact over all 369\u2009600 orderings): the best order is 10.0 points higher.',
    );
  });

  it('a sample says it is an estimate; a final accuracy that moves gets its percentile; a log’s numbers are the log’s', () => {
    const s = summary({ exact: false, what: 'a uniform sample of 828 of 369\u2009600 orderings (seed 0)', final: summary().aia });
    const out = placementSentences(s, placed(0.65, { percentile: 0.4, finalPercentile: 99.7, final: 0.69 }), 'Your order', { aia: 0.9, final: null });
    expect(out[0].text).toBe(
      'Your order sits in the lowest 1% (percentile 0.4) of AIA (65.0%), estimated from a uniform sample of 828 of 369\u2009600 orderings (seed 0): the worst order is 5.0 points lower, the best 5.0 points higher.',
    );
    expect(out[1]).toMatchObject({
      id: 'place:final',
      kind: 'finding',
      text: 'Its final accuracy, 69.0%, sits in the highest 1% (percentile 99.7) (every ordering: 60.0% to 70.0%).',
    });
    expect(out[2]).toMatchObject({ id: 'place:logged', kind: 'note' });
    expect(out[2].text).toBe(
      'The log reports AIA 90.0% for this order from its own run: comparable with the numbers above only if that run used these features and this method.',
    );
  });

  it('ordinals and who', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 81, 99].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '81st',
      '99th',
    ]);
    expect(percentileWords(50.4)).toBe('at the 50th percentile');
    expect(whoOf('seed 1993')).toBe('Your seed-1993 order');
    expect(whoOf('given order')).toBe('Your order');
    expect(whoOf('RS seed 0')).toBe('RS seed 0’s order');
  });
});
