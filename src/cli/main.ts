/**
 * `cil-lab`: the ordering science headless (docs/architecture.md, src/cli). JSON on stdout, errors on stderr,
 * exit code 0 on success, 2 on a usage or input error, 1 on anything unexpected. The commands are a table
 * (./commands.ts): this file parses a command line with the entry's flags, prints its help, and calls its run.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILTIN_CLASS_LISTS } from '../core/classes/builtin';
import { LABS } from '../core/labs';
import { UsageError, joinNegativeNumbers, oneLineParseError } from './args';
import type { Command, CommandContext, FlagValues } from './command';
import { COMMANDS, commandNamed } from './commands';
import { withConfig } from './config-args';
import { featuresRefusal } from './features';
import { FEATURE_ONLY, OPTIONS, unreadFlagRefusal } from './flags';
import { resetInputsRead } from './inputs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** "a, b and c" */
function inWords(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
}

const HELP = `cil-lab — class orderings for class-incremental learning (JSON on stdout)

${COMMANDS.map((c) => c.help).join('\n')}

${inWords(COMMANDS.filter((c) => c.config).map((c) => c.name))} also take --config FILE (a config file saved from the app's
"What ran" panel) or --link URL (a share link); flags given on the command line win over the config's settings.

The labs of the app and the commands that print their numbers:
${LABS.map((l) => `  ${l.name.padEnd(13)} ${l.commands.join(', ')}`).join('\n')}

Datasets: ${BUILTIN_CLASS_LISTS.map((l) => l.id).join(', ')}`;

/** A command's help: its usage lines, then every flag it reads. */
function commandHelp(c: Command): string {
  return `cil-lab ${c.name} (JSON on stdout; exit code 2 on bad input)\n\n${c.help}\n${c.details ? `\n${c.details}\n` : ''}\nflags: ${c.flags.map((f) => `--${f}`).join(' ')}`;
}

const context: CommandContext = {
  root,
  onNote: (note) => process.stderr.write(`note: ${note}\n`),
  cli: async (argv) => run(argv),
};

function run(argv: string[]): string | Promise<string> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') return HELP;
  const command = commandNamed(name);
  if (!command) throw new UsageError(`Unknown command "${name.slice(0, 40)}": cil-lab --help lists the commands.`);
  if (rest.includes('--help') || rest.includes('-h')) return commandHelp(command);
  let values: FlagValues;
  let positionals: string[];
  const options = Object.fromEntries(command.flags.map((f) => [f, OPTIONS[f]]));
  try {
    // a negative number after a flag is its value (`--seed -1`), not an unknown option
    const args = joinNegativeNumbers(rest, OPTIONS);
    ({ values, positionals } = parseArgs({ args, options, allowPositionals: command.positionals === true, strict: true }));
  } catch (e) {
    const flag = /'--([^' =<]+)/.exec((e as Error).message)?.[1];
    if ((e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag && flag in OPTIONS)
      throw new UsageError(`--${flag} is not a flag of cil-lab ${name}: it would change nothing (cil-lab ${name} --help lists its flags).`);
    throw new UsageError(oneLineParseError(e as Error, name));
  }
  // --config FILE / --link URL: the shared experiment's settings, under the flags given on the command line
  const as = command.config?.(values, positionals) ?? null;
  const v = as === null ? values : withConfig(values, as);
  const refusal = featuresRefusal(name, v) ?? unreadFlagRefusal(name, command.flags, values, v);
  if (refusal) throw new UsageError(refusal);
  if (v.features === undefined) {
    const orphan = (command.featureOnly ?? FEATURE_ONLY).find((f) => v[f] !== undefined);
    if (orphan) throw new UsageError(`--${orphan} is read only with --features (the feature source); without it, it would change nothing.`);
  }
  return command.run(v, positionals, context);
}

/**
 * Errors that are the user's to fix (exit 2): the CLI's own, and the input errors core, data and engine throw with a
 * message written for the user. Anything else (a RangeError, a TypeError, a plain Error) is a bug (exit 1).
 */
const INPUT_ERRORS = new Set([
  'UsageError',
  'RunUsageError',
  'AccuracyMatrixError',
  'AugmentOptionsError',
  'ClassListError',
  'ClipLoadError',
  'ConfigError',
  'ConformalInputError',
  'CurriculumError',
  'DataFormatError',
  'DatasetFormatError',
  'FeatureSetError',
  'NpyError',
  'OodInputError',
  'OodSpecError',
  'OrderingError',
  'PromptError',
  'ReservoirError',
  'SimilarityError',
  'StrategyConfigError',
  'StreamSpecError',
  'TrainConfigError',
]);

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').slice(0, 2000);

/** Runs one command; returns the exit code. Output goes to stdout, errors to stderr: one line, never a stack trace. */
export async function main(argv: string[]): Promise<number> {
  resetInputsRead();
  try {
    const out = await run(argv);
    process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
    return 0;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    if (INPUT_ERRORS.has(err.name)) {
      process.stderr.write(`cil-lab: ${oneLine(String(err.message))}\n`);
      return 2;
    }
    process.stderr.write(
      `cil-lab: internal error (${err.name}: ${oneLine(String(err.message))}); this is a bug in cil-lab: please report it with the command line that caused it.\n`,
    );
    return 1;
  }
}

/**
 * A reader that stops reading (`cil-lab … | head`) closes the pipe: the next write fails with EPIPE. That is not
 * an error of the command: end quietly instead of printing a stack. bin/cil-lab.mjs calls this once.
 */
export function endQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}
