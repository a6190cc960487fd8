/**
 * No import cycle in src/ (docs/architecture.md "The layers"), type imports included: every relative import of a
 * `.ts` or `.svelte` file, resolved to its file, makes one edge (and so does a module augmentation, `declare module
 * '../config/types'`: a lab's entry adding its id and sections to the config's types depends on that module), and the graph has no strongly connected group of two
 * files or more (nor a file importing itself). A cycle is named with its files, so the fix starts from the message:
 * the usual one is a type or a table moved to the lower of the two modules (the config's types to a leaf, the lab
 * registry above the config's checkers, a component's exported type to a plain module beside it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte)$/.test(name) ? [p] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*|\bdeclare\s+module\s+)['"]([^'"]+)['"]/g;

/** The file an import names: itself, `.ts`, `/index.ts` or a runes module (`x.svelte` → `x.svelte.ts`). */
function target(file: string, spec: string): string | null {
  const base = resolve(dirname(file), spec);
  for (const p of [base, `${base}.ts`, join(base, 'index.ts'), `${base}.svelte.ts`]) if (existsSync(p) && statSync(p).isFile()) return p;
  return null;
}

/** Every file's imports of other files of src/ (comments removed: a path in a comment is no import). */
function importGraph(root: string = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const out = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      if (!m[1].startsWith('.')) continue;
      const t = target(file, m[1]);
      if (t) out.add(t);
    }
    graph.set(file, [...out]);
  }
  return graph;
}

/** The strongly connected groups of two files or more, and files that import themselves (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('architecture: no import cycle in src/', () => {
  it('finds a cycle where there is one (the check itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cyclesOf(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('src/ has none, type imports included', () => {
    const graph = importGraph();
    // the scan sees the imports (a broken pattern would find no cycle anywhere)
    expect([...graph.values()].reduce((n, e) => n + e.length, 0)).toBeGreaterThan(1000);
    // and a lab's augmentation of the config's types (the Time entry imports nothing else of that module)
    expect(graph.get(join(SRC, 'core/labs/time/index.ts'))).toContain(join(SRC, 'core/config/types.ts'));
    expect(cyclesOf(graph).map((group) => group.map((f) => relative(SRC, f)).join(' ⇄ '))).toEqual([]);
  });
});
