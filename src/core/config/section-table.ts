/**
 * A config section checked by its lab's settings table (./settings-table.ts) in the config checker's words
 * (./checker.ts): unknown keys with the known ones and a "Did you mean", a whole number, a number in [a, b] or (a, b),
 * quoted choices with a "Did you mean", a field's own message (`message`), each at its path. A wrong value is one
 * error and takes its default (the v1 fill-in); an optional field (`absent`) missing or equal to its absent value is
 * left out, so a config that does not use it keeps its compact form and hash. The sections of the Ground-truth and
 * Forgetting labs are checked here: their messages are the ones these sections always gave.
 *
 * Layering: pure TS, imports only src/core.
 */
import { join, type Checker } from './checker';
import { checkFieldsIn, settingsDefaults, type SettingsOf, type SettingsTable } from './settings-table';

/**
 * An object of `table`'s fields at `path`: its keys must be the table's (and so must a group's, checked right after
 * its parent's, before the parent's fields).
 */
function objectAt(c: Checker, table: SettingsTable, v: unknown, path: string): Record<string, unknown> {
  const o = { ...c.object(v, path, Object.keys(table)) };
  for (const [k, f] of Object.entries(table)) if (f.kind === 'group') o[k] = objectAt(c, f.fields, o[k], join(path, k));
  return o;
}

/**
 * The section `v` at `path` (`"groundTruth"`) checked by `table`: its keys must be the table's, then each field in the
 * config checker's words (settings-table.ts `checkFieldsIn`). The settings, filled (in the table's key order); an
 * optional field present only where given and not its absent value. `order`: the order the fields are checked (and
 * their errors listed) in, where it is not the table's.
 */
export function checkTableSection<T extends SettingsTable>(
  c: Checker,
  table: T,
  v: unknown,
  path: string,
  order?: readonly (keyof T & string)[],
): SettingsOf<T> {
  const out = settingsDefaults(table);
  checkFieldsIn(c, table, objectAt(c, table, v, path), path, out, order);
  return out;
}
