/**
 * The Your-classes lab's per-class bars and matrix cells (pure): the accuracy on every class after the last update,
 * the best it had before, and whether it was forgotten; R as rounded percentages with the class names as headers.
 */
import { forgettingPerTask, FORGETTING_WORDS } from '../../core/own-classes/verdict';

export interface ClassBar {
  name: string;
  /** accuracy now, 0–1, and as the label says it */
  accuracy: number;
  label: string;
  /** its best accuracy before the last step (null for the newest class) */
  before: number | null;
  forgotten: boolean;
}

const pct = (x: number): string => `${Math.round(x * 100)} %`;

export function classBars(matrix: readonly (readonly number[])[], classes: readonly string[]): ClassBar[] {
  const K = matrix.length;
  if (K === 0) return [];
  const f = forgettingPerTask(matrix);
  return classes.slice(0, K).map((name, j) => {
    const before = j < K - 1 ? Math.max(...matrix.slice(j, K - 1).map((r) => r[j])) : null;
    return { name, accuracy: matrix[K - 1][j], label: pct(matrix[K - 1][j]), before, forgotten: f[j] >= FORGETTING_WORDS };
  });
}

/** R's cells as text: '' above the diagonal (classes not taught yet). */
export function matrixCells(matrix: readonly (readonly number[])[]): string[][] {
  return matrix.map((row, i) => row.map((x, j) => (j > i ? '' : pct(x))));
}

/** A histogram of final accuracies over orderings, in bins of 10 points: counts per bin and which bin is the taught one. */
export function finalHistogram(finals: readonly number[], taught: number): { bins: number[]; taughtBin: number } {
  const bin = (x: number) => Math.min(9, Math.floor(x * 10 + 1e-9));
  const bins = new Array<number>(10).fill(0);
  for (const x of finals) bins[bin(x)]++;
  return { bins, taughtBin: bin(taught) };
}

export interface ProtocolRow {
  /** 'Truth', 'EDGE hard · images', 'RS seed 0', … */
  label: string;
  kind: 'truth' | 'edge' | 'edge-names' | 'rs';
  /** the class order in words (the truth: how many orderings) */
  order: string;
  /** its final accuracy (the truth: its range) */
  accuracy: string;
}

type EdgePicks = { hard: readonly number[]; easy: readonly number[]; finals: { hard: number; easy: number } };

/**
 * The every-ordering view's table: the truth's range, EDGE's two orderings on the image prototypes (and on the class
 * names' CLIP text embeddings, when there are some) and RS's, each with its final accuracy.
 */
export function protocolRows(
  truth: { min: number; max: number; orderings: number },
  edge: EdgePicks,
  rs: readonly { seed: number; order: readonly number[]; final: number }[],
  names: readonly string[],
  namesEdge: EdgePicks | null = null,
): ProtocolRow[] {
  const order = (o: readonly number[]) => o.map((c) => names[c]).join(' → ');
  const edgeRows = (e: EdgePicks, kind: 'edge' | 'edge-names', basis: string): ProtocolRow[] => [
    { label: `EDGE hard · ${basis}`, kind, order: order(e.hard), accuracy: pct(e.finals.hard) },
    { label: `EDGE easy · ${basis}`, kind, order: order(e.easy), accuracy: pct(e.finals.easy) },
  ];
  return [
    {
      label: 'Truth',
      kind: 'truth',
      order: `all ${truth.orderings} orderings`,
      accuracy: pct(truth.min) === pct(truth.max) ? `${pct(truth.min)} in all` : `${pct(truth.min)} – ${pct(truth.max)}`,
    },
    ...edgeRows(edge, 'edge', 'images'),
    ...(namesEdge ? edgeRows(namesEdge, 'edge-names', 'names') : []),
    ...rs.map((r): ProtocolRow => ({ label: `RS seed ${r.seed}`, kind: 'rs', order: order(r.order), accuracy: pct(r.final) })),
  ];
}
