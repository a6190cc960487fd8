/**
 * The tools every config section is checked with: a Checker that collects issues at paths like
 * "training.epochs" and returns each field's fill-in when the value is missing or invalid, the value formatting
 * and "Did you mean" hints of its messages, and file references (the one field type two sections share).
 *
 * Layering: pure TS, imports only src/core.
 */
import { CONFIG_LIMITS } from './limits';
import type { ConfigIssue, FileRef } from './types';

export const UINT32_MAX = 2 ** 32 - 1;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length];
}

export function suggestion(key: string, known: readonly string[]): string {
  const k = key.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const name of known) {
    const d = name.toLowerCase() === k ? 0 : editDistance(k, name.toLowerCase());
    if (d < bestD) {
      best = name;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.min(3, Math.floor(key.length / 3))) ? ` Did you mean "${best}"?` : '';
}

export function list(xs: readonly string[]): string {
  return xs.map((x) => `"${x}"`).join(', ');
}

export class Checker {
  readonly errors: ConfigIssue[] = [];
  readonly warnings: ConfigIssue[] = [];

  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  /** An object whose keys must be among `known`; undefined → {} (every field filled). */
  object(v: unknown, path: string, known: readonly string[], what = 'an object'): Record<string, unknown> {
    if (v === undefined) return {};
    if (!isPlainObject(v)) {
      this.error(path, `Must be ${what} ({…}); got ${show(v)}.`);
      return {};
    }
    for (const key of Object.keys(v)) {
      if (!known.includes(key)) {
        this.error(join(path, key), `Unknown setting "${key}"; the known ones here are ${list(known)}.${suggestion(key, known)}`);
      }
    }
    return v;
  }

  int(v: unknown, path: string, min: number, max: number, fill: number): number {
    if (v === undefined) return fill;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.error(path, `Must be a whole number from ${min} to ${max}; got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  /** `nullMeans`: what null stands for, in the message ("all") */
  intOrNull(v: unknown, path: string, min: number, max: number, fill: number | null, nullMeans = 'all'): number | null {
    if (v === null) return null;
    if (v === undefined) return fill;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.error(path, `Must be a whole number from ${min} to ${max}, or null (${nullMeans}); got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  /** A finite number in the range; exclusive ends are written with ( ). */
  num(v: unknown, path: string, range: { min: number; max: number; exclusiveMin?: boolean; exclusiveMax?: boolean }, fill: number): number {
    if (v === undefined) return fill;
    const { min, max, exclusiveMin = false, exclusiveMax = false } = range;
    const ok = typeof v === 'number' && Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && (exclusiveMax ? v < max : v <= max);
    if (!ok) {
      this.error(path, `Must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}${exclusiveMax ? ')' : ']'}; got ${show(v)}.`);
      return fill;
    }
    return v as number;
  }

  bool(v: unknown, path: string, fill: boolean): boolean {
    if (v === undefined) return fill;
    if (typeof v !== 'boolean') {
      this.error(path, `Must be true or false; got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  choice<T extends string>(v: unknown, path: string, options: readonly T[], fill: T): T {
    if (v === undefined) return fill;
    if (typeof v !== 'string' || !options.includes(v as T)) {
      this.error(path, `Must be one of ${list(options)}; got ${show(v)}.${typeof v === 'string' ? suggestion(v, options) : ''}`);
      return fill;
    }
    return v as T;
  }

  text(v: unknown, path: string, opts: { max?: number; what?: string } = {}): string | undefined {
    const max = opts.max ?? CONFIG_LIMITS.textLength;
    if (typeof v !== 'string' || v.trim() === '' || v.length > max) {
      this.error(path, `Must be ${opts.what ?? 'non-empty text'} of at most ${max} characters; got ${show(v)}.`);
      return undefined;
    }
    return v;
  }

  array(v: unknown, path: string, minLength: number, maxLength: number): unknown[] | undefined {
    if (!Array.isArray(v)) {
      this.error(path, `Must be a list ([…]); got ${show(v)}.`);
      return undefined;
    }
    if (v.length < minLength || v.length > maxLength) {
      this.error(
        path,
        minLength === maxLength
          ? `Must have exactly ${minLength} entries; got ${v.length}.`
          : `Must have ${minLength === 0 ? 'at most' : `from ${minLength} to`} ${maxLength} entries; got ${v.length}.`,
      );
      return undefined;
    }
    return v;
  }

  /**
   * A list of at most `maxLength` distinct strings that pass `valid`; a bad entry gets the error `invalid(entry)` and
   * a repeated one `twice(entry)`, at its index. The set of entries when all are good, else undefined.
   */
  distinctStrings(
    v: unknown,
    path: string,
    maxLength: number,
    valid: (s: string) => boolean,
    invalid: (x: unknown) => string,
    twice: (s: string) => string,
  ): Set<string> | undefined {
    const arr = this.array(v, path, 0, maxLength);
    if (!arr) return undefined;
    const before = this.errors.length;
    const seen = new Set<string>();
    arr.forEach((x, i) => {
      if (typeof x !== 'string' || !valid(x)) this.error(join(path, i), invalid(x));
      else if (seen.has(x)) this.error(join(path, i), twice(x));
      else seen.add(x);
    });
    return this.errors.length === before ? seen : undefined;
  }

  /** A list of distinct 32-bit unsigned integer seeds (numpy's accepted range for RandomState). */
  seeds(v: unknown, path: string, minLength: number, maxLength: number, fill: readonly number[]): number[] {
    if (v === undefined) return fill.slice();
    const arr = this.array(v, path, minLength, maxLength);
    if (!arr) return fill.slice();
    const before = this.errors.length;
    const seen = new Set<number>();
    arr.forEach((s, i) => {
      if (!isUint32(s)) this.error(join(path, i), `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${show(s)}.`);
      else if (seen.has(s)) this.error(join(path, i), `Seed ${s} appears twice; each seed is listed once.`);
      else seen.add(s);
    });
    return this.errors.length === before ? (arr as number[]).slice() : fill.slice();
  }

  seed(v: unknown, path: string, fill: number): number {
    if (v === undefined) return fill;
    if (!isUint32(v)) {
      this.error(path, `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${show(v)}.`);
      return fill;
    }
    return v;
  }
}

export function isUint32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= UINT32_MAX;
}

const CONTENT_HASH = /^(fnv1a64:[0-9a-f]{16}|sha256:[0-9a-f]{64})$/;

export function fileRef(c: Checker, v: unknown, path: string): FileRef | undefined {
  if (v === undefined) {
    c.error(path, 'Missing: which uploaded file ({"name", "contentHash"}).');
    return undefined;
  }
  const before = c.errors.length;
  const o = c.object(v, path, ['name', 'contentHash']);
  if (!isPlainObject(v)) return undefined;
  const name = c.text(o.name, join(path, 'name'), { max: 255, what: 'the file name' });
  if (typeof o.contentHash !== 'string' || !CONTENT_HASH.test(o.contentHash)) {
    c.error(join(path, 'contentHash'), `Must be the file's content hash ("fnv1a64:" + 16 hex digits, or "sha256:" + 64); got ${show(o.contentHash)}.`);
  }
  return c.errors.length === before ? { name: name!, contentHash: o.contentHash as string } : undefined;
}

export function reuploadWarning(c: Checker, path: string, ref: FileRef, what: string): void {
  c.warnings.push({
    path,
    message:
      `This experiment uses the uploaded ${what} "${ref.name}" (${ref.contentHash}). A link or config file never carries a file's ` +
      'contents: provide that file again (upload it, or pass it to the CLI); CIL Lab checks it is the same file.',
  });
}
