/**
 * The Curriculum lab's verdict (docs/verdicts.md §Curriculum): over the seeds run, per strategy and scenario,
 *   1. whether easy-first (M2I) beats hard-first (I2M) on ACC beyond the spread, with the paper's figure;
 *   2. how much of that lead ACC's own weighting predicts (ACC₀, docs/science.md §8) — all of it, part of it, or more
 *      than all of it (then the order itself cost accuracy) — said with both numbers;
 *   3. which datasets stay at chance trained alone, and why when the lab can tell (images and Adam steps per class);
 *   4. where an order's first task differs from the same dataset trained alone, and why;
 *   5. what to try.
 * `readCurriculum` computes the numbers and outcomes (checked against scripts/make-verdict-fixtures.py);
 * `curriculumVerdict` words them. Pure.
 */
import { CLASSES_PER_DATASET } from '../curriculum/catalogue';
import { M2I_VGG9 } from '../curriculum/paper';
import { curriculumMetrics } from '../curriculum/metrics';
import { i2mOrder, m2iOrder, sameOrder } from '../curriculum/orders';
import { spreadOf, type Spread } from './intervals';
import type { Verdict, VerdictSentence } from './types';
import { claimOf, countText, listText, num, pctText, signed, spreadText } from './wording';

/** Chance accuracy of a 10-class dataset. */
export const CHANCE = 1 / CLASSES_PER_DATASET;
/** A dataset trained alone within this many points of chance "does not learn" (its place in an order is noise). */
export const CHANCE_MARGIN = 0.1;
/** An order's first-task accuracy this many points from the same dataset trained alone is explained. */
export const FIRST_TASK_GAP = 0.1;
/**
 * A dataset trained for fewer Adam steps than this (⌈images ÷ batch⌉ × epochs) is said to have too few to learn:
 * measured, the emoji sets stay at chance with 3 steps (3 epochs) and learn (40–85 %) with 30 (30 epochs).
 */
export const FEW_STEPS = 20;
/** ΔACC₀ / ΔACC within this of 1 is "about all" of the lead (the weighting alone predicts it). */
export const SHARE_ALL_TOLERANCE = 0.15;

export interface CurriculumPairRun {
  strategy: string;
  scenario: 'cil' | 'til';
  m2i: { acc: number; acc0: number };
  i2m: { acc: number; acc0: number };
}

export interface CurriculumSeedRun {
  seed: number;
  /** a_j by dataset id */
  isolated: Readonly<Record<string, number>>;
  pairs: readonly CurriculumPairRun[];
  /** per order trained: its first dataset and R[0][0] (CIL) */
  firstCells?: readonly { first: string; accuracy: number }[];
}

export interface CurriculumVerdictInput {
  /** dataset ids in curriculum order, with their names */
  datasets: readonly { id: string; name: string; trainImagesPerClass: number }[];
  epochs: number;
  batchSize: number;
  runs: readonly CurriculumSeedRun[];
  planned?: number;
}

/** One seed's trained runs as the lab and `cil-lab curriculum` hold them: a_j by position, each trained order's R. */
export interface CurriculumSeedOrders {
  seed: number;
  isolated: readonly number[];
  orders: readonly { strategy: string; order: readonly number[]; cil: number[][]; til: number[][] }[];
}

/**
 * The verdict's input from every seed's trained orders: `cil-lab curriculum` and the lab's page build it with this one
 * function, so both say the same sentences. Per strategy (in `strategies` order) and scenario, the M2I and I2M pair
 * when both orders were trained; every trained order's first cell R[0][0] under CIL.
 */
export function curriculumVerdictInput(o: {
  datasets: CurriculumVerdictInput['datasets'];
  epochs: number;
  batchSize: number;
  strategies: readonly string[];
  scenarios: readonly ('cil' | 'til')[];
  seeds: readonly CurriculumSeedOrders[];
  planned?: number;
}): CurriculumVerdictInput {
  const ids = o.datasets.map((d) => d.id);
  return {
    datasets: o.datasets,
    epochs: o.epochs,
    batchSize: o.batchSize,
    runs: o.seeds.map((x) => {
      const m2i = m2iOrder(x.isolated);
      const i2m = i2mOrder(x.isolated);
      const pairs: CurriculumPairRun[] = [];
      for (const strategy of o.strategies)
        for (const scenario of o.scenarios) {
          const pick = (order: number[]) => x.orders.find((r) => r.strategy === strategy && sameOrder(r.order, order));
          const a = pick(m2i);
          const b = pick(i2m);
          if (!a || !b) continue;
          const ma = curriculumMetrics(scenario === 'cil' ? a.cil : a.til, x.isolated, m2i);
          const mb = curriculumMetrics(scenario === 'cil' ? b.cil : b.til, x.isolated, i2m);
          pairs.push({ strategy, scenario, m2i: { acc: ma.acc, acc0: ma.acc0 }, i2m: { acc: mb.acc, acc0: mb.acc0 } });
        }
      return {
        seed: x.seed,
        isolated: Object.fromEntries(ids.map((id, p) => [id, x.isolated[p]])),
        pairs,
        firstCells: x.orders.map((r) => ({ first: ids[r.order[0]], accuracy: r.cil[0][0] })),
      };
    }),
    ...(o.planned !== undefined ? { planned: o.planned } : {}),
  };
}

type Claim = ReturnType<typeof claimOf>;
export type WeightingOutcome = 'more-than-all' | 'about-all' | 'part' | 'against' | 'undefined';

export interface CurriculumPairReading {
  strategy: string;
  scenario: 'cil' | 'til';
  /** M2I − I2M ACC per seed, points */
  deltaAcc: Spread & { claim: Claim };
  /** the same for ACC₀ */
  deltaAcc0: Spread;
  /** ΔACC − ΔACC₀ per seed (what the order did beyond the weighting), points */
  beyond: Spread & { claim: Claim };
  /** mean ΔACC₀ / mean ΔACC (null when mean ΔACC is 0) */
  share: number | null;
  weighting: WeightingOutcome;
}

export interface CurriculumReading {
  pairs: CurriculumPairReading[];
  /** datasets whose mean a_j is within CHANCE_MARGIN of chance */
  atChance: { id: string; mean: number }[];
  /** first datasets whose R[0][0] differs from their a_j by more than FIRST_TASK_GAP (mean over seeds and orders) */
  firstTask: { id: string; first: number; isolated: number }[];
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function readCurriculum(input: CurriculumVerdictInput): CurriculumReading {
  const runs = input.runs;
  const keys: { strategy: string; scenario: 'cil' | 'til' }[] = [];
  for (const p of runs[0]?.pairs ?? []) keys.push({ strategy: p.strategy, scenario: p.scenario });
  const pairs = keys.map(({ strategy, scenario }) => {
    const rows = runs.map((r) => r.pairs.find((p) => p.strategy === strategy && p.scenario === scenario)).filter((p): p is CurriculumPairRun => !!p);
    const dAcc = rows.map((p) => 100 * (p.m2i.acc - p.i2m.acc));
    const dAcc0 = rows.map((p) => 100 * (p.m2i.acc0 - p.i2m.acc0));
    const deltaAcc = spreadOf(dAcc);
    const deltaAcc0 = spreadOf(dAcc0);
    const beyond = spreadOf(dAcc.map((d, i) => d - dAcc0[i]));
    const share = deltaAcc.mean === 0 ? null : deltaAcc0.mean / deltaAcc.mean;
    let weighting: WeightingOutcome;
    if (share === null) weighting = 'undefined';
    else if (share < 0) weighting = 'against';
    else if (Math.abs(share - 1) <= SHARE_ALL_TOLERANCE) weighting = 'about-all';
    else if (share > 1) weighting = 'more-than-all';
    else weighting = 'part';
    return {
      strategy,
      scenario,
      deltaAcc: { ...deltaAcc, claim: claimOf(deltaAcc) },
      deltaAcc0,
      beyond: { ...beyond, claim: claimOf(beyond) },
      share,
      weighting,
    };
  });
  const atChance = input.datasets
    .map((d) => ({ id: d.id, mean: mean(runs.map((r) => r.isolated[d.id]).filter(Number.isFinite)) }))
    .filter((d) => d.mean < CHANCE + CHANCE_MARGIN);
  const firstTask: CurriculumReading['firstTask'] = [];
  for (const d of input.datasets) {
    const cells = runs.flatMap((r) => (r.firstCells ?? []).filter((c) => c.first === d.id).map((c) => c.accuracy));
    if (cells.length === 0) continue;
    const first = mean(cells);
    const isolated = mean(runs.map((r) => r.isolated[d.id]));
    if (Math.abs(first - isolated) > FIRST_TASK_GAP) firstTask.push({ id: d.id, first, isolated });
  }
  return { pairs, atChance, firstTask };
}

const scenarioName = (s: 'cil' | 'til') => (s === 'cil' ? 'class-incremental' : 'task-incremental');

export function curriculumVerdict(input: CurriculumVerdictInput): Verdict {
  const r = readCurriculum(input);
  const out: VerdictSentence[] = [];
  const name = (id: string) => input.datasets.find((d) => d.id === id)?.name ?? id;
  for (const p of r.pairs) {
    const tag = `${p.strategy}:${p.scenario}`;
    const head = `${p.strategy}, ${scenarioName(p.scenario)}`;
    const lead = spreadText(p.deltaAcc, 'points', 1, true);
    const said =
      p.deltaAcc.claim === 'positive'
        ? `easy-first (M2I) beats hard-first (I2M) on ACC beyond the spread, by ${lead}`
        : p.deltaAcc.claim === 'negative'
          ? `hard-first (I2M) beats easy-first (M2I) on ACC beyond the spread: M2I − I2M = ${lead}`
          : p.deltaAcc.claim === 'unclear'
            ? `M2I − I2M ACC = ${lead}: the interval includes 0, so these seeds do not show an order winning`
            : `M2I − I2M ACC = ${lead}`;
    const fig = M2I_VGG9[p.strategy];
    const paper = fig
      ? `the paper's ${fig.name} (Wide-VGG9, ${scenarioName(p.scenario)}) goes from ${pctText(fig[p.scenario].i2m)} (I2M) to ${pctText(fig[p.scenario].m2i)} (M2I), ${signed(100 * (fig[p.scenario].m2i - fig[p.scenario].i2m))} points`
      : `the paper prints no figure for ${p.strategy}; it finds "almost all methods" better under M2I (Replay ${signed(100 * (M2I_VGG9.replay.cil.m2i - M2I_VGG9.replay.cil.i2m))} points, class-incremental, Wide-VGG9)`;
    out.push({ id: `cu-lead:${tag}:${p.deltaAcc.claim}`, kind: 'finding', text: `${head}: ${said}; ${paper}.` });
    const w = `ACC's weighting alone (ACC₀: no transfer, no forgetting) predicts ${signed(p.deltaAcc0.mean)} points`;
    const beyond = `ACC − ACC₀ differs between the two orders by ${spreadText(p.beyond, 'points', 1, true)}.`;
    const text =
      p.weighting === 'about-all'
        ? `${w}, about all of the measured ${signed(p.deltaAcc.mean)}: the lead is the metric's weighting of easy tasks that come first, not the order helping learning. ${beyond}`
        : p.weighting === 'more-than-all'
          ? `${w}, more than the measured ${signed(p.deltaAcc.mean)}: the weighting explains all of M2I's lead and more, and the easy-first order itself did worse than no transfer and no forgetting would. ${beyond}`
          : p.weighting === 'part'
            ? `${w} of the measured ${signed(p.deltaAcc.mean)} (${num(100 * (p.share ?? 0), 0)}%); the rest is what the order did beyond the weighting. ${beyond}`
            : p.weighting === 'against'
              ? `${w}, the other way from the measured ${signed(p.deltaAcc.mean)}. ${beyond}`
              : `${w}; the measured lead is 0, so no share can be given.`;
    out.push({ id: `cu-weighting:${tag}:${p.weighting}`, kind: 'finding', text });
  }
  if (r.atChance.length > 0) {
    const list = listText(r.atChance.map((d) => `${name(d.id)} (${pctText(d.mean)})`));
    out.push({
      id: 'cu-chance',
      kind: 'finding',
      text:
        r.atChance.length === 1
          ? `Trained alone, ${list} stays near chance (${pctText(CHANCE)}): where it sits in an order is decided by noise.`
          : `Trained alone, ${list} stay near chance (${pctText(CHANCE)}): M2I's ordering among them is decided by noise.`,
    });
    const stepsOf = (d: { trainImagesPerClass: number }) => Math.ceil((d.trainImagesPerClass * CLASSES_PER_DATASET) / input.batchSize) * input.epochs;
    const few = r.atChance.map((d) => input.datasets.find((x) => x.id === d.id)!).filter((d) => stepsOf(d) < FEW_STEPS);
    if (few.length > 0) {
      const d = few[0];
      out.push({
        id: 'cu-chance-why',
        kind: 'why',
        text: `${listText(few.map((x) => name(x.id)))} ${few.length === 1 ? 'has' : 'have'} ${countText(d.trainImagesPerClass)} training images per class, so ${input.epochs} epoch${input.epochs === 1 ? '' : 's'} give ${plural(stepsOf(d))} of batch ${input.batchSize} (under ${FEW_STEPS}): too few to learn.`,
      });
      out.push({
        id: 'cu-chance-try',
        kind: 'try',
        text: 'Leave these datasets out of the curriculum, or train more epochs (with 30 epochs every emoji set learns, 40–85% on seed 0; docs/science.md §8).',
      });
    }
  }
  for (const f of r.firstTask) {
    out.push({
      id: `cu-first:${f.id}`,
      kind: 'why',
      text: `An order starting with ${name(f.id)} reaches ${pctText(f.first)} on it after its first task, against ${pctText(f.isolated)} trained alone: the same data and seed, but a_j's network has that dataset's ${CLASSES_PER_DATASET} outputs and an order's has every dataset's from the start, so its last layer starts from other weights, and ${input.epochs} epochs leave the two runs apart.`,
    });
  }
  if (input.runs.length < 3)
    out.push({ id: 'cu-seeds-try', kind: 'try', text: 'Run 3 or more seeds: a lead is said as holding only beyond the spread over seeds.' });
  const provisional = input.planned !== undefined && input.runs.length < input.planned;
  return {
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(input.runs.length)} of ${countText(input.planned!)} seeds finished.` : '',
  };
}

function plural(steps: number): string {
  return `${countText(steps)} Adam step${steps === 1 ? '' : 's'}`;
}
