import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

describe('cil-lab cpcf', () => {
  it('trains on digits (base task 0–4, then one class per task) and prints the CPCF series per step', async () => {
    const code = await main([
      'cpcf', '--dataset', 'digits', '--classes', '0-9', '--task-sizes', '5,1,1,1,1,1',
      '--strategy', 'finetune', '--epochs', '2', '--first-epochs', '3', '--seed', '0', '--backend', 'cpu',
      '--calibration-ratio', '0.2', '--alpha', '0.1',
    ]);
    expect(err).not.toMatch(/cil-lab:/);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    // K = 6 tasks → CPCF_j for j = 2..6: five points
    for (const key of ['cpcf', 'aPrev', 'aNew', 'coverage', 'q', 'qInfinite']) expect(r[key]).toHaveLength(5);
    for (const c of r.cpcf) expect(c).toBeGreaterThanOrEqual(1); // APS sets hold at least one class
    for (const c of r.coverage) expect(c >= 0 && c <= 1).toBe(true);
    // a_prev,j and a_new,j are the accuracy matrix's own numbers
    expect(r.aNew[0]).toBeCloseTo(r.matrix[1][1], 12);
    expect(r.aPrev[0]).toBeCloseTo(r.matrix[1][0], 12);
    expect(r.calibrationCounts.every((n: number) => n > 0)).toBe(true);
    expect(r.dcor).toBeGreaterThanOrEqual(0);
    expect(Object.keys(r.omega)).toEqual(expect.arrayContaining(['omegaBase', 'omegaNew', 'omegaAll', 'omegaPrev']));
  });
  it('rejects α outside (0, 1), an unknown score and an unknown head with exit 2', async () => {
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--alpha', '1.5'])).toBe(2);
    expect(err).toMatch(/--alpha must be a number strictly between 0 and 1/);
    err = '';
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--score', 'xyz'])).toBe(2);
    expect(err).toMatch(/Unknown --score "xyz"/);
    err = '';
    expect(await main(['cpcf', '--dataset', 'digits', '--tasks', '5', '--head', 'half'])).toBe(2);
    expect(err).toMatch(/Unknown --head "half": use seen or all/);
  });
});
