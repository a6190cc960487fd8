/**
 * Runs the requested protocols on one similarity matrix and task sizes (docs/science.md §1) and reports their
 * orderings with S, the per-pair mean, and — when Ω is small enough to enumerate and 'exact' is asked for —
 * the exact extremes and each ordering's distance to them ("how far each generator is from the exact extreme").
 * A protocol that cannot run (Ω too large to enumerate) becomes a note, never a failure of the others.
 */
import type { LinkageMatrix } from '../clustering/linkage';
import { countOrderings, formatOmega } from '../orderings/count';
import { similarityPairMean } from '../orderings/score';
import { fractionBelow, scoreValues, summariseScores, type ScoreDistribution } from '../orderings/score-distribution';
import { validateTaskSizes } from '../orderings/task-sizes';
import type { Sequence, SquareMatrix, TaskSizes } from '../orderings/types';
import { asOrderings, asSequence } from './as';
import { edgeOrderings, edgeSequences } from './edge';
import { edgeMedianOrdering } from './edge-median';
import { edgePlus, edgePlusSequences } from './edge-plus';
import { DEFAULT_EXACT_LIMIT, exactExtremes, exactSequences } from './exact';
import { msOrderings } from './ms';
import { DEFAULT_RS_SEEDS, rsClassOrder } from './rs';
import { splitIntoTasks } from '../orderings/key';
import { toSequence } from './sequence';
import type { ProtocolOptions, ProtocolReport, SequenceReport } from './types';

function aimOf(label: string): SequenceReport['aim'] {
  if (/hard|min S/.test(label)) return 'hard';
  if (/easy|max S/.test(label)) return 'easy';
  return 'random';
}

/**
 * EDGE's greedy construction (paper Alg. 1/2, as docs/science.md pins it) is not guaranteed to bracket random orderings:
 * on small problems (e.g. 6 classes in 3 tasks, where the middle task touches both others) its hard ordering can
 * score above an RS ordering. Say so plainly rather than hide it; EDGE+ and the exact search are the remedy.
 */
export function bracketNotes(sequences: readonly Sequence[]): string[] {
  const rs = sequences.filter((s) => s.protocol === 'rs').map((s) => s.score);
  const hard = sequences.find((s) => s.label === 'EDGE hard');
  const easy = sequences.find((s) => s.label === 'EDGE easy');
  if (rs.length === 0 || !hard || !easy) return [];
  const out: string[] = [];
  const fmt = (x: number) => x.toFixed(4);
  if (hard.score >= Math.min(...rs)) {
    out.push(
      `EDGE hard (S = ${fmt(hard.score)}) is not below every RS ordering (lowest RS S = ${fmt(Math.min(...rs))}): ` +
        "the paper's greedy construction can miss on small problems. EDGE+ and the exact search find lower S.",
    );
  }
  if (easy.score <= Math.max(...rs)) {
    out.push(
      `EDGE easy (S = ${fmt(easy.score)}) is not above every RS ordering (highest RS S = ${fmt(Math.max(...rs))}): ` +
        'EDGE+ and the exact search find higher S.',
    );
  }
  return out;
}

/**
 * @param precomputed.linkage EDGE's clustering of this `sim`, when the caller already has it (`edgeLinkage(sim)`):
 *   the Orderings page draws that dendrogram and EDGE cuts the same one, so it is computed once.
 */
export function runProtocols(sim: SquareMatrix, sizes: TaskSizes, options: ProtocolOptions, precomputed: { linkage?: LinkageMatrix } = {}): ProtocolReport {
  const valid = validateTaskSizes(sim.n, sizes);
  const omega = countOrderings(valid);
  const want = new Set(options.protocols);
  const notes: string[] = [];
  const sequences: Sequence[] = [];

  if (want.has('rs')) {
    for (const seed of options.rsSeeds ?? DEFAULT_RS_SEEDS) {
      // the order as numpy draws it: what PyCIL's class_order is (its export must be that very list)
      const drawn = rsClassOrder(seed, sim.n);
      sequences.push(toSequence('rs', `RS seed ${seed}`, splitIntoTasks(drawn, valid), sim, drawn));
    }
  }
  if (want.has('edge') || want.has('edge+')) {
    const edge = edgeOrderings(sim, valid, precomputed.linkage ? { dendrogram: precomputed.linkage } : {});
    if (want.has('edge')) {
      const [hard, easy] = edgeSequences(edge, sim);
      const medianSeed = options.medianSeed ?? 0;
      sequences.push(hard, easy, toSequence('edge', `EDGE median (seed ${medianSeed})`, edgeMedianOrdering(valid, medianSeed), sim));
    }
    if (want.has('edge+')) sequences.push(...edgePlusSequences(edgePlus(edge, sim), sim));
  }
  if (want.has('as')) {
    const as = asOrderings(sim, valid);
    sequences.push(asSequence(as.hard, 'hard', sim), asSequence(as.easy, 'easy', sim));
  }
  if (want.has('ms')) {
    const samples = options.msSamples ?? 200;
    const ms = msOrderings(sim, valid, samples, options.msSeed ?? 0);
    sequences.push(toSequence('ms', `MS hard (${samples} draws)`, ms.hard, sim), toSequence('ms', `MS easy (${samples} draws)`, ms.easy, sim));
  }
  let exact: ProtocolReport['exact'];
  if (want.has('exact')) {
    const limit = options.exactLimit ?? DEFAULT_EXACT_LIMIT;
    if (omega <= BigInt(limit)) {
      const res = exactExtremes(sim, valid, limit);
      sequences.push(...exactSequences(res, sim));
      exact = { min: res.min.score, max: res.max.score, enumerated: res.count };
    } else {
      notes.push(
        `Exact extremes skipped: there are ${formatOmega(omega)} orderings, more than the ${formatOmega(BigInt(limit))} that are enumerated. ` +
          'The sampled protocols (RS, MS, EDGE, EDGE+) still run.',
      );
    }
  }
  notes.push(...bracketNotes(sequences));
  let distribution: ScoreDistribution | undefined;
  let sorted: Float64Array | undefined;
  if (options.distribution) {
    const opts = options.distribution === true ? { limit: options.exactLimit } : options.distribution;
    const sv = scoreValues(sim, valid, opts);
    sorted = sv.values;
    distribution = summariseScores(sv.values, sv.kind, opts.binCount, sv.seed);
  }
  const reports: SequenceReport[] = sequences.map((s) => {
    const aim = aimOf(s.label);
    const r: SequenceReport = { ...s, aim, pairMean: similarityPairMean(s.tasks, sim) };
    if (sorted) r.fractionBelow = fractionBelow(sorted, s.score);
    if (exact && aim !== 'random') r.gapToExact = aim === 'hard' ? s.score - exact.min : exact.max - s.score;
    return r;
  });
  return { omega: omega.toString(), sequences: reports, notes, exact, distribution };
}
