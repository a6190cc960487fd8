import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import {
  MAX_LINK_DATA_CHARS,
  MAX_LINK_INPUT_CHARS,
  configHash,
  contentHash,
  decodeConfigFromHash,
  encodeConfigToHash,
  fnv1a64,
  fromBase64Url,
  toBase64Url,
} from '../../../../src/core/config/url-codec';

function valid(input: unknown): ExperimentConfig {
  const { config, errors } = validateConfig(input);
  expect(errors).toEqual([]);
  return config;
}

/** A link made of arbitrary text, compressed the way real links are (to test what the decoder does with it). */
function linkOfText(text: string): string {
  return `#v1.${toBase64Url(LZString.compressToUint8Array(text))}`;
}

/** Small seeded PRNG (mulberry32), so the fuzz cases are the same on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RICH_INPUTS: Record<string, unknown> = {
  groundTruth: {
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [5, 1, 1, 1, 1, 1],
    similarity: { kind: 'clip', dtype: 'fp32', prompt: { kind: 'template', template: 'a photo of a {}' }, weights: { kind: 'self-hosted', path: '/models/' } },
    protocols: { enabled: ['rs', 'edge', 'edge+'], rsSeeds: [0, 42, 1993, 7], medianSeed: 3, exactLimit: 5000 },
    groundTruth: { budget: 120, sampleSeed: 11 },
    model: { kind: 'mlp', hidden: [512, 256, 128] },
    strategies: [
      { id: 'finetune' },
      { id: 'ewc', options: { lambda: 5000, mode: 'single' } },
      { id: 'replay', options: { memory: 500, selection: 'herding' } },
      { id: 'lwf', options: { temperature: 3 } },
    ],
    training: { epochs: 3, firstTaskEpochs: 8, lr: 2e-5, batchSize: 32, optimiser: { kind: 'adam', beta2: 0.99 }, head: 'all' },
    data: { trainPerClass: null, testPerClass: 50 },
    seeds: [0, 1, 2, 4294967295],
    backend: { train: 'wasm', embed: 'wasm' },
    ui: { teaching: true, hiddenControls: ['seeds', 'similarity'], selectedOrdering: '0,1,2,3,4|5|6|7|8|9', accuracy: 'aia' },
  },
  forgetting: {
    lab: 'forgetting',
    dataset: { id: 'fashion-mnist' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [5, 1, 1, 1, 1, 1],
    strategies: [{ id: 'ewc', options: { mode: 'single' } }],
    model: { kind: 'mlp', hidden: [256, 128] },
    training: { epochs: 3, firstTaskEpochs: 8, lr: 2e-5, head: 'all' },
    conformal: { alpha: 0.05, calibrationRatio: 0.15, score: 'raps', raps: { lambda: 0.1, kReg: 2 }, softmax: 'all' },
  },
  forgettingPreset: {
    lab: 'forgetting',
    dataset: { id: 'emoji' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [5, 1, 1, 1, 1, 1],
    training: { epochs: 3, firstTaskEpochs: 8, lr: 1e-3, head: 'all' },
    data: { trainPerClass: 60, testPerClass: 30 },
    seeds: [7],
    conformal: { softmax: 'all' },
    forgetting: { preset: 'ewc-variants' },
    ui: { selectedOrdering: '0,1,2,3,4|5|6|7|8|9' },
  },
  custom: {
    dataset: { id: 'custom', classNames: ['apple', 'bicycle', 'tiger', 'lion', 'truck', 'orange', 'lawn_mower', 'Crème brûlée', '猫'] },
    taskSizes: [3, 3, 3],
    similarity: {
      kind: 'clip',
      prompt: {
        kind: 'descriptions',
        descriptions: { apple: 'a round red fruit on a branch', 猫: 'a small cat' },
        template: 'a photo of a {}',
        underscores: 'keep',
      },
      weights: { kind: 'mirror', url: 'https://hf-mirror.com/' },
    },
    protocols: { enabled: ['ms', 'as'], msSamples: 1000, msSeed: 99 },
  },
  upload: {
    similarity: { kind: 'upload', file: { name: 'clip-b16 sim.csv', contentHash: 'fnv1a64:0123456789abcdef' } },
    model: { kind: 'cnn', filters: [8, 16], dense: 64 },
  },
  cifar100: {
    dataset: { id: 'cifar100' },
    classes: [...Array(100).keys()],
    taskSizes: Array(10).fill(10),
    similarity: { kind: 'wordnet', pins: { aquarium_fish: 'n02512053' } },
  },
};

function deepReverseKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepReverseKeys) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .reverse()
        .map((k) => [k, deepReverseKeys((v as Record<string, unknown>)[k])]),
    ) as T;
  }
  return v;
}

describe('share links: round trip', () => {
  it('the default config', () => {
    const d = defaultConfig();
    const link = encodeConfigToHash(d);
    console.log(`default config link: ${link} (${link.length} characters)`);
    expect(link).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
    expect(link.length).toBeLessThan(300);
    expect(decodeConfigFromHash(link)).toEqual({ ok: true, config: d, warnings: [] });
  });

  it('a golden v1 link keeps opening as the same experiment (links never rot)', () => {
    // Made by this build; if this test fails, an old link would now open something else: see schema.ts rule 3/4.
    expect(encodeConfigToHash(defaultConfig())).toBe('#v1.N4XyAA');
    const g = decodeConfigFromHash('#v1.N4XyAA');
    expect(g.ok && g.config).toEqual(defaultConfig());
    const forgetting = valid(RICH_INPUTS.forgetting);
    const link = encodeConfigToHash(forgetting);
    const again = decodeConfigFromHash(link);
    expect(again.ok && again.config).toEqual(forgetting);
    // a Forgetting link made before `forgetting.preset` existed (by the build before it): the same link, the same
    // experiment (no preset: one run) and the same configHash — the field is omitted while it holds its fill-in
    const before =
      '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTcAewDsAzTgE4BbKBBShRABwAWUFOgB06SuFEBLAEYCoAFzU8ASrv3yF2FdslJkoANYH4AcxQEQ0IRoAmc5IuwBfDhgwQXgUEEskIM5eHREAD3DRMUC3KA1w_gFHeB09bmcgnW0dJzVEFFRQNU9w-AB3MBAOTkk9HmtQIU5PMOQQGDUCiDD_f3YQHVhbAGU1AC8KtEpcVZwcCeKoIaHnGxBeNQEYHQAVaYBRSU4waWsmEGl4KFr-5Oa3AVN0H_Q8MaAA';
    expect(link).toBe(before);
    const old = decodeConfigFromHash(before);
    expect(old.ok && old.config.forgetting).toEqual({ preset: null });
    expect(old.ok && configHash(old.config)).toBe('30a509bfee3cba8a');
  });

  it('training.init is additive: old links and hashes unchanged, "pytorch" round-trips and changes the hash', () => {
    // the same golden links as above, made before the field existed
    expect(encodeConfigToHash(defaultConfig())).toBe('#v1.N4XyAA');
    const old = decodeConfigFromHash(
      '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTcAewDsAzTgE4BbKBBShRABwAWUFOgB06SuFEBLAEYCoAFzU8ASrv3yF2FdslJkoANYH4AcxQEQ0IRoAmc5IuwBfDhgwQXgUEEskIM5eHREAD3DRMUC3KA1w_gFHeB09bmcgnW0dJzVEFFRQNU9w-AB3MBAOTkk9HmtQIU5PMOQQGDUCiDD_f3YQHVhbAGU1AC8KtEpcVZwcCeKoIaHnGxBeNQEYHQAVaYBRSU4waWsmEGl4KFr-5Oa3AVN0H_Q8MaAA',
    );
    expect(old.ok && old.config.training.init).toBe('he-glorot');
    expect(old.ok && configHash(old.config)).toBe('30a509bfee3cba8a');
    const pt = defaultConfig();
    pt.training.init = 'pytorch';
    const link = encodeConfigToHash(pt);
    expect(link).not.toBe('#v1.N4XyAA');
    const back = decodeConfigFromHash(link);
    expect(back.ok && back.config.training.init).toBe('pytorch');
    expect(configHash(pt)).not.toBe(configHash(defaultConfig()));
    expect(validateConfig({ training: { init: 'xavier' } }).errors.map((e) => e.path)).toEqual(['training.init']);
  });

  for (const [name, input] of Object.entries(RICH_INPUTS)) {
    it(`a rich config (${name})`, () => {
      const config = valid(input);
      const link = encodeConfigToHash(config);
      console.log(`${name} link: ${link.length} characters`);
      expect(link).toMatch(/^#v1\.[A-Za-z0-9_-]*[A-Za-z0-9-]$/);
      const back = decodeConfigFromHash(link);
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.config).toEqual(config);
      expect(encodeConfigToHash(back.config)).toBe(link);
    });
  }

  it('an upload is referenced, and the decoded link says it must be uploaded again', () => {
    const r = decodeConfigFromHash(encodeConfigToHash(valid(RICH_INPUTS.upload)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.similarity).toEqual({ kind: 'upload', file: { name: 'clip-b16 sim.csv', contentHash: 'fnv1a64:0123456789abcdef' } });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/uploaded similarity file "clip-b16 sim\.csv" \(fnv1a64:0123456789abcdef\).*provide that file again/);
  });
});

describe('share links: stable', () => {
  it('encoding twice gives the same string', () => {
    for (const input of Object.values(RICH_INPUTS)) {
      const c = valid(input);
      expect(encodeConfigToHash(c)).toBe(encodeConfigToHash(structuredClone(c)));
    }
  });

  it('reordering object keys gives the same string (and the same configHash)', () => {
    for (const input of Object.values(RICH_INPUTS)) {
      const c = valid(input);
      const reordered = deepReverseKeys(c);
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(c));
      expect(encodeConfigToHash(reordered)).toBe(encodeConfigToHash(c));
      expect(configHash(reordered)).toBe(configHash(c));
    }
  });

  it('equal experiments written differently give the same link', () => {
    const a = valid({
      classes: [5, 4, 3, 2, 1, 0],
      protocols: { enabled: ['ms', 'as', 'exact', 'edge+', 'edge', 'rs'] },
      strategies: [{ id: 'finetune', options: {} }],
    });
    expect(encodeConfigToHash(a)).toBe(encodeConfigToHash(defaultConfig()));
    const b = valid({ training: { epochs: 5, firstTaskEpochs: 5 } });
    const b2 = valid({ training: { epochs: 5 } });
    expect(encodeConfigToHash(b)).toBe(encodeConfigToHash(b2));
  });

  it('a link never ends in "_" (GitHub Markdown drops it from autolinks): lz-string ends in zero bits', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const evenEnd = (data: string) => alphabet.indexOf(data[data.length - 1]) % 2 === 0;
    for (const input of Object.values(RICH_INPUTS)) expect(evenEnd(encodeConfigToHash(valid(input)))).toBe(true);
    // The property belongs to lz-string's stream + unpadded base64url: check it on many different texts.
    const r = rng(3);
    const last = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const text = JSON.stringify({
        seeds: Array.from({ length: 1 + Math.floor(r() * 20) }, () => Math.floor(r() * 2 ** 32)),
        s: 'x'.repeat(Math.floor(r() * 40)),
      });
      const data = toBase64Url(LZString.compressToUint8Array(text));
      last.add(data[data.length - 1]);
      expect(evenEnd(data), text).toBe(true);
    }
    expect(last.has('_')).toBe(false);
    expect(last.size).toBeGreaterThan(1); // in practice lz-string's last byte is mostly zero padding
  });
});

describe('share links: what copying does to a link', () => {
  const config = valid(RICH_INPUTS.groundTruth);
  const link = encodeConfigToHash(config);
  const data = link.slice(4);
  const same = (s: string) => {
    const r = decodeConfigFromHash(s);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.ok && r.config).toEqual(config);
  };
  it('a whole URL, or the hash without "#"', () => {
    same(`https://example.org/cil-lab/${link}`);
    same(link.slice(1));
  });
  it('line breaks and spaces from email wrapping', () => {
    same(`#v1.${data.slice(0, 40)}\n  ${data.slice(40, 90)}\r\n${data.slice(90)}  `);
  });
  it('percent-encoding and trailing punctuation from prose', () => {
    same(`%23v1.${data}`);
    same(`https://example.org/#v1.${data}).`);
    same(`<https://example.org/#v1.${data}>`);
  });
  it('percent-encoded line breaks and spaces inside the link (%0A, %20, %0D%0A): decoded, then dropped', () => {
    same(`%23v1.${data.slice(0, 40)}%0A${data.slice(40, 90)}%20%20${data.slice(90)}`);
    same(`https://example.org/%23v1.${data.slice(0, 30)}%0D%0A${data.slice(30)}`);
    // a wrap inside an escape ("%2" + line break + "3")
    same(`%2\n3v1.${data}`);
  });
  it('standard base64 characters and padding', () => {
    same(`#v1.${data.replace(/-/g, '+').replace(/_/g, '/')}==`);
  });
  it('a URL without a hash is the default experiment', () => {
    expect(decodeConfigFromHash('https://example.org/cil-lab/')).toEqual({ ok: true, config: defaultConfig(), warnings: [] });
  });
});

describe('share links: clear messages', () => {
  const error = (hash: string): string => {
    const r = decodeConfigFromHash(hash);
    expect(r.ok, `expected failure for ${hash}`).toBe(false);
    return r.ok ? '' : r.error;
  };

  it('an empty hash gives the defaults, not an error', () => {
    for (const h of ['', '#', '  ', '\n']) expect(decodeConfigFromHash(h)).toEqual({ ok: true, config: defaultConfig(), warnings: [] });
  });

  it('an unknown version', () => {
    expect(error('#v2.N4XyAA')).toBe('This link was made by a newer CIL Lab (v2); this version reads v1 links.');
    expect(error('#v17.whatever')).toBe('This link was made by a newer CIL Lab (v17); this version reads v1 links.');
    expect(error('#v2')).toBe('This link was made by a newer CIL Lab (v2); this version reads v1 links.');
    expect(error('#v0.N4XyAA')).toBe('This link says it is version v0, which no CIL Lab makes; this version reads v1 links.');
  });

  it('not a CIL Lab link', () => {
    expect(error('#section-2')).toMatch(/^This is not a CIL Lab experiment link: the part after "#" should start with "v1\."/);
    expect(error('#N4XyAA')).toMatch(/not a CIL Lab experiment link/);
  });

  it('nothing after the version', () => {
    expect(error('#v1.')).toMatch(/^This link is incomplete: nothing follows "v1\." \(was it cut off when copied\?\)/);
    expect(error('#v1')).toMatch(/incomplete/);
  });

  it('malformed base64', () => {
    expect(error('#v1.N4X*yAA')).toMatch(/^This link is damaged: its data contains "\*", which a CIL Lab link never contains\. Copy the whole link again/);
    expect(error('#v1.N4XyA')).toMatch(/^This link is damaged or incomplete \(was it cut off when copied\?\): its data has the wrong length/);
    expect(error('#v1.Nw')).toMatch(/wrong length/);
  });

  it('malformed compression', () => {
    expect(error(`#v1.${toBase64Url(new Uint8Array([255, 255, 255, 255]))}`)).toMatch(
      /^This link is damaged or incomplete \(was it cut off when copied\?\): its data does not decompress/,
    );
    expect(error(`#v1.${toBase64Url(new Uint8Array([0, 0]))}`)).toMatch(/does not decompress/);
  });

  it('malformed JSON', () => {
    expect(error(linkOfText('{"lab": "orderings"'))).toMatch(/^This link is damaged: its data decompresses, but not to valid JSON \(/);
    expect(error(linkOfText('[1, 2]'))).toMatch(/^This link is damaged: its data is not an experiment config/);
    expect(error(linkOfText('"hello"'))).toMatch(/not an experiment config/);
  });

  it('invalid fields are listed', () => {
    const r = decodeConfigFromHash(linkOfText(JSON.stringify({ seeds: [-1], training: { lr: 0, epoch: 3 }, taskSizes: [2, 2] })));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/^This link's experiment has 4 invalid settings: /);
    expect(r.error).toContain('seeds[0]: A seed must be a whole number from 0 to 4294967295; got -1.');
    expect(r.error).toContain('training.epoch: Unknown setting "epoch"');
    expect(r.error).toContain('training.lr: Must be a number in (0, 10]; got 0.');
    expect(r.error).toContain('taskSizes: Task sizes 2,2 sum to 4, but 6 classes are selected');
    expect(r.issues?.map((i) => i.path).sort()).toEqual(['seeds[0]', 'taskSizes', 'training.epoch', 'training.lr']);
    const one = decodeConfigFromHash(linkOfText('{"lab":"lecture"}'));
    expect(!one.ok && one.error).toMatch(/^This link's experiment has 1 invalid setting: lab: Must be one of/);
  });

  it('a v1 link whose config says version 2', () => {
    expect(error(linkOfText('{"version":2}'))).toContain('version: This config was made by a newer CIL Lab (v2); this version reads v1 configs.');
  });

  it('a huge pasted text is refused by its length first, in linear time (130k characters took 8.5 s)', () => {
    for (const tail of ['.', '=', ')', ' ']) {
      const t0 = performance.now();
      const r = decodeConfigFromHash(`#v1.${tail.repeat(130_000)}x`);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(/^This link is too long \(130005 characters; /);
      expect(performance.now() - t0).toBeLessThan(200);
    }
    // within the input bound, a long run of trailing punctuation before a letter is still linear
    const t0 = performance.now();
    expect(decodeConfigFromHash(`#v1.${'.'.repeat(MAX_LINK_INPUT_CHARS - 10)}x`).ok).toBe(false);
    expect(decodeConfigFromHash(`#v1.A${'='.repeat(MAX_LINK_INPUT_CHARS - 10)}A`).ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(200);
  });
  it('trailing prose punctuation and base64 padding are still trimmed', () => {
    const link = encodeConfigToHash(defaultConfig());
    expect(decodeConfigFromHash(`${link}"')]}>!?;:,.`).ok).toBe(true);
  });

  it('a link that is too long', () => {
    expect(error(`#v1.${'A'.repeat(MAX_LINK_DATA_CHARS + 4)}`)).toMatch(
      /^This link is too long \(16388 characters of data; CIL Lab links hold at most 16384\)\. Share the config file instead\./,
    );
  });

  it('the encoder refuses invalid configs and configs too large for a link', () => {
    const bad = { ...defaultConfig(), seeds: [-1] };
    expect(() => encodeConfigToHash(bad)).toThrow(/seeds\[0\]/);
    // 1000 incompressible class names (random letters) exceed the link budget
    const r = rng(5);
    const names = Array.from({ length: 1000 }, (_, i) => `${i}-${Array.from({ length: 30 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('')}`);
    const huge = valid({ dataset: { id: 'custom', classNames: names }, classes: [0, 1], taskSizes: [1, 1] });
    expect(() => encodeConfigToHash(huge)).toThrow(/too large for a link .* share the config file instead/);
  });
});

describe('share links: fuzz (never throws)', () => {
  it('500 random byte strings', () => {
    const r = rng(42);
    const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < 500; i++) {
      const len = 1 + Math.floor(r() * 200);
      const bytes = new Uint8Array(len);
      for (let k = 0; k < len; k++) bytes[k] = Math.floor(r() * 256);
      const cases = [
        // raw bytes as text (Latin-1), as a hash, and as link data
        String.fromCharCode(...bytes),
        `#${String.fromCharCode(...bytes)}`,
        `#v1.${String.fromCharCode(...bytes)}`,
        // well-formed base64url of random bytes: exercises lz-string and JSON on garbage
        `#v1.${toBase64Url(bytes)}`,
        `#v1.${Array.from(bytes, (b) => b64[b & 63]).join('')}`,
      ];
      cases.forEach((c, k) => {
        let res: ReturnType<typeof decodeConfigFromHash> | undefined;
        expect(() => (res = decodeConfigFromHash(c))).not.toThrow();
        if (k < 2 && res!.ok) {
          // Random text can only "succeed" as an empty hash (e.g. it ends in "#"): the default experiment.
          expect(res!.config).toEqual(defaultConfig());
          return;
        }
        expect(res!.ok, `random input decoded: ${JSON.stringify(c)}`).toBe(false);
        if (res && !res.ok) expect(res.error.length).toBeGreaterThan(10);
      });
    }
  });

  it('every truncation of a valid link fails cleanly (or, when only padding was cut, gives the same config)', () => {
    for (const input of Object.values(RICH_INPUTS)) {
      const config = valid(input);
      const link = encodeConfigToHash(config);
      for (let n = 2; n < link.length; n++) {
        const cut = link.slice(0, n);
        let res: ReturnType<typeof decodeConfigFromHash> | undefined;
        expect(() => (res = decodeConfigFromHash(cut))).not.toThrow();
        if (res!.ok) expect(res!.config, `truncation to ${n} of ${link.length} opened a different experiment`).toEqual(config);
      }
    }
  });

  it('random single-character corruptions never throw', () => {
    const r = rng(7);
    const link = encodeConfigToHash(valid(RICH_INPUTS.groundTruth));
    for (let i = 0; i < 500; i++) {
      const at = 4 + Math.floor(r() * (link.length - 4));
      const ch = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[Math.floor(r() * 64)];
      expect(() => decodeConfigFromHash(link.slice(0, at) + ch + link.slice(at + 1))).not.toThrow();
    }
  });
});

describe('configHash', () => {
  const base = valid(RICH_INPUTS.groundTruth);
  const h = configHash(base);
  const variant = (patch: (c: ExperimentConfig) => void): string => {
    const c = structuredClone(base);
    patch(c);
    return configHash(valid(c));
  };

  it('is 16 hex digits, stable, and independent of key order', () => {
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(configHash(structuredClone(base))).toBe(h);
    expect(configHash(deepReverseKeys(base))).toBe(h);
    expect(configHash(defaultConfig())).toBe('08f44b07b5901a25'); // golden: stored results of the default experiment
  });

  it('changes with seeds, classes, strategies and everything else that affects numbers', () => {
    const changed = [
      variant((c) => (c.seeds = [0, 1, 2, 3])),
      variant((c) => (c.protocols.rsSeeds = [0, 42, 1993])),
      variant((c) => (c.protocols.medianSeed = 4)),
      variant((c) => {
        c.classes = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        c.taskSizes = [4, 1, 1, 1, 1, 1];
        c.ui.selectedOrdering = null;
      }),
      variant((c) => {
        c.taskSizes = [4, 2, 1, 1, 1, 1];
        c.ui.selectedOrdering = null;
      }),
      variant((c) => (c.dataset = { id: 'fashion-mnist' })),
      variant((c) => (c.lab = 'forgetting')),
      variant((c) => (c.strategies = c.strategies.slice(0, 2))),
      variant((c) => (c.strategies = [c.strategies[1], c.strategies[0], ...c.strategies.slice(2)])),
      variant((c) => ((c.strategies[1].options as { lambda: number }).lambda = 5001)),
      variant((c) => (c.training.lr = 3e-5)),
      variant((c) => (c.training.firstTaskEpochs = 7)),
      variant((c) => (c.training.optimiser.epsilon = 1e-7)),
      variant((c) => (c.model = { kind: 'mlp', hidden: [512, 256] })),
      variant((c) => (c.data.testPerClass = 51)),
      variant((c) => (c.similarity = { kind: 'wordnet', pins: {} })),
      variant((c) => (c.conformal.alpha = 0.2)),
      variant((c) => (c.groundTruth.budget = 121)),
      variant((c) => (c.forgetting.preset = 'grid')),
    ];
    for (const x of changed) expect(x).not.toBe(h);
    expect(new Set(changed).size).toBe(changed.length);
  });

  it('ignores teaching mode, the other UI state and the backend preference', () => {
    expect(variant((c) => (c.ui.teaching = !c.ui.teaching))).toBe(h);
    expect(variant((c) => (c.ui.hiddenControls = []))).toBe(h);
    expect(variant((c) => (c.ui.selectedOrdering = '0,1,2,3,9|5|6|7|8|4'))).toBe(h);
    expect(variant((c) => (c.ui.accuracy = 'final'))).toBe(h);
    expect(variant((c) => (c.backend = { train: 'webgpu', embed: 'auto' }))).toBe(h);
    const teach = defaultConfig();
    teach.ui.teaching = true;
    expect(configHash(teach)).toBe(configHash(defaultConfig()));
    expect(encodeConfigToHash(teach)).not.toBe(encodeConfigToHash(defaultConfig())); // …but the link carries it
  });

  it('does not depend on how equal settings are written', () => {
    expect(configHash(valid({ strategies: [{ id: 'ewc' }] }))).toBe(
      configHash(valid({ strategies: [{ id: 'ewc', options: { lambda: 1000, mode: 'multi', fisherSamples: 200 } }] })),
    );
  });
});

describe('helpers', () => {
  it('FNV-1a 64 matches the reference vectors', () => {
    const enc = new TextEncoder();
    expect(fnv1a64(enc.encode(''))).toBe('cbf29ce484222325');
    expect(fnv1a64(enc.encode('a'))).toBe('af63dc4c8601ec8c');
    expect(fnv1a64(enc.encode('foobar'))).toBe('85944171f73967e8');
    expect(contentHash(enc.encode('a'))).toBe('fnv1a64:af63dc4c8601ec8c');
  });

  it('base64url round-trips every length and matches Node', () => {
    const r = rng(1);
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
      const text = toBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual(bytes);
    }
    expect(fromBase64Url('A')).toBeNull();
    expect(fromBase64Url('AB=C')).toBeNull();
  });
});
