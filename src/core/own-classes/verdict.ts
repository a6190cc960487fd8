/**
 * The Your-classes lab's verdicts in words (docs/verdicts.md): after each update (what the model now knows of every
 * class so far, and how much the earlier classes lost), and after the ground truth over every ordering (does the
 * order you taught it matter?). Pure: numbers in, sentences out; class names are the visitor's text and are only
 * ever shown as text.
 */
import type { OwnStrategy } from '../config/sections/own-classes';
import type { OwnEdgeBasis } from './edge';
import { closerToTruth } from './rs';
import { OWN_STRATEGY_NAMES } from './settings';

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
      text: `${head} The earlier classes kept what they had (largest drop ${pct(Math.max(...earlier))}): no forgetting${strategy === 'simplecil' ? ', as prototypes promise — a new class adds a mean and changes none of the old ones' : ''}.`,
      meanForgetting,
      forgotten,
    };
  const names = forgotten.map((n) => `“${n}”`).join(', ');
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
  return `When ${newest} arrived, the model forgot ${v.forgotten.map((n) => `“${n}”`).join(', ')}.`;
}

/** The headline of every ordering's run: does the order matter? */
export function orderingsHeadline(s: OrderingsSummary): string {
  return s.max - s.min < ORDER_MATTERS
    ? `Over all ${s.orderings} orderings of your classes the final accuracy moves less than ${Math.round(100 * ORDER_MATTERS)} points: the order does not matter here.`
    : `The order matters: final accuracy ranges from ${pct(s.min)} to ${pct(s.max)} over all ${s.orderings} orderings of your classes.`;
}

export interface OrderingsSummary {
  orderings: number;
  min: number;
  max: number;
  mean: number;
  /** the taught ordering's final accuracy and how many orderings did strictly better */
  taught: number;
  better: number;
}

/** Final accuracies over orderings (`taughtIndex` is the visitor's own ordering among them). */
export function summariseOrderings(finals: readonly number[], taughtIndex: number): OrderingsSummary {
  const taught = finals[taughtIndex];
  return {
    orderings: finals.length,
    min: Math.min(...finals),
    max: Math.max(...finals),
    mean: finals.reduce((s, x) => s + x, 0) / finals.length,
    taught,
    better: finals.filter((x) => x > taught + 1e-12).length,
  };
}

/** Below this spread of final accuracy (max − min) the order did not matter, in words. */
export const ORDER_MATTERS = 0.05;

/** The lesson's question answered: does the order in which you taught it matter? */
export function orderingsVerdict(s: OrderingsSummary, strategy: OwnStrategy): string {
  const how = OWN_STRATEGY_NAMES[strategy];
  const spread = s.max - s.min;
  const range =
    pct(s.min) === pct(s.max) ? `final accuracy ${pct(s.min)} in every one` : `final accuracy from ${pct(s.min)} to ${pct(s.max)} (mean ${pct(s.mean)})`;
  const why =
    strategy === 'simplecil'
      ? ' — the prototypes after the last class are the same whatever the order'
      : s.max < 0.5
        ? ', because it forgets in every order alike: the accuracy is low whichever class comes last'
        : '';
  if (spread < ORDER_MATTERS)
    return `Over all ${s.orderings} orderings of your classes, ${how} ends with ${range}: the order you taught it does not matter${why}.`;
  const rank = s.better === 0 ? 'no ordering did better than yours' : `${s.better} of ${s.orderings} orderings did better than yours`;
  return `Over all ${s.orderings} orderings of your classes, ${how} ends with ${range}: the order matters (a spread of ${pct(spread)}). Yours reached ${pct(s.taught)}; ${rank}. One ordering’s number would not have told you this.`;
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
  finals: { hard: number; easy: number },
  s: OrderingsSummary,
  names: readonly string[],
  basis: OwnEdgeBasis = 'images',
): string {
  const order = (o: readonly number[]) => o.map((c) => `“${names[c]}”`).join(' → ');
  const same = finals.hard === finals.easy;
  return `${EDGE_BASIS[basis]} calls ${order(edge.hard)} hard (it reached ${pct(finals.hard)}) and ${order(edge.easy)} easy (${pct(finals.easy)}); every ordering ranges from ${pct(s.min)} to ${pct(s.max)}${same ? ', so its two picks do not tell hard from easy here' : finals.hard < finals.easy ? ': its hard pick did worse than its easy one, as EDGE intends' : ': its hard pick did better than its easy one, the opposite of what EDGE intends'}.`;
}

/**
 * RS's seeded orderings beside EDGE's two and the truth: each protocol's range of final accuracy as its estimate of
 * the truth's range, and which is closer (the gaps at the bottom and top added up). `rs` in the seeds' order.
 */
export function rsVerdict(
  rs: readonly { seed: number; order: readonly number[]; final: number }[],
  edgeFinals: { hard: number; easy: number },
  s: OrderingsSummary,
): string {
  const rsFinals = rs.map((r) => r.final);
  const rsRange = { min: Math.min(...rsFinals), max: Math.max(...rsFinals) };
  const edgeRange = { min: Math.min(edgeFinals.hard, edgeFinals.easy), max: Math.max(edgeFinals.hard, edgeFinals.easy) };
  const c = closerToTruth(edgeRange, rsRange, s);
  const seeds = rs.map((r) => `seed ${r.seed}: ${pct(r.final)}`).join(', ');
  const span = (r: { min: number; max: number }) => (r.max - r.min < 0.005 ? `all at ${pct(r.min)}` : `${pct(r.min)} to ${pct(r.max)}`);
  const which =
    c.closer === 'tie'
      ? 'the two are equally close to the truth’s range'
      : `${c.closer === 'edge' ? 'EDGE' : 'RS'}’s is closer to the truth’s range (off by ${pts(Math.min(c.edgeError, c.rsError))} at the two ends together; ${c.closer === 'edge' ? 'RS' : 'EDGE'} by ${pts(Math.max(c.edgeError, c.rsError))})`;
  return `RS, the random orderings papers usually report (${seeds}), spans ${span(rsRange)}; EDGE’s two span ${span(edgeRange)}; the truth spans ${span(s)}: ${which}.`;
}

const pts = (x: number): string => `${Math.round(x * 100)} points`;
