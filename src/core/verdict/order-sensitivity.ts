/**
 * How much each method's accuracy depends on the order of the classes, in the shape of [EDGE] Table 1 (docs/science.md
 * §9; docs/verdicts.md): per method the truth's range over its orderings (min–max, the spread in points) beside RS's and
 * EDGE's orderings, and a verdict that says which methods the order leaves alone and why.
 *
 * - A **prototype method** (SimpleCIL, NCM, FeCAM, RanPAC) builds its classifier from sums over the seen classes'
 *   training rows of frozen features: after the last task every ordering has seen every class, so its final accuracy
 *   is one number (RanPAC with λ from the last task: moves only with λ). Its AIA is not invariant: the intermediate
 *   steps see different sets.
 * - A prototype method **adapted on the first task** (first-session adaptation) classifies features of a layer
 *   trained on the first task's classes: its final accuracy is one number per first task, so it moves between first
 *   tasks and agrees within one.
 * - A **trained head** (any other strategy on the features, or a network on pixels) follows the path of tasks with its
 *   weights, so two orderings differ even when they end with the same classes.
 *
 * Pure; tested in tests/unit/core/verdict/order-sensitivity.test.ts.
 */
import type { GroundTruthStats } from '../ground-truth/derive';
import { EDGE_TABLE_1 as PAPER_TABLE_1, type PaperColumn, type PaperMethod } from '../ground-truth/edge-table-1';
import type { Verdict, VerdictSentence } from './types';
import { countText, num, plural } from './wording';

/** Orderings that agree within this many points are "within a point" ([EDGE] Table 1: RanPAC 98.50–98.83). */
export const AGREE_POINTS = 1;
/** A spread of at least this many points is "several points". */
export const SPREAD_POINTS = 3;

/**
 * [EDGE] Table 1 (the first 6 classes in 3 tasks, all 90 orderings), final accuracy in %: each method's min and max
 * over the orderings (the grey rows), on CIFAR-100 and ImageNet-R — read off the table as printed
 * (core/ground-truth/edge-table-1.ts, which the Table-1 panel sets beside ours).
 */
const minMax = (c: PaperColumn) => ({ min: c.min, max: c.max });
const table1Ranges = (d: Record<PaperMethod, PaperColumn>) => ({
  l2p: minMax(d.L2P),
  codaPrompt: minMax(d['CODA-Prompt']),
  hidePrompt: minMax(d.HidePrompt),
  ease: minMax(d.EASE),
  mos: minMax(d.MOS),
  ranpac: minMax(d.RanPAC),
});
export const EDGE_TABLE_1 = { cifar100: table1Ranges(PAPER_TABLE_1.cifar100), imagenetR: table1Ranges(PAPER_TABLE_1['imagenet-r']) } as const;

const tableSpread = (r: { min: number; max: number }) => num(Math.round(100 * (r.max - r.min)) / 100, 2);

/**
 * 'prototype': built by class set from frozen features; 'first-task': the same after a layer adapted on the first task
 * (its state depends on the first task's classes and the set seen); 'trained': a head or network trained on every task.
 */
export type MethodKind = 'prototype' | 'first-task' | 'trained';

export interface MethodSpread {
  strategy: string;
  kind: MethodKind;
  /** orderings with a value, of those planned */
  n: number;
  planned: number;
  /** the truth's range over its orderings (fractions), and its width in points */
  min: number;
  max: number;
  spread: number;
  /** RS's and EDGE's orderings: their range (fractions), null while not trained */
  rs: { min: number; max: number } | null;
  edge: { min: number; max: number } | null;
  /** this accuracy is the same for every ordering by construction (a prototype method's final accuracy) */
  invariant: boolean;
}

export interface OrderSensitivityInput {
  stats: GroundTruthStats;
  /** which strategies are prototype methods (the rest are trained) */
  kindOf: (strategy: string) => MethodKind;
  /** a method's name in sentences ("SimpleCIL", "Finetune (head)") */
  nameOf?: (strategy: string) => string;
  /** RanPAC's λ rule when RanPAC is among the methods ('task': its final accuracy moves with λ only) */
  ranpacLambdaFrom?: 'task' | 'seen';
  /**
   * The trained head's bar on these features, when measured (engine/features/head-bar.ts): the same head trained
   * jointly on every class, and SimpleCIL, with the settings it trained with.
   */
  headBar?: { joint: number; simplecil: number; epochs: number; lr: number } | null;
}

export interface OrderSensitivity {
  rows: MethodSpread[];
  verdict: Verdict;
}

const pt = (v: number) => num(100 * v, 1);
const range = (lo: number, hi: number) => (Math.abs(hi - lo) < 5e-5 ? `${pt(lo)} %` : `${pt(lo)}–${pt(hi)} %`);

export function orderSensitivity(input: OrderSensitivityInput): OrderSensitivity {
  const { stats, kindOf } = input;
  const name = input.nameOf ?? ((s: string) => s);
  const final = stats.variable === 'final';
  const rows: MethodSpread[] = stats.strategies
    .filter((s) => s.truth.evaluated > 0)
    .map((s) => {
      const values = s.truth.values;
      const min = Math.min(...values);
      const max = Math.max(...values);
      const kind = kindOf(s.strategy);
      const sum = (p: 'rs' | 'edge') => {
        const v = s.summaries[p].value;
        return v ? { min: v.min, max: v.max } : null;
      };
      return {
        strategy: s.strategy,
        kind,
        n: s.truth.evaluated,
        planned: s.truth.planned,
        min,
        max,
        spread: 100 * (max - min),
        rs: sum('rs'),
        edge: sum('edge'),
        invariant: final && kind === 'prototype' && !(s.strategy === 'ranpac' && input.ranpacLambdaFrom !== 'seen'),
      };
    });
  const sentences: VerdictSentence[] = [];
  const protos = rows.filter((r) => r.kind === 'prototype');
  const adapted = rows.filter((r) => r.kind === 'first-task');
  const trained = rows.filter((r) => r.kind === 'trained');
  const variable = final ? 'final accuracy' : 'average incremental accuracy';
  const list = (rs: MethodSpread[]) => rs.map((r) => `${name(r.strategy)} ${range(r.min, r.max)}`).join(', ');
  if (protos.length > 0) {
    const widest = Math.max(...protos.map((r) => r.spread));
    const n = countText(Math.max(...protos.map((r) => r.n)));
    const agree = widest <= AGREE_POINTS;
    sentences.push({
      id: 'order:prototypes',
      kind: 'finding',
      text: agree
        ? `The pre-trained methods’ ${n} orderings agree within ${widest < 0.05 ? 'a tenth of a point' : 'a point'} on ${variable} (${list(protos)}).`
        : `The pre-trained methods’ ${variable} spreads up to ${num(widest, 1)} points over their ${n} orderings (${list(protos)}).`,
    });
  }
  for (const r of adapted) {
    // within a first task its orderings share the adapted layer; between first tasks they do not
    const groups = firstTaskGroups(stats, r.strategy);
    const within = Math.max(0, ...groups.map((g) => 100 * (g.max - g.min)));
    const means = groups.map((g) => g.mean);
    const between = groups.length > 1 ? 100 * (Math.max(...means) - Math.min(...means)) : 0;
    sentences.push({
      id: `order:first-task:${r.strategy}`,
      kind: 'finding',
      text: final
        ? `${name(r.strategy)} adapts a layer on the first task: over its ${groups.length} first tasks its final accuracy moves ${num(between, 1)} points (means of the groups; all orderings ${range(r.min, r.max)}), and within one first task its orderings agree within ${within < 0.05 ? 'a tenth of a point' : `${num(within, 1)} points`}${r.strategy === 'ranpac' && input.ranpacLambdaFrom !== 'seen' ? ' (RanPAC’s λ, chosen on the last task, may move it too)' : ''}: which classes come first decides it, not the order after that.`
        : `${name(r.strategy)} adapts a layer on the first task: its average incremental accuracy moves ${num(between, 1)} points between the means of its ${groups.length} first tasks and up to ${num(within, 1)} points within one (the intermediate sets seen differ).`,
    });
  }
  if (trained.length > 0) {
    const widest = trained.reduce((a, b) => (b.spread > a.spread ? b : a));
    sentences.push({
      id: 'order:trained',
      kind: 'finding',
      text:
        widest.spread >= SPREAD_POINTS
          ? `The trained ${trained.length === 1 ? 'strategy spreads' : 'strategies spread'} several points: ${list(trained)}${trained.length > 1 ? ` (widest ${name(widest.strategy)}, ${num(widest.spread, 1)} points)` : ` (${num(widest.spread, 1)} points)`}.`
          : `The trained ${trained.length === 1 ? 'strategy spreads' : 'strategies spread'} less than ${SPREAD_POINTS} points here: ${list(trained)}; more epochs or fewer images per class usually make the order matter more.`,
    });
  }
  const bar = input.headBar;
  if (bar && trained.length > 0) {
    const settings = `${plural(bar.epochs, 'epoch')} at learning rate ${bar.lr}`;
    sentences.push(
      bar.joint < bar.simplecil
        ? {
            id: 'order:head-bar',
            kind: 'finding',
            text: `The head is below the bar: trained jointly on every class with these settings (${settings}) it reaches ${pt(bar.joint)} %, under SimpleCIL’s ${pt(bar.simplecil)} % on the same features. An under-trained head’s spread is partly which classes came last, not forgetting: raise the epochs or the learning rate.`,
          }
        : {
            id: 'order:head-bar',
            kind: 'note',
            text: `The head clears the bar: trained jointly on every class with these settings (${settings}) it reaches ${pt(bar.joint)} %, at least SimpleCIL’s ${pt(bar.simplecil)} % on the same features, so its spread is the order’s, not under-training.`,
          },
    );
  }
  if (protos.length > 0) {
    sentences.push({
      id: 'order:why',
      kind: 'why',
      text: final
        ? 'A prototype method’s classifier is built from sums over the training rows of the classes seen (class means, covariances, RanPAC’s Gram matrix), and a sum does not depend on the order of its terms; after the last task every ordering has seen every class, so the classifier — and its final accuracy — is the same for all of them' +
          (protos.some((r) => r.strategy === 'ranpac') && input.ranpacLambdaFrom !== 'seen'
            ? ' (RanPAC’s ridge λ is chosen on the last task’s rows, so its final accuracy moves with λ only).'
            : '.') +
          (trained.length > 0 ? ' A trained head’s weights follow the path of tasks, so its accuracy depends on the order.' : '')
        : 'Average incremental accuracy averages the accuracy after every step, and the sets of classes seen before the last step differ between orderings, so even a prototype method’s AIA depends on the order; only its final accuracy is the same for every ordering.',
    });
  }
  const ranpac = rows.find((r) => r.strategy === 'ranpac');
  if (final && (protos.length > 0 || trained.length > 0)) {
    const c = EDGE_TABLE_1.cifar100;
    const i = EDGE_TABLE_1.imagenetR;
    sentences.push({
      id: 'order:paper',
      kind: 'note',
      text:
        `The paper’s Table 1 (first 6 classes in 3 tasks, a pre-trained ViT), spread over the 90 orderings in points, CIFAR-100 / ImageNet-R: ` +
        `L2P ${tableSpread(c.l2p)} / ${tableSpread(i.l2p)}, CODA-Prompt ${tableSpread(c.codaPrompt)} / ${tableSpread(i.codaPrompt)}, HidePrompt ${tableSpread(c.hidePrompt)} / ${tableSpread(i.hidePrompt)}, ` +
        `MOS ${tableSpread(c.mos)} / ${tableSpread(i.mos)}, EASE ${tableSpread(c.ease)} / ${tableSpread(i.ease)}, RanPAC ${tableSpread(c.ranpac)} / ${tableSpread(i.ranpac)} (${c.ranpac.min}–${c.ranpac.max} % on CIFAR-100)` +
        (ranpac ? `; RanPAC here ${range(ranpac.min, ranpac.max)}` : '') +
        '. The head stands in for methods that adapt the backbone (prompts, adapters), which frozen features cannot do.',
    });
  }
  const incomplete = rows.some((r) => r.n < r.planned);
  const parts: string[] = [];
  if (protos.length > 0) {
    const widest = Math.max(...protos.map((r) => r.spread));
    parts.push(
      widest <= AGREE_POINTS
        ? `the prototype methods end within ${widest < 0.05 ? 'a tenth of a point' : 'a point'} of each other's ${variable} in every order`
        : `the prototype methods' ${variable} spreads up to ${num(widest, 1)} points over the orders`,
    );
  }
  if (adapted.length > 0)
    parts.push(adapted.length === 1 ? `${name(adapted[0].strategy)} moves with the first task only` : 'the adapted methods move with the first task only');
  if (trained.length > 0) {
    const widest = trained.reduce((a, b) => (b.spread > a.spread ? b : a));
    parts.push(
      trained.length === 1
        ? `${name(widest.strategy)} spreads ${num(widest.spread, 1)} points over the orders`
        : `the trained strategies spread up to ${num(widest.spread, 1)} points over the orders (widest: ${name(widest.strategy)})`,
    );
  }
  const joined = parts.join('; ');
  return {
    rows,
    verdict: {
      headline: parts.length ? `${incomplete ? 'So far, ' : ''}${incomplete ? joined : joined.charAt(0).toUpperCase() + joined.slice(1)}.` : '',
      sentences,
      provisional: incomplete,
      provisionalNote: incomplete ? 'Provisional: not every ordering of every method is finished yet.' : '',
    },
  };
}

/** One first task's orderings of a method: its classes (dataset indices), how many, and their accuracy's mean and range. */
export interface FirstTaskGroup {
  firstTask: number[];
  n: number;
  mean: number;
  min: number;
  max: number;
}

/**
 * A method's truth orderings grouped by which classes form the first task (the first-task sensitivity view): a
 * method that adapts on the first task only would differ between groups and agree within one. Groups by mean, lowest
 * first.
 */
export function firstTaskGroups(stats: GroundTruthStats, strategy: string): FirstTaskGroup[] {
  const s = stats.strategies.find((x) => x.strategy === strategy);
  if (!s) return [];
  const groups = new Map<string, { firstTask: number[]; values: number[] }>();
  for (const p of s.points) {
    if (p.value === null || !p.roles.includes('truth')) continue;
    const first = [...p.tasks[0]].sort((a, b) => a - b);
    const key = first.join(',');
    const g = groups.get(key) ?? { firstTask: first, values: [] };
    g.values.push(p.value);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({
      firstTask: g.firstTask,
      n: g.values.length,
      mean: g.values.reduce((a, b) => a + b, 0) / g.values.length,
      min: Math.min(...g.values),
      max: Math.max(...g.values),
    }))
    .sort((a, b) => a.mean - b.mean || a.firstTask.join(',').localeCompare(b.firstTask.join(',')));
}
