/**
 * The Time lab's section (docs/science.md §7): the drifting stream, the protocols, the training mode and buffer.
 * The settings, their defaults and their checks live with the lab's science in src/core/stream/config.ts; this
 * section carries them in the experiment config (so in the share link and the CLI's config file).
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had no Time settings, so a config
 * without it means "the lab's defaults", and settings equal to the defaults are checked to `undefined`: compactConfig
 * and configHash of every config that does not use the lab stay as they were. Read it with `timeOf(config)`.
 */
import { defaultTimeLabConfig, validateTimeLabConfig, type TimeLabConfig } from '../../stream/config';
import type { ConfigSection } from './section';

export type { TimeLabConfig };

/** The Time lab's settings of a config: its own, or the lab's defaults. */
export function timeOf(config: { time?: TimeLabConfig }): TimeLabConfig {
  return structuredClone(config.time ?? defaultTimeLabConfig());
}

export const timeSection: ConfigSection<'time'> = {
  check(c, v): TimeLabConfig | undefined {
    if (v === undefined) return undefined;
    const { value, issues } = validateTimeLabConfig(v);
    for (const i of issues) c.error(i.path ? `time.${i.path}` : 'time', i.message);
    if (!value) return undefined;
    // (validateTimeLabConfig builds its value from the defaults' object, so both list their keys in one order)
    return JSON.stringify(value) === JSON.stringify(defaultTimeLabConfig()) ? undefined : value;
  },
};
