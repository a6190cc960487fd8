/**
 * The Open-world lab's section (docs/science.md §5). Two forms:
 * - `{ from: 'experiment', orderSeed, detectors, oodSets, headEpochs, marginIn, marginOut }` (what the app writes):
 *   the lab's own part; its ID data, strategy and training are the experiment's common sections
 *   (src/core/ood/experiment.ts);
 * - the full settings (src/core/labs/open-world/settings.ts `OpenWorldSettings`), as links made before the lab moved onto the
 *   common sections carry them: they keep opening to the same numbers.
 *
 * Compatibility (schema.ts rule 2): the field is optional; absent means the lab's defaults, and full settings equal
 * to the defaults are checked to `undefined`, so compactConfig and configHash of a config that does not use the lab
 * stay as they were. Read it with the lab entry's `view(config)` (src/core/labs/open-world/index.ts).
 */
import {
  OPEN_WORLD_COMMON,
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_SETTINGS,
  openWorldIssues,
  openWorldKey,
  validateOpenWorldSettings,
  withOpenWorldDefaults,
  type OpenWorldSettings,
} from './settings';
import { OPEN_WORLD_OWN_KEYS, openWorldOwnOf, type OpenWorldOwn } from '../../ood/experiment';
import type { Checker } from '../../config/checker';
import { readOwnForm } from '../../config/lab-training';
import { checkSettingsIn } from '../../config/settings-table';
import type { ConfigSection } from '../../config/sections/section';

export type { OpenWorldOwn, OpenWorldSettings };

export const openWorldSection: ConfigSection<'openWorld'> = {
  check(c, v): OpenWorldSettings | OpenWorldOwn | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && 'from' in v) return checkOwn(c, v);
    // each field in the config's words (OPEN_WORLD_SETTINGS), then the lab's checks on the whole
    const o = c.object(v, 'openWorld', Object.keys(OPEN_WORLD_SETTINGS));
    const s = checkSettingsIn(c, OPEN_WORLD_SETTINGS, o, 'openWorld', withOpenWorldDefaults({}));
    for (const message of validateOpenWorldSettings(s)) c.error('openWorld', message);
    return openWorldKey(s) === openWorldKey(OPEN_WORLD_DEFAULTS) && s.seeds === undefined ? undefined : s;
  },
};

/** The own form checks its numbers before its lists (the order its errors are listed in). */
const LISTS = ['detectors', 'oodSets'];

/** The lab's own part: its fields in the config's words, then the lab's checks on them (the rest is the common sections'). */
function checkOwn(c: Checker, v: object): OpenWorldOwn | undefined {
  const o = readOwnForm(c, v, 'openWorld', OPEN_WORLD_OWN_KEYS, OPEN_WORLD_COMMON, 'ID data, strategy and training');
  if (!o) return undefined;
  const part = (lists: boolean) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'from' && LISTS.includes(k) === lists));
  const numbers = checkSettingsIn(c, OPEN_WORLD_SETTINGS, part(false), 'openWorld', withOpenWorldDefaults({}));
  const own = openWorldOwnOf(checkSettingsIn(c, OPEN_WORLD_SETTINGS, part(true), 'openWorld', numbers));
  // the lab's rules on its own fields (those on the ID data are the page's and the CLI's: the common sections may
  // belong to another lab's experiment when the link was made elsewhere)
  const issues = openWorldIssues(withOpenWorldDefaults({ ...own, from: undefined } as Partial<OpenWorldSettings>));
  for (const i of issues)
    if (!(i.field in OPEN_WORLD_COMMON) && !(i.field === 'oodSets' && /ID classes|ID dataset/.test(i.message))) c.error(`openWorld.${i.field}`, i.message);
  return own;
}
