/**
 * A class order as people write it, read into tokens (RawOrder) and then resolved to class positions.
 *
 * Accepted (one cell of a CSV, or a JSON value):
 *   - a flat order, space- or comma-separated: `3 1 0 2 5 4`, `3,1,0,2,5,4`, `[3, 1, 0, 2, 5, 4]`
 *   - the task lists: `3 1 | 0 2 | 5 4`, `[[3, 1], [0, 2], [5, 4]]`
 *   - class names instead of indices: `Coat Dress | Trouser T-shirt/top | Pullover Sandal`; names that contain a space
 *     ("Ankle boot") are matched whole against the experiment's names when the order is space-separated; Python's
 *     quoting (`['cat', 'dog']`) is accepted too.
 * Indices are positions 0..N−1 in the experiment's class list — the positions the app's exports write
 * (`"class_order": [2, 3, 0, 1]` for a subset); for Fashion-MNIST 0–5 they are the dataset's labels.
 */
import type { RawOrder } from './types';

/** "T-shirt_top " → "t-shirt top": how names are compared (case, underscores and runs of spaces ignored). */
export function normalizeName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');
}

function splitTokens(text: string, knownNames: readonly string[]): string[] {
  const t = text.trim();
  if (t === '') return [];
  if (t.includes(','))
    return t
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const words = t.split(/\s+/);
  // multi-word names ("Ankle boot"): join words greedily, longest known name first
  const known = new Set(knownNames.map(normalizeName));
  const maxWords = Math.max(1, ...knownNames.map((n) => n.trim().split(/\s+/).length));
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    let took = 1;
    for (let w = Math.min(maxWords, words.length - i); w > 1; w--) {
      if (known.has(normalizeName(words.slice(i, i + w).join(' ')))) {
        took = w;
        break;
      }
    }
    out.push(words.slice(i, i + took).join(' '));
    i += took;
  }
  return out;
}

const tokenOf = (v: unknown): string => (typeof v === 'string' ? v.trim() : String(v));

/** A JSON value (array of tokens, or array of arrays) as a RawOrder; null when it is neither. */
export function orderFromJson(value: unknown): RawOrder | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const isToken = (t: unknown) => typeof t === 'number' || typeof t === 'string';
  if (value.every((t) => Array.isArray(t))) {
    // task lists of tokens only: a deeper list is no order (String() of a list nested 10^5 deep overflowed the stack)
    if (!(value as unknown[][]).every((t) => t.every(isToken))) return null;
    const tasks = (value as unknown[][]).map((t) => t.map(tokenOf));
    return { kind: 'tasks', tasks };
  }
  if (value.every(isToken)) return { kind: 'flat', tokens: value.map(tokenOf) };
  return null;
}

/** One written order (a CSV cell, or a JSON string) as tokens; throws with a readable message. */
export function parseOrderText(text: string, knownNames: readonly string[] = []): RawOrder {
  const t = text.trim();
  if (t === '') throw new Error('the order is empty');
  if (t.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch {
      try {
        value = JSON.parse(t.replace(/'/g, '"')); // Python's repr of a list of names
      } catch {
        throw new Error(`the order ${short(t)} is not a valid list`);
      }
    }
    const o = orderFromJson(value);
    if (!o) throw new Error(`the order ${short(t)} is neither a list of classes nor a list of task lists`);
    return o;
  }
  if (t.includes('|')) return { kind: 'tasks', tasks: t.split('|').map((part) => splitTokens(part, knownNames)) };
  return { kind: 'flat', tokens: splitTokens(t, knownNames) };
}

function short(s: string, max = 40): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

/** Resolve one token to a class position, or a reason. */
export function resolveToken(token: string, classNames: readonly string[], byName: Map<string, number>): number | string {
  if (/^\d+$/.test(token)) {
    const p = Number(token);
    if (p < classNames.length) return p;
    return `class index ${p} is out of range: the experiment has ${classNames.length} classes (0–${classNames.length - 1})`;
  }
  if (/^-\d+$/.test(token)) return `class index ${token} is negative`;
  const p = byName.get(normalizeName(token));
  if (p !== undefined) return p;
  return `unknown class ${JSON.stringify(token)}`;
}

export function nameIndex(classNames: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  classNames.forEach((n, i) => {
    const k = normalizeName(n);
    if (!m.has(k)) m.set(k, i);
  });
  return m;
}
