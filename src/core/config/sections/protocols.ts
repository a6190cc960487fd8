/**
 * The Orderings lab's section: which protocols run, with their seeds and sample sizes (docs/science.md §1).
 */
import { PROTOCOL_IDS } from '../../protocols/types';
import { Checker, list, show } from '../checker';
import { V1_FILL } from '../defaults';
import { CONFIG_LIMITS, distributionSampleLimit, grouped, sampledOrderingBytes } from '../limits';
import type { ProtocolsConfig } from '../types';
import type { Checked, ConfigSection } from './section';

/** "about 2.4 KB" */
function aboutBytes(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toPrecision(2)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(2)} MB`;
  return `${+(bytes / 1e3).toPrecision(2)} KB`;
}

/**
 * The distribution sample's size, bounded by CONFIG_LIMITS.distributionSample and, for many classes and tasks, by
 * the memory the drawn orderings keep (limits.ts) — the bound said in the message (a link asking for
 * 10^7 orderings of 30 classes in 30 tasks grew the worker past 5 GB and crashed the tab).
 */
function sampleSizeOf(c: Checker, v: unknown, fill: number, before: Checked): number {
  const path = 'protocols.distribution.sampleSize';
  const { classes, taskSizes } = before.config;
  const known = classes !== undefined && taskSizes !== undefined && before.clean('classes') && before.clean('taskSizes');
  const n = known ? classes.length : 0;
  const k = known ? taskSizes.length : 0;
  const limit = known ? distributionSampleLimit(n, k) : CONFIG_LIMITS.distributionSample;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= limit) return c.int(v, path, 1, limit, fill);
  const each = known ? sampledOrderingBytes(n, k) : 0;
  const perOrdering = known ? ` (about ${aboutBytes(each)} each for ${n} classes in ${k} tasks, so ${grouped(v)} would need ${aboutBytes(each * v)})` : '';
  c.error(
    path,
    limit === CONFIG_LIMITS.distributionSample
      ? `At most ${grouped(limit)} orderings can be sampled: each drawn ordering is kept in memory until the histogram of S is made${perOrdering}, and the histogram's 40 bins gain nothing from more; got ${show(v)}.`
      : `At most ${grouped(limit)} orderings can be sampled for ${n} classes in ${k} tasks: each drawn ordering is kept in memory until the histogram of S is made (about ${aboutBytes(each)} each), and the sample must stay within ${aboutBytes(CONFIG_LIMITS.distributionSampleBytes)} of the tab; got ${show(v)}.`,
  );
  return fill;
}

function protocolsOf(c: Checker, v: unknown, before: Checked): ProtocolsConfig {
  const f = V1_FILL.protocols;
  const o = c.object(v, 'protocols', ['enabled', 'rsSeeds', 'medianSeed', 'msSamples', 'msSeed', 'exactLimit', 'distribution']);
  const known = (p: string) => (PROTOCOL_IDS as readonly string[]).includes(p);
  const unknown = (p: unknown) => `Must be one of ${list(PROTOCOL_IDS)}; got ${show(p)}.`;
  const ids =
    o.enabled === undefined
      ? undefined
      : c.distinctStrings(o.enabled, 'protocols.enabled', PROTOCOL_IDS.length, known, unknown, (p) => `Protocol "${p}" is listed twice.`);
  const enabled = ids ? PROTOCOL_IDS.filter((p) => ids.has(p)) : f.enabled.slice();
  const rsSeeds = c.seeds(o.rsSeeds, 'protocols.rsSeeds', 0, CONFIG_LIMITS.rsSeeds, f.rsSeeds);
  if (enabled.includes('rs') && rsSeeds.length === 0) c.error('protocols.rsSeeds', 'RS is enabled: give at least one RS seed (for example 0, 42, 1993).');
  const d = c.object(o.distribution, 'protocols.distribution', ['sampleSize', 'seed']);
  return {
    enabled,
    rsSeeds,
    medianSeed: c.seed(o.medianSeed, 'protocols.medianSeed', f.medianSeed),
    msSamples: c.int(o.msSamples, 'protocols.msSamples', 1, CONFIG_LIMITS.msSamples, f.msSamples),
    msSeed: c.seed(o.msSeed, 'protocols.msSeed', f.msSeed),
    exactLimit: c.int(o.exactLimit, 'protocols.exactLimit', 1, CONFIG_LIMITS.exactLimit, f.exactLimit),
    distribution: {
      sampleSize: sampleSizeOf(c, d.sampleSize, f.distribution.sampleSize, before),
      seed: c.seed(d.seed, 'protocols.distribution.seed', f.distribution.seed),
    },
  };
}

export const protocolsSection: ConfigSection<'protocols'> = { check: protocolsOf };
