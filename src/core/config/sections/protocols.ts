/**
 * The Orderings lab's section: which protocols run, with their seeds and sample sizes (docs/science.md §1).
 */
import { PROTOCOL_IDS } from '../../protocols/types';
import { Checker, list, show } from '../checker';
import { CONFIG_LIMITS, V1_FILL } from '../defaults';
import type { ProtocolsConfig } from '../types';
import type { ConfigSection } from './section';

function protocolsOf(c: Checker, v: unknown): ProtocolsConfig {
  const f = V1_FILL.protocols;
  const o = c.object(v, 'protocols', ['enabled', 'rsSeeds', 'medianSeed', 'msSamples', 'msSeed', 'exactLimit', 'distribution']);
  let enabled = f.enabled.slice();
  if (o.enabled !== undefined) {
    const arr = c.array(o.enabled, 'protocols.enabled', 0, PROTOCOL_IDS.length);
    if (arr) {
      const before = c.errors.length;
      const seen = new Set<string>();
      arr.forEach((p, i) => {
        if (typeof p !== 'string' || !(PROTOCOL_IDS as readonly string[]).includes(p)) {
          c.error(`protocols.enabled[${i}]`, `Must be one of ${list(PROTOCOL_IDS)}; got ${show(p)}.`);
        } else if (seen.has(p)) c.error(`protocols.enabled[${i}]`, `Protocol "${p}" is listed twice.`);
        else seen.add(p);
      });
      if (c.errors.length === before) enabled = PROTOCOL_IDS.filter((p) => seen.has(p));
    }
  }
  const rsSeeds = c.seeds(o.rsSeeds, 'protocols.rsSeeds', 0, CONFIG_LIMITS.rsSeeds, f.rsSeeds);
  if (enabled.includes('rs') && rsSeeds.length === 0) c.error('protocols.rsSeeds', 'RS is enabled: give at least one RS seed (for example 0, 42, 1993).');
  const d = c.object(o.distribution, 'protocols.distribution', ['sampleSize', 'seed']);
  return {
    enabled,
    rsSeeds,
    medianSeed: c.seed(o.medianSeed, 'protocols.medianSeed', f.medianSeed),
    msSamples: c.int(o.msSamples, 'protocols.msSamples', 1, 1_000_000, f.msSamples),
    msSeed: c.seed(o.msSeed, 'protocols.msSeed', f.msSeed),
    exactLimit: c.int(o.exactLimit, 'protocols.exactLimit', 1, 100_000_000, f.exactLimit),
    distribution: {
      sampleSize: c.int(d.sampleSize, 'protocols.distribution.sampleSize', 1, 10_000_000, f.distribution.sampleSize),
      seed: c.seed(d.seed, 'protocols.distribution.seed', f.distribution.seed),
    },
  };
}

export const protocolsSection: ConfigSection<'protocols'> = { check: protocolsOf };
