// The pure parts of `npm run bench:peer` (scripts/bench-peer.mjs): the benchmark's configs, the distribution summary,
// the comparison of two distributions of final accuracies, the printed table and the last JSON line. No I/O here, so
// tests/unit/scripts/bench-peer.test.ts checks them without training anything.

/**
 * The config both sides train. `default`: the issue-19 config (Fashion-MNIST 0–5 in 3 tasks of 2, all 90 orderings,
 * the first 300/100 images per class, MLP 784-256-128-6, Adam 1e-3, batch 64, 3 epochs, finetune, full head from the
 * start, seed 0) with the options that match PyTorch (docs/science.md appendix "Initialisation and matching
 * PyTorch"). `quick`: a smoke test of the same pipeline (classes 0–3 in 2 tasks of 2: 6 orderings, 60/30 images per
 * class, 1 epoch).
 */
export function benchConfig(quick) {
  return quick
    ? {
        classes: 4,
        tasks: 2,
        trainPerClass: 60,
        testPerClass: 30,
        epochs: 1,
        batchSize: 64,
        lr: 1e-3,
        hidden: [256, 128],
        head: 'all',
        init: 'pytorch',
        seed: 0,
      }
    : {
        classes: 6,
        tasks: 3,
        trainPerClass: 300,
        testPerClass: 100,
        epochs: 3,
        batchSize: 64,
        lr: 1e-3,
        hidden: [256, 128],
        head: 'all',
        init: 'pytorch',
        seed: 0,
      };
}

/** Arguments of scripts/peer/torch_groundtruth.py for a config. */
export function peerArgs(cfg, threads) {
  return [
    '--classes',
    `0-${cfg.classes - 1}`,
    '--tasks',
    String(cfg.tasks),
    '--train-per-class',
    String(cfg.trainPerClass),
    '--test-per-class',
    String(cfg.testPerClass),
    '--epochs',
    String(cfg.epochs),
    '--batch-size',
    String(cfg.batchSize),
    '--lr',
    String(cfg.lr),
    '--hidden',
    cfg.hidden.join(','),
    '--head',
    cfg.head,
    '--init',
    cfg.init,
    '--label-map',
    'class-id',
    '--seed',
    String(cfg.seed),
    '--orderings',
    'all',
    ...(threads ? ['--threads', String(threads)] : []),
  ];
}

/** Arguments of `cil-lab run` (our fast path in Node) for a config. */
export function cliArgs(cfg, backend = 'wasm') {
  return [
    'run',
    '--dataset',
    'fashion-mnist',
    '--classes',
    `0-${cfg.classes - 1}`,
    '--tasks',
    String(cfg.tasks),
    '--train-per-class',
    String(cfg.trainPerClass),
    '--test-per-class',
    String(cfg.testPerClass),
    '--epochs',
    String(cfg.epochs),
    '--batch-size',
    String(cfg.batchSize),
    '--lr',
    String(cfg.lr),
    '--hidden',
    cfg.hidden.join(','),
    '--head',
    cfg.head,
    '--init',
    cfg.init,
    '--seed',
    String(cfg.seed),
    '--strategy',
    'finetune',
    '--orderings',
    'all',
    '--backend',
    backend,
  ];
}

/** Optimiser steps of one task: epochs × batches over the task's training images. */
export function stepsPerTask(cfg) {
  return cfg.epochs * Math.ceil((cfg.trainPerClass * (cfg.classes / cfg.tasks)) / cfg.batchSize);
}

/**
 * The prefix trie's nodes at each depth (src/core/ground-truth/prefix-plan.ts) for every ordering of the config
 * (`classes` in `tasks` equal tasks of s classes): at depth t, the distinct first t + 1 tasks, n! / (s!^(t+1) ·
 * (n − (t+1)s)!). The default: [15, 90, 90].
 */
function trieNodesByDepth(cfg) {
  const n = cfg.classes;
  const s = n / cfg.tasks;
  const fact = (k) => (k <= 1 ? 1 : k * fact(k - 1));
  return Array.from({ length: cfg.tasks }, (_, t) => Math.round(fact(n) / (fact(s) ** (t + 1) * fact(n - (t + 1) * s))));
}

/** Tasks the fast path trains for every ordering of the config: the trie's nodes. The default: 15 + 90 + 90 = 195. */
export function trieTasks(cfg) {
  return trieNodesByDepth(cfg).reduce((a, b) => a + b, 0);
}

/** Optimiser steps planned: every trie node once (finetune trains each task on its own images). */
export const plannedSteps = (cfg) => trieTasks(cfg) * stepsPerTask(cfg);

/**
 * Test predictions planned (src/engine/shared-train.ts evaluate): every trie node's model predicts, once, the test
 * examples it is scored on: every class's with the 'all' head (and each worker predicts them once more on the
 * untrained model, for the untrained accuracies), the seen tasks' with the 'seen' head (nodes at depth t: t + 1 tasks).
 * The default on 2 workers: (195 + 2) × 600 = 118,200.
 */
export function plannedPredictions(cfg, workers = 1) {
  const testImages = cfg.classes * cfg.testPerClass;
  if (cfg.head === 'all') return (trieTasks(cfg) + Math.max(1, workers)) * testImages;
  return trieNodesByDepth(cfg).reduce((a, nodes, t) => a + nodes * (t + 1) * (testImages / cfg.tasks), 0);
}

/**
 * The floor of a side and its efficiency: `stepsPlanned` split evenly over `workers`, each step at `msPerStep` (the
 * fused step measured on this machine in the same run, with that many workers at once): the wall time with no
 * overhead, no idle worker and nothing trained twice. efficiency = floor / wall (1 = at the floor).
 *
 * With `predictionsPlanned` and `msPerPrediction` (the evaluation's forward pass per test example, measured likewise):
 * the work floor = floor + predictions ÷ workers × ms/prediction, the wall time of training and evaluating with
 * nothing else, and workEfficiency = work floor / wall.
 */
export function floorOf(stepsPlanned, workers, msPerStep, wallSeconds, predictionsPlanned = NaN, msPerPrediction = NaN) {
  const w = Math.max(1, workers);
  const floorSeconds = (stepsPlanned / w) * (msPerStep / 1000);
  const workFloorSeconds = floorSeconds + (predictionsPlanned / w) * (msPerPrediction / 1000);
  return { floorSeconds, efficiency: floorSeconds / wallSeconds, workFloorSeconds, workEfficiency: workFloorSeconds / wallSeconds };
}

/**
 * A side with its floor (`msPerStep`, and `msPerPrediction` where measured, by worker count): adds stepsPlanned,
 * msPerStep, floorSeconds, efficiency, predictionsPlanned, msPerPrediction, workFloorSeconds, workEfficiency.
 */
export function withFloor(side, cfg, msPerStepByWorkers, msPerPredictionByWorkers = null) {
  const workers = side.workers ?? 1;
  const msPerStep = msPerStepByWorkers?.[String(workers)];
  const msPerPrediction = msPerPredictionByWorkers?.[String(workers)] ?? NaN;
  const stepsPlanned = plannedSteps(cfg);
  const predictionsPlanned = plannedPredictions(cfg, workers);
  const none = { floorSeconds: NaN, efficiency: NaN, workFloorSeconds: NaN, workEfficiency: NaN };
  if (!Number.isFinite(msPerStep)) return { ...side, stepsPlanned, msPerStep: NaN, predictionsPlanned, msPerPrediction, ...none };
  return {
    ...side,
    stepsPlanned,
    msPerStep,
    predictionsPlanned,
    msPerPrediction,
    ...floorOf(stepsPlanned, workers, msPerStep, side.seconds, predictionsPlanned, msPerPrediction),
  };
}

/** One line per side with a floor: steps planned and trained, the step time, the floor, the wall time, the efficiency. */
export function formatFloor(ours) {
  const n = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
  return ours
    .filter((o) => Number.isFinite(o.floorSeconds))
    .map((o) => {
      const w = o.workers ?? 1;
      const same = o.steps === o.stepsPlanned ? 'steps trained = steps planned' : `steps trained ≠ steps planned (${n(o.steps - o.stepsPlanned)})`;
      const line = `floor, ${o.where} ${o.backend}: ${n(o.stepsPlanned)} steps planned, ${n(o.steps)} trained (${same}); ${n(o.stepsPlanned)} ÷ ${w} worker${w === 1 ? '' : 's'} × ${f(o.msPerStep, 2)} ms/step = ${f(o.floorSeconds, 1)} s; wall ${f(o.seconds, 1)} s; efficiency = floor / wall = ${f(o.efficiency, 2)}`;
      if (!Number.isFinite(o.workFloorSeconds)) return line;
      const predicted = Number.isFinite(o.predictions) ? `, ${n(o.predictions)} made` : '';
      const evalSeconds = o.workFloorSeconds - o.floorSeconds;
      return `${line}\n  with evaluation, ${o.where} ${o.backend}: ${n(o.predictionsPlanned)} test predictions planned${predicted}; ${n(o.predictionsPlanned)} ÷ ${w} × ${f(o.msPerPrediction * 1000, 1)} µs = ${f(evalSeconds, 1)} s; work floor ${f(o.workFloorSeconds, 1)} s; work efficiency = work floor / wall = ${f(o.workEfficiency, 2)}`;
    })
    .join('\n');
}

/** mean, population sd (ddof 0, as the histograms), min, max of a list of numbers. */
export function summarize(values) {
  const n = values.length;
  if (n === 0) return { n: 0, mean: NaN, sd: NaN, min: NaN, max: NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / n);
  return { n, mean, sd, min: Math.min(...values), max: Math.max(...values) };
}

/**
 * Do two distributions of final accuracies agree within noise (the criterion)? Means within `meanTol`
 * (1 point of accuracy = 0.01), sds within `sdTol` (25 %) of the peer's.
 */
export function compareDistributions(peer, ours, { meanTol = 0.01, sdTol = 0.25 } = {}) {
  const meanDiff = ours.mean - peer.mean;
  const sdRatio = ours.sd / peer.sd;
  const meanOk = Math.abs(meanDiff) <= meanTol;
  const sdOk = Number.isFinite(sdRatio) && Math.abs(sdRatio - 1) <= sdTol;
  return { meanDiff, sdRatio, meanOk, sdOk, agree: meanOk && sdOk };
}

/**
 * Standard error of the difference of two independent means (`summarize` outputs; population sds → sample
 * variances sd²·n/(n − 1)): two implementations that draw their own initial weights and batch orders give two
 * independent samples, whose means differ by about this much however exact both are.
 */
export function diffStandardError(a, b) {
  return Math.sqrt((a.sd * a.sd) / (a.n - 1) + (b.sd * b.sd) / (b.n - 1));
}

/**
 * Run-by-run comparison of two lists of runs ({key, final}) trained from the same draws (the paired peer,
 * scripts/peer/draws.ts): the runs whose keys both lists have, the mean and largest |difference| of their final
 * accuracies, and how many are the same to within `tol` (half a test image: the same count of correct answers).
 */
export function pairRuns(peerRuns, ourRuns, tol) {
  const ours = new Map(ourRuns.map((r) => [r.key, r.final]));
  const diffs = [];
  for (const r of peerRuns) if (ours.has(r.key)) diffs.push(ours.get(r.key) - r.final);
  const n = diffs.length;
  if (n === 0) return { n: 0, meanDiff: NaN, meanAbsDiff: NaN, maxAbsDiff: NaN, same: 0 };
  const abs = diffs.map(Math.abs);
  return {
    n,
    meanDiff: diffs.reduce((a, b) => a + b, 0) / n,
    meanAbsDiff: abs.reduce((a, b) => a + b, 0) / n,
    maxAbsDiff: Math.max(...abs),
    same: abs.filter((d) => d <= tol).length,
  };
}

/** The key that pairs a run across sides: its tasks (dataset class ids, in order). */
export const runKey = (tasks) => JSON.stringify(tasks);

/** Half a test image of the config, as an accuracy: two runs closer than this answered the same count right. */
export const sameTolerance = (cfg) => 0.5 / (cfg.classes * cfg.testPerClass);

const f = (x, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : '—');

/**
 * The printed table: one row per side, seconds, steps/s, the distribution; for each of our sides its agreement
 * with the peer (PyTorch's own draws: the criterion and the difference against twice its standard error)
 * and, when the paired peer ran (PyTorch on our draws), the run-by-run comparison with it. `tol`: `sameTolerance`.
 */
export function formatTable(peer, ours, paired = null, tol = 0) {
  const rows = [
    [
      'where',
      'backend',
      'seconds',
      'first result s',
      'steps/s',
      'efficiency',
      'mean',
      'sd',
      'min',
      'max',
      'vs PyTorch (its own draws)',
      'vs PyTorch (our draws), run by run',
    ],
  ];
  const row = (r, vs, vsPaired) => [
    r.where,
    r.workers > 1 ? `${r.backend}, ${r.workers} workers` : r.backend,
    f(r.seconds, 1),
    f(r.firstResultSeconds, 2),
    f(r.steps / r.seconds, 1),
    f(r.efficiency, 2),
    f(r.dist.mean),
    f(r.dist.sd),
    f(r.dist.min),
    f(r.dist.max),
    vs,
    vsPaired,
  ];
  if (peer) rows.push(row({ ...peer, where: 'pytorch' }, '', ''));
  if (paired) rows.push(row({ ...paired, where: 'pytorch, our draws' }, '', ''));
  for (const o of ours) {
    const c = peer ? compareDistributions(peer.dist, o.dist) : null;
    const se = peer ? diffStandardError(peer.dist, o.dist) : NaN;
    const vs = c
      ? `mean ${c.meanDiff >= 0 ? '+' : ''}${f(c.meanDiff)} (2 SE ${f(2 * se)}), sd ×${f(c.sdRatio, 2)}: ${c.agree ? 'agree' : Math.abs(c.meanDiff) <= 2 * se && c.sdOk ? 'within noise' : 'DIFFER'}`
      : '';
    const p = paired && o.runs ? pairRuns(paired.runs, o.runs, tol) : null;
    const vsPaired = p && p.n > 0 ? `${p.same}/${p.n} the same, mean Δ ${p.meanDiff >= 0 ? '+' : ''}${f(p.meanDiff)}, max |Δ| ${f(p.maxAbsDiff)}` : '';
    rows.push(row(o, vs, vsPaired));
  }
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => String(r[j]).length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => String(c).padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const r3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/**
 * The last line: {"peer": {"seconds", "finalMean", "finalSd"}, "ours": [{"where", "backend", "workers", "seconds",
 * "firstResultSeconds", "finalMean", "finalSd", "paired": {"runs", "same", "meanDiff", "maxAbsDiff"},
 * "floorSeconds", "efficiency", "stepsPlanned", "stepsTrained", "msPerStep", "predictionsPlanned", "predictions",
 * "msPerPrediction", "workFloorSeconds", "workEfficiency"}], "ratio": peer seconds / best
 * Chromium seconds, "pairedPeer": {"seconds", "finalMean", "finalSd"}} (null where a side did not run or was not
 * measured). The issue-19 keys first; `paired` and `pairedPeer` are the run-by-run comparison with PyTorch on our
 * draws; the floor's keys last (`withFloor`).
 */
export function finalJson(peer, ours, paired = null, tol = 0) {
  const chromium = ours.filter((o) => o.where === 'chromium' && Number.isFinite(o.seconds));
  const best = chromium.length ? Math.min(...chromium.map((o) => o.seconds)) : NaN;
  const r4 = (x) => (Number.isFinite(x) ? Math.round(x * 10000) / 10000 : null);
  const pairedOf = (o) => {
    const p = paired && o.runs ? pairRuns(paired.runs, o.runs, tol) : null;
    return p && p.n > 0 ? { runs: p.n, same: p.same, meanDiff: r4(p.meanDiff), maxAbsDiff: r4(p.maxAbsDiff) } : null;
  };
  return JSON.stringify({
    peer: peer ? { seconds: r3(peer.seconds), finalMean: r3(peer.dist.mean), finalSd: r3(peer.dist.sd) } : null,
    ours: ours.map((o) => ({
      where: o.where,
      backend: o.backend,
      workers: o.workers ?? 1,
      seconds: r3(o.seconds),
      firstResultSeconds: r3(o.firstResultSeconds),
      finalMean: r3(o.dist.mean),
      finalSd: r3(o.dist.sd),
      paired: pairedOf(o),
      floorSeconds: r3(o.floorSeconds),
      efficiency: r3(o.efficiency),
      stepsPlanned: Number.isFinite(o.stepsPlanned) ? o.stepsPlanned : null,
      stepsTrained: Number.isFinite(o.steps) ? o.steps : null,
      msPerStep: r3(o.msPerStep),
      predictionsPlanned: Number.isFinite(o.predictionsPlanned) ? o.predictionsPlanned : null,
      predictions: Number.isFinite(o.predictions) ? o.predictions : null,
      msPerPrediction: Number.isFinite(o.msPerPrediction) ? Math.round(o.msPerPrediction * 1e5) / 1e5 : null,
      workFloorSeconds: r3(o.workFloorSeconds),
      workEfficiency: r3(o.workEfficiency),
    })),
    ratio: peer && Number.isFinite(best) ? Math.round((peer.seconds / best) * 100) / 100 : null,
    pairedPeer: paired ? { seconds: r3(paired.seconds), finalMean: r3(paired.dist.mean), finalSd: r3(paired.dist.sd) } : null,
  });
}
