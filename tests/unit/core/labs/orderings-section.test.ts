// The Orderings lab's section `protocols`, checked by its settings table (src/core/labs/orderings/settings.ts,
// ./section.ts), answers as the hand-written checker did: the same errors (paths, messages, order) and, for valid
// configs, the same configHash and section. The fixture was recorded with the hand-written checker (its note says
// which commit), on hand-picked and generated configs, valid and invalid. An unknown key's message lists the known
// ones, which a row added later joins at the end.
import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/protocols-section-checks.json';
import { validateConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';
import { V1_FILL } from '../../../../src/core/config/defaults';
import { PROTOCOLS_SETTINGS } from '../../../../src/core/labs/orderings/settings';

const V1_KEYS = '"enabled", "rsSeeds", "medianSeed", "msSamples", "msSeed", "exactLimit", "distribution"';
const KEYS = Object.keys(PROTOCOLS_SETTINGS)
  .map((k) => `"${k}"`)
  .join(', ');
const withKeys = (errors: unknown[]) =>
  (errors as { path: string; message: string }[]).map((e) => ({ ...e, message: e.message.replace(`here are ${V1_KEYS}.`, `here are ${KEYS}.`) }));

describe('the protocols section by its table', () => {
  const rows = fixture.cases as { in: Record<string, unknown>; errors: unknown[]; hash?: string; protocols?: string }[];

  it(`answers as before on ${rows.length} recorded configs`, () => {
    expect(rows.length).toBeGreaterThan(350);
    for (const row of rows) {
      const v = validateConfig({ version: 1, ...row.in });
      const name = JSON.stringify(row.in).slice(0, 120);
      expect(v.errors, name).toEqual(withKeys(row.errors));
      if (row.hash === undefined) continue;
      expect(configHash(v.config), name).toBe(row.hash);
      expect(JSON.stringify(v.config.protocols), name).toBe(row.protocols);
    }
  });

  it('fills a link without the section with the table’s defaults, in the section’s key order', () => {
    // (the frozen values themselves: tests/unit/core/config/schema.test.ts FROZEN_V1_DEFAULT)
    const v1 = Object.entries(PROTOCOLS_SETTINGS).flatMap(([k, f]) => ('absent' in f ? [] : [k]));
    expect(Object.keys(validateConfig({ version: 1 }).config.protocols)).toEqual(v1);
    expect(V1_FILL.protocols).toEqual(validateConfig({ version: 1 }).config.protocols);
  });
});
