/**
 * Where a JSON text is broken, for messages: the engine's reason for JSON.parse failing, without its echo of the
 * text and position, and the 1-based line and column — from the engine's message when it names them, else from a
 * small checker of JSON syntax (not every engine says where: Node 20's V8 often does not). Used by the similarity
 * upload, the results import and the config file.
 *
 * Layering: pure TS, no imports.
 */

export interface JsonErrorPlace {
  /** The engine's reason, e.g. "Unexpected token ']'" or "Expected ',' or '}' after property value". */
  reason: string;
  line?: number;
  column?: number;
  /** Whether the engine's own message already says the line and column. */
  engineSaysWhere: boolean;
}

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < pos && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  return { line, column: pos - last };
}

/**
 * Offset of the first JSON syntax error in `t` (−1 if none): a small recursive-descent checker, used only after
 * JSON.parse failed.
 */
export function jsonErrorOffset(t: string): number {
  let i = 0;
  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < t.length && (t[i] === ' ' || t[i] === '\t' || t[i] === '\n' || t[i] === '\r')) i++;
  };
  const str = () => {
    i++; // opening quote
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) {
            i += 2;
            fail();
          }
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          i++;
          fail();
        }
        i += 2;
        continue;
      }
      if (c < 0x20) fail();
      i++;
    }
    fail();
  };
  /** The elements of an object (`{`) or a list (`[`), from after the opening bracket. */
  const members = (close: '}' | ']'): void => {
    i++;
    ws();
    if (t[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (close === '}') {
        ws();
        if (t[i] !== '"') fail();
        str();
        ws();
        if (t[i] !== ':') fail();
        i++;
      }
      value();
      ws();
      if (t[i] === ',') {
        i++;
        continue;
      }
      if (t[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  const value = (): void => {
    ws();
    const c = t[i];
    if (c === '{') return members('}');
    if (c === '[') return members(']');
    if (c === '"') return str();
    for (const lit of ['true', 'false', 'null'])
      if (t.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    NUM.lastIndex = i;
    if (NUM.exec(t)) {
      i = NUM.lastIndex;
      return;
    }
    fail();
  };
  try {
    value();
    ws();
    if (i < t.length) fail();
    return -1;
  } catch (e) {
    return typeof e === 'number' ? e : -1; // a RangeError (absurdly deep nesting): no position
  }
}

/** Why and where JSON.parse(text) failed with `error`. */
export function placeJsonError(text: string, error: unknown): JsonErrorPlace {
  const raw = error instanceof Error ? error.message : String(error);
  const reason = raw
    .replace(/^JSON\.parse: /, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/\s*(?:in JSON )?at position \d+.*$/s, '')
    .replace(/\s*at line \d+ column \d+.*$/s, '');
  const lc = /line (\d+) column (\d+)/.exec(raw);
  if (lc) return { reason, line: Number(lc[1]), column: Number(lc[2]), engineSaysWhere: true };
  const pos = /position (\d+)/.exec(raw);
  const offset = pos ? Number(pos[1]) : jsonErrorOffset(text);
  if (offset < 0) return { reason, engineSaysWhere: false };
  return { reason, ...lineColumnAt(text, offset), engineSaysWhere: false };
}
