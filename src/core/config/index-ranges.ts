/**
 * Class indices written as ranges — "0-5", "0,2,4", "0-2,7", "6 7 8" — the one parser of such text for a CLI flag
 * (`--classes`, `--subset`), a form field (the Open-world lab's classes) and an OOD set ("fashion-mnist:6-9").
 * Each part is read as one or two numbers and checked against the bound before anything is expanded, so
 * "0-99999999999" costs nothing and its message names the bound; at most `count` indices come out, each once.
 *
 * Layering: pure TS, imports only src/core.
 */
import { CONFIG_LIMITS, grouped } from './limits';

export type IndexRanges = { ok: true; indices: number[] } | { ok: false; error: string };

export interface IndexRangeOptions {
  /** Indices run 0..count − 1 (a dataset's classes). Default: CONFIG_LIMITS.classes, the most any experiment has. */
  count?: number;
  /** Who has `count` classes, for the message ("Digits"); without it the bound is named as the experiments' bound. */
  of?: string;
  /** White space separates parts too (a form field: "0 1 2"); otherwise only commas. */
  spaces?: boolean;
}

const PART = /^(\d+)(?:-(\d+))?$/;

/** "0-5,7" → [0, 1, 2, 3, 4, 5, 7]; an error names what is wrong. Empty parts are skipped; empty text gives []. */
export function parseIndexRanges(text: string, options: IndexRangeOptions = {}): IndexRanges {
  const count = options.count ?? CONFIG_LIMITS.classes;
  const parts = text
    .trim()
    .split(options.spaces ? /[\s,]+/ : /\s*,\s*/)
    .filter(Boolean);
  const beyond = (i: number, part: string): string =>
    options.of !== undefined
      ? `Class ${i > 1e15 ? part : i} does not exist: ${options.of} has classes 0..${count - 1}.`
      : `Class ${i > 1e15 ? part : i} is beyond the bound: an experiment has at most ${grouped(count)} classes (0..${count - 1}).`;
  // each part checked as two numbers first: nothing is expanded until every part is known to be in range
  const spans: [number, number][] = [];
  let total = 0;
  for (const part of parts) {
    const m = PART.exec(part);
    if (!m) return { ok: false, error: `"${part.length > 40 ? `${part.slice(0, 37)}…` : part}" is not a class index or a range like 0-5.` };
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) return { ok: false, error: `The range "${part}" runs backwards.` };
    if (b >= count) return { ok: false, error: beyond(b, m[2] ?? m[1]) };
    total += b - a + 1;
    if (total > count) return { ok: false, error: `More than ${grouped(count)} classes are listed, so some are listed twice.` };
    spans.push([a, b]);
  }
  const seen = new Uint8Array(count);
  const indices: number[] = [];
  for (const [a, b] of spans) {
    for (let i = a; i <= b; i++) {
      if (seen[i]) return { ok: false, error: `Class ${i} is listed twice.` };
      seen[i] = 1;
      indices.push(i);
    }
  }
  return { ok: true, indices };
}
