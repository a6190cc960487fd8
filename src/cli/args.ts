/** Small argument helpers for the CLI: every bad value becomes a `UsageError` with a clear message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function intArg(value: string | undefined, name: string, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be a whole number; got "${value}".`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}; got ${n}.`);
  return n;
}

export function numberArg(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number; got "${value}".`);
  return n;
}

export function intListArg(value: string | undefined, name: string): number[] | undefined {
  if (value === undefined) return undefined;
  // "3,,3" or "3,3," is a typo, not [3, 3]: an empty entry between commas is an error
  const parts = value.trim().split(/\s*,\s*|\s+/);
  if (parts.length === 1 && parts[0] === '') throw new UsageError(`--${name} is empty.`);
  const empty = parts.indexOf('');
  if (empty >= 0) throw new UsageError(`--${name}: entry ${empty + 1} of "${value}" is empty (two commas in a row, or a comma at an end).`);
  return parts.map((p) => {
    if (!/^-?\d+$/.test(p)) throw new UsageError(`--${name}: "${p}" is not a whole number.`);
    return Number(p);
  });
}

/** "0-5" or "0,2,4" or "0-2,7" → indices. */
export function rangeListArg(value: string, name: string): number[] {
  const out: number[] = [];
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new UsageError(`--${name}: "${part}" is not an index or a range like 0-5.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new UsageError(`--${name}: range "${part}" runs backwards.`);
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
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
