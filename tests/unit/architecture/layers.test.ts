/**
 * The layers of docs/architecture.md, checked on every import of src/ (.ts and .svelte): imports only point down,
 *   shell → ui → services → workers → engine → data → core, and cli (the Node entry) → engine/data/core;
 * the UI reaches training only through services (no ui → engine or workers, not even for types); src/core imports
 * no browser, Node or tfjs module. A new folder under src/ must be placed in LAYERS first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../../src');
/** Each top-level folder of src/ and the folders it may import from (besides itself). */
const LAYERS: Record<string, string[]> = {
  shell: ['ui', 'services', 'workers', 'engine', 'data', 'core'],
  ui: ['services', 'data', 'core'],
  services: ['workers', 'engine', 'data', 'core'],
  workers: ['engine', 'data', 'core'],
  engine: ['data', 'core'],
  data: ['core'],
  core: [],
  cli: ['engine', 'data', 'core'],
};
/** Packages src/core may not import: browser storage, tfjs, transformers.js, Node built-ins. */
const NOT_IN_CORE = [/^idb$/, /^@tensorflow\//, /^@huggingface\//, /^node:/, /^comlink$/, /^(fs|path|os|child_process|url|crypto)$/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte)$/.test(name) ? [p] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)['"]([^'"]+)['"]/g;

interface Edge {
  file: string;
  spec: string;
  from: string;
  to: string;
}

function edges(): { internal: Edge[]; external: Edge[] } {
  const internal: Edge[] = [];
  const external: Edge[] = [];
  for (const file of files(SRC)) {
    const from = relative(SRC, file).split(sep)[0];
    if (!from || from === 'main.ts') continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1];
      if (spec.startsWith('.')) {
        const target = relative(SRC, resolve(dirname(file), spec));
        const to = target.split(sep)[0];
        if (!target.startsWith('..') && to !== from) internal.push({ file: relative(SRC, file), spec, from, to });
      } else external.push({ file: relative(SRC, file), spec, from, to: spec });
    }
  }
  return { internal, external };
}

describe('architecture: the layers of src/', () => {
  const { internal, external } = edges();

  it('places every top-level folder of src/ in a layer', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => !(f in LAYERS))).toEqual([]);
    expect(internal.length).toBeGreaterThan(100); // the scan sees the imports (a broken regex would pass everything)
  });

  it('imports only point down', () => {
    const up = internal.filter((e) => !LAYERS[e.from]?.includes(e.to)).map((e) => `${e.file}: ${e.spec}`);
    expect(up).toEqual([]);
  });

  it('no two top-level folders import each other', () => {
    const pairs = new Set(internal.map((e) => `${e.from}→${e.to}`));
    const both = [...pairs].filter((p) => pairs.has(p.split('→').reverse().join('→')));
    expect(both).toEqual([]);
  });

  it('src/core imports no browser, Node or tfjs module', () => {
    const bad = external.filter((e) => e.from === 'core' && NOT_IN_CORE.some((r) => r.test(e.spec))).map((e) => `${e.file}: ${e.spec}`);
    expect(bad).toEqual([]);
  });
});
