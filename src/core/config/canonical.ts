/**
 * The canonical and compact forms of a config: key-sorted JSON (equal configs give equal text) and the config with
 * every field equal to its fill-in removed (rule 6 of the compatibility rule in schema.ts), which links and
 * configHash are made of.
 *
 * Layering: pure TS, imports only src/core.
 */
import { isPlainObject } from './checker';
import { ConfigError, type ExperimentConfig } from './types';
import { formatIssues, validateConfig } from './validate';

/** JSON with object keys sorted at every depth (arrays keep their order): equal configs give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isPlainObject(v)) {
    return Object.fromEntries(
      Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}

/** Records whose entries are data, not fields with fill-ins: never compacted entry by entry. */
const ATOMIC_KEYS = new Set(['pins', 'descriptions']);

/**
 * The config with every field that equals its fill-in removed (rule 6 of the compatibility rule): what links and
 * configHash are made of. By construction `validateConfig(compactConfig(c)).config` equals `c`: each removal is
 * kept only if re-validation restores the same config, so the compact form is exactly as expressive as the full
 * one. Deterministic: the input is normalised first and walked in a fixed key order.
 */
export function compactConfig(config: ExperimentConfig): Record<string, unknown> {
  const checked = validateConfig(config);
  if (checked.errors.length > 0) throw new ConfigError(`Cannot compact an invalid config: ${formatIssues(checked.errors)}`, checked.errors);
  const target = canonicalJson(checked.config);
  const work = JSON.parse(canonicalJson(checked.config)) as Record<string, unknown>;
  const restores = (): boolean => {
    const r = validateConfig(work);
    return r.errors.length === 0 && canonicalJson(r.config) === target;
  };
  const visit = (obj: Record<string, unknown>): void => {
    for (const key of Object.keys(obj)) {
      const saved = obj[key];
      delete obj[key];
      if (restores()) continue;
      obj[key] = saved;
      if (ATOMIC_KEYS.has(key)) continue;
      if (isPlainObject(saved)) visit(saved);
      else if (Array.isArray(saved)) for (const el of saved) if (isPlainObject(el)) visit(el);
    }
  };
  visit(work);
  return JSON.parse(canonicalJson(work)) as Record<string, unknown>;
}
