// A lab's settings from the command line by its settings table (src/cli/lab-flags.ts), once, on a small table:
// each kind read from its flag's text over a base, the table's checks with the flag named, and the usage lines.
import { describe, expect, it } from 'vitest';
import { settingsDefaults, settingsTable } from '../../../src/core/config/settings-table';
import { readSettingFlags, settingsFromFlags, usageLines } from '../../../src/cli/lab-flags';

const TABLE = settingsTable({
  shape: { kind: 'choice', options: ['round', 'square'], default: 'round', flag: 'shape', label: 'the shape' },
  count: { kind: 'int', min: 2, max: 10, default: 5, flag: 'count', label: 'how many' },
  sides: { kind: 'list', options: ['left', 'right'], item: 'side', default: ['left'], flag: 'side', label: 'the sides' },
  widths: { kind: 'ints', maxLength: 2, min: 1, max: 64, items: 'widths', default: [8], flag: 'widths', label: 'widths' },
  scale: {
    kind: 'value',
    default: 1,
    check: (x: unknown) => (typeof x === 'number' && x > 0 ? { value: x } : { error: 'Must be above 0.' }),
    parse: (t: string) => {
      if (!/^x\d+$/.test(t)) throw new Error('write it x2, x3, …');
      return Number(t.slice(1));
    },
    flag: 'scale',
    value: 'xN',
    label: 'a scale',
  },
  seed: { kind: 'int', min: 0, max: 9, default: 0, flag: 'seed', label: 'seed' },
  extra: { kind: 'bool', default: false, absent: false, flag: 'extra', label: 'an extra run' },
});
const base = settingsDefaults(TABLE);
const fails = (v: Record<string, string | boolean>) => () => settingsFromFlags(TABLE, v, base);

describe('settings from flags', () => {
  it('reads each kind over the base and says which flags were given', () => {
    const r = settingsFromFlags(TABLE, { shape: 'square', count: '3', side: 'right, left', widths: '4,2', scale: 'x3', extra: true }, { ...base, seed: 7 });
    expect(r.settings).toEqual({ shape: 'square', count: 3, sides: ['right', 'left'], widths: [4, 2], scale: 3, seed: 7, extra: true });
    expect([...r.given]).toEqual(['shape', 'count', 'sides', 'widths', 'scale', 'extra']);
    expect(settingsFromFlags(TABLE, { widths: ' ' }, base).settings.widths).toEqual([]);
    expect(settingsFromFlags(TABLE, { count: '3' }, base, ['count']).settings.count).toBe(5);
  });
  it('bad input is one line naming the flag: its words, then the table check (the share link’s)', () => {
    expect(fails({ shape: 'oval' })).toThrow('Unknown --shape "oval": use round, square.');
    expect(fails({ side: 'left,up' })).toThrow('Unknown --side "up": use left, right.');
    expect(fails({ side: 'left,left' })).toThrow('--side lists a side twice.');
    expect(fails({ count: 'many' })).toThrow('--count must be a number; got "many".');
    expect(fails({ count: '11' })).toThrow('--count: Must be a whole number from 2 to 10; got 11.');
    expect(fails({ widths: '100' })).toThrow('--widths: Must be a list of at most 2 widths (whole numbers 1…64); got [100].');
    expect(fails({ scale: '3' })).toThrow('--scale: write it x2, x3, …');
    expect(fails({ scale: 'x0' })).toThrow('--scale: Must be above 0.');
  });
  it('usage lines: whole parts, continued under the first', () => {
    expect(usageLines('demo', ['--a 1', '[--bb 2]', '[--ccc 3]'], 24)).toBe('  cil-lab demo --a 1\n               [--bb 2]\n               [--ccc 3]');
    expect(usageLines('demo', ['--a 1', '[--bb 2]'])).toBe('  cil-lab demo --a 1 [--bb 2]');
  });
});

describe('settings from flags, in a command’s own words', () => {
  const OWN = settingsTable({
    name: { kind: 'choice', options: ['a', 'b'], default: 'a', flag: 'name', label: 'a name' },
    tasks: { kind: 'int', min: 1, max: 10, default: 3, flag: 'tasks', flagBounds: 'both', label: 'tasks' },
    epochs: { kind: 'int', min: 1, max: 10, default: 3, flag: 'epochs', flagBounds: 'min', label: 'epochs' },
    width: { kind: 'int', min: 1, max: 10, default: 3, flag: 'width', label: 'width' },
  });
  const read = (v: Record<string, string>) =>
    readSettingFlags(OWN, v, settingsDefaults(OWN), { name: (x, s) => (x.name === undefined ? undefined : `${x.name}:${s.tasks}`) });

  it('flagBounds: a whole number in the CLI’s words with the lower bound, or both; not checked further', () => {
    expect(() => read({ tasks: 'x' })).toThrow('--tasks must be a whole number; got "x".');
    expect(() => read({ tasks: '11' })).toThrow('--tasks must be at most 10; got 11.');
    expect(() => read({ epochs: '0' })).toThrow('--epochs must be at least 1; got 0.');
    expect(read({ epochs: '99' }).settings.epochs).toBe(99);
    // without flagBounds: the number as it is (the table's check judges it)
    expect(read({ width: '99' }).settings.width).toBe(99);
    expect(() => read({ width: 'x' })).toThrow('--width must be a number; got "x".');
  });

  it('a command’s own reader of a field, in the table’s order, with the settings read so far; given says which', () => {
    const r = read({ name: 'zz', tasks: '4' });
    expect(r.settings).toEqual({ name: 'zz:3', tasks: 4, epochs: 3, width: 3 });
    expect([...r.given]).toEqual(['name', 'tasks']);
  });
});
