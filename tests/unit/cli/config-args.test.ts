import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configToFlags } from '../../../src/cli/config-args';
import { main } from '../../../src/cli/main';
import { formatConfigFile } from '../../../src/core/config/config-file';
import { defaultConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

function sharedConfig() {
  const c = defaultConfig();
  c.classes = [0, 1, 2, 3];
  c.taskSizes = [2, 2];
  c.protocols.rsSeeds = [7];
  return c;
}

describe('cil-lab --link / --config: the same experiment as the app', () => {
  it('orders --link rebuilds the shared experiment (classes, task sizes, RS seeds)', async () => {
    const link = `http://127.0.0.1:5173/${encodeConfigToHash(sharedConfig())}`;
    expect(await main(['orders', '--link', link, '--protocol', 'rs'])).toBe(0);
    const r = JSON.parse(out);
    expect(r.classes).toEqual(['T-shirt/top', 'Trouser', 'Pullover', 'Dress']);
    expect(r.taskSizes).toEqual([2, 2]);
    expect(r.sequences.map((s: { label: string }) => s.label)).toEqual(['RS seed 7']);
  });
  it('a flag on the command line wins over the config', async () => {
    const link = encodeConfigToHash(sharedConfig());
    expect(await main(['orders', '--link', link, '--protocol', 'rs', '--seeds', '1993'])).toBe(0);
    expect(JSON.parse(out).sequences[0].label).toBe('RS seed 1993');
  });
  it('--config FILE reads a config file saved from the app', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-config-'));
    const file = join(dir, 'experiment.json');
    writeFileSync(file, formatConfigFile(sharedConfig()));
    expect(await main(['count', '--config', file])).toBe(0);
    expect(JSON.parse(out).omega).toBe('6');
  });
  it('bad links and files get clear messages and exit 2', async () => {
    expect(await main(['orders', '--link', 'http://x/#v2.abc'])).toBe(2);
    expect(err).toMatch(/newer CIL Lab \(v2\); this version reads v1 links/);
    err = '';
    expect(await main(['orders', '--link', 'http://x/page'])).toBe(2);
    expect(err).toMatch(/--link needs the share link with its "#v1/);
    err = '';
    const dir = mkdtempSync(join(tmpdir(), 'cil-config-'));
    writeFileSync(join(dir, 'bad.json'), '{"version": 1, "trainig": {}}');
    expect(await main(['orders', '--config', join(dir, 'bad.json')])).toBe(2);
    expect(err).toMatch(/trainig/);
    err = '';
    expect(await main(['orders', '--config', 'a.json', '--link', 'b'])).toBe(2);
    expect(err).toMatch(/not both/);
  });
  it('a config whose similarity is an upload asks for the file again', async () => {
    const c = sharedConfig();
    c.similarity = { kind: 'upload', file: { name: 'sim.npy', contentHash: 'fnv1a64:0123456789abcdef' } };
    expect(await main(['orders', '--link', encodeConfigToHash(c)])).toBe(2);
    expect(err).toMatch(/uploaded file "sim\.npy": give it again with --similarity file:PATH/);
  });
});

describe('training flags from a config: --init and --strategy-options', () => {
  it('configToFlags maps training.init (only when not the default) and every strategy option but memory', async () => {
    const { configToFlags } = await import('../../../src/cli/config-args');
    const c = sharedConfig();
    expect(configToFlags(c, 'run').init).toBeUndefined();
    c.training.init = 'pytorch';
    c.strategies = [{ id: 'ewc', options: { lambda: 5000, mode: 'single', fisherSamples: 50 } }];
    const f = configToFlags(c, 'run');
    expect(f.init).toBe('pytorch');
    expect(f['strategy-options']).toBe('lambda=5000,mode=single,fisherSamples=50');
    c.strategies = [{ id: 'replay', options: { memory: 30, selection: 'herding' } }];
    expect(configToFlags(c, 'run')).toMatchObject({ memory: '30', 'strategy-options': 'selection=herding' });
  });
  it('initFlag and strategyOptionsFlag check their values with the engine rules', async () => {
    const { initFlag, strategyOptionsFlag } = await import('../../../src/cli/config-args');
    expect(initFlag({})).toBeUndefined();
    expect(initFlag({ init: 'pytorch' })).toBe('pytorch');
    expect(() => initFlag({ init: 'xavier' })).toThrow(/Unknown --init "xavier": use he-glorot or pytorch/);
    expect(strategyOptionsFlag({ 'strategy-options': 'lambda=5000, mode=single' }, 'ewc')).toEqual({ lambda: 5000, mode: 'single' });
    expect(() => strategyOptionsFlag({ 'strategy-options': 'lamda=5' }, 'ewc')).toThrow(/ewc has no option "lamda"/);
    expect(() => strategyOptionsFlag({ 'strategy-options': 'mode=both' }, 'ewc')).toThrow(/mode must be one of single, multi/);
    expect(() => strategyOptionsFlag({ 'strategy-options': 'lambda=-1' }, 'ewc')).toThrow(/non-negative/);
    expect(() => strategyOptionsFlag({ 'strategy-options': 'memory=5' }, 'replay')).toThrow(/--memory/);
  });
  it("cil-lab run --config trains with the config's EWC λ and mode and its init; flags win", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cil-config-'));
    const file = join(dir, 'experiment.json');
    const c = defaultConfig();
    c.dataset = { id: 'digits' };
    c.classes = [0, 1, 2, 3];
    c.taskSizes = [2, 2];
    c.strategies = [{ id: 'ewc', options: { lambda: 5000, mode: 'single', fisherSamples: 20 } }];
    c.training = { ...c.training, epochs: 1, firstTaskEpochs: 1, init: 'pytorch' };
    c.data = { trainPerClass: 8, testPerClass: 4 };
    writeFileSync(file, formatConfigFile(c));
    expect(await main(['run', '--config', file, '--backend', 'cpu'])).toBe(0);
    const r = JSON.parse(out);
    expect(r.config.strategyOptions).toEqual({ lambda: 5000, mode: 'single', fisherSamples: 20 });
    expect(r.config.init).toBe('pytorch');
    out = '';
    expect(await main(['run', '--config', file, '--backend', 'cpu', '--strategy-options', 'lambda=7', '--init', 'he-glorot'])).toBe(0);
    const r2 = JSON.parse(out);
    expect(r2.config.strategyOptions).toEqual({ lambda: 7, mode: 'multi', fisherSamples: 200 });
    expect('init' in r2.config).toBe(false);
  });
});

describe('configToFlags for cpcf', () => {
  it('maps each conformal field with a flag, and none that the config lacks (a field added later with `absent`)', () => {
    const c = defaultConfig();
    expect(configToFlags({ ...c, conformal: { ...c.conformal, alpha: 0.2 } }, 'cpcf')).toMatchObject({
      alpha: '0.2',
      score: 'aps',
      'calibration-ratio': '0.1',
    });
    const { score: _, ...noScore } = c.conformal;
    const flags = configToFlags({ ...c, conformal: noScore as typeof c.conformal }, 'cpcf');
    expect('score' in flags).toBe(false);
    expect(flags.alpha).toBe('0.1');
  });
});
