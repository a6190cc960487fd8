/**
 * The whole distribution of a pre-trained method's accuracy over Ω (docs/science.md §9, "The whole distribution"):
 * the AIA and the final accuracy of every ordering — or of a uniform sample, beyond what can be enumerated — as
 * summaries, without one record per ordering.
 *
 * Why it is cheap: the accuracy on the classes seen after a step, sample-weighted (docs/science.md §2), is the
 * correct test rows of the seen classes over their test rows, Σ_{p∈S_t} correct_p / Σ_{p∈S_t} n_p, and for these
 * methods the correct rows are fixed by the state after the step: the set S_t of classes seen (RanPAC with λ from
 * the last task: and the λ that task chose). So an ordering's AIA is the mean of K numbers looked up by its prefix
 * sets, and its final accuracy is the last of them. 369 600 orderings of 12 classes in 4 tasks of 3 meet only
 * 220 + 924 + 220 + 1 = 1 365 sets; each is computed once (`StepAccuracies`), then every ordering costs K lookups.
 * Values go into two Float64Arrays, sorted once (src/core/stats/value-summary.ts), which also answer where any
 * ordering sits (`placeOrdering`).
 *
 * AIA is summed over the steps in their order, then divided by K; a step's accuracy is an integer over an integer,
 * so the same formula in numpy gives the same bits (scripts/make-whole-distribution-fixtures.py). The per-run
 * records of ./ground-truth.ts compute the same numbers from R (equal to 10⁻¹⁴).
 */
import { grouped } from '../config/limits';
import { countOrderings, formatOmega } from '../orderings/count';
import { firstLabels, labelsToOrdering, nextLabels, orderingToLabels } from '../orderings/enumerate';
import type { Ordering } from '../orderings/types';
import { midRankPercentile, rankAmong, summariseValues, TIE_TOLERANCE, type ValueSummary } from '../stats/value-summary';
import { addToMask, maskMembers, maskWords } from './class-set';
import type { SetEvaluator } from './evaluator';
import { countsOf, PtmInputError } from './problem';

/** Orderings the whole distribution enumerates at most (two float64 per ordering: 320 MB at the bound). */
export const EXACT_DISTRIBUTION_LIMIT = 20_000_000;

/** Classes up to which a set of classes is one number (a seen set and a last task together fit in 2⁵² ). */
const NUMBER_MASK_CLASSES = 26;

/** Classes up to which every seen set has its slot in a dense table (2¹⁶ float64s, 512 kB). */
const DENSE_TABLE_CLASSES = 16;

/** States the table keeps for more classes than NUMBER_MASK_CLASSES (a sample's sets rarely repeat): oldest out. */
const WORD_STATES_KEPT = 200_000;

/**
 * The accuracy on the classes seen after each step of any ordering of one method's problem: each state computed
 * once from the evaluator and kept.
 */
export class StepAccuracies {
  readonly C: number;
  private readonly testPer: number[];
  private readonly byState = new Map<string | number, number>();
  private readonly dense: Float64Array | null;
  private readonly pairs = new Map<number, number>();
  /** states computed so far */
  states = 0;

  constructor(
    readonly evaluator: SetEvaluator,
    readonly taskSizes: readonly number[],
  ) {
    this.C = evaluator.problem.C;
    if (taskSizes.reduce((s, m) => s + m, 0) !== this.C) {
      throw new PtmInputError(`The task sizes ${taskSizes.join(',')} do not add up to the ${this.C} classes.`);
    }
    this.testPer = countsOf(evaluator.problem.test);
    this.dense = this.C <= DENSE_TABLE_CLASSES && !evaluator.dependsOnLastTask ? new Float64Array(2 ** this.C).fill(NaN) : null;
  }

  /** The state's accuracy after seeing `mask` with last task `task` (positions, ascending). */
  private ofState(mask: Uint32Array, task: number[]): number {
    const key = this.evaluator.stateKey(mask, task);
    let acc = this.byState.get(key);
    if (acc === undefined) {
      const members = maskMembers(mask, this.C);
      const counts = this.evaluator.correctCounts(mask, members, task);
      let correct = 0;
      let rows = 0;
      for (const p of members) {
        correct += counts[p];
        rows += this.testPer[p];
      }
      acc = correct / rows;
      this.states++;
      this.byState.set(key, acc);
      if (this.C > NUMBER_MASK_CLASSES && this.byState.size > WORD_STATES_KEPT) this.byState.delete(this.byState.keys().next().value as string | number);
    }
    return acc;
  }

  /**
   * The accuracy of the state after seeing `seen` with last task `task` (bit masks, C ≤ 26), computed now if it is
   * not known: for computing a list of states ahead (`statesOfOmega`), here or in another thread.
   */
  stateAccuracy(seen: number, task: number): { key: string | number; accuracy: number } {
    const members: number[] = [];
    for (let p = 0; p < this.C; p++) if (task & (1 << p)) members.push(p);
    const mask = Uint32Array.of(seen >>> 0);
    return { key: this.evaluator.stateKey(mask, members), accuracy: this.ofState(mask, members) };
  }

  /** States computed elsewhere (another thread, the same method on the same problem): their accuracies by key. */
  preload(entries: Iterable<readonly [string | number, number]>): void {
    for (const [key, accuracy] of entries) {
      if (this.byState.has(key)) continue;
      this.byState.set(key, accuracy);
      this.states++;
    }
  }

  /** A step with the seen set and the last task as bit masks (C ≤ 26). */
  private step(seen: number, task: number): number {
    if (this.dense) {
      const hit = this.dense[seen];
      if (hit === hit) return hit;
    } else {
      const hit = this.pairs.get(this.evaluator.dependsOnLastTask ? seen * 2 ** this.C + task : seen);
      if (hit !== undefined) return hit;
    }
    const members: number[] = [];
    for (let p = 0; p < this.C; p++) if (task & (1 << p)) members.push(p);
    const acc = this.ofState(Uint32Array.of(seen >>> 0), members);
    if (this.dense) this.dense[seen] = acc;
    else this.pairs.set(this.evaluator.dependsOnLastTask ? seen * 2 ** this.C + task : seen, acc);
    return acc;
  }

  /** Whether label vectors can be read with masks as numbers (C ≤ 26). */
  get small(): boolean {
    return this.C <= NUMBER_MASK_CLASSES;
  }

  /**
   * AIA and final accuracy of the ordering whose label vector is `labels` (labels[c] = its task), C ≤ 26; `taskMask`
   * is scratch of K entries. Writes them to out[0], out[1].
   */
  ofLabels(labels: ArrayLike<number>, taskMask: Int32Array, out: Float64Array): void {
    const K = this.taskSizes.length;
    taskMask.fill(0);
    for (let c = 0; c < labels.length; c++) taskMask[labels[c]] |= 1 << c;
    let seen = 0;
    let sum = 0;
    let acc = 0;
    for (let t = 0; t < K; t++) {
      seen |= taskMask[t];
      acc = this.step(seen, taskMask[t]);
      sum += acc;
    }
    out[0] = sum / K;
    out[1] = acc;
  }

  /** AIA and final accuracy of one ordering (over class positions; checked against the task sizes). */
  ofOrdering(tasks: Ordering): { aia: number; final: number } {
    const labels = orderingToLabels(tasks, [...this.taskSizes]);
    const K = this.taskSizes.length;
    if (this.small) {
      const out = new Float64Array(2);
      this.ofLabels(labels, new Int32Array(K), out);
      return { aia: out[0], final: out[1] };
    }
    const mask = new Uint32Array(maskWords(this.C));
    let sum = 0;
    let acc = 0;
    for (let t = 0; t < K; t++) {
      const task = [...tasks[t]].sort((a, b) => a - b);
      addToMask(mask, task);
      acc = this.ofState(mask, task);
      sum += acc;
    }
    return { aia: sum / K, final: acc };
  }
}

/** Classes up to which `statesOfOmega` lists the states (it walks every subset: 2^C). */
export const STATES_LIST_CLASSES = 20;

/**
 * Every state the orderings of Ω visit, once each, with a representative step (the seen set and the last task as bit
 * masks) and its cost in the method's own terms (the seen classes' training rows, cubed: RanPAC's factor): what
 * computing the states ahead, in several threads, needs. A step t of some ordering sees a set S of m_1 + … + m_t
 * classes with last task any C ⊂ S of m_t classes, so the pairs (S, C) are listed directly, not the orderings; pairs
 * with the same state key (the set, and RanPAC's λ of C) are one state. C ≤ STATES_LIST_CLASSES.
 */
export function statesOfOmega(table: StepAccuracies): { key: string | number; seen: number; task: number; cost: number }[] {
  const { C, taskSizes, evaluator } = table;
  if (C > STATES_LIST_CLASSES) throw new PtmInputError(`Listing the states walks every subset of the classes: at most ${STATES_LIST_CLASSES} classes.`);
  const train = countsOf(evaluator.problem.train);
  const bySize = new Map<number, number[]>();
  for (let m = 1; m < 2 ** C; m++) {
    let k = 0;
    for (let x = m; x; x &= x - 1) k++;
    const list = bySize.get(k);
    if (list) list.push(m);
    else bySize.set(k, [m]);
  }
  const out = new Map<string | number, { key: string | number; seen: number; task: number; cost: number }>();
  let seenSize = 0;
  for (const m of taskSizes) {
    seenSize += m;
    for (const seen of bySize.get(seenSize) ?? []) {
      let rows = 0;
      for (let p = 0; p < C; p++) if (seen & (1 << p)) rows += train[p];
      const tasks = evaluator.dependsOnLastTask ? (bySize.get(m) ?? []).filter((t) => (t & seen) === t) : [lastTaskOf(seen, m)];
      for (const task of tasks) {
        const key = stateKeyOf(evaluator, seen, task, C);
        if (!out.has(key)) out.set(key, { key, seen, task, cost: rows ** 3 });
      }
    }
  }
  return [...out.values()];
}

/** Some task of m classes inside `seen` (its m lowest): where the state does not depend on the last task. */
function lastTaskOf(seen: number, m: number): number {
  let task = 0;
  for (let x = seen, k = 0; x && k < m; x &= x - 1, k++) task |= x & -x;
  return task;
}

function stateKeyOf(evaluator: SetEvaluator, seen: number, task: number, C: number): string | number {
  const members: number[] = [];
  for (let p = 0; p < C; p++) if (task & (1 << p)) members.push(p);
  return evaluator.stateKey(Uint32Array.of(seen >>> 0), members);
}

/** The ordering at one end of a distribution, with how many orderings share its value. */
export interface ExtremeOrdering {
  /** over class positions, each task ascending */
  tasks: number[][];
  aia: number;
  final: number;
  /** orderings whose value ties with it (within TIE_TOLERANCE), itself included */
  ties: number;
}

export interface AccuracyDistributionInput {
  /** the method on its problem (./ground-truth.ts preparePtm) */
  evaluator: SetEvaluator;
  taskSizes: readonly number[];
  /** every ordering of Ω (in rank order), or a list of distinct orderings over positions (a uniform sample) */
  orderings: { kind: 'all' } | { kind: 'list'; orderings: readonly Ordering[]; label: string };
  /** the step accuracies to use (some states computed ahead: `statesOfOmega`, `preload`); default a new one */
  table?: StepAccuracies;
}

export interface AccuracyDistributionHooks {
  onProgress?(p: { done: number; total: number; states: number }): void;
  /** awaited between orderings (pause, resume, cancel by throwing, yield to the event loop) */
  checkpoint?(): Promise<void> | void;
  /** orderings between checkpoints (default 4096; also after any ordering that computed a new state) */
  checkEvery?: number;
  /** orderings between progress reports (default: a hundredth of the total) */
  progressEvery?: number;
}

export interface AccuracyDistribution {
  method: string;
  /** |Ω| exactly */
  omega: string;
  /** true: every ordering of Ω; false: the list given (a sample) */
  exact: boolean;
  /** "all 369 600 orderings" or the list's label */
  what: string;
  orderings: number;
  aia: ValueSummary;
  final: ValueSummary;
  /** lowest and highest value (ties: the lowest rank, i.e. the smallest label vector) */
  extremes: { aia: { worst: ExtremeOrdering; best: ExtremeOrdering }; final: { worst: ExtremeOrdering; best: ExtremeOrdering } };
  /** states computed (sets of classes seen, and RanPAC's λ) */
  states: number;
  /** "exact over all 369 600 orderings: 1 365 states (the set of classes seen)" */
  path: string;
  /** the values, ascending (for placing orderings and for the JSD against the truth) */
  sortedAia: Float64Array;
  sortedFinal: Float64Array;
  /** the step accuracies, for placing any other ordering (`placeOrdering`) */
  table: StepAccuracies;
}

/** Lexicographic comparison of label vectors: the order of ranks in Ω. */
function compareLabels(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The running lowest (or highest) value and the label vector of its lowest-rank ordering. */
class Extreme {
  value = NaN;
  labels: Int32Array | null = null;
  other = NaN;
  constructor(private readonly sign: 1 | -1) {}
  offer(value: number, other: number, labels: ArrayLike<number>, inRankOrder: boolean): void {
    const d = this.sign * (value - this.value);
    const better = this.labels === null || d < -TIE_TOLERANCE || (!inRankOrder && d <= TIE_TOLERANCE && compareLabels(labels, this.labels) < 0);
    if (!better) return;
    this.value = value;
    this.other = other;
    this.labels = Int32Array.from(labels);
  }
}

/**
 * The distribution of AIA and final accuracy over `input.orderings` (see the header). The values of every ordering
 * are kept as two float64 each; `EXACT_DISTRIBUTION_LIMIT` bounds an enumeration.
 */
export async function accuracyDistribution(input: AccuracyDistributionInput, hooks: AccuracyDistributionHooks = {}): Promise<AccuracyDistribution> {
  const { evaluator } = input;
  const sizes = [...input.taskSizes];
  const table = input.table ?? new StepAccuracies(evaluator, sizes);
  const K = sizes.length;
  const omega = countOrderings(sizes);
  const all = input.orderings.kind === 'all';
  if (all && omega > BigInt(EXACT_DISTRIBUTION_LIMIT)) {
    throw new PtmInputError(
      `There are ${formatOmega(omega)} orderings, more than the ${grouped(EXACT_DISTRIBUTION_LIMIT)} the whole distribution enumerates: sample them instead.`,
    );
  }
  const total = all ? Number(omega) : (input.orderings as { orderings: readonly Ordering[] }).orderings.length;
  if (total < 1) throw new PtmInputError('There are no orderings to summarise.');
  const aia = new Float64Array(total);
  const final = new Float64Array(total);
  const ext = { aiaLo: new Extreme(1), aiaHi: new Extreme(-1), finLo: new Extreme(1), finHi: new Extreme(-1) };
  const checkEvery = hooks.checkEvery ?? 4096;
  const progressEvery = hooks.progressEvery ?? Math.max(1, Math.ceil(total / 100));
  const out = new Float64Array(2);
  const scratch = new Int32Array(K);
  let done = 0;
  let sinceCheck = 0;

  const record = (labels: ArrayLike<number>, a: number, f: number): void => {
    aia[done] = a;
    final[done] = f;
    ext.aiaLo.offer(a, f, labels, all);
    ext.aiaHi.offer(a, f, labels, all);
    ext.finLo.offer(f, a, labels, all);
    ext.finHi.offer(f, a, labels, all);
    done++;
    sinceCheck++;
    if (hooks.onProgress && (done % progressEvery === 0 || done === total)) hooks.onProgress({ done, total, states: table.states });
  };

  if (all && table.small) {
    // the hot loop: the next label vector in rank order, K lookups
    const labels = firstLabels(sizes);
    do {
      const before = table.states;
      table.ofLabels(labels, scratch, out);
      record(labels, out[0], out[1]);
      if (hooks.checkpoint && (sinceCheck >= checkEvery || table.states > before)) {
        sinceCheck = 0;
        await hooks.checkpoint();
      }
    } while (nextLabels(labels));
  } else {
    const list: Iterable<Ordering> = all ? enumerateAll(sizes) : (input.orderings as { orderings: readonly Ordering[] }).orderings;
    for (const tasks of list) {
      const before = table.states;
      const r = table.ofOrdering(tasks);
      record(orderingToLabels(tasks, sizes), r.aia, r.final);
      if (hooks.checkpoint && (sinceCheck >= checkEvery || table.states > before)) {
        sinceCheck = 0;
        await hooks.checkpoint();
      }
    }
  }

  const aiaSummary = summariseValues(aia);
  const finalSummary = summariseValues(final);
  // `aia` and `final` are sorted now (summariseValues sorts in place)
  const extreme = (e: Extreme, of: 'aia' | 'final'): ExtremeOrdering => {
    const tasks = labelsToOrdering(e.labels!, K);
    const isAia = of === 'aia';
    return { tasks, aia: isAia ? e.value : e.other, final: isAia ? e.other : e.value, ties: rankAmong(isAia ? aia : final, e.value).equal };
  };
  const what = all ? `all ${formatOmega(omega)} orderings` : (input.orderings as { label: string }).label;
  const states = table.states;
  return {
    method: evaluator.label,
    omega: omega.toString(),
    exact: all,
    what,
    orderings: done,
    aia: aiaSummary,
    final: finalSummary,
    extremes: {
      aia: { worst: extreme(ext.aiaLo, 'aia'), best: extreme(ext.aiaHi, 'aia') },
      final: { worst: extreme(ext.finLo, 'final'), best: extreme(ext.finHi, 'final') },
    },
    states,
    path: `${all ? 'exact over' : 'over'} ${what}: ${formatOmega(BigInt(states))} state${states === 1 ? '' : 's'} (${evaluator.stateRule})`,
    sortedAia: aia,
    sortedFinal: final,
    table,
  };
}

function* enumerateAll(sizes: number[]): Generator<Ordering> {
  const labels = firstLabels(sizes);
  do yield labelsToOrdering(labels, sizes.length);
  while (nextLabels(labels));
}

/** Where one ordering sits in a distribution: its values and their percentiles (mid-rank, 0–100). */
export interface Placement {
  /** over class positions, each task ascending */
  tasks: number[][];
  aia: number;
  final: number;
  /** percentile of its AIA among the distribution's, mid-rank (ties count half) */
  percentile: number;
  /** the same for its final accuracy */
  finalPercentile: number;
  /** orderings with a lower AIA, and with the same (within TIE_TOLERANCE), itself included when it is one of them */
  below: number;
  equal: number;
  /** AIA above the lowest and below the highest of the distribution (fractions) */
  aboveWorst: number;
  belowBest: number;
}

/** Places an ordering (over class positions) in the distribution: its AIA and final accuracy, and their percentiles. */
export function placeOrdering(dist: AccuracyDistribution, tasks: Ordering): Placement {
  const { aia, final } = dist.table.ofOrdering(tasks);
  const { below, equal } = rankAmong(dist.sortedAia, aia);
  return {
    tasks: tasks.map((t) => [...t].sort((a, b) => a - b)),
    aia,
    final,
    percentile: midRankPercentile(dist.sortedAia, aia),
    finalPercentile: midRankPercentile(dist.sortedFinal, final),
    below,
    equal,
    aboveWorst: aia - dist.aia.min,
    belowBest: dist.aia.max - aia,
  };
}
