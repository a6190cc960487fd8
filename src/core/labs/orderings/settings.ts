/**
 * The Orderings lab's own settings (docs/science.md §1), its config section `protocols`: which protocols run, with
 * their seeds and sample sizes, each declared once (src/core/config/settings-table.ts): the type, the v1 fill-ins, the
 * link's checks (in the config checker's words, ./section.ts), the controls' bounds and words come from here. Other
 * labs read the section too (the Ground-truth lab's plan takes the RS seeds and the median seed). Its other settings
 * (dataset, classes, task sizes, similarity) are the experiment's common sections. The order is the section's key
 * order: a new field goes last, with `absent` (the value that means what links made before it meant).
 *
 * `cil-lab orders` reads `--protocol` (a list or `all`), `--seeds` (a list or ranges) and `--exact-limit` with its
 * own readers; the rows name those flags.
 *
 * Pure data: imports only the table mechanism, the checker's seed words, the bounds and the protocol ids.
 */
import { UINT32_MAX, type Checker } from '../../config/checker';
import { CONFIG_LIMITS } from '../../config/limits';
import { settingsDefaults, settingsGroup, settingsTable, type SettingsOf } from '../../config/settings-table';
import { PROTOCOL_IDS } from '../../protocols/ids';

/** A seed (numpy's accepted range), in the checker's words. */
const seed = (label: string) =>
  ({
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    default: 0,
    label,
    message: (got: string) => `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${got}.`,
  }) as const;

/** A list of distinct seeds, in the checker's words (each wrong entry at its index). */
function seedsIn(c: Checker, x: unknown, at: string): { value: unknown } | undefined {
  const before = c.errors.length;
  const value = c.seeds(x, at, 0, CONFIG_LIMITS.rsSeeds, []);
  return c.errors.length > before ? undefined : { value };
}

export const PROTOCOLS_SETTINGS = settingsTable({
  /** the protocols to run, kept in PROTOCOL_IDS order whatever order a link lists them in (./section.ts) */
  enabled: {
    kind: 'list',
    options: PROTOCOL_IDS,
    item: 'protocol',
    minLength: 0,
    default: PROTOCOL_IDS,
    label: 'Protocols',
    flag: 'protocol',
    twice: (p) => `Protocol "${p}" is listed twice.`,
  },
  /** RS seeds (numpy legacy RandomState) */
  rsSeeds: {
    kind: 'ints',
    maxLength: CONFIG_LIMITS.rsSeeds,
    min: 0,
    max: UINT32_MAX,
    items: 'seeds',
    default: [0, 42, 1993],
    label: 'RS seeds',
    flag: 'seeds',
    checkIn: seedsIn,
  },
  /** seed of EDGE's random "median" ordering (numpy default_rng) */
  medianSeed: seed('Median seed'),
  /** MS baseline: random orderings drawn, and their seed */
  msSamples: { kind: 'int', min: 1, max: CONFIG_LIMITS.msSamples, default: 200, label: 'MS samples' },
  msSeed: seed('MS seed'),
  /** largest |Ω| enumerated (exact extremes, and the exact histogram of S over Ω) */
  exactLimit: { kind: 'int', min: 1, max: CONFIG_LIMITS.exactLimit, default: 1_000_000, label: 'Exact limit', flag: 'exact-limit' },
  /**
   * When |Ω| > exactLimit, the histogram of S is drawn from this many uniform orderings with this seed. The sample's
   * size is bounded by memory for many classes and tasks too (./section.ts, after the classes and task sizes).
   */
  distribution: settingsGroup(
    {
      sampleSize: { kind: 'int', min: 1, max: CONFIG_LIMITS.distributionSample, default: 20_000, label: 'Distribution sample' },
      seed: seed('Distribution seed'),
    },
    { label: 'Histogram of S' },
  ),
});

/** Which protocols the Orderings lab runs, with their seeds and sample sizes. */
export type ProtocolsSettings = SettingsOf<typeof PROTOCOLS_SETTINGS>;

/** The v1 fill-in (frozen): every protocol, RS seeds 0, 42, 1993, the rest as the rows say. */
export const PROTOCOLS_FILL: ProtocolsSettings = settingsDefaults(PROTOCOLS_SETTINGS);
