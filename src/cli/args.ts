/**
 * Small argument helpers for the CLI: every bad value becomes a `UsageError` (exit 2) with one line that names the
 * flag, and every size a flag can ask for is checked against its bound before anything is allocated.
 */
import { UINT32_MAX } from '../core/config/checker';
import { parseIndexRanges } from '../core/config/index-ranges';
import { CONFIG_LIMITS, grouped } from '../core/config/limits';
import type { Unused } from '../core/config/lab-training';
import { OrderingError, resolveTaskSizes } from '../core/orderings/task-sizes';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A link or config whose common sections a lab cannot train (src/core/config/lab-training.ts) is refused in one
 * line naming the first such setting, not trained with a replacement.
 */
export function refuseUnused(labName: string, unused: readonly Unused[]): void {
  if (unused.length > 0)
    throw new UsageError(`The ${labName} lab cannot train what this experiment sets: ${unused[0].said} (it would train ${unused[0].instead}).`);
}

type Values = Record<string, string | boolean | undefined>;

/** The string value of flag `k` (undefined when absent). */
export const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

/** A whole number in [min, max] (max: a bound of src/core/config/limits.ts, named in the message). */
export function intArg(value: string | undefined, name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be a whole number; got "${value.slice(0, 40)}".`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${grouped(min)}; got ${value.trim().slice(0, 40)}.`);
  if (n > max) throw new UsageError(`--${name} must be at most ${grouped(max)}; got ${value.trim().slice(0, 40)}.`);
  return n;
}

/**
 * A number written in decimal (`2`, `-0.5`, `1e-3`, `.25`), or null: JavaScript's Number() also reads `0x10` as 16,
 * `0b11` as 3 and "" as 0, which no one writing a learning rate or a projection width means.
 */
export function decimalNumber(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A finite number, optionally in a range (exclusive ends written with ( )). */
export function numberArg(
  value: string | undefined,
  name: string,
  range?: { min: number; max: number; exclusiveMin?: boolean; exclusiveMax?: boolean },
): number | undefined {
  if (value === undefined) return undefined;
  const n = decimalNumber(value);
  if (n === null) throw new UsageError(`--${name} must be a number; got "${value.slice(0, 40)}".`);
  if (range) {
    const { min, max, exclusiveMin = false, exclusiveMax = false } = range;
    if (!((exclusiveMin ? n > min : n >= min) && (exclusiveMax ? n < max : n <= max)))
      throw new UsageError(
        `--${name} must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}${exclusiveMax ? ')' : ']'}; got ${value.trim().slice(0, 40)}.`,
      );
  }
  return n;
}

export function intListArg(value: string | undefined, name: string): number[] | undefined {
  if (value === undefined) return undefined;
  // "3,,3" or "3,3," is a typo, not [3, 3]: an empty entry between commas is an error
  const parts = value.trim().split(/\s*,\s*|\s+/);
  if (parts.length === 1 && parts[0] === '') throw new UsageError(`--${name} is empty.`);
  if (parts.length > CONFIG_LIMITS.classes)
    throw new UsageError(`--${name} lists at most ${grouped(CONFIG_LIMITS.classes)} numbers; got ${grouped(parts.length)}.`);
  const empty = parts.indexOf('');
  if (empty >= 0) throw new UsageError(`--${name}: entry ${empty + 1} of "${value.slice(0, 40)}" is empty (two commas in a row, or a comma at an end).`);
  return parts.map((p) => {
    if (!/^-?\d+$/.test(p) || !Number.isSafeInteger(Number(p))) throw new UsageError(`--${name}: "${p.slice(0, 40)}" is not a whole number.`);
    return Number(p);
  });
}

/**
 * "0-5" or "0,2,4" or "0-2,7" → indices, each range read as two numbers and bounded before it is expanded
 * (src/core/config/index-ranges.ts): `count` is how many classes there are (`of` names whose), else the bound of
 * every experiment.
 */
export function rangeListArg(value: string, name: string, count?: number, of?: string): number[] {
  const r = parseIndexRanges(value, { count, of });
  if (!r.ok) throw new UsageError(`--${name}: ${r.error}`);
  if (r.indices.length === 0) throw new UsageError(`--${name} is empty: give class indices or ranges like 0-5.`);
  return r.indices;
}

/** A comma list of names (strategies, detectors, datasets): empty entries dropped, an empty list refused. */
export function nameListArg(value: string, name: string, max: number = CONFIG_LIMITS.classes): string[] {
  const out = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (out.length === 0) throw new UsageError(`--${name} is empty.`);
  if (out.length > max) throw new UsageError(`--${name} lists at most ${grouped(max)} names; got ${grouped(out.length)}.`);
  return out;
}

/** `--tasks K` or `--task-sizes m1,m2,…` (not both: one would silently win) for `n` classes. */
export function taskSizesArg(v: Values, n: number): number[] {
  const tasksText = str(v, 'tasks');
  const sizesText = str(v, 'task-sizes');
  if (tasksText !== undefined && sizesText !== undefined) throw new UsageError('Give --tasks K or --task-sizes m1,m2,…, not both.');
  const tasks = intArg(tasksText, 'tasks', 1, CONFIG_LIMITS.classes);
  const taskSizes = intListArg(sizesText, 'task-sizes');
  if (tasks === undefined && !taskSizes) throw new UsageError('Give --tasks K or --task-sizes m1,m2,….');
  try {
    return resolveTaskSizes(n, { tasks, taskSizes });
  } catch (e) {
    if (e instanceof OrderingError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The backends the command line trains on: auto (wasm, then cpu), wasm, cpu, and webgpu where the optional `webgpu`
 * package (Dawn) finds an adapter (a GPU with a Vulkan, Metal or D3D12 driver). WebGL is the browser's.
 */
export const CLI_BACKENDS = ['auto', 'wasm', 'cpu', 'webgpu'] as const;

/** `--backend auto|wasm|cpu|webgpu` (default auto). */
export function backendArg(v: Values): (typeof CLI_BACKENDS)[number] {
  const b = str(v, 'backend') ?? 'auto';
  if (!(CLI_BACKENDS as readonly string[]).includes(b)) {
    throw new UsageError(
      `Unknown --backend "${b.slice(0, 40)}": use wasm, cpu or webgpu (or auto)${b === 'webgl' ? "; webgl is the browser's, not Node's" : ''}.`,
    );
  }
  return b as (typeof CLI_BACKENDS)[number];
}

/**
 * argv with a negative number after a flag that takes a value joined to it (`--seed -1` → `--seed=-1`): node's
 * parseArgs would otherwise call it an ambiguous argument in three lines. The value is then checked like any other.
 */
export function joinNegativeNumbers(args: readonly string[], options: Readonly<Record<string, { type: string }>>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    const flag = /^--([^=]+)$/.exec(a);
    if (flag && options[flag[1]]?.type === 'string' && i + 1 < args.length && /^-(\d|\.\d|Infinity)/.test(args[i + 1])) {
      out.push(`${a}=${args[i + 1]}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** node's parseArgs errors as one line that says what to do. */
export function oneLineParseError(e: Error, command: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  const msg = e.message;
  const opt = /'(-{1,2}[^' <]+)/.exec(msg)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option '${opt}' for cil-lab ${command}: cil-lab --help lists the flags.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(msg)) return `${opt} needs a value.`;
    if (/ambiguous/.test(msg)) return `${opt} needs a value; to give one that starts with "-", write ${opt}=-… (one word).`;
    if (/does not take an argument/.test(msg)) return `${opt} takes no value.`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `Unexpected argument ${/'([^']*)'/.exec(msg)?.[0] ?? ''} for cil-lab ${command}: every value follows its flag (cil-lab --help).`;
  return msg.replace(/\s*\n\s*/g, ' ');
}

/**
 * `--strategy-options key=value,…` as its [key, value] parts, one at a time in order (so a caller's check of an
 * earlier part speaks before a later part that is not key=value).
 */
export function* strategyOptionParts(text: string): Generator<[key: string, raw: string]> {
  if (text.trim() === '') return;
  const seen = new Set<string>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') throw new UsageError(`--strategy-options "${text.slice(0, 60)}" has an empty entry: give key=value pairs separated by single commas.`);
    const m = /^([A-Za-z]\w*)\s*=\s*(\S.*)$/.exec(part);
    if (!m) throw new UsageError(`--strategy-options: "${part}" is not key=value.`);
    if (seen.has(m[1])) throw new UsageError(`--strategy-options gives ${m[1]} twice; give each option once.`);
    seen.add(m[1]);
    yield [m[1], m[2]];
  }
}
