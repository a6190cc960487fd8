/**
 * Which orderings of the visitor's classes the lab evaluates (docs/science.md §10, "What if you had taught them in
 * another order?"), one class per task: every ordering while they are few enough — a closed-form head up to
 * OWN_LIMITS.exactClasses classes (8! = 40 320 orderings from 2^8 states), the trained head, which trains each
 * ordering, up to OWN_LIMITS.headExactClasses (6! = 720 runs) — and beyond, a seeded uniform sample; and the numbers
 * of the orders the protocols pick (EDGE's two, RS's), gathered for the verdicts.
 */
import { OWN_CLASSES_LIMITS as OWN_LIMITS } from '../config/limits';
import { isHeadStrategy, type OwnStrategy } from './strategies';
import { enumerateOrderings } from '../orderings/enumerate';
import { sampleOrderingsByShuffle } from '../orderings/sample';
import type { OwnEdge } from './edge';
import { factorialText, type OrderingNumbers, type OrderingsOverview } from './order-states';
import { edgeVerdict, orderingsVerdict, orderMetricOf, rsVerdict, type OrderMetric } from './verdict';

/** Orderings a closed-form head evaluates by default beyond the exact bound (the page's; the CLI takes a count). */
export const OWN_SAMPLE_DEFAULT = 1000;

/** Every class order of C classes in rank order (the first is the teaching order). */
export function everyOwnOrder(C: number): number[][] {
  return [...enumerateOrderings(new Array<number>(C).fill(1))].map((o) => o.map((t) => t[0]));
}

export interface OwnOrderingsPlan {
  exact: boolean;
  /** the sample (a closed-form head beyond the exact bound), drawn with default_rng(seed) */
  sample: { count: number; seed: number } | null;
  /** the orders the trained head trains for the overview (exact: every one, the teaching order first; else the
   *  sample, which the teaching order is measured against like the protocols' picks) */
  headOrders: number[][] | null;
  /** C!, in words */
  omega: string;
}

/**
 * The plan for C classes: exact when the strategy's bound allows and no sample is asked for (`count`: a sample of
 * that many even when every ordering could be taken; absent: every ordering up to the bound, else the default sample).
 */
export function ownOrderingsPlan(C: number, strategy: OwnStrategy, seed: number, count?: number): OwnOrderingsPlan {
  if (!Number.isInteger(C) || C < 2) throw new RangeError(`Orderings need at least 2 classes with all their samples; there are ${C}.`);
  const head = isHeadStrategy(strategy);
  const exactBound = head ? OWN_LIMITS.headExactClasses : OWN_LIMITS.exactClasses;
  const maxSample = head ? OWN_LIMITS.headSampledOrderings : OWN_LIMITS.sampledOrderings;
  const omega = factorialText(C);
  if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > maxSample))
    throw new RangeError(`A sample of orderings takes 1 to ${maxSample} of them${head ? ' for a trained head (each is a training run)' : ''}; got ${count}.`);
  const exact = count === undefined && C <= exactBound;
  if (exact) return { exact, sample: null, headOrders: head ? everyOwnOrder(C) : null, omega };
  const total = /e/.test(omega) ? Infinity : Number(omega);
  const n = Math.min(count ?? (head ? maxSample : OWN_SAMPLE_DEFAULT), total);
  const sample = { count: n, seed };
  if (!head) return { exact: false, sample, headOrders: null, omega };
  const drawn = sampleOrderingsByShuffle(new Array<number>(C).fill(1), n, seed).map((o) => o.map((t) => t[0]));
  return { exact: false, sample, headOrders: drawn, omega };
}

/** A protocol's pick with its numbers. */
export interface PickedOrder extends OrderingNumbers {
  order: number[];
}

/** Everything the every-ordering view and `--orderings` print: the overview, the metric judged, EDGE's and RS's picks. */
export interface OwnOrderingsResult {
  overview: OrderingsOverview;
  metric: OrderMetric;
  edge: { hard: PickedOrder; easy: PickedOrder };
  rs: (PickedOrder & { seed: number })[];
  /** EDGE on the class names' CLIP text embeddings, when there are some */
  namesEdge?: { hard: PickedOrder; easy: PickedOrder };
}

/** The orders whose numbers the protocols need, in a fixed layout: EDGE hard, easy, then RS's (then names' EDGE). */
export function pickOrders(edge: OwnEdge, rs: readonly { seed: number; order: number[] }[], namesEdge: OwnEdge | null): number[][] {
  return [edge.hard, edge.easy, ...rs.map((r) => r.order), ...(namesEdge ? [namesEdge.hard, namesEdge.easy] : [])];
}

/** The result from the overview and the numbers of `pickOrders`' orders (same layout). */
export function ownOrderingsResult(
  overview: OrderingsOverview,
  strategy: OwnStrategy,
  edge: OwnEdge,
  rs: readonly { seed: number; order: number[] }[],
  namesEdge: OwnEdge | null,
  numbers: readonly OrderingNumbers[],
): OwnOrderingsResult {
  const orders = pickOrders(edge, rs, namesEdge);
  if (numbers.length !== orders.length) throw new RangeError(`${numbers.length} numbers for ${orders.length} picked orders.`);
  const picked = orders.map((order, i): PickedOrder => ({ order: [...order], final: numbers[i].final, aia: numbers[i].aia }));
  const k = 2 + rs.length;
  return {
    overview,
    metric: orderMetricOf(strategy),
    edge: { hard: picked[0], easy: picked[1] },
    rs: rs.map((r, i) => ({ ...picked[2 + i], seed: r.seed })),
    ...(namesEdge ? { namesEdge: { hard: picked[k], easy: picked[k + 1] } } : {}),
  };
}

/** The numbers of `orders` among runs the trained head trained (each order must be among them). */
export function numbersAmongRuns(
  runs: readonly { order: readonly number[]; finalAccuracy: number; aia: number }[],
  orders: readonly (readonly number[])[],
): OrderingNumbers[] {
  const byKey = new Map(runs.map((r) => [r.order.join(','), r]));
  return orders.map((o) => {
    const r = byKey.get(o.join(','));
    if (!r) throw new RangeError(`The ordering ${o.join(',')} is not among the runs.`);
    return { final: r.finalAccuracy, aia: r.aia };
  });
}

/** The every-ordering verdict's sentences (ids as the page's verdict box takes them): the answer, EDGE, RS, EDGE on names. */
export function orderingsSentences(r: OwnOrderingsResult, strategy: OwnStrategy, names: readonly string[]): { id: string; text: string }[] {
  const m = r.metric;
  const truth = r.overview[m];
  const values = (e: { hard: PickedOrder; easy: PickedOrder }) => ({ hard: e.hard[m], easy: e.easy[m] });
  const out = [
    { id: 'own-orderings', text: orderingsVerdict(r.overview, strategy, names.length) },
    { id: 'own-edge', text: edgeVerdict({ hard: r.edge.hard.order, easy: r.edge.easy.order }, values(r.edge), truth, names, 'images', m, r.overview.exact) },
    {
      id: 'own-rs',
      text: rsVerdict(
        r.rs.map((x) => ({ seed: x.seed, order: x.order, value: x[m] })),
        values(r.edge),
        truth,
        m,
        r.overview.exact,
      ),
    },
  ];
  if (r.namesEdge)
    out.push({
      id: 'own-edge-names',
      text: edgeVerdict({ hard: r.namesEdge.hard.order, easy: r.namesEdge.easy.order }, values(r.namesEdge), truth, names, 'names', m, r.overview.exact),
    });
  return out;
}
