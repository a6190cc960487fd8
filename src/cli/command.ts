/**
 * One command of `cil-lab` (the table is ./commands.ts): its help, the flags it reads and its run function. main.ts
 * parses a command line with the entry's flags, prints its help for `--help`, and calls its run.
 */
import type { Flag } from './flags';

export type FlagValues = Record<string, string | boolean | undefined>;

/** What a command's run gets besides its flags: where the repository is, where notes go, and the CLI itself. */
export interface CommandContext {
  /** the repository root (public/data, the built-in datasets) */
  root: string;
  /** a note for the user (stderr), beside the JSON on stdout */
  onNote: (note: string) => void;
  /** runs another command line through the same table (a lesson plays its lab's command) */
  cli: (argv: string[]) => Promise<string>;
}

export interface Command {
  name: string;
  /** its lines of `cil-lab --help`, each usage line indented two spaces ("  cil-lab NAME …") */
  help: string;
  /** what `cil-lab NAME --help` says besides its usage (each flag of a lab's settings, with its bounds) */
  details?: string;
  /** every flag it reads: any other flag is refused in one line (flags.ts OPTIONS knows every flag) */
  flags: readonly Flag[];
  /** it takes words after the command (`similarity F1 F2`, `sweep merge …`, `lesson ID`) */
  positionals?: boolean;
  /**
   * it reads `--config F` / `--link URL` through the shared experiment's settings (config-args.ts withConfig), as
   * the command named here reads them; null for these flags' values: it reads them itself (or not at all)
   */
  config?: (values: FlagValues, positionals: string[]) => string | null;
  /** flags read only with --features (a feature source): given without it they would change nothing */
  featureOnly?: readonly Flag[];
  run(v: FlagValues, positionals: string[], ctx: CommandContext): string | Promise<string>;
}
