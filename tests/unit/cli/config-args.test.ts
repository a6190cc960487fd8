import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
