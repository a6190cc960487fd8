// The Your-classes section, checked by its settings table (src/core/labs/own-classes/settings.ts), answers as the
// hand-written checker did: the same errors (paths, messages, order) and, for valid configs, the same configHash,
// compact form and key order. The fixture was recorded with the hand-written checker (its note says which commit); an
// unknown key's message lists the known ones, which a row added later joins at the end.
import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/own-classes-section-checks.json';
import { compactConfig } from '../../../../src/core/config/canonical';
import { validateConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';
import { OWN_CLASSES_SETTINGS } from '../../../../src/core/labs/own-classes/settings';

const V1_KEYS = '"classes", "trainPerClass", "testPerClass", "strategy", "seed", "encoder", "fps", "names"';
const KEYS = Object.keys(OWN_CLASSES_SETTINGS)
  .map((k) => `"${k}"`)
  .join(', ');
const known = (errors: unknown[]) =>
  (errors as { path: string; message: string }[]).map((e) => ({ ...e, message: e.message.replace(`here are ${V1_KEYS}.`, `here are ${KEYS}.`) }));

describe('the Your-classes section by its table', () => {
  for (const row of fixture.cases as { in: Record<string, unknown>; errors: unknown[]; hash?: string; compact?: unknown; section?: string }[]) {
    it(`answers as before: ${JSON.stringify(row.in).slice(0, 90)}`, () => {
      const v = validateConfig({ version: 1, ...row.in });
      expect(v.errors).toEqual(known(row.errors));
      if (row.hash === undefined) return;
      expect(configHash(v.config!)).toBe(row.hash);
      expect(compactConfig(v.config!)).toEqual(row.compact);
      expect(JSON.stringify(v.config!.ownClasses)).toBe(row.section);
    });
  }
});
