/**
 * The Time lab's section (docs/science.md §7): the drifting stream, the protocols, the training mode and buffer. Two
 * forms:
 * - `{ from: 'experiment', stream, buckets, … }` (what the app writes): the lab's own part; its network (`model`),
 *   epochs, learning rate and batch size (`training`) and seeds (`seeds`) are the experiment's common sections
 *   (`timeFromExperiment`, `foldTime` below);
 * - the full settings (src/core/labs/time/settings.ts `TimeLabConfig`), as links made before the lab moved onto the
 *   common sections carry them: they keep opening to the same numbers.
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had no Time settings, so a config
 * without it means "the lab's defaults", and full settings equal to the defaults are checked to `undefined`:
 * compactConfig and configHash of every config that does not use the lab stay as they were. Read it with
 * the lab entry's `view(config)` (src/core/labs/time/index.ts).
 */
import { defaultTimeLabConfig, TIME_COMMON, TIME_SETTINGS, validateTimeLabConfig, type TimeCommonKey, type TimeLabConfig, type TimeOwn } from './settings';
import type { Checker } from '../../config/checker';
import { V1_FILL } from '../../config/defaults';
import { readLabTraining, readOwnForm, writeLabTraining, type LabTrainingReads, type Unused } from '../../config/lab-training';
import type { ExperimentConfig } from '../../config/types';
import type { ConfigSection } from '../../config/sections/section';

export type { TimeLabConfig, TimeOwn };

/**
 * The Time lab's own trainer (src/engine/stream/train.ts) takes its lr and batch size, keeps tfjs's Adam constants
 * (β 0.9 / 0.999, ε the backend's), and its networks classify every class from the start (no growing head).
 */
const READS: LabTrainingReads = { own: ['lr', 'batchSize'], ignores: ['head'], ownData: true, adam: "of tfjs's Adam" };

export function isTimeOwn(x: unknown): x is TimeOwn {
  return typeof x === 'object' && x !== null && (x as { from?: unknown }).from === 'experiment';
}

/** The lab's own part of its settings. */
function ownOf(s: TimeLabConfig): Omit<TimeLabConfig, TimeCommonKey> {
  const out = structuredClone(s) as Partial<TimeLabConfig>;
  for (const k of Object.keys(TIME_COMMON)) delete out[k as TimeCommonKey];
  return out as Omit<TimeLabConfig, TimeCommonKey>;
}

/**
 * The lab's settings of a config whose section is `own`, and what of the common sections the lab cannot train, each
 * with what it trains instead. The experiment's dataset, classes, strategies and images per class are not the lab's:
 * it trains on its own stream, in its own mode.
 */
export function timeFromExperiment(config: ExperimentConfig, own: TimeOwn): { settings: TimeLabConfig; unused: Unused[] } {
  const d = defaultTimeLabConfig();
  const unused: Unused[] = [];
  const { from: _, ...rest } = own;
  const s: TimeLabConfig = { ...d, ...structuredClone(rest) };
  const m = config.model;
  const cnn = V1_FILL.cnn;
  if (m.kind === 'mlp') {
    s.model = 'mlp';
    s.hidden = m.hidden.slice();
  } else if (m.kind === 'cnn' && m.filters[0] === cnn.filters[0] && m.filters[1] === cnn.filters[1] && m.dense === cnn.dense) s.model = 'cnn';
  else
    unused.push({
      said:
        m.kind === 'cnn'
          ? `a CNN with filters ${m.filters.join(', ')} and ${m.dense} dense units (the lab's CNN has ${cnn.filters.join(', ')} and ${cnn.dense})`
          : `the ${m.kind} model (the lab trains an MLP or its CNN on pixels)`,
      instead: `an MLP with hidden layers ${d.hidden.join(', ')}`,
    });
  s.lr = config.training.lr;
  s.batchSize = config.training.batchSize;
  // epochs, seed and (when more than one) seeds
  Object.assign(s, readLabTraining(config, unused, d.seed, READS));
  return { settings: s, unused };
}

/** `config` with the lab's settings `s` as its experiment: the common sections say the network and training, `time` the rest. */
export function foldTime(config: ExperimentConfig, s: TimeLabConfig): ExperimentConfig {
  const c = structuredClone(config);
  c.lab = 'time';
  c.model = s.model === 'mlp' ? { kind: 'mlp', hidden: s.hidden.slice() } : { kind: 'cnn', filters: [...V1_FILL.cnn.filters], dense: V1_FILL.cnn.dense };
  writeLabTraining(c, { epochs: s.epochs, seed: s.seed, seeds: s.seeds, lr: s.lr, batchSize: s.batchSize }, READS);
  c.time = { from: 'experiment', ...ownOf(s) };
  return c;
}

export const timeSection: ConfigSection<'time'> = {
  check(c, v): TimeLabConfig | TimeOwn | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && 'from' in v) return checkOwn(c, v);
    const { value, issues } = validateTimeLabConfig(v);
    for (const i of issues) c.error(i.path ? `time.${i.path}` : 'time', i.message);
    if (!value) return undefined;
    // (validateTimeLabConfig builds its value from the defaults' object, so both list their keys in one order)
    return JSON.stringify(value) === JSON.stringify(defaultTimeLabConfig()) ? undefined : value;
  },
};

/** The lab's own part, checked by the settings' validator on the defaults with these fields. */
function checkOwn(c: Checker, v: object): TimeOwn | undefined {
  const known = ['from', ...Object.keys(TIME_SETTINGS).filter((k) => !(k in TIME_COMMON))];
  const o = readOwnForm(c, v, 'time', known, TIME_COMMON, 'network and training');
  if (!o) return undefined;
  const { from: _, ...fields } = o;
  const { value, issues } = validateTimeLabConfig(fields);
  for (const i of issues) c.error(i.path ? `time.${i.path}` : 'time', i.message);
  return value ? { from: 'experiment', ...ownOf(value) } : undefined;
}
