/**
 * Training seeds on the command line: `--seeds 0-4` or `0,3,7` (ranges and lists), the seeds a lab command runs to
 * report mean ± sd over them. Shared by cpcf, ood, stream and curriculum.
 */
import { UsageError } from './args';

/** Most seeds one command runs (each is a full run); CONFIG_LIMITS.labSeeds bounds a config's count alike. */
export const MAX_SEED_RANGE = 1000;

/** The seeds a `--seeds` text lists, in order; a UsageError for anything else. */
export function seedListArg(text: string, flag = 'seeds'): number[] {
  const out: number[] = [];
  for (const part of text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new UsageError(`--${flag}: "${part}" is not a seed or a range like 0-4.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new UsageError(`--${flag}: range "${part}" runs backwards.`);
    if (b - a > MAX_SEED_RANGE - 1) throw new UsageError(`--${flag}: range "${part}" is over 1 000 seeds.`);
    if (b > 0xffffffff) throw new UsageError(`--${flag}: seed ${b} is above 4294967295.`);
    for (let k = a; k <= b; k++) out.push(k);
  }
  if (out.length === 0) throw new UsageError(`--${flag} is empty.`);
  if (new Set(out).size !== out.length) throw new UsageError(`--${flag} lists a seed twice.`);
  return out;
}

/** seed, seed + 1, …: `count` seeds from `first` (a config's `seeds` count). */
export function seedRange(first: number, count: number): number[] {
  return Array.from({ length: count }, (_, k) => first + k);
}
