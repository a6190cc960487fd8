// The settings-table mechanism (src/core/config/settings-table.ts) once, on a small table of every field kind: the
// derived type, defaults, the checks and their messages, optional fields, the common fields and the flags' kinds.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Checker } from '../../../../src/core/config/checker';
import {
  checkFieldsIn,
  checkSettings,
  checkSettingsIn,
  checkVia,
  commonFields,
  fieldProblem,
  flagHelp,
  flagNames,
  flagUsage,
  settingArgs,
  settingFlags,
  settingsDefaults,
  settingsTable,
  type CommonKeyOf,
  type SettingsOf,
} from '../../../../src/core/config/settings-table';

const TABLE = settingsTable({
  shape: { kind: 'choice', options: ['round', 'square'], default: 'round', flag: 'shape', label: 'the shape' },
  count: { kind: 'int', min: 2, max: 10, default: 5, flag: 'count', label: 'how many' },
  share: { kind: 'number', min: 0.1, max: 0.9, default: 0.5, flag: 'share', label: 'a share' },
  rate: { kind: 'number', min: 0, above: true, max: 10, default: 1, flag: 'rate', label: 'a rate', common: 'training' },
  sides: { kind: 'list', options: ['left', 'right'], item: 'side', default: ['left'], flag: 'side', label: 'the sides' },
  widths: { kind: 'ints', maxLength: 2, min: 1, max: 64, items: 'widths', default: [8], flag: 'widths', label: 'widths', common: 'model' },
  pair: {
    kind: 'value',
    default: [0, 1] as [number, number],
    check: (x: unknown) => (Array.isArray(x) && x.length === 2 ? { value: x as [number, number] } : { error: 'Must be a pair.' }),
    label: 'a pair',
  },
  runs: { kind: 'int', min: 1, max: 5, default: 1, absent: 1, label: 'runs' },
  extra: { kind: 'bool', default: false, absent: false, flag: 'extra', label: 'an extra run' },
});

describe('a settings table', () => {
  it('derives the settings type: each kind its value, optional where it has an absent value', () => {
    expectTypeOf<SettingsOf<typeof TABLE>>().toEqualTypeOf<{
      shape: 'round' | 'square';
      count: number;
      share: number;
      rate: number;
      sides: ('left' | 'right')[];
      widths: number[];
      pair: [number, number];
      runs?: number;
      extra?: boolean;
    }>();
    expectTypeOf<CommonKeyOf<typeof TABLE>>().toEqualTypeOf<'rate' | 'widths'>();
  });

  it('defaults: every field but the optional ones, in the table order, copies', () => {
    const d = settingsDefaults(TABLE);
    expect(d).toEqual({ shape: 'round', count: 5, share: 0.5, rate: 1, sides: ['left'], widths: [8], pair: [0, 1] });
    expect(Object.keys(d)).toEqual(['shape', 'count', 'share', 'rate', 'sides', 'widths', 'pair']);
    d.sides.push('right');
    expect(TABLE.sides.default).toEqual(['left']);
    expect(commonFields(TABLE)).toEqual({ rate: 'training', widths: 'model' });
  });

  it('checks each field with its message, keeps the default there, and lists unknown keys first', () => {
    const r = checkSettings(
      TABLE,
      { bogus: 1, shape: 'oval', count: 11, share: 0.05, rate: 0, sides: ['left', 'left'], widths: [100], pair: 3, runs: 1.5, extra: 'yes' },
      'The settings',
    );
    expect(r.issues).toEqual([
      { path: 'bogus', message: 'Unknown setting "bogus".' },
      { path: 'shape', message: 'Must be one of round, square; got "oval".' },
      { path: 'count', message: 'Must be a whole number from 2 to 10; got 11.' },
      { path: 'share', message: 'Must be a number from 0.1 to 0.9; got 0.05.' },
      { path: 'rate', message: 'Must be a number above 0 to 10; got 0.' },
      { path: 'sides', message: 'Must be a non-empty list of distinct sides from left, right; got ["left","left"].' },
      { path: 'widths', message: 'Must be a list of at most 2 widths (whole numbers 1…64); got [100].' },
      { path: 'pair', message: 'Must be a pair.' },
      { path: 'runs', message: 'Must be a whole number from 1 to 5; got 1.5.' },
      { path: 'extra', message: 'Must be true or false; got "yes".' },
    ]);
    expect(r.value).toEqual(settingsDefaults(TABLE));
    expect(checkSettings(TABLE, [], 'The settings')).toEqual({ issues: [{ path: '', message: 'The settings must be an object.' }] });
  });

  it('an optional field equal to its absent value is left out; another value is kept', () => {
    expect(checkSettings(TABLE, { runs: 1, extra: false }, 'S').value).toEqual(settingsDefaults(TABLE));
    const r = checkSettings(TABLE, { runs: 3, extra: true, count: 2, share: 0.9, rate: 10 }, 'S');
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual({ ...settingsDefaults(TABLE), runs: 3, extra: true, count: 2, share: 0.9, rate: 10 });
  });

  it('flags: a bool field a switch, every other a value; usage and help say the values and bounds', () => {
    expect(settingFlags(TABLE)).toEqual({
      shape: { type: 'string' },
      count: { type: 'string' },
      share: { type: 'string' },
      rate: { type: 'string' },
      side: { type: 'string' },
      widths: { type: 'string' },
      extra: { type: 'boolean' },
    });
    expect(flagNames(TABLE)).toEqual(['shape', 'count', 'share', 'rate', 'side', 'widths', 'extra']);
    expect([TABLE.shape, TABLE.count, TABLE.sides, TABLE.extra].map((f) => flagUsage(f))).toEqual([
      '[--shape round|square]',
      '[--count 5]',
      '[--side left|right[,…]]',
      '[--extra]',
    ]);
    expect(flagUsage(TABLE.pair)).toBe('');
    expect(flagHelp(TABLE.count, 3)).toBe('  --count         how many (a whole number 2…10; default 3)');
    expect(flagHelp(TABLE.rate)).toContain('(a number above 0, at most 10; default 1)');
  });
});

// The config checker's words (checkFieldsIn), for a lab whose link messages were written that way: the checker's own
// messages per kind, a list's errors at each index, a list's length bounds and a field's own message.
const WORDED = settingsTable({
  parts: {
    kind: 'list',
    options: ['wheel', 'frame', 'saddle'],
    item: 'part',
    default: ['wheel', 'frame'],
    minLength: 2,
    maxLength: 3,
    fewer: (n) => `A bike needs at least 2 parts; got ${n}.`,
    twice: (s) => `Part "${s}" is listed twice.`,
    suggest: true,
    label: 'the parts',
  },
  kind: { kind: 'choice', options: ['road', 'track'], default: 'road', label: 'the kind' },
  gears: { kind: 'int', min: 1, max: 30, default: 8, label: 'gears' },
  seed: { kind: 'int', min: 0, max: 9, default: 0, message: (got) => `A seed must be 0 to 9; got ${got}.`, label: 'the seed' },
  runs: { kind: 'int', min: 1, max: 5, default: 1, absent: 1, label: 'runs' },
});

describe("a settings table checked in the config checker's words", () => {
  const check = (o: Record<string, unknown>, keys?: (keyof typeof WORDED & string)[]) => {
    const c = new Checker();
    const out = settingsDefaults(WORDED);
    checkFieldsIn(c, WORDED, o, 'bike', out, keys);
    return { out, errors: c.errors.map((e) => [e.path, e.message]) };
  };

  it('each kind in the checker’s message, at each list index, the field’s own message, the default kept where wrong', () => {
    const r = check({ parts: ['wheel', 'wheal', 'wheel'], kind: 'rood', gears: 31, seed: 10, runs: 0 });
    expect(r.errors).toEqual([
      ['bike.parts[1]', 'Must be one of "wheel", "frame", "saddle"; got "wheal". Did you mean "wheel"?'],
      ['bike.parts[2]', 'Part "wheel" is listed twice.'],
      ['bike.kind', 'Must be one of "road", "track"; got "rood". Did you mean "road"?'],
      ['bike.gears', 'Must be a whole number from 1 to 30; got 31.'],
      ['bike.seed', 'A seed must be 0 to 9; got 10.'],
      ['bike.runs', 'Must be a whole number from 1 to 5; got 0.'],
    ]);
    expect(r.out).toEqual(settingsDefaults(WORDED));
  });

  it('a list’s length bounds; only the keys asked for; an optional field at its absent value left out', () => {
    expect(check({ parts: ['saddle'] }).errors).toEqual([['bike.parts', 'A bike needs at least 2 parts; got 1.']]);
    expect(check({ parts: ['saddle', 'wheel', 'frame', 'wheel'] }).errors).toEqual([['bike.parts', 'Must have at most 3 entries; got 4.']]);
    expect(check({ parts: 'wheel' }).errors).toEqual([['bike.parts', 'Must be a list ([…]); got "wheel".']]);
    expect(check({ gears: 0, kind: 'track' }, ['kind']).errors).toEqual([]);
    const ok = check({ parts: ['saddle', 'frame'], gears: 3, runs: 1 });
    expect(ok.errors).toEqual([]);
    expect(ok.out).toEqual({ parts: ['saddle', 'frame'], kind: 'road', gears: 3, seed: 0 });
    expect(check({ runs: 4 }).out.runs).toBe(4);
  });

  it('the plain checks honour a list’s length bounds and a field’s own message too', () => {
    expect(checkSettings(WORDED, { parts: ['wheel'] }, 'S').issues.map((i) => i.path)).toEqual(['parts']);
    expect(checkSettings(WORDED, { seed: 'x' }, 'S').issues).toEqual([{ path: 'seed', message: 'A seed must be 0 to 9; got "x".' }]);
    expect(flagHelp({ ...WORDED.parts, flag: 'parts' })).toContain('(2 to 3 of wheel, frame, saddle, comma-separated; default wheel,frame)');
  });
});

// The optional properties a lab adds where its checks spoke in other words before its table (the Open-world lab's).
describe('a settings table: fields in their lab’s own words', () => {
  const WORDS = settingsTable({
    kind: { kind: 'choice', options: ['round', 'square'], default: 'round', flag: 'kind', label: 'the kind' },
    cap: { kind: 'int', min: 1, max: 100, orNull: 'all', default: null, flag: 'cap', flagBounds: 'min', label: 'a cap' },
    epochs: {
      kind: 'int',
      min: 1,
      max: 50,
      default: 3,
      flag: 'epochs',
      label: 'epochs',
      says: (x: unknown) => `Epochs must be a whole number from 1 to 50; got ${String(x)}.`,
    },
    margin: { kind: 'number', min: -10, max: 10, default: 1, flag: 'margin', label: 'a margin' },
    name: {
      kind: 'value',
      default: 'a' as string,
      check: (x: unknown) => (typeof x === 'string' ? { value: x } : { error: 'Must be text.' }),
      checkIn: (c: Checker, x: unknown, path: string) => (typeof x === 'string' ? { value: x } : (c.error(path, 'A name, please.'), undefined)),
      flag: 'name',
      args: (x: string) => (x === 'a' ? [] : ['--name', x]),
      label: 'a name',
    },
    runs: { kind: 'int', min: 1, max: 5, default: 1, absent: 1, label: 'runs' },
  });

  it('an int field with orNull takes null too (its type number | null), and says what null means', () => {
    expectTypeOf<SettingsOf<typeof WORDS>['cap']>().toEqualTypeOf<number | null>();
    expect(checkSettings(WORDS, { cap: null }, 'S').issues).toEqual([]);
    expect(checkSettings(WORDS, { cap: 0 }, 'S').issues).toEqual([{ path: 'cap', message: 'Must be a whole number from 1 to 100, or null (all); got 0.' }]);
  });

  it('says: the lab’s sentence for a wrong value; its label and the kind’s words where a field has none', () => {
    expect(fieldProblem(WORDS.epochs, 3)).toBeUndefined();
    expect(fieldProblem(WORDS.epochs, 0)).toBe('Epochs must be a whole number from 1 to 50; got 0.');
    expect(fieldProblem(WORDS.cap, 1.5)).toBe('a cap: Must be a whole number from 1 to 100, or null (all); got 1.5.');
  });

  it('a link’s check in the config’s words (checker.ts): quoted choices with "Did you mean", intervals, a field’s own checkIn', () => {
    const c = new Checker();
    const s = checkSettingsIn(c, WORDS, { kind: 'sqare', cap: 0, epochs: 2, margin: 11, name: 3, runs: 1 }, 'lab', settingsDefaults(WORDS));
    expect(c.errors).toEqual([
      { path: 'lab.kind', message: 'Must be one of "round", "square"; got "sqare". Did you mean "square"?' },
      { path: 'lab.cap', message: 'Must be a whole number from 1 to 100, or null (all); got 0.' },
      { path: 'lab.margin', message: 'Must be a number in [-10, 10]; got 11.' },
      { path: 'lab.name', message: 'A name, please.' },
    ]);
    // the valid ones over the base, an optional field equal to its absent value left out
    expect(s).toEqual({ ...settingsDefaults(WORDS), epochs: 2 });
    expect(checkSettingsIn(new Checker(), WORDS, { runs: 3, cap: null }, 'lab', settingsDefaults(WORDS))).toEqual({ ...settingsDefaults(WORDS), runs: 3 });
  });

  it('settingArgs: each flag with its value in the table’s order, nothing for null or a field without a flag, or the field’s own args', () => {
    expect(settingArgs(WORDS, settingsDefaults(WORDS))).toEqual(['--kind', 'round', '--epochs', '3', '--margin', '1']);
    expect(settingArgs(WORDS, { ...settingsDefaults(WORDS), cap: 20, name: 'b', runs: 2 })).toEqual([
      '--kind',
      'round',
      '--cap',
      '20',
      '--epochs',
      '3',
      '--margin',
      '1',
      '--name',
      'b',
    ]);
    expect(settingArgs(TABLE, settingsDefaults(TABLE))).toEqual([
      '--shape',
      'round',
      '--count',
      '5',
      '--share',
      '0.5',
      '--rate',
      '1',
      '--side',
      'left',
      '--widths',
      '8',
    ]);
  });
});

describe('checkVia: a value field checked by its link check', () => {
  // a list of distinct short names, checked in the config's words at each index
  const namesIn = (c: Checker, x: unknown, path: string): { value: unknown } | undefined => {
    if (!Array.isArray(x)) return void c.error(path, 'Must be a list.');
    x.forEach((n, i) => {
      if (typeof n !== 'string' || n.length > 3) c.error(`${path}.${i}`, `Too long: ${String(n)}.`);
    });
    return c.errors.length > 0 ? undefined : { value: x.slice() };
  };
  const table = settingsTable({
    names: { kind: 'value', default: [] as string[], label: 'names', check: checkVia<string[]>(namesIn), checkIn: namesIn },
  });

  it('gives the value checkIn reads, or the first error it records', () => {
    expect(table.names.check(['ab', 'c'])).toEqual({ value: ['ab', 'c'] });
    expect(table.names.check(['abcd', 'efgh'])).toEqual({ error: 'Too long: abcd.' });
    expect(table.names.check(7)).toEqual({ error: 'Must be a list.' });
    expect(fieldProblem(table.names, 'x')).toBe('names: Must be a list.');
  });

  it('an error recorded while checkIn still returns a value is an error', () => {
    const lenient = (c: Checker, x: unknown, path: string) => {
      if (x !== 'ok') c.error(path, 'Not ok.');
      return { value: 'ok' };
    };
    expect(checkVia<string>(lenient)('no')).toEqual({ error: 'Not ok.' });
    expect(checkVia<string>(lenient)('ok')).toEqual({ value: 'ok' });
  });
});
