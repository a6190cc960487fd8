import { describe, expect, it } from 'vitest';
import { formatConfigFile, loadConfigFile, parseConfigFile, saveConfigFile } from '../../../../src/core/config/config-file';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';

const rich = (): ExperimentConfig => {
  const r = validateConfig({
    lab: 'forgetting',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [5, 1, 1, 1, 1, 1],
    strategies: [{ id: 'ewc', options: { mode: 'single' } }],
    training: { firstTaskEpochs: 8, lr: 2e-5, head: 'all' },
    conformal: { alpha: 0.05, calibrationRatio: 0.2 },
  });
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('config file', () => {
  it('writes every setting, version first, deterministically', () => {
    const text = formatConfigFile(defaultConfig());
    expect(text.startsWith('{\n  "version": 1,\n  "lab": "orderings",\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(defaultConfig());
    expect(formatConfigFile(defaultConfig())).toBe(text);
  });

  it('round-trips, and agrees with the share link', () => {
    const c = rich();
    const back = parseConfigFile(formatConfigFile(c), 'exp.json');
    expect(back).toEqual({ ok: true, config: c, warnings: [] });
    const viaLink = decodeConfigFromHash(encodeConfigToHash(c));
    expect(viaLink.ok && viaLink.config).toEqual(c);
  });

  it('accepts a partial file (missing settings take their defaults) and a BOM', () => {
    const r = parseConfigFile('\uFEFF{"version": 1, "seeds": [0, 1, 2]}', 'partial.json');
    expect(r.ok).toBe(true);
    expect(r.ok && r.config).toEqual({ ...defaultConfig(), seeds: [0, 1, 2] });
  });

  it('says where the JSON is broken', () => {
    const r = parseConfigFile('{\n  "version": 1,\n  "seeds": [0, 1,]\n}', 'exp.json');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^exp\.json is not valid JSON/);
    expect(!r.ok && r.error).toContain('[0, 1,]'); // V8 quotes the text around the error
    const cut = parseConfigFile('{\n  "version": 1,\n  "seeds": [0', 'exp.json');
    expect(parseConfigFile('{\n"version" 1}', 'b.json')).toEqual({
      ok: false,
      error: expect.stringMatching(/^b\.json is not valid JSON at line 2, column 11 \(/),
    });
    expect(!cut.ok && cut.error).toMatch(/^exp\.json is not valid JSON.*\(.+\)\.$/s);
  });

  it('rejects empty files, non-objects, typos and invalid values with the same messages as links', () => {
    expect(parseConfigFile('  ', 'a.json')).toEqual({
      ok: false,
      error: 'a.json is empty: write a JSON object such as {"version": 1} (missing settings take their defaults).',
    });
    expect(parseConfigFile('[1]', 'a.json')).toEqual({ ok: false, error: "a.json must hold one JSON object ({…}) with the experiment's settings." });
    const r = parseConfigFile(JSON.stringify({ trainig: { epochs: 3 }, seeds: [2 ** 32] }), 'a.json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/^a\.json has 2 invalid settings: /);
    expect(r.error).toContain('trainig: Unknown setting "trainig"');
    expect(r.error).toContain('Did you mean "training"?');
    expect(r.error).toContain('seeds[0]: A seed must be a whole number from 0 to 4294967295; got 4294967296.');
    expect(r.issues?.map((i) => i.path)).toEqual(['trainig', 'seeds[0]']);
    const newer = parseConfigFile('{"version": 2}', 'a.json');
    expect(!newer.ok && newer.error).toContain('This config was made by a newer CIL Lab (v2); this version reads v1 configs.');
  });

  it('reports files to provide again as warnings', () => {
    const r = parseConfigFile(JSON.stringify({ similarity: { kind: 'upload', file: { name: 'm.npy', contentHash: 'fnv1a64:00000000000000ff' } } }));
    expect(r.ok).toBe(true);
    expect(r.ok && r.warnings[0]).toMatch(/"m\.npy".*provide that file again/);
  });

  it("loads and saves through the caller's reader and writer", async () => {
    const files = new Map<string, string>();
    await saveConfigFile('/x/exp.json', rich(), async (p, t) => void files.set(p, t));
    expect(await loadConfigFile('/x/exp.json', async (p) => files.get(p)!)).toEqual({ ok: true, config: rich(), warnings: [] });
    const missing = await loadConfigFile('/x/none.json', async () => {
      throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    });
    expect(missing).toEqual({ ok: false, error: 'Cannot read the config file /x/none.json (no such file).' });
    await expect(saveConfigFile('/x/bad.json', { ...rich(), seeds: [] }, async () => {})).rejects.toThrow(/seeds/);
  });
});
