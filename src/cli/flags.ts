/**
 * The CLI's flags: every flag node:util parseArgs knows (OPTIONS) and the shared groups the commands' rows are built
 * from (each command's row is its entry's `flags` in ./commands.ts). main.ts parses with them and refuses any flag a
 * command does not read, and (UNREAD_IN_MODE, ONE_OF) any flag its row has that the mode the other flags put it in
 * does not read.
 */
import { settingFlags, type FlagOptionsOf, type SettingsTable } from '../core/config/settings-table';
import { LABS } from '../core/labs';
import type { LabSettingsTable } from '../core/labs/lab';
import { isPtmStrategyId } from '../core/ptm/defaults';

/**
 * The flags that take a value (in alphabetical order): every value is a string, read and checked by the command. A
 * lab setting's flag is its field's in the lab's settings table (OPTIONS adds them).
 */
const VALUE_FLAGS = [
  'accuracy',
  'alpha',
  'augment',
  'backbone-seed',
  'backend',
  'batch-size',
  'bucket-sizes',
  'calibration',
  'calibration-ratio',
  'classes',
  'classes-file',
  'compare',
  'config',
  'dataset',
  'delta',
  'descriptions',
  'detectors',
  'dtype',
  'encoder',
  'epochs',
  'epsilon',
  'estimate',
  'exact-limit',
  'fast',
  'features',
  'first-epochs',
  'format',
  'head',
  'head-lr',
  'hidden',
  'id',
  'init',
  'k',
  'limit',
  'link',
  'logits',
  'lr',
  'memory',
  'method',
  'model',
  'model-id',
  'model-path',
  'names',
  'names-dtype',
  'omega',
  'ood',
  'ood-seed',
  'order',
  'orderings',
  'out',
  'place',
  'population',
  'precision',
  'preset',
  'prompt',
  'protocol',
  'range',
  'results',
  'revision',
  'sample',
  'sample-seed',
  'samples',
  'score',
  'seed',
  'seeds',
  'shard',
  'shards',
  'similarity',
  'source',
  'strategy',
  'strategy-options',
  'subset',
  'task-sizes',
  'tasks',
  'test',
  'test-per-class',
  'threads',
  'train-per-class',
  'trials',
  'truth',
  'values',
] as const;

const VALUE = { type: 'string' } as const;

type FlagsOfEach<T> = T extends unknown ? FlagOptionsOf<T> : never;
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every lab's flags (its entry's `settings`), typed by name from the tables the entries declare. */
const LAB_FLAGS = Object.assign({}, ...LABS.flatMap((l) => ((l.settings ?? []) as readonly SettingsTable[]).map((t) => settingFlags(t)))) as Intersect<
  FlagsOfEach<LabSettingsTable>
>;

export const OPTIONS = {
  ...(Object.fromEntries(VALUE_FLAGS.map((f) => [f, VALUE])) as Record<(typeof VALUE_FLAGS)[number], typeof VALUE>),
  // the flags of the labs' settings tables, as each lab's entry lists them (a switch for a bool field, a value for
  // every other)
  ...LAB_FLAGS,
  'allow-remote': { type: 'boolean' },
  'allow-missing': { type: 'boolean' },
  summary: { type: 'boolean' },
  probe: { type: 'boolean' },
  control: { type: 'boolean' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Flag = keyof typeof OPTIONS;

export const CLASS_FLAGS: Flag[] = ['classes', 'classes-file', 'dataset', 'subset'];
export const TASK_FLAGS: Flag[] = ['tasks', 'task-sizes'];
export const CONFIG_FLAGS: Flag[] = ['config', 'link'];
/** The training flags of `run` (and of the commands that train as it does). */
export const TRAIN_FLAGS: Flag[] = [
  'strategy',
  'memory',
  'model',
  'hidden',
  'epochs',
  'first-epochs',
  'lr',
  'batch-size',
  'seed',
  'backend',
  'train-per-class',
  'test-per-class',
  'augment',
  'head',
];
/** Where features come from (`--features F.npz|backbone|encoder:…`) and the flags of the backbone and encoders. */
export const FEATURE_FLAGS: Flag[] = ['features', 'backbone-seed', 'precision', 'revision', 'allow-remote'];
/** Flags that only a feature source reads: given without --features they would change nothing. */
export const FEATURE_ONLY: Flag[] = ['backbone-seed', 'precision', 'revision'];
export const RUN_FLAGS: Flag[] = [
  ...FEATURE_FLAGS,
  'dataset',
  'classes',
  ...TASK_FLAGS,
  'order',
  'protocol',
  'seeds',
  ...TRAIN_FLAGS,
  'init',
  'strategy-options',
  'orderings',
  'limit',
  'sample-seed',
  'fast',
  'population',
  ...CONFIG_FLAGS,
];

/** The flags only `analyze` in placement mode reads (--features with a pre-trained method). */
export const PLACE_FLAGS: Flag[] = [
  'features',
  'strategy',
  'strategy-options',
  'seed',
  'order',
  'train-per-class',
  'test-per-class',
  'orderings',
  'limit',
  'sample-seed',
  'epsilon',
  'delta',
  'threads',
];

type FlagValues = Record<string, string | boolean | undefined>;

/** The width `--strategy-options firstSession=W` asks for (0 when absent or unreadable: the option's own check says why). */
function firstSessionOf(v: FlagValues): number {
  const m = /(?:^|,)\s*firstSession\s*=\s*(\d+)\s*(?:,|$)/.exec(typeof v['strategy-options'] === 'string' ? v['strategy-options'] : '');
  return m ? Number(m[1]) : 0;
}

/**
 * Flags of a command's row that one of its modes does not read. Given on the command line in that mode they would
 * change nothing, so they are refused in one line (`unreadFlagRefusal`), as a flag outside the row is; a flag that
 * `--config` or `--link` fills in is the experiment's own setting and is not refused. Each mode says in words why
 * its flags are not read; `mode` sees the values given and the config's together.
 */
export const UNREAD_IN_MODE: readonly {
  commands: readonly string[];
  /** the mode in words when it applies to these values, else null */
  mode: (v: FlagValues) => string | null;
  flags: readonly Flag[];
}[] = [
  {
    commands: ['run'],
    mode: (v) =>
      typeof v.strategy === 'string' && isPtmStrategyId(v.strategy)
        ? `--strategy ${v.strategy} is a pre-trained method on frozen features: it trains no network`
        : null,
    flags: ['memory', 'model', 'hidden', 'first-epochs', 'augment', 'head', 'init', 'fast', 'population', 'backend'],
  },
  {
    commands: ['run'],
    mode: (v) =>
      typeof v.strategy === 'string' && isPtmStrategyId(v.strategy) && firstSessionOf(v) === 0
        ? `--strategy ${v.strategy} trains nothing without a first-session layer (--strategy-options firstSession=W${v.strategy === 'fecam' ? ', which fecam does not take' : ''})`
        : null,
    flags: ['epochs', 'lr', 'batch-size'],
  },
  {
    commands: ['run', 'sweep', 'cpcf', 'ood', 'stream', 'curriculum'],
    mode: (v) => (v.model === 'cnn' ? '--model cnn has fixed layers (--hidden sets the MLP’s and the head’s widths)' : null),
    flags: ['hidden'],
  },
];

/** Flags of which a command line may give one at most: each says the whole of what the others say. */
export const ONE_OF: readonly (readonly Flag[])[] = [['orderings', 'order', 'protocol']];

/**
 * The one-line refusal of a flag given on the command line (`given`) that the command would not read in the mode the
 * values (`v`, the config's included) put it in, or of two flags of which one at most may be given; null when none.
 */
export function unreadFlagRefusal(command: string, row: readonly Flag[], given: FlagValues, v: FlagValues): string | null {
  for (const group of ONE_OF) {
    const mine = group.filter((f) => row.includes(f));
    const both = mine.filter((f) => given[f] !== undefined);
    const names = mine.map((f) => `--${f}`);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
    if (both.length > 1) return `Give one of ${list}, not ${both.map((f) => `--${f}`).join(' and ')}.`;
  }
  for (const m of UNREAD_IN_MODE) {
    if (!m.commands.includes(command)) continue;
    const flag = m.flags.find((f) => given[f] !== undefined);
    if (flag === undefined) continue;
    const why = m.mode(v);
    if (why) return `--${flag} is not read here: ${why}, so it would change nothing.`;
  }
  return null;
}

/**
 * `v` without the flags the command would not read in the mode `v` puts it in (UNREAD_IN_MODE): for a caller that
 * builds a command line from a whole config, where a field the mode ignores would otherwise be refused as typed.
 */
export function withoutUnreadFlags<V extends FlagValues>(command: string, v: V): V {
  const out: FlagValues = { ...v };
  for (const m of UNREAD_IN_MODE) if (m.commands.includes(command) && m.mode(v)) for (const f of m.flags) delete out[f];
  return out as V;
}
