/**
 * The wording rules of every verdict, in one place (documented for readers in docs/verdicts.md; keep both in step).
 * Pure formatting helpers too: core may not import the UI's format module, so the few formats verdicts need are here
 * (same conventions as src/ui/common/format.ts: one decimal for percentages, a true minus sign, p < 0.001).
 */

/** Significance level of every "significant at 5%" / "rejects normality" sentence. */
export const ALPHA = 0.05;
/** Confidence level of the intervals shown while a run is partial. */
export const CONFIDENCE = 0.95;

/**
 * A claim over seeds ("streaming beats iid", "M2I beats I2M", one detector beats another) is said as holding only
 * with at least this many seeds and a 95 % interval of the mean difference that excludes 0.
 */
export const MIN_SEEDS_FOR_CLAIM = 3;

/** |R| below each bound gets the word beside it (Cohen's conventional 0.1 / 0.3 / 0.5). */
export const CORRELATION_WORDS: readonly { below: number; word: string }[] = [
  { below: 0.1, word: 'hardly at all' },
  { below: 0.3, word: 'weakly' },
  { below: 0.5, word: 'moderately' },
  { below: Infinity, word: 'strongly' },
];

/** Two estimate errors (JSD, W1) within this relative difference of each other are "about as good". */
export const SAME_QUALITY_RELATIVE = 0.1;

/** Two similarity scores S are "the same" when they differ by at most this × max(1, |S|) (float noise, not science). */
export const SAME_SCORE_RELATIVE = 1e-9;

/**
 * The similarity is "flat" when S over Ω (or the orderings at hand) spans at most this share of max(1, |S|): one value
 * (the digit names under WordNet) or almost one. EDGE's picks are then arbitrary and are not compared with RS.
 */
export const FLAT_S_RELATIVE = 0.01;

/** An ordering whose S has at most this share of the truth's orderings beyond it is "among the lowest / highest S". */
export const EXTREME_SHARE = 0.1;

/** Largest K for which the verdict tries every order of an EDGE ordering's own tasks (K! orders). */
export const REORDER_MAX_TASKS = 6;
/** … and at most this many similarity look-ups in all (K! orders × (K − 1)·(N/K)² each), so the page stays quick. */
export const REORDER_MAX_WORK = 2e7;
/** Largest |Ω| for which the verdict counts the distinct values of S (every ordering scored). */
export const DISTINCT_S_MAX_OMEGA = 20_000;

export function correlationWord(r: number): string {
  const a = Math.abs(r);
  return CORRELATION_WORDS.find((w) => a < w.below)!.word;
}

/** The values of S span at most FLAT_S_RELATIVE of their size (or are one value up to float noise). */
export function flatScores(values: readonly number[]): boolean {
  if (values.length === 0) return false;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return sameScore(lo, hi) || hi - lo <= FLAT_S_RELATIVE * Math.max(1, Math.abs(hi), Math.abs(lo));
}

export function sameScore(a: number, b: number): boolean {
  return Math.abs(a - b) <= SAME_SCORE_RELATIVE * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Lower is better for both numbers; 'same' when they are within SAME_QUALITY_RELATIVE of the larger. */
export function compareErrors(mine: number, other: number): 'better' | 'worse' | 'same' {
  if (Math.abs(mine - other) <= SAME_QUALITY_RELATIVE * Math.max(Math.abs(mine), Math.abs(other))) return 'same';
  return mine < other ? 'better' : 'worse';
}

/** A number with `digits` decimals and a true minus sign (none on a value that rounds to 0: "0.0", not "−0.0"). */
export function num(v: number, digits = 3): string {
  const t = v.toFixed(digits);
  return (/^-0\.?0*$/.test(t) ? t.slice(1) : t).replace(/^-/, '−');
}

/** S as the Orderings table prints it (4 decimals). */
export function sText(v: number): string {
  return num(v, 4);
}

/** A fraction as a percentage, one decimal, with the sign: "32.0%". */
export function pctText(v: number, digits = 1): string {
  return `${num(100 * v, digits)}%`;
}

/** "p = 0.060" / "p < 0.001". */
export function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** "significant at 5%" / "not significant at 5%". */
export function significance(p: number): string {
  return p < ALPHA ? `significant at ${Math.round(ALPHA * 100)}%` : `not significant at ${Math.round(ALPHA * 100)}%`;
}

/** A count with thin-space thousands. */
export function countText(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${countText(n)} ${n === 1 ? one : many}`;
}

/** "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1.7 ± 0.9 points (mean ± sd, 3 seeds; 95% interval −0.5 to 3.9)" / "1.7 points (1 seed)"; values in points. */
export function spreadText(
  s: { mean: number; sd: number; n: number; interval: { lo: number; hi: number; level: number } | null },
  unit = 'points',
  digits = 1,
  sign = false,
): string {
  const u = unit === '%' ? '%' : unit ? ` ${unit}` : '';
  const seeds = plural(s.n, 'seed');
  const m = sign ? signed(s.mean, digits) : num(s.mean, digits);
  if (!(s.n > 1)) return `${m}${u} (${seeds})`;
  const ci = s.interval ? `; ${Math.round(s.interval.level * 100)}% interval ${num(s.interval.lo, digits)} to ${num(s.interval.hi, digits)}` : '';
  return `${m} ± ${num(s.sd, digits)}${u} (mean ± sd, ${seeds}${ci})`;
}

/** A sentence's first letter in lower case, to go on after a colon; an acronym (BER, M2I) stays as it is. */
export function lowerFirst(t: string): string {
  return /^[A-Z][a-z ]/.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t;
}

/** A signed number: "+1.7" / "−0.4". */
export function signed(v: number, digits = 1): string {
  return v > 0 ? `+${num(v, digits)}` : num(v, digits);
}

/** A strategy's name in a sentence ("fine-tuning", "SimpleCIL"); an unknown id as it is. */
const STRATEGY_WORDS: Readonly<Record<string, string>> = {
  finetune: 'fine-tuning',
  joint: 'joint training',
  replay: 'replay',
  ewc: 'EWC',
  lwf: 'LwF',
  si: 'SI',
  icarl: 'iCaRL',
  agem: 'A-GEM',
  gdumb: 'GDumb',
  ncm: 'NCM',
  simplecil: 'SimpleCIL',
  fecam: 'FeCAM',
  ranpac: 'RanPAC',
};

export function strategyWord(id: string): string {
  return STRATEGY_WORDS[id] ?? id;
}
