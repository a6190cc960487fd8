/**
 * A lab's settings from the command line, by its settings table (src/core/config/settings-table.ts): every field
 * with a flag is read from its flag's text (a number flag must be a number, a choice one of its words, a list its
 * words once each), over `base` (the lab's settings of --config/--link, or its defaults), and the whole is checked by
 * the table's checker, the share link's: one bound for link and flag. Bad input is one line (`UsageError`, exit 2)
 * that names the flag.
 */
import { checkSettings, flagHelp, flagUsage, type SettingField, type SettingsOf, type SettingsTable } from '../core/config/settings-table';
import { intArg, intListArg, numberArg, str, UsageError } from './args';

type Values = Record<string, string | boolean | undefined>;

/** One field's value from its flag's text, or undefined when the flag is not given. */
function readFlag(f: SettingField, v: Values): unknown {
  const flag = f.flag!;
  if (f.kind === 'bool') return v[flag] === true ? true : undefined;
  const text = str(v, flag);
  if (text === undefined) return undefined;
  switch (f.kind) {
    case 'int':
    case 'number':
      // a whole number in the CLI's words with the field's bounds, where the field says so
      if (f.kind === 'int' && f.flagBounds) return intArg(text, flag, f.min, f.flagBounds === 'both' ? f.max : undefined);
      // as it is, for the checker to judge (a non-number is refused here)
      return numberArg(text, flag);
    case 'choice':
      if (!(f.options as readonly string[]).includes(text)) throw new UsageError(`Unknown --${flag} "${text.slice(0, 40)}": use ${f.options.join(', ')}.`);
      return text;
    case 'list': {
      const items = text.split(',').map((p) => p.trim());
      for (const p of items)
        if (!(f.options as readonly string[]).includes(p)) throw new UsageError(`Unknown --${flag} "${p.slice(0, 40)}": use ${f.options.join(', ')}.`);
      if (new Set(items).size !== items.length) throw new UsageError(`--${flag} lists a ${f.item} twice.`);
      return items;
    }
    case 'ints':
      return text.trim() === '' ? [] : intListArg(text, flag);
    case 'value':
      if (!f.parse) return text;
      try {
        return f.parse(text);
      } catch (e) {
        throw new UsageError(`--${flag}: ${(e as Error).message}`);
      }
  }
}

/** A command's own reader of a field (its flag's text in its own words; undefined: not given), with the settings read so far. */
export type OwnReader<T extends SettingsTable> = (v: Values, s: SettingsOf<T>) => unknown;

/**
 * The settings the flags give over `base`, not checked, read in the table's order (so a command's first bad flag is
 * the first in that order); `given`: the fields whose flag was on the command line. `own`: fields the command reads
 * itself (a flag of another shape, a value that depends on another field).
 */
export function readSettingFlags<T extends SettingsTable>(
  table: T,
  v: Values,
  base: SettingsOf<T>,
  own: Partial<Record<keyof T, OwnReader<T>>> = {},
): { settings: SettingsOf<T>; given: Set<keyof T & string> } {
  const merged: Record<string, unknown> = { ...base };
  const given = new Set<keyof T & string>();
  for (const [key, f] of Object.entries(table)) {
    const reader = own[key as keyof T];
    if (!reader && !f.flag) continue;
    const x = reader ? reader(v, merged as SettingsOf<T>) : readFlag(f, v);
    if (x === undefined) continue;
    merged[key] = x;
    given.add(key);
  }
  return { settings: merged as SettingsOf<T>, given };
}

/**
 * The settings the flags give over `base`, checked; `given`: the fields whose flag was on the command line. `skip`:
 * fields the command reads itself.
 */
export function settingsFromFlags<T extends SettingsTable>(
  table: T,
  v: Values,
  base: SettingsOf<T>,
  skip: readonly (keyof T)[] = [],
): { settings: SettingsOf<T>; given: Set<keyof T & string> } {
  const { settings: merged, given } = readSettingFlags(
    table,
    v,
    base,
    Object.fromEntries(skip.map((k) => [k, () => undefined])) as unknown as Partial<Record<keyof T, OwnReader<T>>>,
  );
  const { value, issues } = checkSettings(table, merged, 'The settings');
  if (issues.length > 0 || !value) {
    const i = issues[0];
    const flag = table[i.path]?.flag;
    throw new UsageError(`${flag ? `--${flag}` : i.path}: ${i.message}`);
  }
  return { settings: value, given };
}

/** The flags of a table's fields, for a command's row (its order). */
export { flagNames } from '../core/config/settings-table';

/**
 * A command's usage lines (`  cil-lab NAME …`, continued under the first flag) from its parts, each kept whole, and the
 * lines a table's fields add to `cil-lab NAME --help`: each flag, what it sets and its bounds.
 */
export function usageLines(name: string, parts: readonly string[], width = 150): string {
  const head = `  cil-lab ${name} `;
  const lines: string[] = [];
  let line = head;
  for (const p of parts) {
    if (line.length + p.length > width && line.trim() !== `cil-lab ${name}`) {
      lines.push(line.trimEnd());
      line = ' '.repeat(head.length);
    }
    line += `${p} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** Each field's flag usage (`[--buckets 5]`), its value the lab's start where given. */
export function fieldUsages<T extends SettingsTable>(table: T, start: Partial<SettingsOf<T>> = {}, skip: readonly (keyof T)[] = []): string[] {
  return Object.entries(table)
    .filter(([k, f]) => f.flag && !skip.includes(k))
    .map(([k, f]) => flagUsage(f, (start as Record<string, unknown>)[k] ?? f.default));
}

/** The lines of `cil-lab NAME --help` that say each field's flag: what it sets and its bounds (its default the lab's start where given). */
export function fieldHelp<T extends SettingsTable>(table: T, start: Partial<SettingsOf<T>> = {}, width?: number): string {
  return Object.entries(table)
    .filter(([, f]) => f.flag)
    .map(([k, f]) => flagHelp(f, (start as Record<string, unknown>)[k] ?? f.default, width))
    .join('\n');
}

/**
 * The flags that stand for settings (a config's, for --config/--link): each field with a flag, its value as the flag
 * writes it (a list comma-separated, a switch on when true). A command adds what its flags say differently.
 */
export function flagValues<T extends SettingsTable>(table: T, settings: SettingsOf<T>): Values {
  const out: Values = {};
  for (const [k, f] of Object.entries(table)) {
    const x = (settings as Record<string, unknown>)[k];
    if (!f.flag || x === undefined) continue;
    if (f.kind === 'bool') {
      if (x === true) out[f.flag] = true;
    } else out[f.flag] = Array.isArray(x) ? x.join(',') : String(x);
  }
  return out;
}
