import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/orderings.json';
import { binomial, countOrderings, formatOmega } from '../../../../src/core/orderings/count';

describe('countOrderings (|Ω| = N!/Πm_i!)', () => {
  it('matches exact Python integers on every fixture (incl. 100/10 and 1000/10)', () => {
    for (const { sizes, omega } of fixture.counts) expect(countOrderings(sizes).toString()).toBe(omega);
  });
  it('gives the docs/science.md anchors', () => {
    expect(countOrderings([2, 2, 2])).toBe(90n);
    expect(countOrderings([2, 2, 2, 2])).toBe(2520n);
    expect(countOrderings([2, 2, 2, 2, 2])).toBe(113400n);
    expect(countOrderings(Array(10).fill(10)).toString()).toMatch(/^2357/);
    expect(countOrderings(Array(10).fill(10)).toString().length).toBe(93); // ≈ 2.357e92
  });
  it('binomial edge cases', () => {
    expect(binomial(5, 0)).toBe(1n);
    expect(binomial(5, 6)).toBe(0n);
    expect(binomial(52, 5)).toBe(2598960n);
  });
  it('formats |Ω| exactly below 1e9 and in scientific notation above', () => {
    expect(formatOmega(90n)).toBe('90');
    expect(formatOmega(113400n)).toBe('113\u2009400');
    expect(formatOmega(countOrderings(Array(10).fill(10)))).toBe('2.357e92');
  });
});
