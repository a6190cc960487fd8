/**
 * The Your-classes lab's history (docs/science.md §10, "History that never rewrites itself"): row t of R is what the
 * model knew right after class t, computed once and stored with what it came from — the classes 0..t by name and a
 * fingerprint of each one's samples — under the settings that decide it (strategy, seed, encoder, samples per
 * class). A stored row stands while those are unchanged; when a class before or at t is removed, re-recorded or the
 * classes are reordered, row t and every row after it are computed again, and the page says which and why.
 *
 * Pure: names, fingerprints and stored rows in; ids, the rows that still stand and the reasons out.
 */
import { fnv1a64 } from '../config/url-codec';

/** What decides every row of a history besides its classes: a new key starts a history of its own. */
export interface HistorySettings {
  strategy: string;
  seed: number;
  encoder: unknown;
  trainPerClass: number;
  testPerClass: number;
}

const hash = (v: unknown): string => fnv1a64(new TextEncoder().encode(JSON.stringify(v)));

/** The key of a history: its settings. */
export function historyKey(s: HistorySettings): string {
  return hash({ strategy: s.strategy, seed: s.seed, encoder: s.encoder, train: s.trainPerClass, test: s.testPerClass });
}

/** A class's sample fingerprint: its samples' bytes (or feature values) in recording order, hashed. */
export function sampleFingerprint(parts: readonly (Uint8Array | Float32Array)[]): string {
  let total = 0;
  for (const p of parts) total += p.byteLength + 4;
  const all = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    new DataView(all.buffer).setUint32(o, p.byteLength, true);
    all.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), o + 4);
    o += p.byteLength + 4;
  }
  return fnv1a64(all);
}

/** The id of row t: the classes 0..t and their sample fingerprints (equal ids, the same row). */
export function stepIds(names: readonly string[], samples: readonly string[]): string[] {
  return names.map((_, t) => `${t}:${hash([names.slice(0, t + 1), samples.slice(0, t + 1)])}`);
}

/** One stored row of a history. */
export interface HistoryRow {
  /** the history's key (historyKey) */
  key: string;
  step: number;
  /** stepIds(…)[step] */
  id: string;
  /** the classes 0..step by name, and each one's sample fingerprint, when the row was computed */
  classes: string[];
  samples: string[];
  /** accuracy on each class 0..step after class `step` (R's row, without the classes not taught yet) */
  row: number[];
  testCounts: number[];
  /** the backend that computed it, when, and how long it took (ms) */
  backend: string;
  computedAt: number;
  ms: number;
}

export interface HistoryState {
  /** the stored rows that still stand, by step, up to the first that does not (or is missing) */
  rows: HistoryRow[];
  /** rows stored once that no longer stand: from which step, and why, in words */
  changed: { from: number; why: string } | null;
}

const quote = (n: string): string => `“${n}”`;

/** Why stored row `old` no longer stands for the classes `names` (with fingerprints `samples`), in words. */
export function changeReason(old: Pick<HistoryRow, 'classes' | 'samples'>, names: readonly string[], samples: readonly string[]): string {
  const removed = old.classes.filter((n) => !names.includes(n));
  if (removed.length > 0) return `${removed.map(quote).join(', ')} ${removed.length === 1 ? 'was' : 'were'} removed`;
  for (let j = 0; j < old.classes.length; j++) {
    if (old.classes[j] !== names[j]) return `${quote(names[j] ?? old.classes[j])} now comes ${j + 1}${ordinalSuffix(j + 1)}`;
    if (old.samples[j] !== samples[j]) return `the samples of ${quote(names[j])} changed`;
  }
  return 'the classes changed';
}

function ordinalSuffix(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

/**
 * The stored rows that stand for the classes `names` (sample fingerprints `samples`): row t stands while its id is
 * the current one; the first stored row that does not says from where the history is computed again, and why.
 */
export function historyState(stored: readonly HistoryRow[], names: readonly string[], samples: readonly string[]): HistoryState {
  const ids = stepIds(names, samples);
  const byStep = new Map(stored.map((r) => [r.step, r]));
  const rows: HistoryRow[] = [];
  for (let t = 0; t < names.length; t++) {
    const r = byStep.get(t);
    if (!r) break;
    if (r.id !== ids[t]) return { rows, changed: { from: t, why: changeReason(r, names, samples) } };
    rows.push(r);
  }
  // a stored row beyond the classes there are now (a class was removed at the end)
  const beyond = stored.find((r) => r.step >= rows.length && r.id !== ids[r.step]);
  return { rows, changed: beyond ? { from: beyond.step, why: changeReason(beyond, names, samples) } : null };
}

/** The change in words: "Rows from “cup” on were computed again: “pen” was removed." */
export function changeText(changed: { from: number; why: string }, names: readonly string[]): string {
  const at = names[changed.from];
  const which = at === undefined ? 'The rows after the last class were dropped' : `Rows from ${quote(at)} on were computed again`;
  return `${which}: ${changed.why}.`;
}

/** R of the stored rows (row t padded with zeros for the classes not taught yet). */
export function matrixOf(rows: readonly Pick<HistoryRow, 'row'>[]): number[][] {
  const K = rows.length;
  return rows.map((r) => [...r.row, ...new Array<number>(Math.max(0, K - r.row.length)).fill(0)]);
}
