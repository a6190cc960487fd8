/**
 * A pre-trained method reduced to what its ground truth needs (docs/science.md §9): the key of its state after a
 * step, and the correct test rows per class of that state. Built once per (problem, method, seed); the ground
 * truth (./ground-truth.ts) and the direct step-by-step run (./direct-run.ts) both start from the same problem.
 */
import { maskKey } from './class-set';
import { PTM_LIMITS, ptmMethodLabel, type PtmStrategy } from './defaults';
import { fecamScores } from './fecam';
import { PtmInputError, type PtmProblem } from './problem';
import { prototypeScores } from './prototypes';
import { ranpacModel, type RanpacModel } from './ranpac';
import { beatersOf, correctCountsFromBeaters } from './ranked-scores';

export interface SetEvaluator {
  problem: PtmProblem;
  strategy: PtmStrategy;
  /** e.g. "RanPAC (M = 2000, λ from the last task)" */
  label: string;
  /** what decides a state beyond the seen set, in words */
  stateRule: string;
  /** whether the state after a step depends on its last task beyond the seen set (RanPAC's λ from the last task) */
  dependsOnLastTask: boolean;
  /** the key of the state after a step with seen set `mask`, last task `lastTask` (positions, ascending) */
  stateKey(mask: Uint32Array, lastTask: readonly number[]): string | number;
  /** correct test rows per class position of that state (0 for classes not seen) */
  correctCounts(mask: Uint32Array, members: readonly number[], lastTask: readonly number[]): Int32Array;
  /** RanPAC's model (λ choices, form), when the method is RanPAC */
  ranpac?: RanpacModel;
  notes: string[];
}

function checkOptions(s: PtmStrategy): void {
  if (s.id === 'fecam' && !(Number.isFinite(s.options.shrinkage) && s.options.shrinkage >= 0 && s.options.shrinkage <= PTM_LIMITS.shrinkage)) {
    throw new PtmInputError(`FeCAM's shrinkage must be a number from 0 to ${PTM_LIMITS.shrinkage}; got ${s.options.shrinkage}.`);
  }
  if (s.id === 'simplecil' && s.options.metric !== 'cosine' && s.options.metric !== 'euclidean') {
    throw new PtmInputError(`SimpleCIL's metric must be cosine or euclidean; got ${String(s.options.metric)}.`);
  }
  if (s.id === 'ranpac' && s.options.lambdaFrom !== 'task' && s.options.lambdaFrom !== 'seen') {
    throw new PtmInputError(`RanPAC's lambdaFrom must be task or seen; got ${String(s.options.lambdaFrom)}.`);
  }
}

/** The evaluator of `strategy` on `problem`; `seed` draws RanPAC's projection and its validation split. */
export function setEvaluator(problem: PtmProblem, strategy: PtmStrategy, seed: number): SetEvaluator {
  checkOptions(strategy);
  const label = ptmMethodLabel(strategy);
  if (strategy.id !== 'ranpac') {
    const higher = strategy.id === 'simplecil';
    const scores = strategy.id === 'simplecil' ? prototypeScores(problem, strategy.options.metric) : fecamScores(problem, strategy.options.shrinkage);
    const beaters = beatersOf(problem, scores, higher);
    return {
      problem,
      strategy,
      label,
      stateRule: 'the set of classes seen',
      dependsOnLastTask: false,
      stateKey: (mask) => maskKey(mask),
      correctCounts: (mask, members) => correctCountsFromBeaters(problem, beaters, mask, members),
      notes: [],
    };
  }
  const model = ranpacModel(problem, strategy.options, seed);
  const byTask = strategy.options.lambdaFrom === 'task';
  // λ per task, memoised (one entry per distinct task: a few bytes each); with 'seen' λ is chosen on each set's
  // cache miss, as the set's state is computed once anyway
  const lambdas = new Map<string, number>();
  const lambdaOfTask = (task: readonly number[]): number => {
    const key = task.join(',');
    let index = lambdas.get(key);
    if (index === undefined) {
      index = model.chooseLambda(task).index;
      lambdas.set(key, index);
    }
    return index;
  };
  const form =
    model.form === 'dual'
      ? `dual form: ${problem.train.n} training rows ≤ M = ${model.width}, so each set factors its rows' kernel`
      : `primal form: ${problem.train.n} training rows > M = ${model.width}, so each set factors an M × M system`;
  return {
    problem,
    strategy,
    label,
    stateRule: byTask ? 'the set of classes seen and the λ its last task chose' : 'the set of classes seen',
    dependsOnLastTask: byTask,
    // with λ: a number while the mask fits one word (λ's grid index above its 32 bits), else a string
    stateKey: (mask, lastTask) => {
      if (!byTask) return maskKey(mask);
      const set = maskKey(mask);
      const li = lambdaOfTask(lastTask);
      return typeof set === 'number' ? set + li * 2 ** 32 : `${set}@${li}`;
    },
    correctCounts: (_mask, members, lastTask) => model.correctCounts(members, byTask ? lambdaOfTask(lastTask) : model.chooseLambda(members).index),
    ranpac: model,
    notes: [form],
  };
}
