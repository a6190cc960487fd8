import { describe, expect, it } from 'vitest';
import {
  betainc,
  betaincc,
  chi2Sf,
  correlationPValue,
  erf,
  erfc,
  gammainc,
  gammaincc,
  gammaln,
  ndtr,
  ndtri,
  studentTCdf,
} from '../../../../src/core/stats/special';
import { expectClose, fixture } from './fixture';

describe('special functions against scipy.special (tests/fixtures/stats.json)', () => {
  it('the fixture says how it was made', () => {
    expect(fixture._note).toMatch(/make-stats-fixtures\.py/);
  });
  it('ndtr, erf, erfc: Cephes ports agree to ~1e-15 relative', () => {
    for (const [x, y] of fixture.special.ndtr) expectClose(ndtr(x), y, 1e-14, 0, `ndtr(${x})`);
    for (const [x, y] of fixture.special.erf) expectClose(erf(x), y, 1e-14, 0, `erf(${x})`);
    for (const [x, y] of fixture.special.erfc) expectClose(erfc(x), y, 1e-14, 0, `erfc(${x})`);
  });
  it('ndtri (Cephes) agrees to ~1e-15 relative, with ±∞ at 0 and 1 and NaN outside', () => {
    for (const [p, x] of fixture.special.ndtri) expectClose(ndtri(p), x, 1e-14, 0, `ndtri(${p})`);
    expect(ndtri(0)).toBe(-Infinity);
    expect(ndtri(1)).toBe(Infinity);
    expect(ndtri(-0.1)).toBeNaN();
    expect(ndtri(0.5)).toBe(0);
  });
  it('gammaln', () => {
    for (const [x, y] of fixture.special.gammaln) expectClose(gammaln(x), y, 1e-13, 1e-14, `gammaln(${x})`);
    expect(gammaln(0)).toBe(Infinity);
    expect(gammaln(-2)).toBe(Infinity);
  });
  it('betainc / betaincc (continued fraction) to 1e-12 relative', () => {
    for (const [a, b, x, y] of fixture.special.betainc) expectClose(betainc(a, b, x), y, 1e-12, 1e-15, `betainc(${a}, ${b}, ${x})`);
    for (const [a, b, x, y] of fixture.special.betaincc) expectClose(betaincc(a, b, x), y, 1e-12, 1e-15, `betaincc(${a}, ${b}, ${x})`);
    expect(betainc(2, 3, 0)).toBe(0);
    expect(betainc(2, 3, 1)).toBe(1);
    expect(betainc(-1, 3, 0.5)).toBeNaN();
  });
  it('gammainc / gammaincc to 1e-12 relative', () => {
    for (const [a, x, y] of fixture.special.gammainc) expectClose(gammainc(a, x), y, 1e-12, 1e-15, `gammainc(${a}, ${x})`);
    for (const [a, x, y] of fixture.special.gammaincc) expectClose(gammaincc(a, x), y, 1e-12, 1e-15, `gammaincc(${a}, ${x})`);
  });
  it('Student t cdf and χ² sf', () => {
    for (const [df, t, y] of fixture.special.stdtr) expectClose(studentTCdf(t, df), y, 1e-12, 1e-15, `stdtr(${df}, ${t})`);
    for (const [k, x, y] of fixture.special.chi2sf) expectClose(chi2Sf(x, k), y, 1e-12, 1e-15, `chdtrc(${k}, ${x})`);
    expect(chi2Sf(3, 2)).toBe(Math.exp(-1.5));
  });
  it('correlationPValue: the t test of r, 0 at |r| = 1, NaN below 3 pairs', () => {
    // r = 0.5, n = 10: t = 0.5·√8/√0.75, two-sided p = 2·stdtr(8, −|t|)
    const t = (0.5 * Math.sqrt(8)) / Math.sqrt(0.75);
    expectClose(correlationPValue(0.5, 10), 2 * studentTCdf(-t, 8), 1e-12);
    expect(correlationPValue(1, 10)).toBe(0);
    expect(correlationPValue(-1, 10)).toBe(0);
    expect(correlationPValue(0.3, 2)).toBeNaN();
    expectClose(correlationPValue(0, 50), 1, 1e-15);
  });
});
