/**
 * The Ground-truth lab's plan (docs/science.md §2 "Ground truth"): which orderings are trained, which role each plays
 * (the truth: all of Ω or a uniform sample; RS's and EDGE's orderings, always trained and matched with the truth by
 * canonical key), and in what order the runs (ordering × strategy × seed) go to the training worker. The similarity
 * matrix and the protocols work on positions 0..N−1 of `classes`; everything the plan returns (tasks, keys) is in
 * the dataset's class indices (`classes[position]`), what the engine trains on and `ui.selectedOrdering` names.
 */
import { countOrderings, formatOmega } from '../orderings/count';
import { enumerateOrderings } from '../orderings/enumerate';
import { canonicalOrdering, orderingKey } from '../orderings/key';
import { sampleOrderingsByShuffle } from '../orderings/sample';
import { similarityScore } from '../orderings/score';
import { OrderingError, validateTaskSizes } from '../orderings/task-sizes';
import type { Ordering, SquareMatrix } from '../orderings/types';
import { runProtocols } from '../protocols/run';
import type { ProtocolOptions } from '../protocols/types';
import { createDefaultRng } from '../random/default-rng';
import type { GroundTruthSettings } from '../labs/ground-truth/settings';

export type OrderingRole = 'truth' | 'rs' | 'edge-hard' | 'edge-easy' | 'edge-median';

/**
 * What a ground truth is planned from: the experiment's classes, similarity, protocols, strategies and seeds, and the
 * lab's own settings (./settings.ts: `budget`, train all of Ω when |Ω| ≤ budget, else `budget` uniform samples drawn
 * with `sampleSeed`).
 */
export interface GroundTruthInput extends GroundTruthSettings {
  /** dataset class indices of the experiment's classes, position p ↔ row/column p of `similarity` */
  classes: number[];
  taskSizes: number[];
  /** class × class similarity over positions 0..N−1 of `classes` */
  similarity: SquareMatrix;
  /** RS seeds and EDGE's median seed are read from here (`protocols` is ignored: RS and EDGE always run) */
  protocolOptions: ProtocolOptions;
  /** strategy ids, in the order their jobs run */
  strategies: string[];
  /** training seeds: every (ordering, strategy) trains once per seed */
  seeds: number[];
}

export interface PlannedOrdering {
  /** canonical key over dataset class indices ("0,3|1,5|2,4") */
  key: string;
  /** the ordering over dataset class indices, each task ascending */
  tasks: number[][];
  /** 'truth' when it belongs to the truth set, plus one role per protocol that picked it */
  roles: OrderingRole[];
  /** the protocols' labels ("RS seed 0", "EDGE hard", …), joined with " · " when several picked it */
  label?: string;
  /** S(O), paper Eq. 5 */
  score: number;
}

/** One protocol draw (duplicates kept: see `GroundTruthPlan.protocolOrderings`). */
export interface ProtocolDraw {
  role: Exclude<OrderingRole, 'truth'>;
  label: string;
  key: string;
  /** whether this ordering is also in the truth set */
  inTruth: boolean;
}

export interface GroundTruthJob {
  orderingKey: string;
  /** over dataset class indices */
  tasks: number[][];
  strategy: string;
  seed: number;
}

export interface GroundTruthPlan {
  /** |Ω| exactly, as a decimal string */
  omega: string;
  /** true: the truth is all of Ω; false: a uniform sample of `truthCount` orderings */
  exhaustive: boolean;
  truthCount: number;
  /** e.g. "all 90 orderings" or "a uniform sample of 500 of 1.001e12 orderings (seed 0)" */
  truthLabel: string;
  /** protocol orderings first (protocol order), then the truth orderings in job order */
  orderings: PlannedOrdering[];
  /**
   * one entry per protocol draw, duplicates kept: two RS seeds (or RS and EDGE median) may draw one ordering, which
   * `orderings` lists once with every role, but an estimate from L draws has L values
   */
  protocolOrderings: ProtocolDraw[];
  /**
   * the protocol orderings first (RS seeds, then EDGE hard, easy, median), so the estimates come early; then the
   * others in a seeded shuffle (`jobOrderSeed`), so the histogram fills evenly; within an ordering every strategy,
   * within a strategy every seed, so an ordering's point is complete as soon as its last job finishes
   */
  jobs: GroundTruthJob[];
}

/** The seed of the job-order shuffle: a stream apart from the sample's own `default_rng(sampleSeed)`. */
export function jobOrderSeed(sampleSeed: number): number {
  return (sampleSeed ^ 0x5bd1e995) >>> 0;
}

function roleOfLabel(protocol: string, label: string): Exclude<OrderingRole, 'truth'> | null {
  if (protocol === 'rs') return 'rs';
  if (protocol !== 'edge') return null;
  if (label === 'EDGE hard') return 'edge-hard';
  if (label === 'EDGE easy') return 'edge-easy';
  if (label.startsWith('EDGE median')) return 'edge-median';
  return null;
}

function checkInput(input: GroundTruthInput): void {
  const { classes, similarity, budget, strategies, seeds } = input;
  if (similarity.n !== classes.length) {
    throw new OrderingError(`The similarity matrix is ${similarity.n}×${similarity.n} but there are ${classes.length} classes.`);
  }
  if (new Set(classes).size !== classes.length || classes.some((c) => !Number.isInteger(c) || c < 0)) {
    throw new OrderingError('The classes must be distinct non-negative whole numbers.');
  }
  if (!Number.isInteger(budget) || budget < 1) throw new OrderingError(`The budget must be a positive whole number; got ${budget}.`);
  if (strategies.length === 0) throw new OrderingError('Choose at least one strategy.');
  if (new Set(strategies).size !== strategies.length) throw new OrderingError('Each strategy may be chosen once.');
  if (seeds.length === 0) throw new OrderingError('Give at least one training seed.');
  if (new Set(seeds).size !== seeds.length) throw new OrderingError('The training seeds must be distinct.');
}

export function planGroundTruth(input: GroundTruthInput): GroundTruthPlan {
  checkInput(input);
  const { classes, similarity, protocolOptions, strategies, seeds, budget, sampleSeed } = input;
  const sizes = validateTaskSizes(classes.length, input.taskSizes);
  const omega = countOrderings(sizes);
  const exhaustive = omega <= BigInt(budget);

  const toDataset = (local: Ordering): number[][] => canonicalOrdering(local.map((t) => t.map((p) => classes[p])));
  const byKey = new Map<string, PlannedOrdering & { labels: string[] }>();
  const add = (local: Ordering): PlannedOrdering & { labels: string[] } => {
    const tasks = toDataset(local);
    const key = orderingKey(tasks);
    let o = byKey.get(key);
    if (!o) {
      o = { key, tasks, roles: [], labels: [], score: similarityScore(local, similarity) };
      byKey.set(key, o);
    }
    return o;
  };

  // 1. the protocol orderings, in protocol order
  const report = runProtocols(similarity, sizes, {
    protocols: ['rs', 'edge'],
    rsSeeds: protocolOptions.rsSeeds,
    medianSeed: protocolOptions.medianSeed,
  });
  const draws: (Omit<ProtocolDraw, 'inTruth'> & { entry: PlannedOrdering & { labels: string[] } })[] = [];
  for (const s of report.sequences) {
    const role = roleOfLabel(s.protocol, s.label);
    if (!role) continue;
    const entry = add(s.tasks);
    if (!entry.roles.includes(role)) entry.roles.push(role);
    entry.labels.push(s.label);
    draws.push({ role, label: s.label, key: entry.key, entry });
  }
  const protocolEntries = [...byKey.values()];

  // 2. the truth set: all of Ω, or a uniform sample
  const truthLocal: Iterable<Ordering> = exhaustive ? enumerateOrderings(sizes) : sampleOrderingsByShuffle(sizes, budget, sampleSeed);
  const truthOnly: (PlannedOrdering & { labels: string[] })[] = [];
  let truthCount = 0;
  for (const local of truthLocal) {
    const entry = add(local);
    if (entry.roles.includes('truth')) continue; // cannot happen (enumeration and samples are distinct), kept for safety
    entry.roles.unshift('truth');
    truthCount++;
    if (entry.labels.length === 0) truthOnly.push(entry);
  }

  // 3. job order: protocol orderings, then the rest shuffled (seeded)
  const order = createDefaultRng(jobOrderSeed(sampleSeed)).permutation(truthOnly.length);
  const ordered = [...protocolEntries, ...order.map((i) => truthOnly[i])];
  const orderings: PlannedOrdering[] = ordered.map(({ labels, ...o }) => (labels.length > 0 ? { ...o, label: labels.join(' · ') } : o));
  const jobs: GroundTruthJob[] = [];
  for (const o of orderings) {
    for (const strategy of strategies) for (const seed of seeds) jobs.push({ orderingKey: o.key, tasks: o.tasks, strategy, seed });
  }
  const protocolOrderings: ProtocolDraw[] = draws.map(({ entry, ...d }) => ({ ...d, inTruth: entry.roles.includes('truth') }));
  const truthLabel = exhaustive
    ? `all ${formatOmega(omega)} orderings`
    : `a uniform sample of ${formatOmega(BigInt(truthCount))} of ${formatOmega(omega)} orderings (seed ${sampleSeed})`;
  return { omega: omega.toString(), exhaustive, truthCount, truthLabel, orderings, protocolOrderings, jobs };
}

/** The orderings whose A(O) make up the truth distribution (all of Ω, or the sample). */
export function truthOrderings(plan: GroundTruthPlan): PlannedOrdering[] {
  return plan.orderings.filter((o) => o.roles.includes('truth'));
}
