/**
 * The hosted static site's pieces that are plain logic (docs/deploy.md): which built files the service
 * worker caches (scripts/sw-plugin.ts), the _headers reader of scripts/serve-static.mjs, and that the header files
 * for the hosts (public/_headers, deploy/static/security-headers.conf) say the same thing.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { precacheKind, serviceWorkerSource, swManifest } from '../../../scripts/sw-plugin';
// @ts-expect-error a plain .mjs script without type declarations
import { headersFor, parseHeadersFile, patternMatches } from '../../../scripts/serve-static.mjs';

type Rules = { pattern: string; headers: [string, string][] }[];
const headersText = readFileSync('public/_headers', 'utf8');
const rules = parseHeadersFile(headersText) as Rules;
const at = (path: string) => headersFor(rules, path) as Map<string, string>;

describe('public/_headers', () => {
  it('makes every page cross-origin isolated the Hugging-Face-friendly way (COOP same-origin, COEP credentialless)', () => {
    for (const p of ['/', '/index.html', '/assets/index-abc.js', '/data/digits/meta.json', '/tfjs/tfjs-backend-wasm-threaded-simd.wasm']) {
      expect(at(p).get('Cross-Origin-Opener-Policy')).toBe('same-origin');
      expect(at(p).get('Cross-Origin-Embedder-Policy')).toBe('credentialless');
    }
  });
  it('keeps one CSP that allows the service worker and the wasm runtimes from the site itself', () => {
    expect(headersText.match(/Content-Security-Policy:/g)).toHaveLength(1);
    const csp = at('/').get('Content-Security-Policy') ?? '';
    expect(csp).toMatch(/worker-src 'self' blob:/);
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
  });
  it('caches hashed assets for a year, data and wasm for a day with revalidation, the page and sw.js never without asking', () => {
    expect(at('/assets/index-abc.js').get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    for (const p of ['/data/fashion-mnist/train-images.u8', '/tfjs/tfjs-backend-wasm.wasm', '/ort/ort-wasm-simd-threaded.asyncify.wasm'])
      expect(at(p).get('Cache-Control')).toBe('public, max-age=86400, must-revalidate');
    for (const p of ['/', '/index.html', '/sw.js']) expect(at(p).get('Cache-Control')).toBe('no-cache');
  });
  it('gives each path at most one Cache-Control rule (Cloudflare joins repeated headers with commas)', () => {
    for (const p of ['/', '/index.html', '/sw.js', '/assets/a.js', '/data/x', '/tfjs/x', '/ort/x', '/models/x', '/favicon.svg']) {
      const n = rules.filter((r) => patternMatches(r.pattern, p) && r.headers.some(([k]) => k === 'Cache-Control')).length;
      expect(n, p).toBeLessThanOrEqual(1);
    }
  });
});

describe('deploy/static (nginx)', () => {
  it('security-headers.conf sends exactly the headers of _headers\' "/*" rule', () => {
    const conf = readFileSync('deploy/static/security-headers.conf', 'utf8');
    const nginx = [...conf.matchAll(/^add_header ([\w-]+) "([^"]*)" always;$/gm)].map((m) => [m[1], m[2]]);
    const star = rules.find((r) => r.pattern === '/*')?.headers ?? [];
    expect(nginx).toEqual(star);
  });
  it('nginx.conf uses the same cache lifetimes as _headers', () => {
    const conf = readFileSync('deploy/static/nginx.conf', 'utf8');
    for (const v of ['no-cache', 'public, max-age=31536000, immutable', 'public, max-age=86400, must-revalidate'])
      expect(conf).toContain(`add_header Cache-Control "${v}" always;`);
    expect(conf.match(/include \/etc\/nginx\/snippets\/cil_lab_headers\.conf;/g)).toHaveLength(3);
  });
});

describe('serve-static _headers reader', () => {
  it('reads rules and indented headers, skipping comments', () => {
    expect(parseHeadersFile('# c\n/*\n  A: 1\n  B: x: y\n\n/a/*\n  C: 2\n')).toEqual([
      { pattern: '/*', headers: [['A', '1'], ['B', 'x: y']] },
      { pattern: '/a/*', headers: [['C', '2']] },
    ]);
  });
  it('matches * across slashes, and exact paths only exactly', () => {
    expect(patternMatches('/assets/*', '/assets/a/b.js')).toBe(true);
    expect(patternMatches('/assets/*', '/data/a')).toBe(false);
    expect(patternMatches('/', '/index.html')).toBe(false);
    expect(patternMatches('/index.html', '/index.html')).toBe(true);
    expect(patternMatches('/a.b', '/axb')).toBe(false);
  });
});

describe('service worker manifest (scripts/sw-plugin.ts)', () => {
  it('caches the shell and the wasm at install, the data in the background, and leaves CLIP-only files to runtime', () => {
    expect(precacheKind('index.html')).toBe('shell');
    expect(precacheKind('assets/train.worker-abc.js')).toBe('shell');
    expect(precacheKind('tfjs/tfjs-backend-wasm-threaded-simd.wasm')).toBe('shell');
    expect(precacheKind('data/fashion-mnist/train-images.u8')).toBe('data');
    expect(precacheKind('data/wordnet-nouns.json')).toBe('data');
    for (const p of ['ort/ort-wasm-simd-threaded.asyncify.wasm', 'models/cil-lab/clip-tiny/config.json', 'sw.js', '_headers', 'assets/x.js.map'])
      expect(precacheKind(p)).toBeNull();
  });

  const dir = mkdtempSync(join(tmpdir(), 'sw-manifest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (p: string, text: string) => {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  };
  it('lists the files with the SHA-256 of each data file, and a version that moves when any cached file does', () => {
    write('index.html', '<html>');
    write('assets/index-1.js', 'js');
    write('tfjs/a.wasm', 'w');
    write('data/d/meta.json', '{"a":1}');
    write('ort/big.wasm', 'x');
    const m = swManifest(dir);
    expect(m.shell).toEqual(['assets/index-1.js', 'index.html', 'tfjs/a.wasm']);
    expect(m.data).toEqual([{ path: 'data/d/meta.json', rev: createHash('sha256').update('{"a":1}').digest('hex') }]);
    write('ort/big.wasm', 'y'); // not cached: the version stays
    expect(swManifest(dir).version).toBe(m.version);
    write('data/d/meta.json', '{"a":2}');
    expect(swManifest(dir).version).not.toBe(m.version);
    const src = serviceWorkerSource(dir);
    expect(src.startsWith('// Generated')).toBe(true);
    expect(src).toContain(`const MANIFEST = ${JSON.stringify(swManifest(dir))};`);
    expect(src).toContain("self.addEventListener('fetch'");
  });
});
