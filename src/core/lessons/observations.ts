/**
 * What a lesson's expected finding is checked against: each lab's results reduced to the few numbers a finding talks
 * about. The app builds one from a lab's state after a run (src/ui/common/lab/lesson-check.svelte.ts), the lesson
 * test from the CLI's output (tests/unit/core/lessons-play.test.ts); both go through the builders below where the
 * lab's result has a core shape. Fractions are 0–1 throughout.
 *
 * Layering: pure TS, imports only src/core.
 */
import type { CpcfReport } from '../conformal/from-run';
import type { GroundTruthStats } from '../ground-truth/derive';
import { readCurriculum, type CurriculumVerdictInput } from '../verdict/curriculum';
import type { TimeRun } from '../verdict/time';

/** One named ordering ('RS seed 0', 'EDGE hard', …) with its tasks and S(O). */
export interface NamedOrdering {
  label: string;
  tasks: readonly (readonly number[])[];
  score: number;
}

export interface GroundTruthObservation {
  lab: 'ground-truth';
  strategies: readonly {
    strategy: string;
    /** every trained truth ordering's accuracy */
    truth: readonly number[];
    /** each truth value's ordering (canonical key), to match two strategies' orderings */
    keys?: readonly string[];
    /** truth orderings planned (fewer trained: the run is not finished) */
    planned: number;
    /** each protocol draw ('RS seed 0', 'EDGE hard', …) with its ordering's accuracy, null until trained */
    draws: readonly { label: string; value: number | null }[];
  }[];
}

export interface OrderingsObservation {
  lab: 'orderings';
  /** the class names by position (an ordering's tasks hold positions) */
  classNames: Readonly<Record<number, string>>;
  orderings: readonly NamedOrdering[];
}

export interface ForgettingObservation {
  lab: 'forgetting';
  /** per seed: CPCF and a_prev after tasks 2, 3, … (index 0 is task 2) */
  runs: readonly { seed: number; cpcf: readonly number[]; aPrev: readonly number[] }[];
  planned: number;
}

export interface TimeObservation {
  lab: 'time';
  runs: readonly { seed: number; protocol: 'iid' | 'streaming'; inDomain: number | null; nextDomain: number | null }[];
  planned: number;
  /** Alg. 1's sweep ("Every α", no training): per α (formatAlpha: "1", "dynamic:0.5"), the buffer after the last bucket, samples per bucket */
  sweep?: readonly { alpha: string; last: readonly number[] }[];
}

export interface OpenWorldObservation {
  lab: 'open-world';
  /** per seed and step: each OOD set's share of samples predicted as each task's classes (index = task) */
  runs: readonly { seed: number; steps: readonly { assignment: Readonly<Record<string, readonly number[]>> }[] }[];
  planned: number;
}

export interface CurriculumObservation {
  lab: 'curriculum';
  /** M2I − I2M per strategy and scenario (readCurriculum's pairs): mean ΔACC and ΔACC₀ over seeds, in points */
  pairs: readonly { strategy: string; scenario: 'cil' | 'til'; deltaAcc: number; deltaAcc0: number }[];
  /** every planned seed finished */
  complete: boolean;
}

export interface OwnClassesObservation {
  lab: 'own-classes';
  /** the latest update of each strategy shown: its classes in teaching order and R over them */
  runs: readonly { strategy: string; classes: readonly string[]; matrix: readonly (readonly number[])[] }[];
}

export type LessonObservation =
  | GroundTruthObservation
  | OrderingsObservation
  | ForgettingObservation
  | TimeObservation
  | OpenWorldObservation
  | CurriculumObservation
  | OwnClassesObservation;

/** The Ground-truth lab's statistics as an observation. */
export function groundTruthObservation(stats: GroundTruthStats): GroundTruthObservation {
  return {
    lab: 'ground-truth',
    strategies: stats.strategies.map((s) => ({
      strategy: s.strategy,
      truth: s.truth.values,
      keys: s.truth.keys,
      planned: s.truth.planned,
      draws: [...s.rs.draws, ...s.edge.draws].map((d) => ({ label: d.label, value: d.value })),
    })),
  };
}

/**
 * The Orderings lab's computed orderings (`orderingsView`'s, or `cil-lab orders`'s JSON: the class names and each
 * named ordering's tasks of class positions and S) as an observation: the lab and `cil-lab lesson`'s play build it with
 * this one function.
 */
export function orderingsObservation(view: { classes: readonly string[]; sequences: readonly NamedOrdering[] }): OrderingsObservation {
  return {
    lab: 'orderings',
    classNames: Object.fromEntries(view.classes.map((name, p) => [p, name])),
    orderings: view.sequences.map((s) => ({ label: s.label, tasks: s.tasks, score: s.score })),
  };
}

/**
 * The Forgetting lab's finished runs, each seed's CPCF report (the lab's, or `cil-lab cpcf`'s JSON: its CPCF and a_prev
 * after tasks 2, 3, …) as an observation; `planned`: the seeds it trains. The lab's results and `cil-lab lesson`'s
 * play build it with this one function.
 */
export function forgettingObservation(runs: readonly { seed: number; report: Pick<CpcfReport, 'cpcf' | 'aPrev'> }[], planned: number): ForgettingObservation {
  return { lab: 'forgetting', runs: runs.map((r) => ({ seed: r.seed, cpcf: r.report.cpcf, aPrev: r.report.aPrev })), planned };
}

/**
 * The Time lab's finished protocols of one seed (`planned`: how many it trains) and Alg. 1's sweep when it ran, as an
 * observation: the lab's results and `cil-lab lesson`'s play build it with this one function.
 */
export function timeObservation(runs: readonly TimeRun[], planned: number, sweep?: TimeObservation['sweep']): TimeObservation {
  return {
    lab: 'time',
    runs: runs.map((r) => ({ seed: r.seed, protocol: r.protocol, inDomain: r.metrics.inDomain ?? null, nextDomain: r.metrics.nextDomain ?? null })),
    planned,
    ...(sweep ? { sweep } : {}),
  };
}

/**
 * The Curriculum lab's verdict input as an observation: M2I − I2M per strategy and scenario, the mean over seeds in
 * points (the numbers of the verdict and of `cil-lab curriculum`'s summary). `complete`: every seed trained every
 * order it plans (absent: as many runs as `input.planned`).
 */
export function curriculumObservation(input: CurriculumVerdictInput, complete?: boolean): CurriculumObservation {
  const pairs = input.runs.length > 0 ? readCurriculum(input).pairs : [];
  return {
    lab: 'curriculum',
    pairs: pairs.map((p) => ({ strategy: p.strategy, scenario: p.scenario, deltaAcc: p.deltaAcc.mean, deltaAcc0: p.deltaAcc0.mean })),
    complete: input.runs.length > 0 && (complete ?? input.runs.length >= (input.planned ?? input.runs.length)),
  };
}

/**
 * The Open-world lab's finished runs, each seed's steps (the lab's, or `cil-lab ood`'s JSON report) reduced to what a
 * finding reads, each OOD set's assignment to the tasks, as an observation; `planned`: the seeds it runs. The lab's
 * results and `cil-lab lesson`'s play build it with this one function.
 */
export function openWorldObservation(
  runs: readonly { seed: number; steps: readonly { assignment: Readonly<Record<string, readonly number[]>> }[] }[],
  planned: number,
): OpenWorldObservation {
  return { lab: 'open-world', runs: runs.map((r) => ({ seed: r.seed, steps: r.steps.map((s) => ({ assignment: s.assignment })) })), planned };
}
