import { describe, expect, it } from 'vitest';
import { count, duration, fixed, fmt, pct, progressText, pValue } from '../../../src/ui/common/format';
import * as chartKit from '../../../src/ui/common/chart-kit';
import * as gtFormat from '../../../src/ui/ground-truth/format';

describe('ui/common/format: one module of number formats for every lab', () => {
  it('formats percentages, fixed decimals with a true minus, p-values, counts and durations', () => {
    expect(pct(0.6234)).toBe('62.3');
    expect(pct(null)).toBe('–');
    expect(fixed(-0.12345, 2)).toBe('−0.12');
    expect(fmt(-0.5)).toBe('−0.500');
    expect(pValue(0.0004)).toBe('< 0.001');
    expect(count(1234567)).toBe('1\u2009234\u2009567');
    expect(duration(3725)).toBe('1:02:05');
    expect(duration(41)).toBe('0:41');
  });

  it('writes the progress line with the lab’s unit, runs per item and the time left', () => {
    expect(progressText(37, 90, 1, 41)).toBe('37 / 90 orderings · 0:41 left');
    expect(progressText(3, 12, 1, 65, 'tasks')).toBe('3 / 12 tasks · 1:05 left');
    expect(progressText(74, 180, 2, 80, 'presets')).toBe('74 / 180 runs (90 presets × 2) · 1:20 left');
    // no ETA once done, nor before the first run finished
    expect(progressText(90, 90, 1, 5)).toBe('90 / 90 orderings');
    expect(progressText(1, 90, 1, null)).toBe('1 / 90 orderings');
  });

  it('is the very functions chart-kit and the Ground-truth format module hand out (no second copy)', () => {
    expect(chartKit.fmt).toBe(fmt);
    expect(gtFormat.pct).toBe(pct);
    expect(gtFormat.progressText).toBe(progressText);
    expect(gtFormat.duration).toBe(duration);
  });
});
