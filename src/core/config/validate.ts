/**
 * validateConfig, the one gate every config passes through (a link, a file, the UI): each section of
 * sections/index.ts checked in turn, then the rules across sections.
 *
 * Layering: pure TS, imports only src/core.
 */
import { Checker, isPlainObject, show } from './checker';
import { LAB_FACTS, SECTIONS, SECTION_KEYS, type Checked, type ConfigSection, type SectionKey } from './sections';
import { CONFIG_VERSION, ConfigError, type ConfigIssue, type ConfigValidation, type ExperimentConfig } from './types';

const TOP_LEVEL: readonly string[] = ['version', ...SECTION_KEYS];

/**
 * Check every field of a config (from a link, a file or the UI), fill missing fields with their v1 fill-ins
 * (see the compatibility rule at the top of schema.ts), and normalise (classes ascending, protocols in
 * PROTOCOL_IDS order, redundant prompt settings dropped). Never throws.
 */
export function validateConfig(input: unknown): ConfigValidation {
  const c = new Checker();
  if (!isPlainObject(input)) {
    c.error('', `An experiment config must be a JSON object ({…}); got ${show(input)}.`);
    return { config: validateConfig({}).config, errors: c.errors, warnings: [] };
  }
  c.object(input, '', TOP_LEVEL);
  if (input.version !== undefined && input.version !== CONFIG_VERSION) {
    const v = input.version;
    c.error(
      'version',
      typeof v === 'number' && Number.isInteger(v) && v > CONFIG_VERSION
        ? `This config was made by a newer CIL Lab (v${v}); this version reads v${CONFIG_VERSION} configs.`
        : `Must be ${CONFIG_VERSION}; got ${show(v)}.`,
    );
  }
  const config: Partial<ExperimentConfig> = { version: CONFIG_VERSION };
  const clean = new Set<SectionKey>();
  const checked: Checked = { labs: LAB_FACTS, config, clean: (key) => clean.has(key) };
  for (const key of SECTION_KEYS) {
    const before = c.errors.length;
    const section = SECTIONS[key] as ConfigSection<SectionKey>;
    (config as Record<SectionKey, unknown>)[key] = section.check(c, input[key], checked);
    if (c.errors.length === before) clean.add(key);
  }
  const full = config as ExperimentConfig;
  for (const key of SECTION_KEYS) (SECTIONS[key] as ConfigSection<SectionKey>).crossCheck?.(c, full, checked);
  return { config: full, errors: c.errors, warnings: c.warnings };
}

/** The app's default experiment: every field at its v1 fill-in (the Orderings page default). */
export function defaultConfig(): ExperimentConfig {
  return validateConfig({}).config;
}

/** validateConfig, throwing a ConfigError that lists every problem. */
export function assertValidConfig(input: unknown, what = 'The experiment config'): ExperimentConfig {
  const { config, errors } = validateConfig(input);
  if (errors.length > 0) throw new ConfigError(`${what} is invalid: ${formatIssues(errors)}`, errors);
  return config;
}

/** "a.b: message; c: message" (at most `max` listed, then "and N more"). */
export function formatIssues(issues: readonly ConfigIssue[], max = 10): string {
  const shown = issues.slice(0, max).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > max ? ` … and ${issues.length - max} more.` : '';
  return shown.join(' ') + more;
}
