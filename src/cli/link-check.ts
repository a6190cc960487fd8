/**
 * The CLI's lab flags through the same checker as a share link (src/core/config/validate.ts): the flags become the
 * config fields they stand for, validateConfig checks them with every bound of src/core/config/limits.ts, and the
 * first problem becomes one line naming the flag. So no flag accepts what a link refuses, and the reverse.
 */
import { formatIssues, validateConfig, type ConfigIssue } from '../core/config/schema';
import { UsageError } from './args';

/** [a config path's start, the flag it comes from]: the first match names the flag. */
export type FlagOfPath = readonly (readonly [RegExp, string])[];

/** The flag of each lab setting that the labs' sections (Curriculum, Open world) name alike, for messages that name it. */
export const LAB_RUN_FLAGS = {
  epochs: '--epochs',
  hidden: '--hidden',
  trainPerClass: '--train-per-class',
  testPerClass: '--test-per-class',
  seed: '--seed',
  seeds: '--seeds',
} as const;

/** The training flags of `run` (and `sweep`, `cpcf`, `ood`, `curriculum`) by config path. */
export const TRAINING_FLAGS: FlagOfPath = [
  [/^dataset\b/, '--dataset'],
  [/^classes\b/, '--classes'],
  [/^taskSizes\b/, '--tasks / --task-sizes'],
  [/^model\.kind\b/, '--model'],
  [/^model\b/, '--hidden'],
  [/^strategies\[0\]\.id\b/, '--strategy'],
  [/^strategies\[\d+\]\.id\b/, '--strategy'],
  [/^strategies\[\d+\]\.options\.memory\b/, '--memory'],
  [/^strategies\[\d+\]\.options\b/, '--strategy-options'],
  [/^strategies\b/, '--strategy'],
  [/^training\.epochs\b/, '--epochs'],
  [/^training\.firstTaskEpochs\b/, '--first-epochs'],
  [/^training\.lr\b/, '--lr'],
  [/^training\.batchSize\b/, '--batch-size'],
  [/^training\.head\b/, '--head'],
  [/^training\.init\b/, '--init'],
  [/^data\.trainPerClass\b/, '--train-per-class'],
  [/^data\.testPerClass\b/, '--test-per-class'],
  [/^seeds\b/, '--seed'],
];

/** The flag of a config path (or the path itself when no flag stands for it). */
export function flagOf(path: string, flags: FlagOfPath): string {
  return flags.find(([re]) => re.test(path))?.[1] ?? path;
}

/** `--epochs: Must be a whole number from 0 to 1000; got 5000.` */
export function flagMessage(issue: ConfigIssue, flags: FlagOfPath): string {
  const flag = flagOf(issue.path, flags);
  return flag === issue.path ? formatIssues([issue]) : `${flag}: ${issue.message}`;
}

/** Check `partial` (config fields built from flags) as a link's config would be; the first problem is a UsageError. */
export function checkAsLink(partial: Record<string, unknown>, flags: FlagOfPath): void {
  const { errors } = validateConfig(partial);
  if (errors.length > 0) throw new UsageError(flagMessage(errors[0], flags));
}
