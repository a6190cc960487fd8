/**
 * A lesson's expected finding as data the app checks: a short list of templates, each a predicate over one lab's
 * observation (./observations.ts) with a sentence that says what students should see. `checkExpectation` says whether
 * a run shows it, with the numbers; a built-in lesson carries one or more (all must hold), a teacher's lesson picks
 * from `expectationChoices(lab, config)`.
 *
 * Every check is "waiting" until the run has what it needs (all planned runs finished), so a half-trained lesson is
 * never called wrong.
 *
 * Layering: pure TS, imports only src/core.
 */
import { experimentClassNames } from '../config/derived';
import type { ExperimentConfig, LabId } from '../config/types';
import { quantileSorted } from '../stats/quantile';
import type { LessonObservation } from './observations';
import { strategyWord } from '../verdict/wording';
import { spearman } from '../stats/spearman';

export type Expectation =
  /** Ground truth: `label`'s accuracy lies outside the middle `middle` share of every ordering's accuracy. */
  | { kind: 'draw-outside-middle'; strategy: string; label: string; middle: number }
  /** Ground truth: the RS draws span less than `share` of the range of every ordering's accuracy. */
  | { kind: 'rs-span-below'; strategy: string; share: number }
  /** Ground truth: `better`'s mean accuracy over every ordering is at least `points` above `worse`'s. */
  | { kind: 'mean-above'; better: string; worse: string; points: number }
  /** Ground truth: `strategy`'s mean accuracy over every ordering is within `points` of `value` (all 0–1). */
  | { kind: 'mean-near'; strategy: string; value: number; points: number; why?: string }
  /** Ground truth: `narrow`'s accuracies (over every ordering) spread less (max − min) than `wide`'s. */
  | { kind: 'narrower'; narrow: string; wide: string }
  /** Ground truth: `strategy`'s accuracies over every ordering spread (max − min) by less than `points` (0–1). */
  | { kind: 'spread-below'; strategy: string; points: number }
  /** Ground truth: `strategy`'s accuracies over every ordering spread (max − min) by at least `points` (0–1). */
  | { kind: 'spread-above'; strategy: string; points: number }
  /**
   * Ground truth: whether the orderings' accuracies under strategies `a` and `b` rise and fall together — Spearman's
   * rank correlation over the orderings positive with p < 0.05 (`agree`), or not (`agree` false).
   */
  | { kind: 'orders-agree'; a: string; b: string; agree: boolean }
  /** Orderings: classes `a` and `b` (by name) share a task in the ordering `label` (or not, `together` false). */
  | { kind: 'pair-task'; label: string; a: string; b: string; together: boolean }
  /** Orderings: S of `higher` is above S of `lower`. */
  | { kind: 'score-above'; higher: string; lower: string }
  /** Forgetting: in every seed, from task `from` to task `to` (1-based), a_prev falls by `drop` or more and CPCF rises. */
  | { kind: 'cpcf-rises'; from: number; to: number; drop: number }
  /** Time: in every seed, iid in-domain accuracy is at least `points` above next-domain accuracy. */
  | { kind: 'domain-gap'; points: number }
  /** Time: in every seed, streaming's next-domain accuracy is at least `points` above iid's (negative: at most below). */
  | { kind: 'streaming-ahead'; points: number }
  /** Time: with Alg. 1 at `alpha`, bucket `bucket` (1-based) makes up between `min` and `max` of the memory after the last bucket. */
  | { kind: 'reservoir-share'; alpha: string; bucket: number; min: number; max: number }
  /** Open world: after every step from `fromStep` (1-based), the newest task's classes take the largest share of `set`'s samples (mean over seeds). */
  | { kind: 'newest-takes-ood'; set: string; fromStep: number }
  /**
   * Curriculum: the lead of `first` (M2I, easy first, by default; or I2M, hard first) over the other order in ACC (CIL,
   * mean over seeds) is no more than ACC₀'s weighting predicts for it: that order learns nothing beyond the weighting.
   */
  | { kind: 'within-weighting'; first?: 'm2i' | 'i2m' }
  /**
   * Your classes: when class `at` (1-based) arrives under `strategy`, the classes before it lose `drop` or more of
   * their accuracy (the largest loss: R[at−2][j] − R[at−1][j]) when `forgets`, or all lose less when not.
   */
  | { kind: 'class-forgotten'; strategy: string; at: number; drop: number; forgets: boolean };

export type ExpectationKind = Expectation['kind'];

/** The lab each template reads. */
export const EXPECTATION_LAB: Readonly<Record<ExpectationKind, LabId>> = {
  'draw-outside-middle': 'ground-truth',
  'rs-span-below': 'ground-truth',
  'mean-above': 'ground-truth',
  narrower: 'ground-truth',
  'spread-below': 'ground-truth',
  'spread-above': 'ground-truth',
  'mean-near': 'ground-truth',
  'orders-agree': 'ground-truth',
  'pair-task': 'orderings',
  'score-above': 'orderings',
  'cpcf-rises': 'forgetting',
  'domain-gap': 'time',
  'streaming-ahead': 'time',
  'reservoir-share': 'time',
  'newest-takes-ood': 'open-world',
  'within-weighting': 'curriculum',
  'class-forgotten': 'own-classes',
};

export interface ExpectationCheck {
  status: 'holds' | 'fails' | 'waiting';
  /** what was seen, with its numbers ("RS seed 0: 71.2 %, the middle 50 %: 74.0–80.1 %") */
  detail: string;
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const pts = (v: number) => `${(100 * v).toFixed(1)} points`;
const strategyName = strategyWord;

/** What students should see, in one sentence. */
export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'draw-outside-middle':
      return `${e.label}'s accuracy (${strategyName(e.strategy)}) lies outside the middle ${Math.round(100 * e.middle)} % of all orderings' accuracies.`;
    case 'rs-span-below':
      return `The RS orderings (${strategyName(e.strategy)}) span less than ${Math.round(100 * e.share)} % of the range of all orderings' accuracies.`;
    case 'mean-above':
      return `${cap(strategyName(e.better))} is at least ${Math.round(100 * e.points)} points above ${strategyName(e.worse)} on average over all orderings.`;
    case 'narrower':
      return `${cap(strategyName(e.narrow))}'s accuracies spread over a narrower range than ${strategyName(e.wide)}'s.`;
    case 'spread-below':
      return `Every order ends ${strategyName(e.strategy)} at the same accuracy: its accuracies over all orderings span less than ${spreadPts(e.points)}.`;
    case 'mean-near':
      return `${cap(strategyName(e.strategy))}'s mean accuracy over all orderings is within ${Math.round(100 * e.points)} points of ${pct(e.value)}${e.why ? `: ${e.why}` : ''}.`;
    case 'spread-above':
      return `The order alone moves ${strategyName(e.strategy)}'s accuracy by ${spreadPts(e.points)} or more over all orderings: one order's number could land anywhere in that range.`;
    case 'orders-agree':
      return e.agree
        ? `The orders that are hard for ${strategyName(e.a)} are hard for ${strategyName(e.b)} too: their accuracies over the orderings rise and fall together (Spearman's ρ > 0, p < 0.05).`
        : `Which order is hard depends on the strategy: the orderings' accuracies under ${strategyName(e.a)} and ${strategyName(e.b)} do not rise and fall together (Spearman's ρ not positive at p < 0.05).`;
    case 'pair-task':
      return `${e.label} puts ${e.a} and ${e.b} ${e.together ? 'in the same task' : 'in different tasks'}.`;
    case 'score-above':
      return `${e.higher} has a higher S (similar classes spread apart) than ${e.lower}.`;
    case 'cpcf-rises':
      return `In every seed, from task ${e.from} to task ${e.to}, old-task accuracy a_prev falls by ${Math.round(100 * e.drop)} points or more while CPCF rises.`;
    case 'domain-gap':
      return `In every seed, iid in-domain accuracy is at least ${Math.round(100 * e.points)} points above next-domain accuracy.`;
    case 'streaming-ahead':
      return e.points >= 0
        ? `In every seed, streaming's next-domain accuracy is at least ${Math.round(100 * e.points)} points above iid's.`
        : `In every seed, streaming's next-domain accuracy is at most ${Math.round(-100 * e.points)} points below iid's.`;
    case 'reservoir-share':
      return `With α = ${e.alpha}, bucket ${e.bucket} makes up ${Math.round(100 * e.min)}–${Math.round(100 * e.max)} % of the memory after the last bucket.`;
    case 'newest-takes-ood':
      return `From step ${e.fromStep} on, most of ${e.set}'s unknown samples are predicted as the newest task's classes.`;
    case 'class-forgotten':
      return e.forgets
        ? `Under ${strategyName(e.strategy)}, when class ${e.at} arrives, an earlier class loses ${Math.round(100 * e.drop)} points or more of its accuracy: it is forgotten.`
        : `Under ${strategyName(e.strategy)}, when class ${e.at} arrives, every earlier class keeps its accuracy (each loses less than ${Math.round(100 * e.drop)} points).`;
    case 'within-weighting':
      return e.first === 'i2m'
        ? 'I2M’s lead over M2I in ACC is no larger than ACC₀’s weighting alone predicts for it (mean over seeds): hard first does not learn better.'
        : 'M2I’s lead over I2M in ACC is no larger than ACC₀’s weighting alone predicts (mean over seeds): easy first does not learn better.';
  }
}

/** A spread bound in points, with the decimals it needs (0.1 points, not "0 points"). */
const spreadPts = (v: number) => `${+(100 * v).toFixed(2)} points`;
/** Capitalised for the start of a sentence; a name with a capital inside (iCaRL) stays as it is. */
const cap = (s: string) => (/^[a-z][A-Z]/.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1));
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const waiting = (detail: string): ExpectationCheck => ({ status: 'waiting', detail });
const verdict = (ok: boolean, detail: string): ExpectationCheck => ({ status: ok ? 'holds' : 'fails', detail });

/** Whether the observation shows the expected finding. */
export function checkExpectation(e: Expectation, o: LessonObservation | null): ExpectationCheck {
  if (!o || o.lab !== EXPECTATION_LAB[e.kind]) return waiting('Run the experiment to see.');
  switch (e.kind) {
    case 'draw-outside-middle':
    case 'rs-span-below':
    case 'mean-above':
    case 'narrower':
    case 'spread-below':
    case 'spread-above':
    case 'mean-near':
    case 'orders-agree': {
      if (o.lab !== 'ground-truth') break;
      const full = (id: string) => {
        const s = o.strategies.find((x) => x.strategy === id);
        return s && s.truth.length >= s.planned && s.truth.length > 1 ? s : null;
      };
      if (e.kind === 'draw-outside-middle') {
        const s = full(e.strategy);
        const v = s?.draws.find((d) => d.label === e.label)?.value;
        if (!s || v === null || v === undefined) return waiting(`Waiting for every ordering of ${strategyName(e.strategy)}.`);
        const sorted = [...s.truth].sort((a, b) => a - b);
        const lo = quantileSorted(sorted, (1 - e.middle) / 2);
        const hi = quantileSorted(sorted, (1 + e.middle) / 2);
        return verdict(v < lo || v > hi, `${e.label}: ${pct(v)}; the middle ${Math.round(100 * e.middle)} %: ${pct(lo)}–${pct(hi)}.`);
      }
      if (e.kind === 'rs-span-below') {
        const s = full(e.strategy);
        const rs = s?.draws.filter((d) => d.label.startsWith('RS')).map((d) => d.value);
        if (!s || !rs || rs.length < 2 || rs.some((v) => v === null)) return waiting(`Waiting for every ordering of ${strategyName(e.strategy)}.`);
        const vs = rs as number[];
        const span = Math.max(...vs) - Math.min(...vs);
        const range = Math.max(...s.truth) - Math.min(...s.truth);
        return verdict(span < e.share * range, `The RS orderings span ${pts(span)}; all orderings span ${pts(range)}.`);
      }
      if (e.kind === 'spread-below' || e.kind === 'spread-above') {
        const s = full(e.strategy);
        if (!s) return waiting(`Waiting for every ordering of ${strategyName(e.strategy)}.`);
        const lo = Math.min(...s.truth);
        const hi = Math.max(...s.truth);
        return verdict(
          e.kind === 'spread-below' ? hi - lo < e.points : hi - lo >= e.points,
          `${cap(strategyName(e.strategy))}: ${pct(lo)} to ${pct(hi)} over ${s.truth.length} orderings, a spread of ${pts(hi - lo)}.`,
        );
      }
      if (e.kind === 'mean-near') {
        const s = full(e.strategy);
        if (!s) return waiting(`Waiting for every ordering of ${strategyName(e.strategy)}.`);
        const m = mean(s.truth);
        return verdict(Math.abs(m - e.value) <= e.points, `${cap(strategyName(e.strategy))}: ${pct(m)} on average over ${s.truth.length} orderings.`);
      }
      if (e.kind === 'orders-agree') {
        const a = full(e.a);
        const b = full(e.b);
        if (!a || !b) return waiting('Waiting for every ordering of both strategies.');
        if (!a.keys || !b.keys) return { status: 'fails', detail: 'The orderings of the two strategies cannot be matched.' };
        const at = new Map(b.keys.map((k, i) => [k, b.truth[i]]));
        const pairs = a.keys.flatMap((k, i) => (at.has(k) ? [[a.truth[i], at.get(k)!] as const] : []));
        if (pairs.length < 4) return { status: 'fails', detail: 'Too few orderings trained with both strategies.' };
        const r = spearman(
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
        );
        const agree = r.statistic > 0 && r.pvalue < 0.05;
        return verdict(
          agree === e.agree,
          `Spearman's ρ between ${strategyName(e.a)} and ${strategyName(e.b)} over ${pairs.length} orderings: ${r.statistic.toFixed(2)} (p ${r.pvalue < 0.001 ? '< 0.001' : `= ${r.pvalue.toFixed(3)}`}).`,
        );
      }
      const a = full(e.kind === 'mean-above' ? e.better : e.narrow);
      const b = full(e.kind === 'mean-above' ? e.worse : e.wide);
      if (!a || !b) return waiting('Waiting for every ordering of both strategies.');
      if (e.kind === 'mean-above') {
        const d = mean(a.truth) - mean(b.truth);
        return verdict(d >= e.points, `${cap(strategyName(e.better))}: ${pct(mean(a.truth))}; ${strategyName(e.worse)}: ${pct(mean(b.truth))}.`);
      }
      const ra = Math.max(...a.truth) - Math.min(...a.truth);
      const rb = Math.max(...b.truth) - Math.min(...b.truth);
      return verdict(ra < rb, `${cap(strategyName(e.narrow))} spans ${pts(ra)}; ${strategyName(e.wide)} spans ${pts(rb)}.`);
    }
    case 'pair-task':
    case 'score-above': {
      if (o.lab !== 'orderings') break;
      const byLabel = (label: string) => o.orderings.find((x) => x.label === label);
      if (e.kind === 'score-above') {
        const h = byLabel(e.higher);
        const l = byLabel(e.lower);
        if (!h || !l) return waiting(`Waiting for ${e.higher} and ${e.lower}.`);
        return verdict(h.score > l.score, `S(${e.higher}) = ${h.score.toFixed(4)}; S(${e.lower}) = ${l.score.toFixed(4)}.`);
      }
      const ord = byLabel(e.label);
      const index = (name: string) => Object.entries(o.classNames).find(([, n]) => n === name)?.[0];
      const ia = index(e.a);
      const ib = index(e.b);
      if (!ord) return waiting(`Waiting for ${e.label}.`);
      if (ia === undefined || ib === undefined) return { status: 'fails', detail: `This experiment has no class named ${ia === undefined ? e.a : e.b}.` };
      const taskOf = (c: number) => ord.tasks.findIndex((t) => t.includes(c));
      const ta = taskOf(Number(ia));
      const tb = taskOf(Number(ib));
      return verdict((ta === tb) === e.together, `${e.label}: ${e.a} in task ${ta + 1}, ${e.b} in task ${tb + 1}.`);
    }
    case 'cpcf-rises': {
      if (o.lab !== 'forgetting') break;
      const i = e.from - 2;
      const j = e.to - 2;
      const done = o.runs.filter((r) => r.cpcf.length > j && r.aPrev.length > j);
      if (done.length === 0 || done.length < o.planned) return waiting('Waiting for every seed to finish.');
      const bad = done.filter((r) => !(r.aPrev[i] - r.aPrev[j] >= e.drop && r.cpcf[j] > r.cpcf[i]));
      const shown = (bad[0] ?? done[0])!;
      return verdict(
        bad.length === 0,
        `${bad.length === 0 ? `All ${done.length}` : `${bad.length} of ${done.length}`} seed${done.length > 1 ? 's' : ''} ${bad.length === 0 ? 'show it' : 'do not'}; seed ${shown.seed}: a_prev ${pct(shown.aPrev[i])} → ${pct(shown.aPrev[j])}, CPCF ${shown.cpcf[i].toFixed(2)} → ${shown.cpcf[j].toFixed(2)}.`,
      );
    }
    case 'reservoir-share': {
      if (o.lab !== 'time') break;
      const row = o.sweep?.find((s) => s.alpha === e.alpha);
      if (!row) return waiting('Press “Every α” to run Alg. 1 with every α.');
      const total = row.last.reduce((a, b) => a + b, 0);
      const share = total > 0 ? (row.last[e.bucket - 1] ?? 0) / total : 0;
      return verdict(share >= e.min && share <= e.max, `With α = ${e.alpha}, bucket ${e.bucket}: ${pct(share)} of the memory.`);
    }
    case 'domain-gap':
    case 'streaming-ahead': {
      if (o.lab !== 'time') break;
      if (o.runs.length === 0 || o.runs.length < o.planned) return waiting('Waiting for every run to finish.');
      const iid = o.runs.filter((r) => r.protocol === 'iid');
      if (e.kind === 'domain-gap') {
        const gaps = iid.filter((r) => r.inDomain !== null && r.nextDomain !== null).map((r) => (r.inDomain as number) - (r.nextDomain as number));
        if (gaps.length === 0) return { status: 'fails', detail: 'No iid run: the gap needs the iid protocol.' };
        return verdict(Math.min(...gaps) >= e.points, `In-domain − next-domain: ${gaps.map((g) => (100 * g).toFixed(1)).join(', ')} points.`);
      }
      const leads = iid.flatMap((r) => {
        const s = o.runs.find((x) => x.protocol === 'streaming' && x.seed === r.seed);
        return s && s.nextDomain !== null && r.nextDomain !== null ? [s.nextDomain - r.nextDomain] : [];
      });
      if (leads.length === 0) return { status: 'fails', detail: 'Needs iid and streaming runs of the same seed.' };
      return verdict(Math.min(...leads) >= e.points, `Streaming − iid next-domain: ${leads.map((g) => (100 * g).toFixed(1)).join(', ')} points.`);
    }
    case 'newest-takes-ood': {
      if (o.lab !== 'open-world') break;
      if (o.runs.length === 0 || o.runs.length < o.planned) return waiting('Waiting for every seed to finish.');
      const steps = Math.min(...o.runs.map((r) => r.steps.length));
      if (steps < e.fromStep) return waiting('Waiting for the steps.');
      const seen: string[] = [];
      let ok = true;
      for (let s = e.fromStep - 1; s < steps; s++) {
        const shares = o.runs.map((r) => r.steps[s].assignment[e.set]);
        if (shares.some((x) => !x)) return { status: 'fails', detail: `This experiment has no OOD set ${e.set}.` };
        const m = (shares[0] as readonly number[]).map((_, t) => mean(shares.map((x) => (x as readonly number[])[t] ?? 0)));
        const newest = m[s] ?? 0;
        if (!(newest >= Math.max(...m))) ok = false;
        seen.push(`step ${s + 1}: ${pct(newest)}`);
      }
      return verdict(ok, `The newest task's share of ${e.set}: ${seen.join(', ')}.`);
    }
    case 'within-weighting': {
      if (o.lab !== 'curriculum') break;
      if (!o.complete) return waiting('Waiting for every seed to finish.');
      const p = o.pairs.find((x) => x.scenario === 'cil') ?? o.pairs[0];
      if (!p) return { status: 'fails', detail: 'Needs both orders (M2I and I2M).' };
      const sign = (v: number) => (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(1);
      const flip = e.first === 'i2m' ? -1 : 1;
      return verdict(
        flip * p.deltaAcc <= flip * p.deltaAcc0,
        `M2I − I2M in final accuracy (ΔACC): ${sign(p.deltaAcc)} points; by the weighting alone (ΔACC₀): ${sign(p.deltaAcc0)} points.`,
      );
    }
    case 'class-forgotten': {
      if (o.lab !== 'own-classes') break;
      const r = o.runs.find((x) => x.strategy === e.strategy && x.matrix.length >= e.at);
      if (!r || e.at < 2) return waiting(`Waiting for ${e.at} classes trained with ${strategyName(e.strategy)}.`);
      const before = r.matrix[e.at - 2];
      const after = r.matrix[e.at - 1];
      const losses = r.classes.slice(0, e.at - 1).map((name, j) => ({ name, loss: before[j] - after[j] }));
      const worst = losses.reduce((a, b) => (b.loss > a.loss ? b : a));
      const forgotten = worst.loss >= e.drop;
      return verdict(
        forgotten === e.forgets,
        `${cap(strategyName(e.strategy))}, when “${r.classes[e.at - 1]}” arrived: the largest loss was “${worst.name}”, ${pct(before[losses.indexOf(worst)])} → ${pct(after[losses.indexOf(worst)])}.`,
      );
    }
  }
  return waiting('Run the experiment to see.');
}

/** Every expectation of a lesson, checked; 'holds' only when all hold, 'fails' when any fails, else 'waiting'. */
export function checkAll(es: readonly Expectation[], o: LessonObservation | null): { status: ExpectationCheck['status']; checks: ExpectationCheck[] } {
  const checks = es.map((e) => checkExpectation(e, o));
  const status = checks.some((c) => c.status === 'fails') ? 'fails' : checks.every((c) => c.status === 'holds') ? 'holds' : 'waiting';
  return { status, checks };
}

/**
 * The words under a lesson's status: while waiting, what each expectation still waits for; after, each check's
 * detail. Two expectations waiting for the same thing ("Run the experiment to see.") say it once.
 */
export function checkDetail(result: { status: ExpectationCheck['status']; checks: readonly ExpectationCheck[] }): string {
  const details = result.checks.filter((c) => result.status !== 'waiting' || c.status === 'waiting').map((c) => c.detail);
  return [...new Set(details)].join(' ');
}

/**
 * The templates a teacher's lesson on this lab can state, filled with the lab's usual names; with the experiment
 * (`config`), only those it can show: a pair of classes it has (no cat and dog in a Fashion-MNIST experiment), the
 * strategies it trains (Ground truth), and enough tasks (Forgetting).
 */
export function expectationChoices(lab: LabId, config?: ExperimentConfig): Expectation[] {
  const all = templatesOf(lab);
  return config ? all.filter((e) => expectationFits(e, config)) : all;
}

/** Whether an experiment can show a template's finding at all (its names are the experiment's). */
export function expectationFits(e: Expectation, config: ExperimentConfig): boolean {
  const trains = (s: string) => config.strategies.some((x) => x.id === s);
  switch (e.kind) {
    case 'pair-task': {
      const names = experimentClassNames(config);
      return names.includes(e.a) && names.includes(e.b);
    }
    case 'draw-outside-middle':
    case 'rs-span-below':
    case 'spread-below':
      return trains(e.strategy);
    case 'mean-above':
      return trains(e.better) && trains(e.worse);
    case 'narrower':
      return trains(e.narrow) && trains(e.wide);
    case 'cpcf-rises':
      return config.taskSizes.length >= e.to;
    default:
      return true;
  }
}

function templatesOf(lab: LabId): Expectation[] {
  switch (lab) {
    case 'ground-truth':
      return [
        { kind: 'draw-outside-middle', strategy: 'replay', label: 'RS seed 0', middle: 0.5 },
        { kind: 'rs-span-below', strategy: 'replay', share: 0.5 },
        { kind: 'mean-above', better: 'replay', worse: 'finetune', points: 0.3 },
        { kind: 'narrower', narrow: 'finetune', wide: 'replay' },
        { kind: 'spread-below', strategy: 'simplecil', points: 0.001 },
      ];
    case 'orderings':
      return [
        { kind: 'score-above', higher: 'EDGE easy', lower: 'EDGE hard' },
        { kind: 'pair-task', label: 'EDGE hard', a: 'cat', b: 'dog', together: true },
      ];
    case 'forgetting':
      return [{ kind: 'cpcf-rises', from: 2, to: 6, drop: 0.3 }];
    case 'time':
      return [
        { kind: 'domain-gap', points: 0.1 },
        { kind: 'streaming-ahead', points: 0 },
        { kind: 'reservoir-share', alpha: '1', bucket: 1, min: 0.2, max: 0.3 },
      ];
    case 'open-world':
      return [{ kind: 'newest-takes-ood', set: 'digits', fromStep: 2 }];
    case 'curriculum':
      return [{ kind: 'within-weighting' }];
    case 'own-classes':
      return [
        { kind: 'class-forgotten', strategy: 'finetune', at: 4, drop: 0.2, forgets: true },
        { kind: 'class-forgotten', strategy: 'simplecil', at: 4, drop: 0.2, forgets: false },
      ];
    default:
      return [];
  }
}

/** Read an expectation from untrusted JSON (a teacher's lesson link), or null when it is not one of the templates. */
export function parseExpectation(v: unknown): Expectation | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const kind = o.kind as ExpectationKind;
  if (typeof kind !== 'string' || !(kind in EXPECTATION_LAB)) return null;
  const str = (k: string) => typeof o[k] === 'string' && (o[k] as string).length <= 80;
  const num = (k: string) => typeof o[k] === 'number' && Number.isFinite(o[k]);
  const ok: Record<ExpectationKind, () => boolean> = {
    'draw-outside-middle': () => str('strategy') && str('label') && num('middle'),
    'rs-span-below': () => str('strategy') && num('share'),
    'mean-above': () => str('better') && str('worse') && num('points'),
    narrower: () => str('narrow') && str('wide'),
    'spread-below': () => str('strategy') && num('points'),
    'spread-above': () => str('strategy') && num('points'),
    'mean-near': () => str('strategy') && num('value') && num('points') && (o.why === undefined || str('why')),
    'orders-agree': () => str('a') && str('b') && typeof o.agree === 'boolean',
    'pair-task': () => str('label') && str('a') && str('b') && typeof o.together === 'boolean',
    'score-above': () => str('higher') && str('lower'),
    'cpcf-rises': () => num('from') && num('to') && num('drop'),
    'domain-gap': () => num('points'),
    'streaming-ahead': () => num('points'),
    'reservoir-share': () => str('alpha') && num('bucket') && num('min') && num('max'),
    'newest-takes-ood': () => str('set') && num('fromStep'),
    'within-weighting': () => o.first === undefined || o.first === 'm2i' || o.first === 'i2m',
    'class-forgotten': () => str('strategy') && num('at') && num('drop') && typeof o.forgets === 'boolean',
  };
  return ok[kind]() ? (structuredClone(o) as unknown as Expectation) : null;
}
