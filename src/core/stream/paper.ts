/**
 * CLEAR's published numbers the Time lab's verdict quotes (docs/verdicts.md §Time): Table 1 of [CLEAR] ("Results of
 * baseline CL algorithms on CLEAR", 5 seeds, mean), copied by hand from /work/shared/papers/clear-benchmark.txt.
 * Per row: the iid protocol's in-domain and next-domain accuracy and the streaming protocol's next-domain accuracy,
 * in %. The paper's own reading: in-domain is "consistently larger" than next-domain under iid (its classic 70/30
 * split overstates what a deployed model meets tomorrow), and the streaming protocol "addresses" that drop.
 */

export interface ClearRow {
  network: 'ResNet18' | 'Linear (YFCC-B0)';
  method: string;
  iidInDomain: number;
  iidNextDomain: number;
  streamingNextDomain: number;
}

export const CLEAR_TABLE_1: readonly ClearRow[] = [
  { network: 'ResNet18', method: 'EWC', iidInDomain: 76.6, iidNextDomain: 74.3, streamingNextDomain: 77.1 },
  { network: 'ResNet18', method: 'SI', iidInDomain: 76.0, iidNextDomain: 73.6, streamingNextDomain: 76.9 },
  { network: 'ResNet18', method: 'LwF', iidInDomain: 77.8, iidNextDomain: 75.7, streamingNextDomain: 78.8 },
  { network: 'ResNet18', method: 'CWR', iidInDomain: 69.5, iidNextDomain: 67.8, streamingNextDomain: 71.1 },
  { network: 'ResNet18', method: 'GDumb', iidInDomain: 66.0, iidNextDomain: 64.3, streamingNextDomain: 67.4 },
  { network: 'ResNet18', method: 'ER', iidInDomain: 77.3, iidNextDomain: 75.6, streamingNextDomain: 78.1 },
  { network: 'ResNet18', method: 'AGEM', iidInDomain: 76.2, iidNextDomain: 73.6, streamingNextDomain: 77.4 },
  { network: 'ResNet18', method: 'Finetuning (reservoir)', iidInDomain: 69.5, iidNextDomain: 67.7, streamingNextDomain: 71.6 },
  { network: 'ResNet18', method: 'Finetuning (biased reservoir)', iidInDomain: 75.5, iidNextDomain: 72.7, streamingNextDomain: 77.2 },
  { network: 'Linear (YFCC-B0)', method: 'EWC', iidInDomain: 91.6, iidNextDomain: 90.6, streamingNextDomain: 91.1 },
  { network: 'Linear (YFCC-B0)', method: 'SI', iidInDomain: 91.7, iidNextDomain: 90.5, streamingNextDomain: 91.1 },
  { network: 'Linear (YFCC-B0)', method: 'LwF', iidInDomain: 91.6, iidNextDomain: 90.7, streamingNextDomain: 91.2 },
  { network: 'Linear (YFCC-B0)', method: 'CWR', iidInDomain: 90.5, iidNextDomain: 89.8, streamingNextDomain: 90.4 },
  { network: 'Linear (YFCC-B0)', method: 'GDumb', iidInDomain: 85.5, iidNextDomain: 85.0, streamingNextDomain: 85.8 },
  { network: 'Linear (YFCC-B0)', method: 'ER', iidInDomain: 91.7, iidNextDomain: 90.9, streamingNextDomain: 91.4 },
  { network: 'Linear (YFCC-B0)', method: 'AGEM', iidInDomain: 91.9, iidNextDomain: 90.7, streamingNextDomain: 91.4 },
  { network: 'Linear (YFCC-B0)', method: 'Finetuning (reservoir)', iidInDomain: 89.3, iidNextDomain: 88.7, streamingNextDomain: 89.4 },
  { network: 'Linear (YFCC-B0)', method: 'Finetuning (biased reservoir)', iidInDomain: 91.6, iidNextDomain: 90.5, streamingNextDomain: 91.1 },
];

const range = (xs: number[]) => ({ min: Math.min(...xs), max: Math.max(...xs) });
const round1 = (x: number) => Math.round(x * 10) / 10;

/** iid in-domain − next-domain over Table 1's rows, in points: 0.5 to 2.8. */
export const CLEAR_GAP_RANGE = range(CLEAR_TABLE_1.map((r) => round1(r.iidInDomain - r.iidNextDomain)));

/** Streaming next-domain − iid next-domain over Table 1's rows, in points: +0.5 to +4.5. */
export const CLEAR_STREAMING_LEAD_RANGE = range(CLEAR_TABLE_1.map((r) => round1(r.streamingNextDomain - r.iidNextDomain)));
