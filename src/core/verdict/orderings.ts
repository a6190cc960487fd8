/**
 * The Orderings lab's verdict (docs/verdicts.md §Orderings): after the protocols run, what EDGE hard / easy found
 * against the RS orderings, EDGE's own random "median" and the exact extremes, in a few sentences with the numbers.
 *
 * Where EDGE does not do what it claims on the experiment at hand (hard not below every RS ordering, easy not above,
 * or hard and easy with the same S), that is the finding, said with its reason (docs/science.md §EDGE: the greedy
 * construction has no guarantee; on small experiments few values of S exist and the middle task decides much of S)
 * and what to try. Two diagnostics are computed here for that reason, both cheap and exact:
 *   - the number of distinct values of S over Ω (when |Ω| ≤ DISTINCT_S_MAX_OMEGA);
 *   - the range of S over every order of EDGE hard's (easy's) own tasks (when K ≤ REORDER_MAX_TASKS): if another
 *     order of the same tasks reaches a lower (higher) S, the grouping was fine and the greedy task order missed.
 * When the similarity is flat (one value of S over Ω, or a range within FLAT_S_RELATIVE of it: WordNet rates the digit
 * names "zero" … "nine" all alike), that is the finding instead: EDGE's picks are arbitrary, and nothing compares them
 * with RS.
 * Pure; tested in tests/unit/core/verdict/orderings.test.ts against an independent Python EDGE
 * (scripts/make-verdict-fixtures.py).
 */
import { forEachOrdering, forEachPermutation } from '../orderings/enumerate';
import { matrixFromRows } from '../orderings/matrix';
import { similarityScore, similarityScoreOfLabels } from '../orderings/score';
import type { SquareMatrix } from '../orderings/types';
import type { SequenceReport } from '../protocols/types';
import { noVerdict, type Verdict, type VerdictSentence } from './types';
import {
  DISTINCT_S_MAX_OMEGA,
  FLAT_S_RELATIVE,
  REORDER_MAX_TASKS,
  REORDER_MAX_WORK,
  countText,
  flatScores,
  listText,
  pctText,
  plural,
  sText,
  sameScore,
} from './wording';

/** The parts of the Orderings page's view (core/protocols/orderings-view.ts OrderingsView) the verdict reads. */
export interface OrderingsVerdictInput {
  sequences: readonly SequenceReport[];
  exact?: { min: number; max: number; enumerated: number };
  distribution?: { kind: 'exact' | 'sample'; count: number };
  taskSizes: readonly number[];
  /** The class × class similarity (rows). */
  matrix: readonly (readonly number[])[];
  /** |Ω| as a decimal string. */
  omega: string;
}

/** The range of S over every order of the given tasks (K! orders; null when K > REORDER_MAX_TASKS). */
export function reorderRange(tasks: readonly (readonly number[])[], sim: SquareMatrix): { min: number; max: number } | null {
  const k = tasks.length;
  if (k > REORDER_MAX_TASKS || k < 2) return null;
  // K! orders, each summing about (K − 1)·(N/K)² similarities: skip when that is more than REORDER_MAX_WORK
  const n = tasks.reduce((a, t) => a + t.length, 0);
  let orders = 1;
  for (let i = 2; i <= k; i++) orders *= i;
  if (orders * (k - 1) * (n / k) ** 2 > REORDER_MAX_WORK) return null;
  let min = Infinity;
  let max = -Infinity;
  forEachPermutation(k, (perm) => {
    const s = similarityScore(
      Array.from(perm, (i) => [...tasks[i]]),
      sim,
    );
    if (s < min) min = s;
    if (s > max) max = s;
  });
  return { min, max };
}

/** How many distinct values S takes over Ω (equal within SAME_SCORE_RELATIVE); null when |Ω| > DISTINCT_S_MAX_OMEGA. */
export function distinctScores(sim: SquareMatrix, sizes: readonly number[], omega: bigint): number | null {
  if (omega > BigInt(DISTINCT_S_MAX_OMEGA) || sizes.length < 2) return null;
  const k = sizes.length;
  const scale = k / ((k - 1) * sim.n);
  const values: number[] = [];
  forEachOrdering([...sizes], (labels) => {
    values.push(similarityScoreOfLabels(labels, sim, scale));
  });
  values.sort((a, b) => a - b);
  let distinct = 0;
  let last = NaN;
  for (const v of values) {
    if (!(distinct > 0 && sameScore(v, last))) {
      distinct++;
      last = v;
    }
  }
  return distinct;
}

const isMedian = (s: SequenceReport) => s.protocol === 'edge' && s.label.startsWith('EDGE median');

export function orderingsVerdict(input: OrderingsVerdictInput): Verdict {
  const out: VerdictSentence[] = [];
  const say = (id: string, kind: VerdictSentence['kind'], text: string) => out.push({ id, kind, text });
  const seqs = input.sequences;
  const hard = seqs.find((s) => s.label === 'EDGE hard');
  const easy = seqs.find((s) => s.label === 'EDGE easy');
  const median = seqs.find(isMedian);
  const rs = seqs.filter((s) => s.protocol === 'rs');
  if (!hard || !easy) return noVerdict();

  const k = input.taskSizes.length;
  const n = input.matrix.length;
  const omega = BigInt(input.omega);
  // ── a flat similarity: EDGE's picks are arbitrary, and nothing is compared ──
  const range = input.exact ? [input.exact.min, input.exact.max] : seqs.map((q) => q.score);
  if (seqs.length >= 2 && flatScores(range)) {
    const one = sameScore(Math.min(...range), Math.max(...range));
    const values = input.exact ? `all ${countText(input.exact.enumerated)} orderings` : `every ordering listed`;
    say(
      'flat-s',
      'finding',
      one
        ? `The similarity is flat: ${values} have the same S = ${sText(hard.score)}, so EDGE's hard and easy orderings are arbitrary picks and say nothing about which order is hard.`
        : `The similarity is almost flat: S over ${values} spans only ${sText(Math.min(...range))} to ${sText(Math.max(...range))} (within ${pctText(FLAT_S_RELATIVE, 0)}), so EDGE's hard and easy orderings are close to arbitrary picks.`,
    );
    say(
      'flat-s-why',
      'why',
      'EDGE orders classes by how alike their names (or prototypes) are; when every pair is rated alike — WordNet puts the digit names “zero” … “nine” all under “digit” — every ordering scores the same, so no construction can find a hard or an easy one.',
    );
    say(
      'flat-s-try',
      'try',
      'Choose classes with more varied names (CIFAR-10, Fashion-MNIST), or another similarity: CLIP text, or the classes’ prototypes (features).',
    );
    return {
      headline: `Every ordering of these classes has ${one ? 'the same' : 'almost the same'} similarity S, so EDGE's hard and easy picks are arbitrary on this experiment.`,
      sentences: out,
      provisional: false,
      provisionalNote: '',
    };
  }
  const rsMin = rs.length ? Math.min(...rs.map((s) => s.score)) : null;
  const rsMax = rs.length ? Math.max(...rs.map((s) => s.score)) : null;
  const tie = sameScore(hard.score, easy.score);
  const hardMisses = rsMin !== null && !(hard.score < rsMin && !sameScore(hard.score, rsMin));
  const easyMisses = rsMax !== null && !(easy.score > rsMax && !sameScore(easy.score, rsMax));
  const medianHarder = !!median && median.score < hard.score && !sameScore(median.score, hard.score);
  const medianEasier = !!median && median.score > easy.score && !sameScore(median.score, easy.score);
  const problem = tie || hardMisses || easyMisses || medianHarder || medianEasier;
  const rsLabelsAt = (v: number) => rs.filter((s) => sameScore(s.score, v)).map((s) => s.label);

  // ── the headline ──
  if (tie) {
    const same = rsLabelsAt(hard.score);
    say(
      'edge-tie',
      'finding',
      `On this experiment EDGE cannot tell hard from easy: EDGE hard and EDGE easy both have S = ${sText(hard.score)}` +
        (same.length ? ` — the S of ${listText(same)}` : '') +
        '.',
    );
  } else if (rs.length && !hardMisses && !easyMisses) {
    say(
      'edge-brackets',
      'finding',
      `EDGE does what it claims here: EDGE hard (S = ${sText(hard.score)}) is below all ${plural(rs.length, 'RS ordering')} ` +
        `and EDGE easy (S = ${sText(easy.score)}) above them (RS: ${sText(rsMin!)} – ${sText(rsMax!)}).`,
    );
  } else if (rs.length) {
    const parts: string[] = [];
    if (hardMisses) parts.push(`EDGE hard (S = ${sText(hard.score)}) is not below every RS ordering (lowest RS: ${sText(rsMin!)})`);
    if (easyMisses) parts.push(`EDGE easy (S = ${sText(easy.score)}) is not above every RS ordering (highest RS: ${sText(rsMax!)})`);
    say('edge-misses', 'finding', `On this experiment ${parts.join(', and ')}.`);
  } else {
    say('edge-range', 'finding', `EDGE hard has S = ${sText(hard.score)} and EDGE easy S = ${sText(easy.score)}.`);
  }
  if (medianHarder) {
    say(
      'median-harder',
      'finding',
      `EDGE’s own random ordering (“median”, S = ${sText(median!.score)}) has a lower S than EDGE hard: by S it is the harder of the two.`,
    );
  } else if (medianEasier) {
    say(
      'median-easier',
      'finding',
      `EDGE’s own random ordering (“median”, S = ${sText(median!.score)}) has a higher S than EDGE easy: by S it is the easier of the two.`,
    );
  }

  // ── where they sit in Ω ──
  if (hard.fractionBelow !== undefined && easy.fractionBelow !== undefined && input.distribution) {
    const among =
      input.distribution.kind === 'exact' ? `all ${countText(input.distribution.count)} orderings` : `${countText(input.distribution.count)} sampled orderings`;
    say(
      'omega-below',
      'note',
      `Among ${among}, the share with a lower S (“Ω below”) is ${pctText(hard.fractionBelow, 0)} for EDGE hard and ${pctText(easy.fractionBelow, 0)} for EDGE easy; ` +
        'a hard ordering should sit near 0%, an easy one near 100%.',
    );
  }

  // ── why, when EDGE misses ──
  if (problem) {
    // built only here: copying 10⁶ entries for nothing cost the page ~16 ms per result
    const sim = matrixFromRows(input.matrix);
    const distinct = distinctScores(sim, input.taskSizes, omega);
    if (distinct !== null) {
      say(
        'few-values',
        'why',
        `With ${n} classes in ${k} tasks there are only ${countText(Number(omega))} orderings and ${plural(distinct, 'distinct value')} of S, ` +
          'so different constructions easily land on the same S.',
      );
    }
    // only for the orderings that miss what they aim at
    const hardMissed = tie || hardMisses || medianHarder;
    const easyMissed = tie || easyMisses || medianEasier;
    const hr = hardMissed ? reorderRange(hard.tasks, sim) : null;
    const er = easyMissed ? reorderRange(easy.tasks, sim) : null;
    const hardReorders = hr !== null && hr.min < hard.score && !sameScore(hr.min, hard.score);
    const easyReorders = er !== null && er.max > easy.score && !sameScore(er.max, easy.score);
    if (hardReorders || easyReorders) {
      const bits: string[] = [];
      if (hardReorders) bits.push(`EDGE hard’s own tasks in another order reach S = ${sText(hr!.min)}`);
      if (easyReorders) bits.push(`${hardReorders ? 'EDGE easy’s' : 'EDGE easy’s own tasks in another order'} reach S = ${sText(er!.max)}`);
      const middle =
        k === 3
          ? ' With 3 tasks the middle task touches both others, so which task sits in the middle decides much of S; EDGE instead starts its order with the task least (hard) or most (easy) like the others.'
          : ' EDGE orders its tasks greedily, one neighbour at a time, which can miss the best order.';
      say('task-order', 'why', `The grouping is not the whole problem: ${bits.join(', and ')}.${middle}`);
    } else {
      say('greedy', 'why', 'EDGE builds its orderings greedily (clusters → tasks → task order); nothing guarantees they reach the extremes of S.');
    }
  }

  // ── the exact extremes, and what to try ──
  const exact = input.exact;
  const plus = seqs.filter((s) => s.protocol === 'edge+' || s.protocol === 'exact');
  if (exact) {
    const hardGap = hard.score - exact.min;
    const easyGap = exact.max - easy.score;
    const range = exact.max - exact.min;
    const gapText = (g: number) =>
      sameScore(g + 1, 1) ? 'reaches it' : range > 0 ? `is ${sText(g)} away (${pctText(g / range, 0)} of the range)` : `is ${sText(g)} away`;
    say(
      'gap',
      problem ? 'try' : 'note',
      `The exact extremes over all ${countText(exact.enumerated)} orderings are S = ${sText(exact.min)} (hardest) and ${sText(exact.max)} (easiest): ` +
        `EDGE hard ${gapText(hardGap)}, EDGE easy ${gapText(easyGap)}` +
        (problem && plus.length ? '; EDGE+ and the exact search (in the table) reach them.' : '.'),
    );
  } else if (problem && !plus.length) {
    say('add-exact', 'try', 'Add EDGE+ or the exact search (Protocols) to see how far the true extremes are.');
  }
  if (problem && rs.length && median) {
    const edgeMin = Math.min(hard.score, easy.score, median.score);
    const edgeMax = Math.max(hard.score, easy.score, median.score);
    if (rsMax! - rsMin! > edgeMax - edgeMin && !sameScore(rsMax! - rsMin!, edgeMax - edgeMin)) {
      say(
        'lesson',
        'finding',
        `The lesson: check a protocol’s claim on the experiment at hand — here ${plural(rs.length, 'random seed')} span more of S (${sText(rsMin!)} – ${sText(rsMax!)}) ` +
          `than EDGE’s three orderings (${sText(edgeMin)} – ${sText(edgeMax)}).`,
      );
    }
  }
  if (problem && Number(omega) <= DISTINCT_S_MAX_OMEGA) {
    say(
      'try-larger',
      'try',
      'On larger experiments EDGE separates them: with all ten Fashion-MNIST classes in 5 tasks (WordNet), EDGE hard is below all three RS orderings and EDGE easy above (and with all 100 CIFAR-100 classes in 10 tasks).',
    );
  }
  const headline = tie
    ? `EDGE's hard and easy orderings have the same similarity S (${sText(hard.score)}), so on this experiment EDGE does not separate hard from easy.`
    : rs.length && !hardMisses && !easyMisses
      ? `EDGE does what it claims here: its hard ordering has a lower similarity S, its easy one a higher S, than every random (RS) ordering.`
      : rs.length
        ? `EDGE's ${hardMisses && easyMisses ? 'hard and easy orderings are' : hardMisses ? 'hard ordering is' : 'easy ordering is'} not beyond every random (RS) ordering's similarity S: its greedy construction missed on this experiment.`
        : `EDGE's hard ordering has similarity S = ${sText(hard.score)}, its easy ordering S = ${sText(easy.score)}.`;
  return { headline, sentences: out, provisional: false, provisionalNote: '' };
}
