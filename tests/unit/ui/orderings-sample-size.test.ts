import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { theorem1SampleSize, theorem2SampleSize } from '../../../src/core/protocols/bounds';
import { boundsCommand, formatShare, parseDelta, parseEpsilon, parseRange, sampleSizes } from '../../../src/ui/orderings/sample-size';

afterEach(() => vi.restoreAllMocks());

async function cliJson(...argv: string[]) {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  expect(await main(argv)).toBe(0);
  vi.restoreAllMocks();
  return JSON.parse(out);
}

describe('the calculator’s inputs', () => {
  it('accepts ε in (0, 1], δ in (0, 1), R in (0, 1], with a comma or a true minus typed', () => {
    expect(parseEpsilon('0.1')).toEqual({ value: 0.1, error: '' });
    expect(parseEpsilon(' 0,05 ')).toEqual({ value: 0.05, error: '' });
    expect(parseEpsilon('1')).toEqual({ value: 1, error: '' });
    expect(parseDelta('5e-2')).toEqual({ value: 0.05, error: '' });
    expect(parseRange('.1')).toEqual({ value: 0.1, error: '' });
  });
  it('says what is wrong, naming the input', () => {
    expect(parseEpsilon('abc').error).toBe('ε must be a number such as 0.1; “abc” is not one.');
    expect(parseEpsilon('0').error).toMatch(/^ε must be above 0 and at most 1/);
    expect(parseEpsilon('1.5').error).toMatch(/got 1\.5/);
    expect(parseDelta('1').error).toMatch(/^δ must be between 0 and 1, both excluded/);
    expect(parseDelta('').error).toMatch(/^δ must be a number/);
    expect(parseRange('−0.2').error).toMatch(/^R = A\(ω\+\) − A\(ω−\) is a difference of accuracies/);
  });
});

describe('the calculator’s answers = cil-lab bounds', () => {
  it('|Ω| = 90, ε 0.1, δ 0.05 (R 1 and R 0.1)', async () => {
    for (const range of [1, 0.1]) {
      const cli = await cliJson('bounds', '--omega', '90', '--epsilon', '0.1', '--delta', '0.05', '--range', String(range));
      const page = sampleSizes('90', 0.1, 0.05, range);
      expect(page.theorem1.L).toBe(cli.theorem1.L);
      expect(page.theorem2.L).toBe(cli.theorem2.L);
    }
    const p = sampleSizes('90', 0.1, 0.05, 0.1);
    const t1 = theorem1SampleSize(90n, 0.1, 0.05);
    expect(p.theorem1.L).toBe(t1.L === null ? null : t1.L.toString());
    expect(p.theorem1.share).toBe(t1.L === null ? 'all' : `${((100 * Number(t1.L)) / 90).toFixed(1)} %`);
    const t2 = theorem2SampleSize(90n, 0.1, 0.05, 0.1);
    expect(p.theorem2.LText).toBe(String(t2.L));
  });

  it('CIFAR-100 in 10 tasks (|Ω| ≈ 2.357e92): L exact, L/|Ω| in scientific notation', async () => {
    const omega = (await cliJson('count', '--classes', '100', '--tasks', '10')).omega as string;
    const cli = await cliJson('bounds', '--omega', omega, '--epsilon', '0.1', '--delta', '0.05');
    const page = sampleSizes(omega, 0.1, 0.05, 1);
    expect(page.theorem1.L).toBe(cli.theorem1.L);
    expect(page.theorem1.LText).toBe(page.theorem1.L!.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009'));
    expect(page.theorem1.share).toMatch(/^\d\.\de-\d+ %$/);
    const lf = cli.theorem1.log10Fraction + 2;
    expect(page.theorem1.share).toBe(`${(10 ** (lf - Math.floor(lf))).toFixed(1)}e${Math.floor(lf)} %`);
  });

  it('"all" when no sample smaller than Ω meets the bound; small Ω says why there is no number', () => {
    const tiny = sampleSizes('6', 0.1, 0.05, 1);
    expect(tiny.theorem1).toMatchObject({ L: null, LText: 'all', share: 'all' });
    expect(sampleSizes('3', 0.1, 0.05, 1).theorem2.unavailable).toMatch(/needs at least 4 orderings/);
    expect(sampleSizes('1', 0.1, 0.05, 1).theorem1.unavailable).toMatch(/single ordering/);
  });

  it('formatShare: one decimal from 0.1 %, two significant digits below, scientific under 0.0001 %', () => {
    const b = theorem1SampleSize(2520n, 0.1, 0.05);
    expect(formatShare(b)).toBe(`${((100 * Number(b.L)) / 2520).toFixed(1)} %`);
    const small = theorem2SampleSize(2520n, 0.2, 0.05, 0.1); // L = 2: 0.079 %
    expect(small.L).toBe(2n);
    expect(formatShare(small)).toBe('0.079 %');
    const tiny = theorem1SampleSize(10n ** 12n, 0.1, 0.05); // L ≈ 2 000 of 10^12: 2e-7 of Ω
    expect(formatShare(tiny)).toMatch(/^\d\.\de-\d+ %$/);
  });

  it('boundsCommand', () => {
    expect(boundsCommand('90', 0.1, 0.05, 1)).toBe('npx cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05');
    expect(boundsCommand('90', 0.1, 0.05, 0.1)).toBe('npx cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05 --range 0.1');
  });
});
