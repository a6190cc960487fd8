// The pure parts of `npm run bench:gpu` (scripts/bench-gpu.mjs): the adapter's description, the comparison of the
// WebGPU and wasm distributions (bench:peer's, scripts/peer/bench-peer-lib.mjs), the printed table and the last JSON
// line. No I/O here, so tests/unit/scripts/bench-gpu.test.ts checks them without a browser.
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
  return { meanDiff: c.meanDiff, twoSE, sdRatio: c.sdRatio, verdict, paired: pairRuns(wasm.runs, webgpu.runs, tol) };
}

const f = (x, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : '—');

/** The printed table: one row per side (backend, workers, population, seconds, first result, steps/s, distribution). */
export function formatSides(sides) {
  const rows = [['backend', 'workers', 'population', 'seconds', 'first result s', 'steps/s', 'mean', 'sd', 'min', 'max']];
  for (const s of sides)
    rows.push([
      s.backend,
      String(s.workers ?? 1),
      String(s.population ?? 1),
      f(s.seconds, 1),
      f(s.firstResultSeconds, 2),
      f(s.steps / s.seconds, 1),
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
  const runs = p.n > 0 ? `; run by run ${p.same}/${p.n} the same to half a test image, largest |Δ| ${f(p.maxAbsDiff)}` : '';
  return `webgpu vs wasm: mean ${cmp.meanDiff >= 0 ? '+' : ''}${f(cmp.meanDiff)} (2 SE ${f(cmp.twoSE)}), sd ×${f(cmp.sdRatio, 2)}: ${cmp.verdict}${runs}`;
}

const r3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/**
 * The last line: {"adapter": {vendor, architecture, device, description, software} | null, "config": "default" |
 * "quick", "sides": [{"backend", "workers", "population", "seconds", "firstResultSeconds", "steps", "finalMean",
 * "finalSd"}], "comparison": {"meanDiff", "twoSE", "sdRatio", "verdict", "pairedSame", "pairedRuns"} | null,
 * "speedup": wasm seconds / WebGPU seconds | null}.
 */
export function gpuJson(adapter, configName, sides, cmp) {
  const by = (b) => sides.find((s) => s.backend === b);
  const wasm = by('wasm');
  const webgpu = by('webgpu');
  return JSON.stringify({
    adapter: adapter ?? null,
    config: configName,
    sides: sides.map((s) => ({
      backend: s.backend,
      workers: s.workers ?? 1,
      population: s.population ?? 1,
      seconds: r3(s.seconds),
      firstResultSeconds: r3(s.firstResultSeconds),
      steps: s.steps,
      finalMean: r3(s.dist.mean),
      finalSd: r3(s.dist.sd),
    })),
    comparison: cmp
      ? {
          meanDiff: r3(cmp.meanDiff),
          twoSE: r3(cmp.twoSE),
          sdRatio: r3(cmp.sdRatio),
          verdict: cmp.verdict,
          pairedSame: cmp.paired.same,
          pairedRuns: cmp.paired.n,
        }
      : null,
    speedup: wasm && webgpu ? Math.round((wasm.seconds / webgpu.seconds) * 100) / 100 : null,
  });
}
