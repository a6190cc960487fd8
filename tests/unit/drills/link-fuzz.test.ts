/**
 * Drill: a seeded fuzz of share links. Valid links of several experiments are mutated (truncations, bit
 * flips, character edits, JSON type swaps, huge numbers, huge arrays, copy damage) and fed to the decoder + validator
 * (`decodeConfigFromHash`). Every result must be a clean `{ok: true}` whose config re-encodes and decodes to itself,
 * or `{ok: false}` with a one-line message; nothing may throw, and the decoder's defensive catch-all ("could not be
 * read", which turns an unexpected exception into a message) must never be reached: that would be a bug hidden as a
 * message. The only exception type the codec throws is its own ConfigError, from the encoder, for invalid or oversized
 * configs. Prints the figures.
 */
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash, fromBase64Url, toBase64Url } from '../../../src/core/config/url-codec';
import { createDefaultRng } from '../../../src/core/random/default-rng';

/** numpy's default_rng (PCG64): the same mutations on every run. */
const rng = (seed: number) => {
  const g = createDefaultRng(seed);
  return () => g.random();
};

const BASES: unknown[] = [
  {},
  {
    dataset: { id: 'cifar100' },
    classes: [...Array(100).keys()],
    taskSizes: Array(10).fill(10),
    similarity: { kind: 'wordnet', pins: { aquarium_fish: 'n02512053' } },
  },
  {
    dataset: { id: 'custom', classNames: ['cat', 'dog', 'car', 'bus', 'Crème brûlée', '猫'] },
    taskSizes: [2, 2, 2],
    similarity: { kind: 'wordnet', pins: { cat: 'n02121620' } },
    protocols: { enabled: ['rs', 'edge'], rsSeeds: [0, 42, 1993] },
  },
  {
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [5, 1, 1, 1, 1, 1],
    strategies: [
      { id: 'ewc', options: { lambda: 5000, mode: 'single' } },
      { id: 'replay', options: { memory: 500 } },
    ],
    training: { epochs: 3, firstTaskEpochs: 8, lr: 2e-5, batchSize: 32, head: 'all' },
    seeds: [0, 1, 2],
  },
];

const json = (link: string) => LZString.decompressFromUint8Array(fromBase64Url(link.slice(4))!);
const linkOf = (text: string) => `#v1.${toBase64Url(LZString.compressToUint8Array(text))}`;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HUGE: unknown[] = [1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e-320, 4294967296, 1e21, 0.5, -0, 'NaN', '1e999'];
const OTHER_TYPES: unknown[] = [null, true, 'x', '', 7, -1, [], [null], {}, { kind: 42 }, ['rs', 3], 'a'.repeat(5000)];

/** Paths to every leaf and branch of a JSON value. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let o = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[path[path.length - 1]] = value;
}

type Mutation = { kind: string; link: string };

function mutations(seed: number, count: number): Mutation[] {
  return mutationsOf(BASES, seed, count);
}

function mutationsOf(bases: unknown[], seed: number, count: number): Mutation[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const links = bases.map((b) => encodeConfigToHash(validateConfig(b).config));
  const out: Mutation[] = [];
  for (let i = 0; i < count; i++) {
    const link = pick(links);
    const data = link.slice(4);
    const kind = pick(['truncate', 'bit-flip', 'char-edit', 'type-swap', 'huge-number', 'huge-array', 'drop-key', 'copy-damage'] as const);
    switch (kind) {
      case 'truncate':
        out.push({ kind, link: link.slice(0, Math.floor(r() * link.length)) });
        break;
      case 'bit-flip': {
        const bytes = fromBase64Url(data)!;
        const flips = 1 + Math.floor(r() * 3);
        for (let f = 0; f < flips; f++) bytes[Math.floor(r() * bytes.length)] ^= 1 << Math.floor(r() * 8);
        out.push({ kind, link: `#v1.${toBase64Url(bytes)}` });
        break;
      }
      case 'char-edit': {
        const at = Math.floor(r() * data.length);
        const op = r();
        const c = r() < 0.8 ? pick([...B64]) : pick(['%', '#', '.', ' ', '\u0000', 'é', '\n', '"']);
        const edited =
          op < 0.4 ? data.slice(0, at) + c + data.slice(at + 1) : op < 0.7 ? data.slice(0, at) + c + data.slice(at) : data.slice(0, at) + data.slice(at + 1);
        out.push({ kind, link: `#v1.${edited}` });
        break;
      }
      case 'type-swap':
      case 'huge-number':
      case 'huge-array':
      case 'drop-key': {
        const value = JSON.parse(json(link)) as Record<string, unknown>;
        const all = paths(value);
        if (all.length === 0) {
          out.push({ kind, link: linkOf(JSON.stringify({ version: pick(HUGE) })) });
          break;
        }
        const p = pick(all);
        if (kind === 'type-swap') setAt(value, p, pick(OTHER_TYPES));
        else if (kind === 'huge-number') {
          const nums = all.filter((q) => typeof q.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], value) === 'number');
          setAt(value, nums.length > 0 ? pick(nums) : p, pick(HUGE));
        } else if (kind === 'huge-array') setAt(value, p, Array(1000 + Math.floor(r() * 20000)).fill(pick([1, 0, 'cat', null])));
        else {
          let o = value as Record<string | number, unknown>;
          for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
          if (Array.isArray(o)) o.splice(Number(p[p.length - 1]), 1);
          else delete o[p[p.length - 1]];
        }
        out.push({ kind, link: linkOf(JSON.stringify(value)) });
        break;
      }
      case 'copy-damage': {
        const at = Math.floor(r() * data.length);
        const junk = pick(['%0A', '%20', '\r\n ', '%25', '%2', ')', '>.', '=', '+', '/', '%E2%80%8B', '\u200b']);
        out.push({ kind, link: `${pick(['', 'https://example.org/', 'see <', '%23'])}${link.slice(0, 4 + at)}${junk}${link.slice(4 + at)}` });
        break;
      }
    }
  }
  return out;
}

/** Valid links of the Open-world, Time and Curriculum labs (each section away from its defaults). */
const LAB_BASES: unknown[] = [
  { lab: 'open-world', openWorld: { dataset: 'digits', classes: [0, 1, 2, 3, 4, 5], oodSets: ['digits:6-9', 'fashion-mnist'], hidden: [128], epochs: 6 } },
  {
    lab: 'open-world',
    openWorld: { classes: [0, 1, 2, 3], tasks: 2, orderSeed: 1993, detectors: ['msp', 'ber', 'odin'], oodSets: ['fashion-mnist:4-9', 'emoji:0-20'] },
  },
  {
    lab: 'time',
    time: { buckets: 10, perClass: 50, buffer: 'reservoir', k: 300, alpha: { kind: 'dynamic', c: 0.5 }, protocols: ['streaming'], hidden: [64, 32] },
  },
  { lab: 'time', time: { stream: 'abrupt', mode: 'linear', trainRatio: 0.5, epochs: 3 } },
  { lab: 'curriculum', curriculum: { datasets: ['digits', 'fashion-mnist', 'emoji-food'], order: 'm2i', strategies: ['finetune'], hidden: 128 } },
  { lab: 'curriculum', curriculum: { order: ['emoji-vehicles', 'digits', 'fashion-mnist', 'emoji-animals'], scenario: 'til', epochs: 2 } },
  // the form the app writes now: the lab's own fields, the training in the common sections
  {
    lab: 'open-world',
    dataset: { id: 'digits' },
    classes: [3, 1, 4, 0, 5, 2],
    taskSizes: [2, 2, 2],
    strategies: [{ id: 'replay', options: { memory: 120 } }],
    model: { kind: 'mlp', hidden: [128] },
    training: { epochs: 6 },
    seeds: [4, 5],
    openWorld: { from: 'experiment', orderSeed: null, detectors: ['msp', 'ber'], oodSets: ['digits:6-9', 'emoji:0-20'] },
  },
  {
    lab: 'time',
    model: { kind: 'mlp', hidden: [64] },
    training: { epochs: 2, lr: 0.005, batchSize: 16 },
    time: { from: 'experiment', stream: 'abrupt', buckets: 6, buffer: 'reservoir', k: 200, alpha: { kind: 'dynamic', c: 0.5 } },
  },
  {
    lab: 'curriculum',
    strategies: [{ id: 'finetune', options: {} }],
    model: { kind: 'mlp', hidden: [96] },
    curriculum: { from: 'experiment', datasets: ['digits', 'fashion-mnist', 'emoji-food'], order: ['emoji-food', 'digits', 'fashion-mnist'], scenario: 'til' },
  },
];
/** Where a lab section's own form keeps a training setting: the common section and its field. */
const COMMON_HOME: Readonly<Record<string, [string, string]>> = {
  epochs: ['training', 'epochs'],
  batchSize: ['training', 'batchSize'],
  hidden: ['model', 'hidden'],
  trainPerClass: ['data', 'trainPerClass'],
  testPerClass: ['data', 'testPerClass'],
  classes: ['classes', ''],
  tasks: ['taskSizes', ''],
  memory: ['strategies', 'memory'],
};
const HUGE_INDEX = ['4000000000', '99999999999', '99999999999999999999', '20000000', '1e9', '1001'];
const LAB_MUTATIONS = process.env.DRILLS ? 6000 : 1200;

/** Mutations of the lab links: the generic ones, and huge ranges and sizes in the fields that expand or allocate. */
function labMutations(seed: number, count: number): Mutation[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const generic = mutationsOf(LAB_BASES, seed + 1, count);
  const out: Mutation[] = [];
  for (let i = 0; i < count; i++) {
    if (r() < 0.7) {
      out.push(generic[i]);
      continue;
    }
    const base = structuredClone(pick(LAB_BASES)) as Record<string, Record<string, unknown>>;
    const big = pick(HUGE_INDEX);
    const from = Math.floor(r() * 10);
    // a lab section in its own form leaves the training to the common sections: a huge value goes where it belongs
    const own = (sec: string): boolean => base[sec]?.from === 'experiment';
    const put = (sec: 'openWorld' | 'time' | 'curriculum', key: string, value: unknown): void => {
      if (!own(sec) || !(key in COMMON_HOME)) base[sec] = { ...(base[sec] ?? {}), [key]: value };
      else if (key === 'memory') base.strategies = [{ id: 'replay', options: { memory: value } }] as never;
      else {
        const [home, field] = COMMON_HOME[key];
        if (!field) (base as Record<string, unknown>)[home] = home === 'taskSizes' ? [value] : value;
        else
          base[home] = { ...(base[home] ?? (home === 'model' ? { kind: 'mlp' } : {})), [field]: home === 'model' && !Array.isArray(value) ? [value] : value };
      }
    };
    const huge = pick([
      () => put('openWorld', 'oodSets', [`${pick(['digits', 'fashion-mnist', 'emoji'])}:${from}-${big}`, 'digits']),
      () => put('openWorld', 'oodSets', Array(1 + Math.floor(r() * 2000)).fill('emoji:0-3')),
      () =>
        put(
          'openWorld',
          'classes',
          Array.from({ length: 1001 + Math.floor(r() * 5000) }, (_, k) => k),
        ),
      () => put('openWorld', 'hidden', Array(1 + Math.floor(r() * 12)).fill(pick([4096, 8192, 1e6]))),
      () => put('openWorld', pick(['epochs', 'memory', 'headEpochs', 'trainPerClass', 'tasks']), Number(big)),
      () => put('time', pick(['buckets', 'perClass', 'k', 'epochs', 'batchSize']), Number(big)),
      () => put('time', 'hidden', Array(1 + Math.floor(r() * 40)).fill(pick([2049, 65536, 1e9]))),
      () => put('curriculum', pick(['epochs', 'hidden', 'trainPerClass', 'testPerClass']), Number(big)),
      () => put('curriculum', 'datasets', Array(8 + Math.floor(r() * 2000)).fill('digits')),
    ]);
    huge();
    out.push({ kind: 'huge-range', link: linkOf(JSON.stringify(base)) });
  }
  return out;
}

describe('drill: share-link fuzz through the decoder and validator', () => {
  it('starts from valid links: every base is an experiment the validator takes as written', () => {
    for (const b of [...BASES, ...LAB_BASES]) expect(validateConfig(b).errors).toEqual([]);
    // the labs' own form is kept as written (not filled to the full form)
    const own = LAB_BASES.map((b) => validateConfig(b).config).filter((c) =>
      [c.openWorld, c.time, c.curriculum].some((x) => (x as { from?: string } | undefined)?.from === 'experiment'),
    );
    expect(own).toHaveLength(3);
  });

  it('1 600 seeded mutations of valid links: no throw, no catch-all, every failure has a one-line message, every success round-trips', () => {
    const cases = mutations(1993, 1600);
    const byKind = new Map<string, { n: number; ok: number; failed: number }>();
    const messages = new Map<string, number>();
    let slowest = 0;
    let catchAll = 0;
    for (const { kind, link } of cases) {
      const k = byKind.get(kind) ?? { n: 0, ok: 0, failed: 0 };
      byKind.set(kind, k);
      k.n++;
      const t0 = performance.now();
      let res: ReturnType<typeof decodeConfigFromHash> | undefined;
      expect(() => (res = decodeConfigFromHash(link)), `${kind}: ${link.slice(0, 120)}`).not.toThrow();
      slowest = Math.max(slowest, performance.now() - t0);
      if (res!.ok) {
        k.ok++;
        // what opened is a valid experiment: it re-encodes (or the encoder says, as a ConfigError, it is too big for a
        // link) and that link opens the same experiment
        expect(validateConfig(res!.config).errors).toEqual([]);
        let again: string | undefined;
        try {
          again = encodeConfigToHash(res!.config);
        } catch (e) {
          expect(e, `${kind}: re-encoding threw`).toBeInstanceOf(ConfigError);
        }
        if (again) {
          const back = decodeConfigFromHash(again);
          expect(back.ok && back.config).toEqual(res!.config);
        }
      } else {
        k.failed++;
        const msg = res!.error;
        expect(typeof msg).toBe('string');
        expect(msg.length, `${kind}: empty message`).toBeGreaterThan(10);
        expect(msg, `${kind}: multi-line message`).not.toMatch(/\n/);
        if (msg.startsWith('This link could not be read (')) catchAll++;
        const head = msg.replace(/\(.*$/, '').replace(/:.*$/, '').slice(0, 60).trim();
        messages.set(head, (messages.get(head) ?? 0) + 1);
      }
    }
    const total = cases.length;
    const ok = [...byKind.values()].reduce((a, k) => a + k.ok, 0);
    console.log(
      `link fuzz: ${total} mutated links, ${ok} opened (valid, round-trip), ${total - ok} refused with a message, ` +
        `${catchAll} reached the catch-all, 0 threw; slowest decode ${slowest.toFixed(1)} ms\n` +
        [...byKind].map(([kind, k]) => `  ${kind.padEnd(12)} ${String(k.n).padStart(4)}: ${k.ok} opened, ${k.failed} refused`).join('\n') +
        `\n  most common messages: ${[...messages]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([m, n]) => `${n}× "${m}"`)
          .join('; ')}`,
    );
    expect(total).toBeGreaterThanOrEqual(1000);
    expect(catchAll).toBe(0);
    expect(byKind.size).toBe(8);
    for (const [kind, k] of byKind) expect(k.n, kind).toBeGreaterThan(100);
    // the mutations are not all trivially rejected: some damaged links still open (e.g. a dropped optional key)
    expect(ok).toBeGreaterThan(0);
    expect(total - ok).toBeGreaterThan(total / 2);
    // the slowest decode is a printed figure, not a check (speed is not asserted in a unit test: one run under load
    // read 1.3 s where an idle one reads 40 ms); a decode that hangs fails on the test's timeout
  });
  it(`${LAB_MUTATIONS} seeded mutations of Open-world, Time and Curriculum links, huge ranges included: refused at once with the bound, never thrown`, () => {
    const cases = labMutations(2718, LAB_MUTATIONS);
    const byKind = new Map<string, { n: number; ok: number; failed: number }>();
    let slowest = 0;
    let catchAll = 0;
    const unbounded: string[] = [];
    for (const { kind, link } of cases) {
      const k = byKind.get(kind) ?? { n: 0, ok: 0, failed: 0 };
      byKind.set(kind, k);
      k.n++;
      const t0 = performance.now();
      let res: ReturnType<typeof decodeConfigFromHash> | undefined;
      expect(() => (res = decodeConfigFromHash(link)), `${kind}: ${link.slice(0, 120)}`).not.toThrow();
      slowest = Math.max(slowest, performance.now() - t0);
      if (res!.ok) {
        k.ok++;
        expect(validateConfig(res!.config).errors).toEqual([]);
        const back = decodeConfigFromHash(encodeConfigToHash(res!.config));
        expect(back.ok && back.config).toEqual(res!.config);
      } else {
        k.failed++;
        expect(res!.error, `${kind}: multi-line message`).not.toMatch(/\n/);
        if (res!.error.startsWith('This link could not be read (')) catchAll++;
        // a huge range or size is refused by its bound, named in the message
        if (process.env.DRILL_VERBOSE && kind === 'huge-range') console.log(res!.error);
        if (kind === 'huge-range' && !/beyond the bound|does not exist|at most|from \d[\d ]* to \d|Must have|must sum to|is not an OOD set/.test(res!.error))
          unbounded.push(res!.error);
      }
    }
    const total = cases.length;
    const ok = [...byKind.values()].reduce((a, k) => a + k.ok, 0);
    console.log(
      `link fuzz (labs): ${total} mutated Open-world/Time/Curriculum links, ${ok} opened (valid, round-trip), ${total - ok} refused with a message, ` +
        `${catchAll} reached the catch-all, 0 threw; slowest decode ${slowest.toFixed(1)} ms\n` +
        [...byKind].map(([kind, k]) => `  ${kind.padEnd(12)} ${String(k.n).padStart(4)}: ${k.ok} opened, ${k.failed} refused`).join('\n'),
    );
    expect(total).toBeGreaterThanOrEqual(1000);
    expect(catchAll).toBe(0);
    expect(unbounded.slice(0, 5)).toEqual([]);
    expect(byKind.get('huge-range')!.n).toBeGreaterThan(100);
    expect(ok).toBeGreaterThan(0);
    // (the slowest decode: a printed figure, as above; `unbounded` is the check that a huge range is refused by its bound)
  }, 600_000);
  it('the default experiment link is among the bases and opens as the defaults', () => {
    const r = decodeConfigFromHash(encodeConfigToHash(defaultConfig()));
    expect(r.ok && r.config).toEqual(defaultConfig());
  });
});
