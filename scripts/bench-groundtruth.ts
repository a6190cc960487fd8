/**
 * The Node half of `npm run bench:groundtruth`: the fixed ground-truth config of
 * tests/e2e/harness/groundtruth-bench.ts trained three ways — naive, prefix-shared, prefix-shared + population —
 * on each TensorFlow.js backend Node has (wasm, cpu). wasm trains all 90 orderings naive and prefix-shared, and
 * the population way on the 6-ordering subtree (scaled ×15; batched products are slow on wasm, see population.ts);
 * cpu trains the subtree all three ways (all 90 naive would take about 15 minutes). `--full`: all 90 everywhere.
 *
 * Prints one line per backend and mode, and last `{"results": [{"backend", "where": "node", "naiveSeconds",
 * "prefixSeconds", "populationSeconds", "speedup", …}]}` with speedup = naive / fastest.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadBuiltinDataset } from '../src/data/registry';
import { selectBackend } from '../src/engine/backend';
import { fromDecodedDataset } from '../src/engine/dataset';
import { benchDataset, benchMode, type BenchMode, type BenchModeResult } from '../tests/e2e/harness/groundtruth-bench';

const full = process.argv.includes('--full');
const root = process.cwd();
const fashion = fromDecodedDataset(await loadBuiltinDataset('fashion-mnist', async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
const ds = benchDataset(fashion);

export function summarise(backend: string, where: string, rs: BenchModeResult[]): Record<string, unknown> {
  const by = (m: BenchMode) => rs.find((r) => r.mode === m) as BenchModeResult;
  const naive = by('naive').seconds;
  const fastest = Math.min(by('prefix').seconds, by('population').seconds);
  return {
    backend,
    where,
    naiveSeconds: round(naive),
    prefixSeconds: round(by('prefix').seconds),
    populationSeconds: round(by('population').seconds),
    speedup: round(naive / fastest, 2),
    population: by('population').population,
    extrapolated: rs.filter((r) => r.extrapolated).map((r) => r.mode),
  };
}
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

const results: Record<string, unknown>[] = [];
for (const backend of ['wasm', 'cpu'] as const) {
  try {
    await selectBackend(backend, { strict: true });
  } catch (e) {
    console.log(`node ${backend}: unavailable (${(e as Error).message})`);
    continue;
  }
  const rs: BenchModeResult[] = [];
  for (const mode of ['naive', 'prefix', 'population'] as const) {
    const orderings = full || (backend === 'wasm' && mode !== 'population') ? 'all' : 'subset';
    const r = await benchMode(ds, mode, orderings);
    rs.push(r);
    console.log(
      `node ${backend} ${mode}: ${r.seconds.toFixed(1)} s for 90 orderings${r.extrapolated ? ` (${r.measuredSeconds.toFixed(1)} s for ${r.orderings}, ×${90 / r.orderings})` : ''}${mode === 'population' ? `, P = ${r.population}` : ''}; mean final accuracy ${r.meanFinalAccuracy.toFixed(4)}`,
    );
  }
  const summary = summarise(backend, 'node', rs);
  if (backend === 'wasm') {
    // the engine before this issue: tfjs's stock matMul gradient (transpose flags, wasm's slow path)
    const before = await benchMode(ds, 'naive-stock', full ? 'all' : 'subset');
    console.log(
      `node wasm naive with the stock matMul gradient (before): ${before.seconds.toFixed(1)} s for 90 orderings${before.extrapolated ? ` (${before.measuredSeconds.toFixed(1)} s for ${before.orderings}, ×${90 / before.orderings})` : ''}`,
    );
    summary.naiveStockGradientSeconds = round(before.seconds);
    summary.speedupOverStockNaive = round(before.seconds / Math.min(summary.prefixSeconds as number, summary.populationSeconds as number), 2);
  }
  results.push(summary);
}
console.log(JSON.stringify({ results }));
