// The pure parts of `npm run bench:gpu` (scripts/bench-gpu.mjs): the adapter's description, the comparison of the
// WebGPU and wasm distributions (bench:peer's, scripts/peer/bench-peer-lib.mjs), the steps a config plans, a sampled
// side's figures extrapolated to the whole run, the printed table and the last JSON line. No I/O here, so
// tests/unit/scripts/bench-gpu.test.ts checks them without a browser.
import { compareDistributions, diffStandardError, pairRuns } from './peer/bench-peer-lib.mjs';

/** One line about the adapter: vendor, architecture, device, description, and whether it is software. */
export function describeAdapter(a) {
  if (!a) return 'no WebGPU adapter (navigator.gpu gave none): WebGPU is not available in this Chromium';
  const q = (x) => (x ? `"${x}"` : '(empty)');
  const parts = `vendor ${q(a.vendor)}, architecture ${q(a.architecture)}, device ${q(a.device)}, description ${q(a.description)}`;
  return a.software ? `${parts}: a software adapter (SwiftShader, WebGPU emulated on the CPU), not a GPU` : `${parts}: a hardware GPU`;
}

/**
 * WebGPU against wasm, the same config and the same draws: the distributions by bench:peer's test (means within
 * 1 point and sds within 25 % "agree"; a mean difference inside twice its standard error with the sds within 25 %
 * "within noise"; otherwise "DIFFER"), and run by run (how many final accuracies are the same to `tol`, half a
 * test image).
 */
export function compareSides(wasm, webgpu, tol) {
  const c = compareDistributions(wasm.dist, webgpu.dist);
  const twoSE = 2 * diffStandardError(wasm.dist, webgpu.dist);
  const verdict = c.agree ? 'agree' : Math.abs(c.meanDiff) <= twoSE && c.sdOk ? 'within noise' : 'DIFFER';
  // one test image = twice the half-image tolerance; a float's worth more, so 1/600 itself counts as within
  const withinOne = pairRuns(wasm.runs, webgpu.runs, 2 * tol + 1e-9).same;
  return { meanDiff: c.meanDiff, twoSE, sdRatio: c.sdRatio, verdict, paired: { ...pairRuns(wasm.runs, webgpu.runs, tol), withinOne } };
}

/** n choose k. */
function choose(n, k) {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return Math.round(r);
}

/**
 * Optimiser steps the config's ground truth trains with prefix sharing: at depth d, every ordered choice of d + 1
 * tasks of `classes / tasks` classes is one prefix (15, 90, 90 for 6 classes in 3 tasks), each `epochs` passes over
 * its task's images in batches. 5,850 for the default.
 */
export function plannedSteps(cfg) {
  const size = cfg.classes / cfg.tasks;
  const perTask = cfg.epochs * Math.ceil((size * cfg.trainPerClass) / cfg.batchSize);
  let prefixes = 1;
  let steps = 0;
  for (let d = 0; d < cfg.tasks; d++) {
    prefixes *= choose(cfg.classes - d * size, size);
    steps += prefixes * perTask;
  }
  return steps;
}

/**
 * A side stopped after a sample (`partial`): its dispatches, read-backs and seconds scaled by planned / trained
 * model-steps. An estimate, said as one: for tfjs's populations an upper bound on the dispatches, since a population
 * step's dispatches do not grow with its models and later populations hold more of them.
 */
export function extrapolate(side, planned) {
  if (!side.partial || !(side.steps > 0)) return null;
  const k = planned / side.steps;
  return { dispatches: Math.round(side.dispatches * k), readbacks: Math.round(side.readbacks * k), seconds: side.seconds * k, fromSteps: side.steps, planned };
}

const f = (x, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : '—');

/**
 * The printed table: one row per side (backend, kernels, workers, population, seconds, first result, steps/s, GPU
 * dispatches and read-backs, distribution). A sampled side (`partial`) shows its sample and is marked.
 */
export function formatSides(sides) {
  const rows = [
    ['backend', 'kernels', 'workers', 'population', 'seconds', 'first result s', 'steps/s', 'dispatches', 'read-backs', 'mean', 'sd', 'min', 'max'],
  ];
  for (const s of sides)
    rows.push([
      `${s.backend}${s.partial ? ' (sample)' : ''}`,
      s.kernels ?? '',
      String(s.workers ?? 1),
      String(s.population ?? 1),
      f(s.seconds, 1),
      f(s.firstResultSeconds, 2),
      f(s.steps / s.seconds, 1),
      String(s.dispatches ?? 0),
      String(s.readbacks ?? 0),
      f(s.dist.mean),
      f(s.dist.sd),
      f(s.dist.min),
      f(s.dist.max),
    ]);
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => c.padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The comparison in words. */
export function formatComparison(cmp) {
  const p = cmp.paired;
  const runs =
    p.n > 0 ? `; run by run ${p.same}/${p.n} the same to half a test image, ${p.withinOne}/${p.n} within one test image, largest |Δ| ${f(p.maxAbsDiff)}` : '';
  return `webgpu vs wasm: mean ${cmp.meanDiff >= 0 ? '+' : ''}${f(cmp.meanDiff)} (2 SE ${f(cmp.twoSE)}), sd ×${f(cmp.sdRatio, 2)}: ${cmp.verdict}${runs}`;
}

const r3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/**
 * The last line: {"adapter": {vendor, architecture, device, description, software} | null, "config": "default" |
 * "quick", "choice": {"choice", "reason"} | null (what `auto` measured), "sides": [{"backend", "kernels", "workers",
 * "population", "seconds", "firstResultSeconds", "steps", "dispatches", "readbacks", "finalMean", "finalSd",
 * "partial", "estimate": {"dispatches", "readbacks", "seconds", "fromSteps", "planned"} | null}], "comparison":
 * {"meanDiff", "twoSE", "sdRatio", "verdict", "pairedSame", "pairedWithinOne", "pairedRuns"} | null, "speedup": wasm
 * seconds / WebGPU seconds | null}. Sides: "webgpu" (the level-batched kernels), "webgpu-tfjs" (tfjs's populations,
 * the path before them), "wasm" (the lab's CPU pool).
 */
export function gpuJson(adapter, configName, sides, cmp, choice = null, planned = null) {
  const by = (b) => sides.find((s) => s.backend === b);
  const wasm = by('wasm');
  const webgpu = by('webgpu');
  return JSON.stringify({
    adapter: adapter ?? null,
    config: configName,
    choice: choice ? { choice: choice.choice, reason: choice.reason } : null,
    sides: sides.map((s) => ({
      backend: s.backend,
      kernels: s.kernels ?? null,
      workers: s.workers ?? 1,
      population: s.population ?? 1,
      seconds: r3(s.seconds),
      firstResultSeconds: r3(s.firstResultSeconds),
      steps: s.steps,
      dispatches: s.dispatches ?? 0,
      readbacks: s.readbacks ?? 0,
      finalMean: r3(s.dist.mean),
      finalSd: r3(s.dist.sd),
      partial: Boolean(s.partial),
      estimate: planned ? extrapolate(s, planned) : null,
    })),
    comparison: cmp
      ? {
          meanDiff: r3(cmp.meanDiff),
          twoSE: r3(cmp.twoSE),
          sdRatio: r3(cmp.sdRatio),
          verdict: cmp.verdict,
          pairedSame: cmp.paired.same,
          pairedWithinOne: cmp.paired.withinOne,
          pairedRuns: cmp.paired.n,
        }
      : null,
    speedup: wasm && webgpu && !webgpu.partial ? Math.round((wasm.seconds / webgpu.seconds) * 100) / 100 : null,
  });
}
