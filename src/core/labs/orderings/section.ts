/**
 * The Orderings lab's section, `protocols` (docs/science.md §1): which protocols run, with their seeds and sample
 * sizes. Its fields are checked by the lab's settings table (./settings.ts) in the config checker's words; what is
 * the section's own is here: RS needs a seed, and the distribution sample's size is bounded by the classes and task
 * sizes checked before it. It is checked among the common sections (src/core/config/sections/index.ts), where it
 * always was: other labs read it, and a link's errors are listed in check order.
 */
import { PROTOCOLS_SETTINGS as P, type ProtocolsSettings } from './settings';
import { show, type Checker } from '../../config/checker';
import { CONFIG_LIMITS, distributionSampleLimit, grouped, sampledOrderingBytes } from '../../config/limits';
import { checkFieldsIn, settingsDefaults } from '../../config/settings-table';
import type { Checked, ConfigSection } from '../../config/sections/section';
import { PROTOCOL_IDS } from '../../protocols/ids';

/** "about 2.4 KB" */
function aboutBytes(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toPrecision(2)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(2)} MB`;
  return `${+(bytes / 1e3).toPrecision(2)} KB`;
}

/**
 * The distribution sample's size, bounded by its row (CONFIG_LIMITS.distributionSample) and, for many classes and
 * tasks, by the memory the drawn orderings keep (limits.ts) — the bound said in the message (a link asking for
 * 10^7 orderings of 30 classes in 30 tasks grew the worker past 5 GB and crashed the tab).
 */
function sampleSizeOf(c: Checker, v: unknown, before: Checked): number {
  const row = P.distribution.fields.sampleSize;
  const path = 'protocols.distribution.sampleSize';
  const { classes, taskSizes } = before.config;
  const known = classes !== undefined && taskSizes !== undefined && before.clean('classes') && before.clean('taskSizes');
  const n = known ? classes.length : 0;
  const k = known ? taskSizes.length : 0;
  const limit = known ? distributionSampleLimit(n, k) : row.max;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= limit) return c.int(v, path, row.min, limit, row.default);
  const each = known ? sampledOrderingBytes(n, k) : 0;
  const perOrdering = known ? ` (about ${aboutBytes(each)} each for ${n} classes in ${k} tasks, so ${grouped(v)} would need ${aboutBytes(each * v)})` : '';
  c.error(
    path,
    limit === row.max
      ? `At most ${grouped(limit)} orderings can be sampled: each drawn ordering is kept in memory until the histogram of S is made${perOrdering}, and the histogram's 40 bins gain nothing from more; got ${show(v)}.`
      : `At most ${grouped(limit)} orderings can be sampled for ${n} classes in ${k} tasks: each drawn ordering is kept in memory until the histogram of S is made (about ${aboutBytes(each)} each), and the sample must stay within ${aboutBytes(CONFIG_LIMITS.distributionSampleBytes)} of the tab; got ${show(v)}.`,
  );
  return row.default;
}

/** The fields of v1, in the order they were always checked (a link's errors are listed in it). */
const V1_ORDER = ['enabled', 'rsSeeds', 'medianSeed', 'msSamples', 'msSeed', 'exactLimit', 'distribution'];

/**
 * The section checked in the order it always was: the known keys, the protocols and RS seeds with the rule between
 * them, the distribution's known keys, the other fields, then the distribution's; then any field added since, in the
 * table's order.
 */
function protocolsOf(c: Checker, v: unknown, before: Checked): ProtocolsSettings {
  const out = settingsDefaults(P);
  const o = c.object(v, 'protocols', Object.keys(P));
  checkFieldsIn(c, P, o, 'protocols', out, ['enabled', 'rsSeeds']);
  // a link may list the protocols in any order; they run (and are kept) in the protocols' order
  out.enabled = PROTOCOL_IDS.filter((p) => out.enabled.includes(p));
  if (out.enabled.includes('rs') && out.rsSeeds.length === 0)
    c.error('protocols.rsSeeds', 'RS is enabled: give at least one RS seed (for example 0, 42, 1993).');
  const d = c.object(o.distribution, 'protocols.distribution', Object.keys(P.distribution.fields));
  checkFieldsIn(c, P, o, 'protocols', out, ['medianSeed', 'msSamples', 'msSeed', 'exactLimit']);
  out.distribution.sampleSize = sampleSizeOf(c, d.sampleSize, before);
  checkFieldsIn(c, P.distribution.fields, d, 'protocols.distribution', out.distribution, ['seed']);
  checkFieldsIn(
    c,
    P,
    o,
    'protocols',
    out,
    (Object.keys(P) as (keyof typeof P)[]).filter((k) => !V1_ORDER.includes(k)),
  );
  return out;
}

export const protocolsSection: ConfigSection<'protocols'> = { check: protocolsOf };
