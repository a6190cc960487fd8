import { describe, expect, it } from 'vitest';
import { canonicalJson, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';
import { HASH_WRITE_DELAY_MS, ShareLinkStore, hashFor, openLink, teachFlagOf, type LinkEnv } from '../../../src/services/share-link.svelte';
const same = (a: ExperimentConfig, b: ExperimentConfig) => expect(canonicalJson(a)).toBe(canonicalJson(b));
const valid = (c: ExperimentConfig) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('share link helpers', () => {
  it('reads ?teach in its spellings', () => {
    expect(teachFlagOf('?teach')).toBe(true);
    expect(teachFlagOf('?x=1&teach=1')).toBe(true);
    expect(teachFlagOf('?teach=0')).toBe(false);
    expect(teachFlagOf('?teach=off')).toBe(false);
    expect(teachFlagOf('')).toBe(false);
  });

  it('opens a good link, falls back (and says why) for a bad one, and applies ?teach', () => {
    const c = valid({ ...defaultConfig(), taskSizes: [2, 2, 2], classes: [0, 1, 2, 3, 4, 5] });
    c.protocols.rsSeeds = [5];
    const good = openLink(encodeConfigToHash(c), '');
    expect(good.error).toBeNull();
    same(good.config, c);
    const bad = openLink('#v1.@@@', '?teach');
    expect(bad.error).toMatch(/damaged/);
    expect(bad.config.ui.teaching).toBe(true);
    expect(openLink('#v2.x', '').error).toMatch(/newer CIL Lab \(v2\)/);
    const kept = openLink('#nonsense', '', c);
    same(kept.config, c);
  });

  it('hashFor gives the codec hash', () => {
    const h = hashFor(defaultConfig());
    expect(h.hash).toMatch(/^#v1\./);
    expect(decodeConfigFromHash(h.hash!).ok).toBe(true);
  });
});

describe('ShareLinkStore', () => {
  function env(hash = '', search = '') {
    const calls: string[] = [];
    const listeners: (() => void)[] = [];
    const e: LinkEnv & { calls: string[]; fire(h: string): void } = {
      location: { hash, search, pathname: '/', origin: 'http://x', href: `http://x/${search}${hash}` },
      history: {
        state: null,
        replaceState(_d, _u, url) {
          calls.push(String(url));
          const u = new URL(String(url), 'http://x');
          e.location.hash = u.hash;
          e.location.search = u.search;
        },
      },
      addEventListener: (_t, fn) => listeners.push(fn),
      calls,
      fire(h: string) {
        e.location.hash = h;
        listeners.forEach((f) => f());
      },
    };
    return e;
  }

  it('validates updates, refuses invalid ones, and writes the hash once, debounced, with replaceState', async () => {
    const e = env();
    const s = new ShareLinkStore(e);
    expect(s.problem).toBeNull();
    expect(s.update((c) => void (c.taskSizes = [4, 4])).ok).toBe(false); // 6 classes: refused
    expect(s.update((c) => void (c.taskSizes = [2, 2, 2])).ok).toBe(true); // same as before: no change
    expect(s.update((c) => void (c.protocols.rsSeeds = [1])).ok).toBe(true);
    expect(s.update((c) => void (c.protocols.rsSeeds = [2])).ok).toBe(true);
    expect(e.calls).toEqual([]);
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    expect(e.calls).toHaveLength(1);
    const opened = decodeConfigFromHash(e.location.hash);
    expect(opened.ok && opened.config.protocols.rsSeeds).toEqual([2]);
  });

  it('a bad link keeps the defaults and says so; a bad link later keeps the current work; a good one replaces it', () => {
    const e = env('#v1.@@@');
    const s = new ShareLinkStore(e);
    expect(s.problem).toMatchObject({ kept: 'defaults' });
    same(s.config, defaultConfig());
    s.update((c) => void (c.protocols.rsSeeds = [9]));
    s.dismissProblem();
    e.fire('#v2.abc');
    expect(s.problem).toMatchObject({ kept: 'current' });
    expect(s.config.protocols.rsSeeds).toEqual([9]);
    expect(s.revision).toBe(0);
    const c = valid({ ...defaultConfig(), classes: [0, 1, 2, 3], taskSizes: [2, 2] });
    e.fire(encodeConfigToHash(c));
    expect(s.problem).toBeNull();
    expect(s.revision).toBe(1);
    same(s.config, c);
  });

  it('a link pasted while an edit waits to be written is opened, not overwritten by the write', async () => {
    const e = env();
    const s = new ShareLinkStore(e);
    s.update((c) => void (c.protocols.rsSeeds = [7]));
    const c = valid({ ...defaultConfig(), classes: [0, 1, 2, 3], taskSizes: [2, 2] });
    e.location.hash = encodeConfigToHash(c); // the address bar changed; its hashchange not delivered yet
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    same(s.config, c);
    expect(s.revision).toBe(1);
    const written = decodeConfigFromHash(e.location.hash);
    expect(written.ok && written.config.taskSizes).toEqual([2, 2]);
    e.fire(e.location.hash); // the late event finds the hash it opened
    expect(s.revision).toBe(1);
    // a bad link pasted the same way is reported, and the current work kept and written
    s.update((x) => void (x.protocols.rsSeeds = [8]));
    e.location.hash = '#v1.AAAA';
    await new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 50));
    expect(s.problem).toMatchObject({ kept: 'current' });
    const kept = decodeConfigFromHash(e.location.hash);
    expect(kept.ok && kept.config.protocols.rsSeeds).toEqual([8]);
  });

  it('teaching: ?teach turns it on; turning it off also removes ?teach from the URL', () => {
    const e = env('', '?teach');
    const s = new ShareLinkStore(e);
    expect(s.config.ui.teaching).toBe(true);
    s.setTeaching(false);
    expect(s.config.ui.teaching).toBe(false);
    expect(e.location.search).toBe('');
  });

  it('shareUrl writes the hash now and returns the whole URL', () => {
    const e = env();
    const s = new ShareLinkStore(e);
    s.update((c) => void (c.protocols.rsSeeds = [3]));
    const url = s.shareUrl();
    expect(url).toBe(`http://x/${e.location.hash}`);
    expect(e.calls).toHaveLength(1);
  });

  it('openedLab: the lab of the link the page opened (or pasted later); null without one or for a bad one', () => {
    expect(new ShareLinkStore(env()).openedLab).toBeNull();
    expect(new ShareLinkStore(env('#v1.@@@')).openedLab).toBeNull();
    const fg = valid({
      ...defaultConfig(),
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
    });
    expect(new ShareLinkStore(env(encodeConfigToHash(fg))).openedLab).toBe('forgetting');
    const e = env();
    const s = new ShareLinkStore(e);
    s.setLab('forgetting'); // picking a tab is not opening a link
    expect(s.openedLab).toBeNull();
    e.fire(encodeConfigToHash(fg));
    expect(s.openedLab).toBe('forgetting');
  });
});
