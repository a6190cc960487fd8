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
  const parts = value.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new UsageError(`--${name} is empty.`);
  return parts.map((p) => {
    if (!/^-?\d+$/.test(p)) throw new UsageError(`--${name}: "${p}" is not a whole number.`);
    return Number(p);
  });
}

/** "0-5" or "0,2,4" or "0-2,7" → indices. */
export function rangeListArg(value: string, name: string): number[] {
  const out: number[] = [];
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new UsageError(`--${name}: "${part}" is not an index or a range like 0-5.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new UsageError(`--${name}: range "${part}" runs backwards.`);
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}
