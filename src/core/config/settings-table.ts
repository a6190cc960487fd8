/**
 * A lab's own settings declared once, as a table of fields (docs/architecture.md "Add a setting"): each field's kind,
 * bounds (from limits.ts), default, label and CLI flag. From the table come the settings type (`SettingsOf`), the
 * defaults (`settingsDefaults`), the checks of a share link's or config file's fields with their messages
 * (`checkSettings`), the fields the experiment's common sections hold (`commonFields`), and what the CLI needs to
 * parse the fields' flags (`settingFlags`, `flagUsage`; src/cli/lab-flags.ts parses them). Rules between fields stay
 * a small hand-written check beside the table.
 *
 * Pure: imports nothing.
 */

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
  /**
   * The start of the message for a wrong value where the kind's words do not fit ("A seed must be a whole number from
   * 0 to 4294967295"): the message is it, then "; got VALUE.".
   */
  must?: string;
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

/** A whole number in [min, max]. */
export interface IntField extends FieldBase {
  kind: 'int';
  min: number;
  max: number;
  default: number;
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
  return 'error' in r && f.must ? { error: `${f.must}; got ${json(x)}.` } : r;
}

/** Whether `x` is a valid value of the field's kind and bounds (undefined: it is not), without a message. */
export function fieldValue(f: SettingField, x: unknown): { value: unknown } | undefined {
  const r = checkKind(f, x);
  return 'error' in r ? undefined : r;
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
      const below = f.kind === 'number' && f.below === true;
      if (typeof x === 'number' && Number.isFinite(x) && (!int || Number.isInteger(x)) && (above ? x > f.min : x >= f.min) && (below ? x < f.max : x <= f.max))
        return { value: x };
      return {
        error: `Must be ${int ? 'a whole number' : 'a number'} ${above ? `above ${f.min}` : `from ${f.min}`} ${below ? 'to below' : 'to'} ${f.max}; got ${json(x)}.`,
      };
    }
    case 'bool':
      if (typeof x === 'boolean') return { value: x };
      return { error: `Must be true or false; got ${json(x)?.slice(0, 40)}.` };
    case 'list':
      if (Array.isArray(x) && x.length > 0 && x.every((p) => (f.options as readonly unknown[]).includes(p)) && new Set(x).size === x.length)
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
      return `one or more of ${f.options.join(', ')}, comma-separated`;
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
