/**
 * Percent or fraction? ("accuracies as fractions or percentages, detected and stated".)
 *
 * The rule, for the whole file at once (every final accuracy, AIA, curve value and matrix entry of every row):
 * if any value is above 1, or any is written with a "%" sign, all values are percentages and are divided by 100;
 * otherwise they are fractions. One unit per file is the rule; the dialog and the CLI say which one was used and why.
 * In a percent file a row whose accuracies all lie in [0, 1] (one above 0, no % sign) is a row written as fractions
 * — a file mixing both units — and is left out with that reason, not read as under 1 % (validate-rows.ts).
 */
import type { AccuracyUnit } from './types';

/** A written accuracy as a number (the "%" sign is dropped), or null when it is not a number. */
export function readNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim().replace(/%$/, '').trim();
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export const hasPercentSign = (v: unknown): boolean => typeof v === 'string' && v.trim().endsWith('%');

export interface UnitDecision {
  unit: AccuracyUnit;
  reason: string;
}

/** Decide the unit from every accuracy value of the file (with where each came from, for the message). */
export function detectUnit(values: readonly { value: unknown; where: string }[]): UnitDecision {
  const signed = values.find((v) => hasPercentSign(v.value));
  if (signed)
    return {
      unit: 'percent',
      reason: `a value is written with a % sign (${String(signed.value).trim()} on ${signed.where}), so all accuracies are read as percentages`,
    };
  const above = values.find((v) => {
    const n = readNumber(v.value);
    return n !== null && n > 1;
  });
  if (above)
    return {
      unit: 'percent',
      reason: `values above 1 were found (e.g. ${readNumber(above.value)} on ${above.where}), so all accuracies are read as percentages`,
    };
  if (values.length === 0) return { unit: 'fraction', reason: 'no accuracies were found' };
  return { unit: 'fraction', reason: 'every accuracy is between 0 and 1, so they are read as fractions' };
}

/** A written value in the decided unit, as a fraction; or the reason it is not usable. */
export function toFraction(v: unknown, unit: AccuracyUnit, what: string): number | string {
  const n = readNumber(v);
  if (n === null) return `${what} ${JSON.stringify(v)} is not a number`;
  const f = unit === 'percent' ? n / 100 : n;
  if (f < 0 || f > 1) return `${what} ${n}${unit === 'percent' ? ' %' : ''} is outside ${unit === 'percent' ? '0–100 %' : '0–1'}`;
  return f;
}
