/**
 * The Ground-truth lab's derived statistics in export form: one long table for CSV (per strategy and protocol)
 * and plain JSON (Maybe values keep their reasons). Used by the lab's Export button and `cil-lab analyze`.
 */
import type { GroundTruthStats } from './derive';

/** A table for CSV export (the shape of src/ui/common/chart-export.ts CsvTable; quoting is done there). */
export interface StatsTable {
  columns: string[];
  rows: (string | number | null)[][];
}

const num = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * One row per strategy and protocol, Truth first (the paper's Tables 1–2 in long form): n, mean, std, min, max,
 * JSD (bits) and W1 (points) of RS and EDGE against the truth. Accuracies as fractions.
 */
export function statisticsTable(stats: GroundTruthStats): StatsTable {
  const rows: StatsTable['rows'] = [];
  for (const s of stats.strategies) {
    const t = s.truth.moments;
    rows.push([
      stats.variable,
      s.strategy,
      'truth',
      s.truth.evaluated,
      num(t?.mean),
      num(t?.std),
      num(t?.min),
      num(t?.max),
      null,
      null,
      s.truth.complete ? stats.truthLabel : `${s.truth.evaluated} of ${s.truth.planned} truth orderings so far`,
    ]);
    for (const e of [s.rs, s.edge]) {
      const g = e.gaussian.value;
      const q = e.quality.value;
      rows.push([
        stats.variable,
        s.strategy,
        e.protocol,
        e.have,
        num(g?.mean),
        num(g?.std),
        num(g?.min),
        num(g?.max),
        num(q?.jsd),
        num(q?.w1),
        g ? (e.quality.reason ?? '') : e.gaussian.reason,
      ]);
    }
  }
  return { columns: ['variable', 'strategy', 'protocol', 'n', 'mean', 'std', 'min', 'max', 'jsd_bits', 'w1_points', 'note'], rows };
}

/** The derived statistics as plain JSON (Maybe values keep their reasons; typed arrays become arrays; NaN → null). */
export function statisticsJson(stats: GroundTruthStats): unknown {
  return JSON.parse(
    JSON.stringify(stats, (_k, v) => {
      if (v instanceof Float64Array || v instanceof Float32Array || v instanceof Int32Array) return Array.from(v);
      if (typeof v === 'number' && !Number.isFinite(v)) return null;
      return v;
    }),
  );
}
