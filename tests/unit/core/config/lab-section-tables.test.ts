// The Ground-truth and Forgetting labs' sections, checked by their settings tables (src/core/labs/ground-truth/settings.ts,
// src/core/labs/forgetting/settings.ts), answer as the hand-written checkers did: the same errors (paths, messages, order)
// and, for valid configs, the same configHash, compact form and key order. The fixture was recorded with the
// hand-written checkers (its note says which commit).
import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/lab-section-checks.json';
import { compactConfig } from '../../../../src/core/config/canonical';
import { validateConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';

describe('the Ground-truth and Forgetting sections by their tables', () => {
  for (const row of fixture.cases as { in: Record<string, unknown>; errors: unknown[]; hash?: string; compact?: unknown; sections?: string }[]) {
    it(`answers as before: ${JSON.stringify(row.in).slice(0, 90)}`, () => {
      const v = validateConfig({ version: 1, ...row.in });
      expect(v.errors).toEqual(row.errors);
      if (row.hash === undefined) return;
      expect(configHash(v.config!)).toBe(row.hash);
      expect(compactConfig(v.config!)).toEqual(row.compact);
      expect(JSON.stringify([v.config!.groundTruth, v.config!.conformal, v.config!.forgetting])).toBe(row.sections);
    });
  }
});
