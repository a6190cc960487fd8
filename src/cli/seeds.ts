/**
 * Seeds on the command line: `--seeds 0-4` or `0,3,7` (ranges and lists): the training seeds a lab command runs to
 * report mean ± sd over them (cpcf, ood, stream, curriculum), RS seeds of class orders (run, orders, analyze).
 */
import { UINT32_MAX } from '../core/config/checker';
import { CONFIG_LIMITS, grouped } from '../core/config/limits';
import { UsageError } from './args';

/**
 * The distinct seeds (0 to 2³² − 1, numpy's range) a `--seeds` text lists, in order; a UsageError for anything else.
 * At most `max`, counted before a range is expanded: a lab's training seeds are each one full run, bounded as a lab
 * section's `seeds` count is (CONFIG_LIMITS.labSeeds).
 */
export function seedListArg(text: string, flag = 'seeds', max: number = CONFIG_LIMITS.labSeeds): number[] {
  const out: number[] = [];
  const parts = text.trim().split(/\s*,\s*|\s+/);
  if (parts.length === 1 && parts[0] === '') throw new UsageError(`--${flag} is empty.`);
  for (const [i, part] of parts.entries()) {
    if (part === '') throw new UsageError(`--${flag}: entry ${i + 1} of "${text.slice(0, 40)}" is empty (two commas in a row, or a comma at an end).`);
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new UsageError(`--${flag}: "${part.slice(0, 40)}" is not a seed or a range like 0-4.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b > UINT32_MAX) throw new UsageError(`--${flag}: a seed is a whole number from 0 to ${UINT32_MAX}; got ${(m[2] ?? m[1]).slice(0, 40)}.`);
    if (b < a) throw new UsageError(`--${flag}: range "${part}" runs backwards.`);
    if (out.length + (b - a + 1) > max) throw new UsageError(`--${flag} lists at most ${grouped(max)} seeds.`);
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
