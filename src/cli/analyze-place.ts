/**
 * `cil-lab analyze --features F.npz --strategy simplecil|ranpac|fecam (--results LOG | --order 3,1,0,…)`: where a
 * paper's or a run's class order lands in the method's whole distribution on these features (docs/science.md §9
 * "The whole distribution"). The orders come from a results file (a PyCIL/PILOT log's class order per run, or any
 * format "Import results" reads) or from --order (indices or names, flat or as task lists); indices are positions in
 * the experiment's class list (--classes, label ids of the features; default every class of the file), as in every
 * import. Each order is placed exactly as `run --summary --place` does (features-summary.ts); a log's own accuracies
 * are reported beside it as the log's (its run, its model), not placed.
 */
import { basename } from 'node:path';
import { CONFIG_LIMITS } from '../core/config/limits';
import { UINT32_MAX } from '../core/config/checker';
import { isPtmStrategyId, PTM_STRATEGY_IDS } from '../core/ptm/defaults';
import type { OrderingToPlace } from '../core/ptm/distribution-report';
import { readClassOrder } from '../core/results-import/class-order';
import { importResults } from '../core/results-import/import-results';
import { placementSentences, whoOf } from '../core/verdict/order-placement';
import { UsageError, intArg, rangeListArg, str, taskSizesArg } from './args';
import { loadFeatures, ptmStrategyOf } from './features-run';
import { wholeDistribution } from './features-summary';
import { loadWordnetFrom, readTextInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export const ANALYZE_PLACE_HELP = `cil-lab analyze --features F.npz --strategy ${PTM_STRATEGY_IDS.join('|')} [--strategy-options …] [--seed S] [--classes 0-11]
                (--results LOG | --order 3,1,0,…) [--tasks K | --task-sizes …] [--train-per-class N --test-per-class N]
                [--similarity features|wordnet|file:PATH] [--seeds 0,42,1993] [--orderings all|sample:N] [--limit N] [--sample-seed S] [--threads 1|2]
    → where each order of a PyCIL/PILOT log (its class order and accuracy curve) or a bare class order lands in the method's
      whole distribution on these features: {summary, rs, edge, places: [{label, order, tasks, aia, final, percentile,
      finalPercentile, logged, verdict}]}. Percentiles are mid-rank (ties count half), exact over all orderings when |Ω| is
      enumerable (else a Theorem-1 sample, said); the log's accuracies are its own run's, reported, not placed.`;

/** Whether `analyze` places orders (it has a feature set or a pre-trained method). */
export function isPlacementAnalysis(v: Values): boolean {
  return str(v, 'features') !== undefined || isPtmStrategyId(str(v, 'strategy'));
}

interface ToPlace extends OrderingToPlace {
  logged?: { aia: number | null; final: number | null };
  where?: string;
}

export async function analyzePlacement(v: Values, options: { root?: string; onNote?: (note: string) => void } = {}): Promise<string> {
  const path = str(v, 'features');
  const strategyId = str(v, 'strategy');
  if (path === undefined) throw new UsageError(`Placing an order needs the features it is evaluated on: give --features F.npz.\n\n${ANALYZE_PLACE_HELP}`);
  if (!isPtmStrategyId(strategyId))
    throw new UsageError(
      `--features F.npz places orders for a pre-trained method: --strategy ${PTM_STRATEGY_IDS.join(', ')}${strategyId ? ` (not ${strategyId})` : ''}.`,
    );
  const results = str(v, 'results');
  const orderText = str(v, 'order');
  if ((results === undefined) === (orderText === undefined))
    throw new UsageError('Give the orders to place: --results LOG (a PyCIL/PILOT log, or any results file) or --order 3,1,0,… — one of them.');
  const features = loadFeatures(path);
  const classArg = str(v, 'classes');
  const classes = classArg !== undefined ? rangeListArg(classArg, 'classes', features.classNames.length) : features.classNames.map((_, i) => i);
  const names = classes.map((c) => features.classNames[c]);
  const given = v.tasks !== undefined || v['task-sizes'] !== undefined ? taskSizesArg(v, classes.length) : undefined;

  let sizes: number[];
  const place: ToPlace[] = [];
  if (orderText !== undefined) {
    if (!given) throw new UsageError('--order needs the task sizes: give --tasks K or --task-sizes a,b,….');
    sizes = given;
    try {
      const o = readClassOrder(orderText, names, sizes);
      place.push({ label: 'given order', tasks: o.tasks, order: o.order });
    } catch (e) {
      throw new UsageError(`--order: ${(e as Error).message}.`);
    }
  } else {
    const text = readTextInput(results!, 'the --results file');
    const imported = importResults(text, basename(results!), { classNames: names, datasetClasses: classes, taskSizes: given });
    for (const n of imported.notes) options.onNote?.(n);
    for (const s of imported.skipped) options.onNote?.(`${s.where}: ${s.reason}`);
    if (imported.runs.length === 0) throw new UsageError(imported.error ?? 'The file has no run whose order can be placed.');
    sizes = imported.taskSizes;
    const position = new Map(classes.map((c, p) => [c, p]));
    for (const r of imported.runs) {
      place.push({
        label: imported.format === 'pycil-log' ? `seed ${r.seed}` : r.where,
        where: r.where,
        tasks: r.tasks.map((t) => t.map((c) => position.get(c)!)),
        logged: { aia: r.aia, final: r.finalAccuracy },
      });
    }
  }

  const strategy = ptmStrategyOf(strategyId, str(v, 'strategy-options'));
  const root = options.root;
  const { report, info } = await wholeDistribution(
    v,
    {
      features,
      path,
      classes,
      sizes,
      strategy,
      seed: intArg(str(v, 'seed'), 'seed', 0, UINT32_MAX) ?? 0,
      trainPerClass: intArg(str(v, 'train-per-class'), 'train-per-class', 1, CONFIG_LIMITS.perClass),
      testPerClass: intArg(str(v, 'test-per-class'), 'test-per-class', 1, CONFIG_LIMITS.perClass),
      onNote: options.onNote,
      loadWordnet: root ? () => loadWordnetFrom(root) : undefined,
    },
    place,
  );
  const places = report.places.map((p, k) => {
    const who =
      place[k].label === 'given order'
        ? 'Your order'
        : place[k].where && !/^seed /.test(place[k].label)
          ? `The order of ${place[k].where}`
          : whoOf(place[k].label);
    return {
      ...p,
      ...(place[k].where ? { where: place[k].where } : {}),
      ...(place[k].logged ? { logged: place[k].logged } : {}),
      verdict: placementSentences(report.summary, p, who, place[k].logged),
    };
  });
  return JSON.stringify({
    ...(results !== undefined ? { results } : {}),
    summary: report.summary,
    edge: report.edge,
    rs: report.rs,
    places,
    ...info,
  });
}
