/**
 * The Curriculum lab's verdict (docs/verdicts.md §Curriculum): over the seeds run, per strategy and scenario,
 *   1. whether easy-first (M2I) beats hard-first (I2M) on ACC, by the claim rule (./claim.ts), with the paper's figure;
 *   2. what ACC's own weighting predicts (ACC₀, docs/science.md §8) and whether the order did anything beyond it
 *      (ΔACC − ΔACC₀, paired by seed, by the claim rule: never from a ratio of two means);
 *   3. against the shuffled-pair control (every K! order trained, K ≥ 3): a seeded random order and its reverse, the
 *      same seeds — whether M2I's lead is beyond what any order's lead over its reverse is;
 *   4. which datasets stay at chance trained alone, and why when the lab can tell (images and Adam steps per class);
 *   5. where an order's first task differs from the same dataset trained alone, and why;
 *   6. what to try.
 * `readCurriculum` computes the numbers and outcomes (checked against scripts/make-verdict-fixtures.py);
 * `curriculumVerdict` words them. Pure.
 */
import { CLASSES_PER_DATASET } from '../curriculum/catalogue';
import { M2I_VGG9 } from '../curriculum/paper';
import { curriculumMetrics } from '../curriculum/metrics';
import { i2mOrder, m2iOrder, sameOrder } from '../curriculum/orders';
import { createDefaultRng } from '../random/default-rng';
import { claim, differenceOutcome, type DifferenceOutcome } from './claim';
import { spreadOf, type Spread } from './intervals';
import type { Verdict, VerdictSentence } from './types';
import { countText, listText, lowerFirst, num, pctText, plural as pluralOf, signed, strategyWord } from './wording';

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
/**
 * The shuffled-pair control's order, per seed: drawn by numpy's `default_rng(seed XOR CONTROL_PAIR_SEED)` (one
 * `integers(n)` over the trained orders, lexicographic, that are neither M2I nor I2M and whose reverse is trained too).
 */
export const CONTROL_PAIR_SEED = 0x5a1f;

export interface CurriculumPairRun {
  strategy: string;
  scenario: 'cil' | 'til';
  m2i: { acc: number; acc0: number };
  i2m: { acc: number; acc0: number };
  /** the shuffled-pair control: a seeded random order and its reverse (when both were trained) */
  shuffled?: { order: readonly number[]; first: { acc: number; acc0: number }; second: { acc: number; acc0: number } };
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
      const control = shuffledOrder(x, m2i, i2m);
      const pairs: CurriculumPairRun[] = [];
      for (const strategy of o.strategies)
        for (const scenario of o.scenarios) {
          const metricsOf = (order: readonly number[]) => {
            const r = x.orders.find((t) => t.strategy === strategy && sameOrder(t.order, order));
            if (!r) return null;
            const m = curriculumMetrics(scenario === 'cil' ? r.cil : r.til, x.isolated, order);
            return { acc: m.acc, acc0: m.acc0 };
          };
          const a = metricsOf(m2i);
          const b = metricsOf(i2m);
          if (!a || !b) continue;
          const first = control ? metricsOf(control) : null;
          const second = control ? metricsOf([...control].reverse()) : null;
          pairs.push({ strategy, scenario, m2i: a, i2m: b, ...(control && first && second ? { shuffled: { order: control, first, second } } : {}) });
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

type Claim = DifferenceOutcome;

/**
 * The shuffled pair's first order for one seed (null unless every order of K ≥ 3 datasets was trained): among the
 * trained orders, lexicographic, neither M2I nor I2M and with their reverse trained, the one numpy's
 * `default_rng(seed XOR CONTROL_PAIR_SEED).integers(n)` picks.
 */
export function shuffledOrder(x: Pick<CurriculumSeedOrders, 'seed' | 'orders'>, m2i: readonly number[], i2m: readonly number[]): number[] | null {
  if (m2i.length < 3) return null;
  const keys = new Set(x.orders.map((r) => r.order.join(',')));
  const candidates = [...keys]
    .map((k) => k.split(',').map(Number))
    .filter((o) => !sameOrder(o, m2i) && !sameOrder(o, i2m) && keys.has([...o].reverse().join(',')))
    .sort((a, b) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
      return 0;
    });
  if (candidates.length === 0) return null;
  return candidates[createDefaultRng((x.seed ^ CONTROL_PAIR_SEED) >>> 0).integers(candidates.length)];
}

export interface CurriculumPairReading {
  strategy: string;
  scenario: 'cil' | 'til';
  /** M2I − I2M ACC per seed, points */
  deltaAcc: Spread & { claim: Claim };
  /** the same for ACC₀ */
  deltaAcc0: Spread;
  /** ΔACC − ΔACC₀ per seed (what the order did beyond the weighting), points */
  beyond: Spread & { claim: Claim };
  /** mean ΔACC₀ / mean ΔACC (null when mean ΔACC is 0): a summary number only, never worded as a share of the lead */
  share: number | null;
  /** the shuffled pair's ACC difference (first − reverse) per seed, and ΔACC minus it, paired by seed; null without */
  control: { shuffled: Spread; vsControl: Spread & { claim: Claim } } | null;
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
    // the shuffled-pair control, over the seeds that have it (paired with their own ΔACC)
    const withControl = rows.map((p, i) => ({ p, d: dAcc[i] })).filter((x) => x.p.shuffled);
    let control: CurriculumPairReading['control'] = null;
    if (withControl.length > 0) {
      const sh = withControl.map((x) => 100 * (x.p.shuffled!.first.acc - x.p.shuffled!.second.acc));
      const vs = spreadOf(withControl.map((x, i) => x.d - sh[i]));
      control = { shuffled: spreadOf(sh), vsControl: { ...vs, claim: differenceOutcome(vs) } };
    }
    return {
      strategy,
      scenario,
      deltaAcc: { ...deltaAcc, claim: differenceOutcome(deltaAcc) },
      deltaAcc0,
      beyond: { ...beyond, claim: differenceOutcome(beyond) },
      share,
      control,
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

/** The headline: one pair said in full, several counted. At most 30 words. */
function headlineOf(r: CurriculumReading, n: number): string {
  const pairs = r.pairs;
  if (pairs.length === 0) return '';
  const seeds = pluralOf(n, 'seed');
  if (pairs.length === 1) {
    const p = pairs[0];
    const who = `for ${strategyWord(p.strategy)} (${p.scenario.toUpperCase()})`;
    const lead = `${num(Math.abs(p.deltaAcc.mean), 1)} points`;
    const weight = `ACC's weighting alone predicts ${signed(p.deltaAcc0.mean)}`;
    if (p.deltaAcc.claim === 'positive')
      return p.beyond.claim === 'positive'
        ? `Easy-first (M2I) beats hard-first (I2M) by ${lead} ${who}, more than ACC's weighting of early tasks alone explains, over ${seeds}.`
        : `Easy-first (M2I) beats hard-first (I2M) by ${lead} ${who}, but ${weight}: better learning is not shown (${seeds}).`;
    if (p.deltaAcc.claim === 'negative') return `Hard-first (I2M) beats easy-first (M2I) by ${lead} ${who} over ${seeds}, although ${weight}.`;
    return `Easy-first (M2I) and hard-first (I2M) cannot be told apart ${who} over ${seeds}; ${weight} points.`;
  }
  const wins = pairs.filter((p) => p.deltaAcc.claim === 'positive').length;
  const beyond = pairs.filter((p) => p.beyond.claim === 'positive').length;
  if (wins === 0)
    return `Over ${seeds}, easy-first (M2I) beats hard-first (I2M) beyond the spread in none of the ${countText(pairs.length)} strategy–scenario pairs.`;
  return `Over ${seeds}, easy-first (M2I) beats hard-first (I2M) beyond the spread in ${countText(wins)} of ${countText(pairs.length)} strategy–scenario pairs, and by more than ACC's weighting predicts in ${countText(beyond)}.`;
}

export function curriculumVerdict(input: CurriculumVerdictInput): Verdict {
  const r = readCurriculum(input);
  const out: VerdictSentence[] = [];
  const name = (id: string) => input.datasets.find((d) => d.id === id)?.name ?? id;
  for (const p of r.pairs) {
    const tag = `${p.strategy}:${p.scenario}`;
    const head = `${p.strategy}, ${scenarioName(p.scenario)}`;
    const fig = M2I_VGG9[p.strategy];
    const paper = fig
      ? `the paper's ${fig.name} (Wide-VGG9, ${scenarioName(p.scenario)}) goes from ${pctText(fig[p.scenario].i2m)} (I2M) to ${pctText(fig[p.scenario].m2i)} (M2I), ${signed(100 * (fig[p.scenario].m2i - fig[p.scenario].i2m))} points`
      : `the paper prints no figure for ${p.strategy}; it finds "almost all methods" better under M2I (Replay ${signed(100 * (M2I_VGG9.replay.cil.m2i - M2I_VGG9.replay.cil.i2m))} points, class-incremental, Wide-VGG9)`;
    const lead = claim(
      { kind: 'difference', spread: p.deltaAcc },
      {
        subject: `${head}: M2I − I2M ACC`,
        positive: (n) => `${head}: easy-first (M2I) beats hard-first (I2M) on ACC by ${n}`,
        negative: (n) => `${head}: hard-first (I2M) beats easy-first (M2I) on ACC: M2I − I2M = ${n}`,
      },
    );
    out.push({ id: `cu-lead:${tag}:${p.deltaAcc.claim}`, kind: 'finding', text: `${lead.text}; ${paper}.` });
    const w = `${head}: ACC's weighting alone (ACC₀: no transfer, no forgetting) predicts M2I − I2M = ${signed(p.deltaAcc0.mean)} points (measured: ${signed(p.deltaAcc.mean)})`;
    const beyond = claim(
      { kind: 'difference', spread: p.beyond },
      {
        subject: 'What the order did beyond that weighting (ΔACC − ΔACC₀, paired by seed)',
        positive: (n) => `beyond that weighting, easy-first helped: ΔACC − ΔACC₀ = ${n}`,
        negative: (n) => `beyond that weighting, the easy-first order did worse: ΔACC − ΔACC₀ = ${n}, so the weighting explains all of M2I's lead and more`,
      },
    );
    out.push({ id: `cu-beyond:${tag}:${p.beyond.claim}`, kind: 'finding', text: `${w}; ${beyond.supported ? beyond.text : lowerFirst(beyond.text)}.` });
    if (p.control) {
      const c = p.control;
      const vs = claim(
        { kind: 'difference', spread: c.vsControl },
        {
          subject: `M2I − I2M minus the shuffled pair's lead (${signed(c.shuffled.mean)} points: a random order minus its reverse, paired by seed)`,
          positive: (n) =>
            `M2I's lead over I2M is beyond the shuffled pair's (a random order minus its reverse, ${signed(c.shuffled.mean)} points) by ${n}: sorting by difficulty matters`,
          negative: (n) => `M2I's lead over I2M is below the shuffled pair's (a random order minus its reverse, ${signed(c.shuffled.mean)} points) by ${n}`,
        },
      );
      out.push({ id: `cu-control:${tag}:${c.vsControl.claim}`, kind: 'finding', text: `${head}: ${lowerFirst(vs.text)}.` });
    }
  }
  if (r.pairs.length > 0 && r.pairs.every((p) => !p.control))
    out.push({
      id: 'cu-control-try',
      kind: 'try',
      text: 'Train every order of 3 or more datasets (order "all") to compare M2I with the shuffled-pair control: a random order and its reverse.',
    });
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
    headline: headlineOf(r, input.runs.length),
    sentences: out,
    provisional,
    provisionalNote: provisional ? `Provisional: ${countText(input.runs.length)} of ${countText(input.planned!)} seeds finished.` : '',
  };
}

function plural(steps: number): string {
  return `${countText(steps)} Adam step${steps === 1 ? '' : 's'}`;
}
