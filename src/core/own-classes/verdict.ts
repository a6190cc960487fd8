/**
 * The Your-classes lab's verdicts in words (docs/verdicts.md): after each update (what the model now knows of every
 * class so far, and how much the earlier classes lost), and after the ground truth over every ordering (does the
 * order you taught it matter?). Pure: numbers in, sentences out; class names are the visitor's text and are only
 * ever shown as text.
 */
import type { OwnStrategy } from './strategies';
import type { OwnEdgeBasis } from './edge';
import { grouped } from '../config/limits';
import type { OrderingsOverview } from './order-states';
import { closerToTruth } from './rs';
import { isClosedForm, isPerClass, OWN_STRATEGY_NAMES } from './settings';

const pct = (x: number): string => `${Math.round(x * 100)} %`;

/** Forgetting of task j: its best accuracy before the last step minus its accuracy now (0 for the last task). */
export function forgettingPerTask(matrix: readonly (readonly number[])[]): number[] {
  const K = matrix.length;
  return Array.from({ length: K }, (_, j) => {
    if (j === K - 1) return 0;
    let best = -Infinity;
    for (let i = j; i < K - 1; i++) best = Math.max(best, matrix[i][j]);
    return Math.max(0, best - matrix[K - 1][j]);
  });
}

/** A drop this large (in accuracy) counts as forgetting in words; smaller ones are noise of 10 test images. */
export const FORGETTING_WORDS = 0.2;

export interface UpdateVerdict {
  /** the sentence */
  text: string;
  /** mean forgetting over the earlier classes (0 with one class) */
  meanForgetting: number;
  /** the earlier classes that lost at least FORGETTING_WORDS */
  forgotten: string[];
}

/** What the last update shows: the new class's accuracy, and which earlier classes were forgotten. */
export function updateVerdict(matrix: readonly (readonly number[])[], classes: readonly string[], strategy: OwnStrategy): UpdateVerdict {
  const K = matrix.length;
  if (K === 0) return { text: 'Record a class to start.', meanForgetting: 0, forgotten: [] };
  const last = matrix[K - 1];
  const newest = `“${classes[K - 1]}”`;
  const how = OWN_STRATEGY_NAMES[strategy];
  if (K === 1)
    return {
      text: `With one class, ${newest} is all the model knows: every test image is called ${newest} (${pct(last[0])}). Teach it a second class.`,
      meanForgetting: 0,
      forgotten: [],
    };
  const f = forgettingPerTask(matrix);
  const earlier = f.slice(0, K - 1);
  const meanForgetting = earlier.reduce((s, x) => s + x, 0) / earlier.length;
  const forgotten = classes.slice(0, K - 1).filter((_, j) => f[j] >= FORGETTING_WORDS);
  const mean = last.reduce((s, x) => s + x, 0) / K;
  const head = `After ${newest}, ${how} gets ${pct(last[K - 1])} on it and ${pct(mean)} on all ${K} classes.`;
  if (forgotten.length === 0)
    return {
      text: `${head} The earlier classes kept what they had (largest drop ${pct(Math.max(...earlier))}): no forgetting${isPerClass(strategy) ? `, as ${strategy === 'fecam' ? 'class statistics promise — a new class adds its own mean and covariance' : 'prototypes promise — a new class adds a mean'} and changes none of the old ones` : ''}.`,
      meanForgetting,
      forgotten,
    };
  const listed = forgotten.slice(0, 5).map((n) => `“${n}”`);
  const names =
    forgotten.length > 5 ? `${forgotten.length} of the ${K - 1} earlier classes (${listed.join(', ')} and ${forgotten.length - 5} more)` : listed.join(', ');
  return {
    text: `${head} It forgot ${names} (mean drop over the earlier classes ${pct(meanForgetting)})${strategy === 'finetune' ? ': training only on the new class pulled the head towards it' : ''}.`,
    meanForgetting,
    forgotten,
  };
}

/** The headline of an update: forgotten classes named, or none (at most 30 words with a few short class names). */
export function updateHeadline(v: UpdateVerdict, classes: readonly string[]): string {
  const K = classes.length;
  if (K === 0) return 'Record a class to start.';
  const newest = `“${classes[K - 1]}”`;
  if (K === 1) return `With one class, the model calls every picture ${newest}.`;
  if (v.forgotten.length === 0) return `When ${newest} arrived, every earlier class kept its accuracy: no forgetting.`;
  const named = v.forgotten
    .slice(0, 3)
    .map((n) => `“${n}”`)
    .join(', ');
  const more = v.forgotten.length > 3 ? ` and ${v.forgotten.length - 3} more` : '';
  return `When ${newest} arrived, the model forgot ${named}${more}.`;
}

/** The number an ordering is judged by: final accuracy for a trained head, AIA for a closed-form one. */
export type OrderMetric = 'final' | 'aia';

/**
 * A closed-form head ends every ordering in the same state (the same statistics of the same classes), so its final
 * accuracy is the same in every order and the order shows in AIA, the accuracy along the way; a trained head's final
 * accuracy depends on the order.
 */
export function orderMetricOf(strategy: OwnStrategy): OrderMetric {
  return isClosedForm(strategy) ? 'aia' : 'final';
}

const METRIC_WORDS: Readonly<Record<OrderMetric, string>> = { final: 'final accuracy', aia: 'AIA' };

/** The orderings the overview covers, in words: "all 24 orderings of your 4 classes", "1,000 of the 3.63e6 orderings …". */
function coverage(o: Pick<OrderingsOverview, 'exact' | 'orderings' | 'omega'>, classes: number): string {
  return o.exact
    ? `all ${grouped(o.orderings)} orderings of your ${classes} classes`
    : `${grouped(o.orderings)} orderings drawn at random (seeded) from the ${/e/.test(o.omega) ? o.omega.replace('e', ' × 10^') : grouped(Number(o.omega))} orderings of your ${classes} classes`;
}

/** Below this spread of the judged number (max − min) the order did not matter, in words. */
export const ORDER_MATTERS = 0.05;

/** The lesson's question answered: does the order in which you taught it matter? */
export function orderingsVerdict(o: OrderingsOverview, strategy: OwnStrategy, classes: number): string {
  const how = OWN_STRATEGY_NAMES[strategy];
  const metric = orderMetricOf(strategy);
  const over = `Over ${coverage(o, classes)}`;
  const range = (r: { min: number; max: number; mean: number }) =>
    pct(r.min) === pct(r.max) ? `${pct(r.min)} in every one` : `from ${pct(r.min)} to ${pct(r.max)} (mean ${pct(r.mean)})`;
  const total = o.exact ? grouped(o.orderings) : `${grouped(o.orderings)} drawn`;
  const rank = (better: number) => (better === 0 ? `none of the ${total} did better` : `${grouped(better)} of the ${total} did better`);
  if (metric === 'aia') {
    const flat = pct(o.final.min) === pct(o.final.max);
    const why =
      strategy === 'ranpac'
        ? 'its ridge classifier after the last class differs only by the λ the last class chose'
        : 'after the last class its statistics are the same whatever the order';
    const end = flat ? `${how} ends at ${pct(o.final.max)} in every one — ${why}` : `${how} ends from ${pct(o.final.min)} to ${pct(o.final.max)} (${why})`;
    const spread = o.aia.max - o.aia.min;
    const matters = spread < ORDER_MATTERS ? 'so the order you taught it hardly matters' : `a spread of ${pct(spread)}: the order matters along the way`;
    return `${over}, ${end}. What the order changes is how much it knew along the way: the average incremental accuracy (AIA, each step's accuracy on the classes seen, averaged over the steps) runs ${range(o.aia)}, ${matters}. Your order's AIA is ${pct(o.taught.aia)}; ${rank(o.taught.betterAia)}.`;
  }
  const spread = o.final.max - o.final.min;
  const why = o.final.max < 0.5 ? ', because it forgets in every order alike: the accuracy is low whichever class comes last' : '';
  const aia = ` Its AIA (the accuracy along the way) runs ${range(o.aia)}; yours ${pct(o.taught.aia)}.`;
  if (spread < ORDER_MATTERS) return `${over}, ${how} ends with final accuracy ${range(o.final)}: the order you taught it does not matter${why}.${aia}`;
  return `${over}, ${how} ends with final accuracy ${range(o.final)}: the order matters (a spread of ${pct(spread)}). Yours reached ${pct(o.taught.final)}; ${rank(o.taught.betterFinal)}. One ordering’s number would not have told you this.${aia}`;
}

/** The headline of every ordering's run: does the order matter, by the number the strategy is judged by? */
export function orderingsHeadline(o: OrderingsOverview, strategy: OwnStrategy, classes: number): string {
  const metric = orderMetricOf(strategy);
  const r = metric === 'aia' ? o.aia : o.final;
  const over = o.exact ? `all ${grouped(o.orderings)} orderings` : `${grouped(o.orderings)} sampled orderings`;
  return r.max - r.min < ORDER_MATTERS
    ? `Over ${over} of your ${classes} classes the ${METRIC_WORDS[metric]} moves less than ${Math.round(100 * ORDER_MATTERS)} points: the order hardly matters here.`
    : `The order matters: ${METRIC_WORDS[metric]} ranges from ${pct(r.min)} to ${pct(r.max)} over ${over} of your ${classes} classes.`;
}

/**
 * The joint head beside the one taught class by class: the same linear head and training on every class at once,
 * on the same features (joint training, which class-incremental results are usually set against), one number each.
 */
export function jointVerdict(joint: number, taught: number, strategy: OwnStrategy, classes: number): string {
  const gap = Math.round((taught - joint) * 100);
  const where = gap === 0 ? 'the same' : gap < 0 ? `${-gap} point${gap === -1 ? '' : 's'} below it` : `${gap} point${gap === 1 ? '' : 's'} above it`;
  return `A head trained on all ${classes} classes at once (the same head, training and features, one task: joint training) reaches ${pct(joint)}; ${OWN_STRATEGY_NAMES[strategy]}, taught one class at a time, ends at ${pct(taught)}: ${where}.`;
}

const EDGE_BASIS: Readonly<Record<OwnEdgeBasis, string>> = {
  images: 'EDGE, which orders classes by how alike they look (the cosine of your classes’ mean features),',
  names: 'EDGE on your class names (the cosine of CLIP’s text embeddings of the names, as the paper does it),',
};

/**
 * EDGE's two orderings on the visitor's classes beside the truth (names: the class names in taught order; basis:
 * which similarity EDGE ran on).
 */
export function edgeVerdict(
  edge: { hard: readonly number[]; easy: readonly number[] },
  values: { hard: number; easy: number },
  truth: { min: number; max: number },
  names: readonly string[],
  basis: OwnEdgeBasis = 'images',
  metric: OrderMetric = 'final',
  exact = true,
): string {
  const order = (o: readonly number[]) =>
    o.length > 8
      ? `an order starting ${o
          .slice(0, 3)
          .map((c) => `“${names[c]}”`)
          .join(' → ')} …`
      : o.map((c) => `“${names[c]}”`).join(' → ');
  const same = pct(values.hard) === pct(values.easy);
  const m = METRIC_WORDS[metric];
  const reached = metric === 'final' ? 'it reached' : 'AIA';
  const range = pct(truth.min) === pct(truth.max) ? `is ${pct(truth.min)} in every one` : `ranges from ${pct(truth.min)} to ${pct(truth.max)}`;
  return `${EDGE_BASIS[basis]} calls ${order(edge.hard)} hard (${reached} ${pct(values.hard)}) and ${order(edge.easy)} easy (${pct(values.easy)}); ${exact ? 'every ordering’s' : 'the sampled orderings’'} ${m} ${range}${same ? ', so its two picks do not tell hard from easy here' : values.hard < values.easy ? ': its hard pick did worse than its easy one, as EDGE intends' : ': its hard pick did better than its easy one, the opposite of what EDGE intends'}.`;
}

/**
 * RS's seeded orderings beside EDGE's two and the truth: each protocol's range of final accuracy as its estimate of
 * the truth's range, and which is closer (the gaps at the bottom and top added up). `rs` in the seeds' order.
 */
export function rsVerdict(
  rs: readonly { seed: number; order: readonly number[]; value: number }[],
  edgeValues: { hard: number; easy: number },
  s: { min: number; max: number },
  metric: OrderMetric = 'final',
  exact = true,
): string {
  const rsValues = rs.map((r) => r.value);
  const rsRange = { min: Math.min(...rsValues), max: Math.max(...rsValues) };
  const edgeRange = { min: Math.min(edgeValues.hard, edgeValues.easy), max: Math.max(edgeValues.hard, edgeValues.easy) };
  const c = closerToTruth(edgeRange, rsRange, s);
  const seeds = rs.map((r) => `seed ${r.seed}: ${pct(r.value)}`).join(', ');
  const span = (r: { min: number; max: number }) => (r.max - r.min < 0.005 ? `all at ${pct(r.min)}` : `${pct(r.min)} to ${pct(r.max)}`);
  const which =
    c.closer === 'tie'
      ? 'the two are equally close to the truth’s range'
      : `${c.closer === 'edge' ? 'EDGE' : 'RS'}’s is closer to the truth’s range (off by ${pts(Math.min(c.edgeError, c.rsError))} at the two ends together; ${c.closer === 'edge' ? 'RS' : 'EDGE'} by ${pts(Math.max(c.edgeError, c.rsError))})`;
  const truth = exact ? 'the truth' : 'the sample';
  return `RS, the random orderings papers usually report (${METRIC_WORDS[metric]} ${seeds}), spans ${span(rsRange)}; EDGE’s two span ${span(edgeRange)}; ${truth} spans ${span(s)}: ${which.replace(/the truth’s range/g, `${truth}’s range`)}.`;
}

const pts = (x: number): string => `${Math.round(x * 100)} points`;
