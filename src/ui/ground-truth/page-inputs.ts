/**
 * The Ground-truth page's free-text inputs and its run export (pure; tested in
 * tests/unit/ui/ground-truth-charts.test.ts).
 */
import type { CsvTable } from '../common/chart-export';

/** "256, 128" → [256, 128]; empty → [] (a linear model). Each width a whole number 1..4096. */
export function parseWidths(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 4096) throw new Error(`Layer width "${p}" is not a whole number from 1 to 4096.`);
    return Number(p);
  });
}

/** "0, 1, 2" → [0, 1, 2]: the training seeds (each ordering × strategy trains once per seed), distinct. */
export function parseTrainingSeeds(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new Error('Give at least one training seed (for example 0).');
  const seeds = parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) > 2 ** 32 - 1) throw new Error(`Seed "${p}" is not a whole number between 0 and 4294967295.`);
    return Number(p);
  });
  const dup = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (dup !== undefined) throw new Error(`Seed ${dup} is listed twice; each seed trains every ordering once.`);
  return seeds;
}

/** The fields of a stored run the export reads (src/services/results-store.ts StoredRun). */
export interface RunRow {
  orderingKey: string;
  strategy: string;
  seed: number;
  finalAccuracy: number;
  aia: number;
  matrix: number[][];
  testCounts: number[];
  backend: string;
  seconds: number;
  imported?: boolean;
  createdAt: number;
}

/** One CSV row per run: the ordering, strategy, seed, S, both accuracies, R (JSON) and where it ran. */
export function runsTable(runs: readonly RunRow[], scoreOf: (key: string) => number | null): CsvTable {
  return {
    columns: ['ordering', 'strategy', 'seed', 'S', 'final_accuracy', 'aia', 'matrix_json', 'test_counts', 'backend', 'seconds', 'imported', 'created_at'],
    rows: runs.map((r) => [
      r.orderingKey,
      r.strategy,
      r.seed,
      scoreOf(r.orderingKey),
      r.finalAccuracy,
      r.aia,
      JSON.stringify(r.matrix),
      r.testCounts.join(' '),
      r.backend,
      r.seconds,
      r.imported ? 'yes' : '',
      new Date(r.createdAt).toISOString(),
    ]),
  };
}

/** The ordering with the lowest / highest value of a list (ties: the first). */
export function extremeKey(points: readonly { key: string; value: number | null }[], which: 'min' | 'max'): string | null {
  let best: { key: string; value: number } | null = null;
  for (const p of points) {
    if (p.value === null) continue;
    if (!best || (which === 'min' ? p.value < best.value : p.value > best.value)) best = { key: p.key, value: p.value };
  }
  return best?.key ?? null;
}
