/**
 * Number formats of every lab (docs/design.md, "Visual language": percentages with one decimal, counts with
 * thin-space thousands, a true minus sign, durations as m:ss). One module: charts, tables and progress lines import
 * these from here (chart-kit.ts and ui/ground-truth/format.ts re-export them). Pure: tested in
 * tests/unit/ui/format.test.ts.
 */

/** A fraction as a percentage with `digits` decimals ("62.3"); "–" for null/NaN. */
export function pct(v: number | null | undefined, digits = 1): string {
  return typeof v === 'number' && Number.isFinite(v) ? (100 * v).toFixed(digits) : '–';
}

/** A number with `digits` decimals and a true minus sign; "–" for null/NaN. */
export function fixed(v: number | null | undefined, digits = 3): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits).replace(/^-/, '−') : '–';
}

/** Three decimals, with a true minus sign (axis ticks and tips of heat maps). */
export function fmt(v: number): string {
  return v.toFixed(3).replace('-', '−');
}

/** A p-value: three significant decimals, "< 0.001" below that. */
export function pValue(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return '–';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

/** A count with thin-space thousands (2 520). */
export function count(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function duration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * A run's progress line: "37 / 90 orderings · 0:41 left" when every item (`unit`, e.g. an ordering) is one run,
 * else "74 / 180 runs (90 orderings × 2) · 1:20 left". No ETA once done or when `etaSeconds` is null.
 */
export function progressText(done: number, total: number, runsPerItem: number, etaSeconds: number | null, unit = 'orderings'): string {
  const perItem = Math.max(1, runsPerItem);
  const head =
    perItem === 1
      ? `${count(done)} / ${count(total)} ${unit}`
      : `${count(done)} / ${count(total)} runs (${count(Math.round(total / perItem))} ${unit} × ${perItem})`;
  return etaSeconds === null || done >= total ? head : `${head} · ${duration(etaSeconds)} left`;
}
