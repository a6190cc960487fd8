/**
 * A lab's own settings declared once, as a table of fields (docs/architecture.md "Add a setting"): each field's kind,
 * bounds (from limits.ts), default, label and CLI flag. From the table come the settings type (`SettingsOf`), the
 * defaults (`settingsDefaults`), the checks of a share link's or config file's fields with their messages
 * (`checkSettings`), the fields the experiment's common sections hold (`commonFields`), and what the CLI needs to
 * parse the fields' flags (`settingFlags`, `flagUsage`; src/cli/lab-flags.ts parses them). Rules between fields stay
 * a small hand-written check beside the table.
 *
 * A table may also be checked in the config checker's words (`checkFieldsIn`: quoted choices with "Did you mean", an
 * error at each index of a list), for a lab whose link messages were written that way. A lab whose checks spoke in
 * other words before its table keeps them with optional properties of its fields: `message` (the field's one
 * sentence instead of its kind's), `says` (the lab's sentence for a wrong value in its form and command line,
 * `fieldProblem`), `checkIn` (a link's check in the config's words, where they are not the kind's), `flagBounds` (the
 * flag read as a whole number in the CLI's words) and `args` (the field on a command line, `settingArgs`).
 * A value field whose check is the config checker's own code gives it once, as `checkIn`, and its `check` is
 * `checkVia(checkIn)`.
 *
 * Pure: imports only the config's checker (its words).
 */
import { Checker, list, show, suggestion } from './checker';

interface FieldBase {
  /** what the lab's control and the CLI's help call it */
  label: string;
  /** what the control's tooltip says of it, where the label alone does not */
  help?: string;
  /** the CLI flag (without `--`); absent: the field has no flag of its own */
  flag?: string;
  /** the default in words where the value does not say it (the reservoir's k: "one bucket's training part") */
  defaultText?: string;
  /** the flag's value in words where its kind does not say it ("A|dynamic:C") */
  value?: string;
  /** the experiment's common section that holds the field when the lab's section is its own form ("model", "seeds") */
  common?: string;
  /**
   * An optional field: absent means this value (what links made before it meant), and a checked value equal to it is
   * left out, so the settings of every earlier link read exactly as before.
   */
  absent?: unknown;
  /** the field's own one-sentence error instead of its kind's (`got`: the value as the message shows it) */
  message?: (got: string) => string;
  /** the lab's own sentence for a wrong value (its form's and command line's; `fieldProblem`) where it is not the kind's */
  says?: (x: unknown) => string;
  /**
   * A share link's or config file's value checked in the config's words where they are not the kind's (`checkFieldIn`):
   * records its error with `c` and returns undefined, or the value.
   */
  checkIn?: (c: Checker, x: unknown, path: string) => { value: unknown } | undefined;
  /**
   * An int field's flag read as a whole number in the CLI's words (`--epochs must be at least 1; got 0.`), with the
   * field's lower bound ('min') or both ('both'); the lab's checks judge the rest. Absent: the number as it is, for the
   * table's check.
   */
  flagBounds?: 'min' | 'both';
  /** the field on a command line (`settingArgs`) where it is not `--flag value` (`settings`: all of them) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  args?: (x: any, settings: any) => string[];
}

/** One of a list of words (or null, with `orNull`). */
export interface ChoiceField<T extends string = string> extends FieldBase {
  kind: 'choice';
  options: readonly T[];
  /** (null only with `orNull`) */
  default: NoInfer<T> | null;
  /** null is a value too, meaning this (in words: "one run"); the field's value is then one of the words or null */
  orNull?: string;
  /** each option in words (the control's menu) */
  labels?: Readonly<Record<NoInfer<T>, string>>;
}

/** A whole number in [min, max]; with `orNull`, null too (`orNull`: what null means, "all"). */
export interface IntField extends FieldBase {
  kind: 'int';
  min: number;
  max: number;
  orNull?: string;
  default: number | null;
}

/** A finite number in [min, max], or (min, max] with `above`, [min, max) with `below`. */
export interface NumberField extends FieldBase {
  kind: 'number';
  min: number;
  max: number;
  above?: boolean;
  below?: boolean;
  default: number;
}

export interface BoolField extends FieldBase {
  kind: 'bool';
  default: boolean;
}

/** A non-empty list of distinct words of `options` (`item`: one of them in words, "protocol"). */
export interface ListField<T extends string = string> extends FieldBase {
  kind: 'list';
  options: readonly T[];
  item: string;
  default: readonly NoInfer<T>[];
  /** fewest and most entries (1 and the options' count unless given) */
  minLength?: number;
  maxLength?: number;
  /** the error when there are fewer than `minLength` (`n`: how many) */
  fewer?: (n: number) => string;
  /** the error at an entry listed a second time (the config checker's words; `checkFieldsIn`) */
  twice?: (item: string) => string;
  /** an unknown entry's error ends with "Did you mean …?" (the config checker's words; `checkFieldsIn`) */
  suggest?: boolean;
}

/** A list of at most `maxLength` whole numbers in [min, max] (`items`: them in words, "layer widths"). */
export interface IntsField extends FieldBase {
  kind: 'ints';
  maxLength: number;
  min: number;
  max: number;
  items: string;
  default: readonly number[];
}

/** A value of its own shape: `check` says whether it is one, `parse` reads the flag's text (throws with what is wrong). */
export interface ValueField<T = unknown> extends FieldBase {
  kind: 'value';
  default: T;
  check(x: unknown): { value: T } | { error: string };
  parse?(text: string): T;
}

/**
 * A nested object of fields of its own (the conformal section's `raps`: λ and k_reg), made by `settingsGroup`; its
 * default is its fields' defaults. It has no flag: its fields' flags, where they have any, are the command's own.
 */
export interface GroupField<T extends SettingsTable = SettingsTable> extends FieldBase {
  kind: 'group';
  fields: T;
  default: SettingsOf<T>;
}

// a field of its own shape: its check says what it holds
export type SettingField =
  | ChoiceField
  | IntField
  | NumberField
  | BoolField
  | ListField
  | IntsField
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  | ValueField<any>
  | GroupField;
export type SettingsTable = Readonly<Record<string, SettingField>>;

/** The value type of a field. */
export type FieldValue<F> = F extends { kind: 'choice'; options: readonly (infer O)[]; orNull: string }
  ? O | null
  : F extends { kind: 'choice'; options: readonly (infer O)[] }
    ? O
    : F extends { kind: 'int'; orNull: string }
      ? number | null
      : F extends { kind: 'int' | 'number' }
        ? number
        : F extends { kind: 'bool' }
          ? boolean
          : F extends { kind: 'list'; options: readonly (infer O)[] }
            ? O[]
            : F extends { kind: 'ints' }
              ? number[]
              : F extends { kind: 'value'; default: infer T }
                ? T
                : F extends { kind: 'group'; fields: infer S }
                  ? SettingsOf<S>
                  : never;

type Required_<T> = { -readonly [K in keyof T as T[K] extends { absent: unknown } ? never : K]: FieldValue<T[K]> };
type Optional_<T> = { -readonly [K in keyof T as T[K] extends { absent: unknown } ? K : never]?: FieldValue<T[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

/** The settings a table declares: every field, optional where it has `absent`. */
export type SettingsOf<T> = Flat<Required_<T> & Optional_<T>>;

/** The fields of a table that a common section holds. */
export type CommonKeyOf<T> = { [K in keyof T]: T[K] extends { common: string } ? K : never }[keyof T] & string;

/** A table, checked against the field kinds with its literal types kept (`as const` without losing the checks). */
export function settingsTable<const T extends Record<string, SettingField>>(table: T): T {
  return table;
}

/** A group of fields (`kind: 'group'`), its default its fields' defaults. */
export function settingsGroup<const T extends Record<string, SettingField>>(fields: T, base: Omit<FieldBase, 'flag' | 'absent'>): GroupField<T> {
  return { ...base, kind: 'group', fields, default: settingsDefaults(fields) };
}

/** The defaults: every field but the optional ones, in the table's order. */
export function settingsDefaults<T extends SettingsTable>(table: T): SettingsOf<T> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(table)) if (!('absent' in f)) out[k] = structuredClone(f.default);
  return out as SettingsOf<T>;
}

/** The fields a common section holds (field → that section). */
export function commonFields(table: SettingsTable): Readonly<Record<string, string>> {
  return Object.fromEntries(Object.entries(table).flatMap(([k, f]) => (f.common ? [[k, f.common]] : [])));
}

export interface SettingIssue {
  path: string;
  message: string;
}

const json = (x: unknown): string | undefined => JSON.stringify(x);

/** Whether `x` is a valid value of the field, or what is wrong with it (one sentence). */
export function checkField(f: SettingField, x: unknown): { value: unknown } | { error: string } {
  const r = checkKind(f, x);
  return 'error' in r && f.message && f.kind !== 'value' ? { error: f.message(show(x)) } : r;
}

function checkKind(f: SettingField, x: unknown): { value: unknown } | { error: string } {
  switch (f.kind) {
    case 'choice':
      if ((typeof x === 'string' && (f.options as readonly string[]).includes(x)) || (x === null && f.orNull)) return { value: x };
      return { error: `Must be one of ${f.options.join(', ')}${f.orNull ? `, or null (${f.orNull})` : ''}; got ${json(x)}.` };
    case 'int':
    case 'number': {
      const int = f.kind === 'int';
      const above = f.kind === 'number' && f.above === true;
      const orNull = f.kind === 'int' ? f.orNull : undefined;
      const below = f.kind === 'number' && f.below === true;
      if (orNull !== undefined && x === null) return { value: null };
      if (typeof x === 'number' && Number.isFinite(x) && (!int || Number.isInteger(x)) && (above ? x > f.min : x >= f.min) && (below ? x < f.max : x <= f.max))
        return { value: x };
      const or = orNull !== undefined ? `, or null (${orNull})` : '';
      return {
        error: `Must be ${int ? 'a whole number' : 'a number'} ${above ? `above ${f.min}` : `from ${f.min}`} ${below ? 'to below' : 'to'} ${f.max}${or}; got ${json(x)}.`,
      };
    }
    case 'bool':
      if (typeof x === 'boolean') return { value: x };
      return { error: `Must be true or false; got ${json(x)?.slice(0, 40)}.` };
    case 'list':
      if (
        Array.isArray(x) &&
        x.length >= (f.minLength ?? 1) &&
        x.length <= (f.maxLength ?? Infinity) &&
        x.every((p) => (f.options as readonly unknown[]).includes(p)) &&
        new Set(x).size === x.length
      )
        return { value: x.slice() };
      return { error: `Must be a non-empty list of distinct ${f.item}s from ${f.options.join(', ')}; got ${json(x)}.` };
    case 'ints':
      if (Array.isArray(x) && x.length <= f.maxLength && x.every((h) => Number.isInteger(h) && h >= f.min && h <= f.max)) return { value: x.slice() };
      return { error: `Must be a list of at most ${f.maxLength} ${f.items} (whole numbers ${f.min}…${f.max}); got ${json(x)?.slice(0, 40)}.` };
    case 'value':
      return f.check(x);
    case 'group': {
      const r = checkSettings(f.fields, x, 'It');
      return r.issues.length > 0 ? { error: r.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join(' ') } : { value: r.value };
    }
  }
}

/**
 * Check an unknown value (a parsed share link or config file) against the table. Missing fields take their defaults;
 * every wrong field is one issue (path + message, in the table's order after the unknown keys) and takes its default
 * too, so `value` is always usable when given. An optional field equal to its `absent` value is left out. `value` is
 * absent only when `v` is not an object (`what`: the settings in words, for that message).
 */
export function checkSettings<T extends SettingsTable>(table: T, v: unknown, what: string): { value?: SettingsOf<T>; issues: SettingIssue[] } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { issues: [{ path: '', message: `${what} must be an object.` }] };
  const o = v as Record<string, unknown>;
  const issues: SettingIssue[] = [];
  for (const key of Object.keys(o)) if (!(key in table)) issues.push({ path: key, message: `Unknown setting "${key}".` });
  const out: Record<string, unknown> = settingsDefaults(table);
  for (const [key, f] of Object.entries(table)) {
    const x = o[key];
    if (x === undefined) continue;
    const r = checkField(f, x);
    if ('error' in r) issues.push({ path: key, message: r.error });
    else if (!('absent' in f) || JSON.stringify(r.value) !== JSON.stringify(f.absent)) out[key] = r.value;
  }
  return { value: out as SettingsOf<T>, issues };
}

/** The kind of each flag the table declares (node:util parseArgs): a bool field is a switch, every other takes a value. */
export function settingFlags<T extends SettingsTable>(table: T): FlagOptionsOf<T> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const f of Object.values(table)) if (f.flag) out[f.flag] = { type: f.kind === 'bool' ? 'boolean' : 'string' };
  return out as FlagOptionsOf<T>;
}

export type FlagOptionsOf<T> = {
  [K in keyof T as T[K] extends { flag: infer N extends string } ? N : never]: T[K] extends { kind: 'bool' } ? { type: 'boolean' } : { type: 'string' };
};

/** The flags of a table, in its order. */
export function flagNames<T extends SettingsTable>(table: T): (keyof FlagOptionsOf<T> & string)[] {
  return Object.values(table).flatMap((f) => (f.flag ? [f.flag] : [])) as (keyof FlagOptionsOf<T> & string)[];
}

/** A field's flag's value in words: its choices, a list of them, its start, or the field's own `value`. */
function flagValue(f: SettingField, start: unknown): string {
  if (f.kind === 'bool') return '';
  if (f.value) return ` ${f.value}`;
  if (f.kind === 'choice') return ` ${f.options.join('|')}`;
  if (f.kind === 'list') return ` ${f.options.join('|')}[,…]`;
  if (f.kind === 'ints') return ` ${(start as number[]).join(',')}`;
  return ` ${String(start)}`;
}

/** A field's flag as the CLI's usage line writes it: `[--buckets 5]`, `[--mode finetune|scratch|linear]`, `[--control]`. */
export function flagUsage(f: SettingField, start: unknown = f.default): string {
  return f.flag ? `[--${f.flag}${flagValue(f, start)}]` : '';
}

/** The bounds of a field's value in words ("a whole number 2…10"). */
function boundsOf(f: SettingField): string {
  switch (f.kind) {
    case 'int':
      return `a whole number ${f.min}…${f.max}`;
    case 'number':
      if (f.below) return `a number ${f.above ? 'above' : 'from'} ${f.min}, below ${f.max}`;
      return f.above ? `a number above ${f.min}, at most ${f.max}` : `a number ${f.min}…${f.max}`;
    case 'choice':
      return f.options.join(', ');
    case 'list':
      return `${f.minLength === undefined && f.maxLength === undefined ? 'one or more' : `${f.minLength ?? 1} to ${f.maxLength ?? f.options.length}`} of ${f.options.join(', ')}, comma-separated`;
    case 'ints':
      return `at most ${f.maxLength} ${f.items}, each ${f.min}…${f.max}`;
    case 'bool':
      return 'a switch';
    case 'value':
      return f.value ?? 'see the label';
    case 'group':
      return Object.keys(f.fields).join(', ');
  }
}

/** One line of a command's help for a field's flag: `  --buckets   K buckets (a whole number 2…10; default 5)`. */
export function flagHelp(f: SettingField, start: unknown = f.default, width = 18): string {
  if (!f.flag) return '';
  const shown = f.defaultText ?? (f.kind === 'bool' ? 'off' : f.kind === 'value' ? '' : Array.isArray(start) ? start.join(',') : String(start));
  return `  --${f.flag}`.padEnd(width) + `${f.label} (${boundsOf(f)}${shown ? `; default ${shown}` : ''})`;
}

/**
 * A wrong value's sentence as the lab says it (the field's `says`, else its label and the kind's words: a form lists
 * it among others), or undefined when it is valid.
 */
export function fieldProblem(f: SettingField, x: unknown): string | undefined {
  const r = checkField(f, x);
  return 'error' in r ? (f.says?.(x) ?? `${f.label}: ${r.error}`) : undefined;
}

/**
 * A share link's or config file's value of a field in the config checker's words, its error recorded at `at` with `c`:
 * the field's `checkIn` where it has one, its `message` where it has one, else the checker's own words for its kind
 * (an int's, number's, bool's and choice's; "Did you mean" after an unknown choice; a list's error at each index,
 * `twice` for an entry given again, `suggest`, too few entries `fewer`). The value, or undefined when it is wrong.
 */
export function checkFieldIn(c: Checker, f: SettingField, x: unknown, at: string): { value: unknown } | undefined {
  if (f.checkIn) return f.checkIn(c, x, at);
  const before = c.errors.length;
  let value: unknown;
  if (f.message && f.kind !== 'value') {
    const r = checkField(f, x);
    if ('error' in r) c.error(at, r.error);
    else value = r.value;
  } else if (f.kind === 'group') value = checkGroupIn(c, f.fields, x, at);
  else if (f.kind === 'choice' && f.orNull !== undefined) {
    if (x === null || (typeof x === 'string' && (f.options as readonly string[]).includes(x))) value = x;
    else c.error(at, `Must be one of ${list(f.options)}, or null (${f.orNull}); got ${show(x)}.${typeof x === 'string' ? suggestion(x, f.options) : ''}`);
  } else if (f.kind === 'choice') value = c.choice(x, at, f.options, f.default ?? f.options[0]);
  else if (f.kind === 'int')
    value = f.orNull !== undefined ? c.intOrNull(x, at, f.min, f.max, f.default, f.orNull) : c.int(x, at, f.min, f.max, f.default ?? f.min);
  else if (f.kind === 'number') value = c.num(x, at, { min: f.min, max: f.max, exclusiveMin: f.above, exclusiveMax: f.below }, f.default);
  else if (f.kind === 'bool') value = c.bool(x, at, f.default);
  else if (f.kind === 'list') {
    const options = f.options as readonly string[];
    const set = c.distinctStrings(
      x,
      at,
      f.maxLength ?? options.length,
      (s) => options.includes(s),
      (y) => `Must be one of ${list(options)}; got ${show(y)}.${f.suggest && typeof y === 'string' ? suggestion(y, options) : ''}`,
      f.twice ?? ((s) => `The ${f.item} "${s}" is listed twice.`),
    );
    if (set && set.size < (f.minLength ?? 1)) c.error(at, f.fewer ? f.fewer(set.size) : `List at least ${f.minLength ?? 1} ${f.item}s; got ${set.size}.`);
    else if (set) value = (x as string[]).slice();
  } else {
    const r = checkField(f, x);
    if ('error' in r) c.error(at, r.error);
    else value = r.value;
  }
  return c.errors.length > before ? undefined : { value };
}

/**
 * A value field's `check` (a form's or the flags' judgement of one value) from its link check `checkIn`, for a field
 * whose check is the config checker's code (a list of names with rules of its own, an object of several parts): the
 * first error `checkIn` records is the field's sentence, else the value it reads.
 */
export function checkVia<T>(checkIn: NonNullable<FieldBase['checkIn']>): (x: unknown) => { value: T } | { error: string } {
  return (x) => {
    const c = new Checker();
    const r = checkIn(c, x, '');
    return c.errors.length > 0 || !r ? { error: c.errors[0]?.message ?? 'Not a valid value.' } : { value: r.value as T };
  };
}

/**
 * Check the fields `keys` (every field unless given, in the table's order) of `o`, a share link's or config file's
 * section at `path`, into `out` (the settings so far, each field its default), each with `checkFieldIn`. A wrong
 * field keeps what `out` holds; an optional field equal to its `absent` value is left out. Unknown keys are the
 * caller's (`c.object`); rules between fields stay beside the table, and `keys` lets a section check its fields
 * around them.
 */
export function checkFieldsIn<T extends SettingsTable>(
  c: Checker,
  table: T,
  o: Readonly<Record<string, unknown>>,
  path: string,
  out: Partial<SettingsOf<T>>,
  keys: readonly (keyof T & string)[] = Object.keys(table),
): void {
  const into = out as Record<string, unknown>;
  for (const key of keys) {
    const f: SettingField = table[key];
    if (o[key] === undefined) continue;
    const r = checkFieldIn(c, f, o[key], `${path}.${key}`);
    if (!r) continue;
    if ('absent' in f && JSON.stringify(r.value) === JSON.stringify(f.absent)) delete into[key];
    else into[key] = r.value;
  }
}

/**
 * A group's fields over their defaults (its keys are checked with its section's, before any field:
 * ./section-table.ts `checkTableSection`).
 */
function checkGroupIn(c: Checker, table: SettingsTable, x: unknown, at: string): Record<string, unknown> {
  const out = settingsDefaults(table) as Record<string, unknown>;
  checkFieldsIn(c, table, typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : {}, at, out);
  return out;
}

/** `checkFieldsIn` of every field over `base`: the settings, each field given and valid replacing base's. */
export function checkSettingsIn<T extends SettingsTable>(c: Checker, table: T, o: Record<string, unknown>, path: string, base: SettingsOf<T>): SettingsOf<T> {
  const out = { ...base };
  checkFieldsIn(c, table, o, path, out);
  return out;
}

/**
 * The settings as a command line's arguments, in the table's order: `--flag value` for each field with a flag (a list
 * comma-joined, a switch alone when on), nothing for an unset (null or absent) one, or the field's own `args`.
 */
export function settingArgs<T extends SettingsTable>(table: T, s: SettingsOf<T>): string[] {
  const all = s as Record<string, unknown>;
  return Object.entries(table).flatMap(([key, f]) => {
    const x = all[key];
    if (f.args) return f.args(x, s);
    if (!f.flag || x === undefined || x === null) return [];
    if (f.kind === 'bool') return x === true ? [`--${f.flag}`] : [];
    return [`--${f.flag}`, Array.isArray(x) ? x.join(',') : String(x)];
  });
}

/**
 * The settings as a lab's controls read them: every field, an optional one absent from `s` at its `absent` value (what
 * that absence means), in the table's order.
 */
export function settingsView<T extends SettingsTable>(table: T, s: Partial<SettingsOf<T>>): Required<SettingsOf<T>> {
  const out: Record<string, unknown> = {};
  const given = s as Record<string, unknown>;
  for (const [k, f] of Object.entries(table)) out[k] = structuredClone(given[k] !== undefined ? given[k] : 'absent' in f ? f.absent : f.default);
  return out as Required<SettingsOf<T>>;
}

/**
 * The settings a lab's controls hold (`x`: the settings and whatever else they hold) as the config keeps them, in the
 * key order the checks give: the fields in the table's order, the optional ones after them, each left out where it
 * equals its `absent` value (so a link that does not use it keeps its compact form and hash). Values are taken as
 * they are (the config's checker judges them).
 */
export function settingsValue<T extends SettingsTable>(table: T, x: Partial<SettingsOf<T>>): SettingsOf<T> {
  const out: Record<string, unknown> = settingsDefaults(table);
  const given = x as Record<string, unknown>;
  for (const [k, f] of Object.entries(table)) {
    const v = given[k];
    if (v === undefined || ('absent' in f && JSON.stringify(v) === JSON.stringify(f.absent))) continue;
    out[k] = structuredClone(v);
  }
  return out as SettingsOf<T>;
}
