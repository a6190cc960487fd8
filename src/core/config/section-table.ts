/**
 * A config section checked by its lab's settings table (./settings-table.ts) in the config checker's words
 * (./checker.ts): unknown keys with the known ones and a "Did you mean", a whole number, a number in [a, b] or (a, b),
 * quoted choices with a "Did you mean", a field's own message start (`must`), each at its path. A wrong value is one
 * error and takes its default (the v1 fill-in); an optional field (`absent`) missing or equal to its absent value is
 * left out, so a config that does not use it keeps its compact form and hash. The sections of the Ground-truth and
 * Forgetting labs are checked here: their messages are the ones these sections always gave.
 *
 * Layering: pure TS, imports only src/core.
 */
import { join, list, show, suggestion, type Checker } from './checker';
import { checkField, fieldValue, settingsDefaults, type SettingField, type SettingsOf, type SettingsTable } from './settings-table';

/** One field's value at `path`: its default when missing or wrong (the wrong one an error). */
function fieldAt(c: Checker, f: SettingField, x: unknown, path: string): unknown {
  const fill = 'absent' in f ? f.absent : f.default;
  if (f.kind === 'group') return fieldsOf(c, f.fields, x as Record<string, unknown>, path);
  if (x === undefined) return fill;
  if (f.must) {
    if (fieldValue(f, x) === undefined) {
      c.error(path, `${f.must}; got ${show(x)}.`);
      return fill;
    }
    return x;
  }
  switch (f.kind) {
    case 'int':
      return c.int(x, path, f.min, f.max, fill as number);
    case 'number':
      return c.num(x, path, { min: f.min, max: f.max, exclusiveMin: f.above, exclusiveMax: f.below }, fill as number);
    case 'bool':
      return c.bool(x, path, fill as boolean);
    case 'choice':
      if (!f.orNull) return c.choice(x, path, f.options, fill as string);
      if (x === null || (typeof x === 'string' && (f.options as readonly string[]).includes(x))) return x;
      c.error(path, `Must be one of ${list(f.options)}, or null (${f.orNull}); got ${show(x)}.${typeof x === 'string' ? suggestion(x, f.options) : ''}`);
      return fill;
    default: {
      // lists and values of their own shape: the table's own message
      const r = checkField(f, x);
      if ('error' in r) {
        c.error(path, r.error);
        return fill;
      }
      return r.value;
    }
  }
}

/**
 * An object of `table`'s fields at `path`: its keys must be the table's (and so must a group's, checked right after
 * its parent's, before the parent's fields), then each field, in `order` (the table's unless given).
 */
function objectAt(c: Checker, table: SettingsTable, v: unknown, path: string): Record<string, unknown> {
  const o = { ...c.object(v, path, Object.keys(table)) };
  for (const [k, f] of Object.entries(table)) if (f.kind === 'group') o[k] = objectAt(c, f.fields, o[k], join(path, k));
  return o;
}

function fieldsOf(
  c: Checker,
  table: SettingsTable,
  o: Record<string, unknown>,
  path: string,
  order: readonly string[] = Object.keys(table),
): Record<string, unknown> {
  const out: Record<string, unknown> = settingsDefaults(table);
  for (const k of order) {
    const f = table[k];
    const x = fieldAt(c, f, o[k], join(path, k));
    if ('absent' in f) {
      if (o[k] !== undefined && JSON.stringify(x) !== JSON.stringify(f.absent)) out[k] = x;
    } else out[k] = x;
  }
  return out;
}

/**
 * The section `v` at `path` (`"groundTruth"`) checked by `table`: its keys must be the table's, each field its kind
 * and bounds. The settings, filled (in the table's key order); an optional field present only where given and not its
 * absent value. `order`: the order the fields are checked (and their errors listed) in, where it is not the table's.
 */
export function checkTableSection<T extends SettingsTable>(
  c: Checker,
  table: T,
  v: unknown,
  path: string,
  order?: readonly (keyof T & string)[],
): SettingsOf<T> {
  return fieldsOf(c, table, objectAt(c, table, v, path), path, order) as SettingsOf<T>;
}
