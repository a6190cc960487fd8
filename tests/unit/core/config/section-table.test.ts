// A config section checked by a settings table in the config checker's words (src/core/config/section-table.ts),
// and the table's additions it uses (src/core/config/settings-table.ts: `message`, `below`, `orNull`, groups,
// settingsView / settingsValue). Each message is checked against the hand-written Checker calls the sections made
// before their tables (the same inputs through both), and a few are written out in full.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Checker } from '../../../../src/core/config/checker';
import { checkTableSection } from '../../../../src/core/config/section-table';
import {
  checkSettings,
  settingsDefaults,
  settingsGroup,
  settingsTable,
  settingsValue,
  settingsView,
  type SettingsOf,
} from '../../../../src/core/config/settings-table';

const MAX = 2 ** 32 - 1;
const TABLE = settingsTable({
  count: { kind: 'int', min: 1, max: 100, default: 5, label: 'how many' },
  seed: { kind: 'int', min: 0, max: MAX, default: 0, label: 'seed', message: (got) => `A seed must be a whole number from 0 to ${MAX}; got ${got}.` },
  share: { kind: 'number', min: 0, max: 1, above: true, below: true, default: 0.1, label: 'a share' },
  score: { kind: 'choice', options: ['aps', 'lac', 'raps'], default: 'aps', label: 'the score' },
  reg: settingsGroup(
    {
      lambda: { kind: 'number', min: 0, max: 100, default: 0.01, label: 'λ' },
      k: { kind: 'int', min: 0, max: 1000, default: 5, label: 'k' },
    },
    { label: 'regularisation' },
  ),
  preset: { kind: 'choice', options: ['digits', 'fashion'], default: null, orNull: 'one run', label: 'the preset' },
  runs: { kind: 'int', min: 1, max: 10, default: 1, absent: 1, label: 'runs' },
  on: { kind: 'bool', default: false, label: 'on' },
});

/** The same section, checked by hand as the sections did before their tables. */
function byHand(c: Checker, v: unknown): Record<string, unknown> {
  const o = c.object(v, 's', ['count', 'seed', 'share', 'score', 'reg', 'preset', 'runs', 'on']);
  const r = c.object(o.reg, 's.reg', ['lambda', 'k']);
  const out: Record<string, unknown> = {
    count: c.int(o.count, 's.count', 1, 100, 5),
    seed: c.seed(o.seed, 's.seed', 0),
    share: c.num(o.share, 's.share', { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }, 0.1),
    score: c.choice(o.score, 's.score', ['aps', 'lac', 'raps'] as const, 'aps'),
    reg: { lambda: c.num(r.lambda, 's.reg.lambda', { min: 0, max: 100 }, 0.01), k: c.int(r.k, 's.reg.k', 0, 1000, 5) },
    preset: null,
  };
  if (o.preset !== undefined && o.preset !== null) {
    if (o.preset === 'digits' || o.preset === 'fashion') out.preset = o.preset;
    else
      c.error(
        's.preset',
        `Must be one of "digits", "fashion", or null (one run); got ${JSON.stringify(o.preset)}.${o.preset === 'fashon' ? ' Did you mean "fashion"?' : ''}`,
      );
  }
  if (o.runs !== undefined) {
    const n = c.int(o.runs, 's.runs', 1, 10, 1);
    if (n !== 1) out.runs = n;
  }
  const on = c.bool(o.on, 's.on', false);
  // (the settings' key order: the fields, then the optional ones)
  const { runs, ...rest } = out;
  return { ...rest, on, ...(runs !== undefined ? { runs } : {}) };
}

function both(v: unknown) {
  const a = new Checker();
  const b = new Checker();
  return { table: { value: checkTableSection(a, TABLE, v, 's'), errors: a.errors }, hand: { value: byHand(b, v), errors: b.errors } };
}

describe('a section checked by its settings table, in the config checker’s words', () => {
  it('the derived type: a group its fields, an orNull choice its words or null', () => {
    expectTypeOf<SettingsOf<typeof TABLE>['reg']>().toEqualTypeOf<{ lambda: number; k: number }>();
    expectTypeOf<SettingsOf<typeof TABLE>['preset']>().toEqualTypeOf<'digits' | 'fashion' | null>();
    expect(settingsDefaults(TABLE)).toEqual({ count: 5, seed: 0, share: 0.1, score: 'aps', reg: { lambda: 0.01, k: 5 }, preset: null, on: false });
  });

  const inputs: [string, unknown][] = [
    ['nothing', undefined],
    ['all good', { count: 7, seed: MAX, share: 0.5, score: 'raps', reg: { lambda: 0, k: 0 }, preset: 'digits', runs: 3, on: true }],
    ['runs at its absent value', { runs: 1, preset: null }],
    ['not an object', 'x'],
    ['a list', [1]],
    ['an unknown key, near a known one', { cuont: 3 }],
    ['an unknown key in the group, and the group not an object', { reg: { lamda: 1 } }],
    ['the group not an object', { reg: 3, count: 0 }],
    ['every field wrong', { count: 101, seed: -1, share: 1, score: 'aps ', reg: { lambda: 101, k: 1.5 }, preset: 'fashon', runs: 11, on: 'yes' }],
    ['long and odd values', { count: 'x'.repeat(80), seed: 1.5, share: 0, score: 3, preset: 4, runs: 0 }],
  ];
  for (const [what, v] of inputs) {
    it(`gives what the hand-written checks gave: ${what}`, () => {
      const { table, hand } = both(v);
      expect(table.errors).toEqual(hand.errors);
      expect(JSON.stringify(table.value)).toBe(JSON.stringify(hand.value));
    });
  }

  it('a few messages in full: the checker’s words, a field’s own start, the order of a group’s shape', () => {
    const c = new Checker();
    checkTableSection(c, TABLE, { reg: { lamda: 1 }, seed: 'a', share: 1, preset: 'fashon', bogus: 1 }, 's');
    expect(c.errors).toEqual([
      { path: 's.bogus', message: 'Unknown setting "bogus"; the known ones here are "count", "seed", "share", "score", "reg", "preset", "runs", "on".' },
      { path: 's.reg.lamda', message: 'Unknown setting "lamda"; the known ones here are "lambda", "k". Did you mean "lambda"?' },
      { path: 's.seed', message: `A seed must be a whole number from 0 to ${MAX}; got "a".` },
      { path: 's.share', message: 'Must be a number in (0, 1); got 1.' },
      { path: 's.preset', message: 'Must be one of "digits", "fashion", or null (one run); got "fashon". Did you mean "fashion"?' },
    ]);
  });

  it('checks in another order where asked, keeping the key order of the settings', () => {
    const c = new Checker();
    const v = checkTableSection(c, TABLE, { preset: 'x', runs: 0, count: 0 }, 's', ['runs', 'preset', 'count', 'seed', 'share', 'score', 'reg', 'on']);
    expect(c.errors.map((e) => e.path)).toEqual(['s.runs', 's.preset', 's.count']);
    expect(Object.keys(v)).toEqual(Object.keys(settingsDefaults(TABLE)));
    const ok = checkTableSection(new Checker(), TABLE, { runs: 2, preset: 'digits' }, 's', ['runs', 'preset', 'count', 'seed', 'share', 'score', 'reg', 'on']);
    expect(Object.keys(ok)).toEqual(['count', 'seed', 'share', 'score', 'reg', 'preset', 'on', 'runs']);
  });
});

describe('the table’s additions in its own words (checkSettings)', () => {
  it('message, below, orNull and a group', () => {
    const r = checkSettings(TABLE, { seed: -1, share: 1, preset: 'x', reg: { lambda: -1 } }, 'S');
    expect(r.issues).toEqual([
      { path: 'seed', message: `A seed must be a whole number from 0 to ${MAX}; got -1.` },
      { path: 'share', message: 'Must be a number above 0 to below 1; got 1.' },
      { path: 'reg', message: 'lambda: Must be a number from 0 to 100; got -1.' },
      { path: 'preset', message: 'Must be one of digits, fashion, or null (one run); got "x".' },
    ]);
    expect(checkSettings(TABLE, { preset: null, share: 0.99, reg: { lambda: 2, k: 1 } }, 'S').issues).toEqual([]);
  });

  it('settingsView fills every field (an optional one at its absent value); settingsValue keeps the config’s form', () => {
    const view = settingsView(TABLE, { count: 9 });
    expect(view).toEqual({ ...settingsDefaults(TABLE), count: 9, runs: 1 });
    expect(settingsValue(TABLE, { ...view, extra: 'not a field' } as never)).toEqual({ ...settingsDefaults(TABLE), count: 9 });
    expect(settingsValue(TABLE, { ...view, runs: 4 })).toEqual({ ...settingsDefaults(TABLE), count: 9, runs: 4 });
    // the key order the checks give: the fields, then the optional ones
    expect(Object.keys(settingsValue(TABLE, { runs: 4 }))).toEqual(['count', 'seed', 'share', 'score', 'reg', 'preset', 'on', 'runs']);
    expect(Object.keys(settingsValue(TABLE, { runs: 4 }))).toEqual(Object.keys(checkTableSection(new Checker(), TABLE, { runs: 4 }, 's')));
  });
});
