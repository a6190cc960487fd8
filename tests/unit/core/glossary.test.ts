// The glossary (src/core/glossary.ts) and every <Term key="…"> in src/: each key a page uses must be in the glossary,
// and every entry points at a section that exists in docs/science.md or docs/design.md.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY, GLOSSARY_KEYS, glossaryEntry, isGlossaryKey, searchGlossary } from '../../../src/core/glossary';

const root = join(__dirname, '../../..');

function svelteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? svelteFiles(p) : p.endsWith('.svelte') ? [p] : [];
  });
}

describe('glossary', () => {
  it('every <Term key> used in src/ is a glossary key', () => {
    const used: Array<{ file: string; key: string }> = [];
    for (const file of svelteFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/<Term\b[^>]*?\bkey=(?:"([^"]*)"|'([^']*)'|\{([^}]*)\})/g)) {
        const key = m[1] ?? m[2];
        // a computed key ({expr}): a string literal is checked here; other expressions come from a table of terms
        // (src/core/verdict/terms.ts), checked below
        if (key === undefined) {
          const lit = /^\s*['"]([^'"]+)['"]\s*$/.exec(m[3] ?? '');
          if (lit) used.push({ file, key: lit[1] });
        } else used.push({ file, key });
      }
    }
    // the verdicts' table of terms (key → the words it marks in a sentence)
    const tables = [join(root, 'src/core/verdict/terms.ts')].filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    });
    for (const file of tables) for (const m of readFileSync(file, 'utf8').matchAll(/\bkey: '([^']+)'/g)) used.push({ file, key: m[1] });
    expect(used.length).toBeGreaterThan(20); // the labs do use it
    const unknown = used.filter((u) => !isGlossaryKey(u.key)).map((u) => `${u.file.slice(root.length + 1)}: ${u.key}`);
    expect(unknown).toEqual([]);
  });

  it('every entry has a term, a name, an explanation of a sentence or more, and a reference to a real section', () => {
    const science = readFileSync(join(root, 'docs/science.md'), 'utf8');
    const design = readFileSync(join(root, 'docs/design.md'), 'utf8');
    const headings = (md: string) => [...md.matchAll(/^#+ (.*)$/gm)].map((m) => m[1]);
    const scienceHeads = headings(science);
    const designHeads = headings(design);
    for (const key of GLOSSARY_KEYS) {
      const e = glossaryEntry(key);
      expect(e.term.length, key).toBeGreaterThan(0);
      expect(e.name.length, key).toBeGreaterThan(0);
      expect(e.explain, key).toMatch(/\.$/);
      expect(e.explain.length, key).toBeGreaterThan(30);
      expect(e.explain.length, key).toBeLessThan(330);
      expect(e.explain, key).not.toMatch(/[<>]/); // plain text
      const m = /^docs\/(science|design)\.md(?:,? (?:§(\w+))?(?:,? ?(.*))?)?$/.exec(e.ref);
      expect(m, `${key}: ${e.ref}`).not.toBeNull();
      const [, file, section, part] = m!;
      const heads = file === 'science' ? scienceHeads : designHeads;
      if (section) {
        const n = /^\d+$/.test(section) ? `${section}.` : `${section}.`;
        expect(
          heads.some((h) => h.startsWith(n)),
          `${key}: §${section} in ${file}.md`,
        ).toBe(true);
      }
      if (part) {
        // "appendix A, Strategies" → the heading "Strategies"; "Distances" → "Distances between …"
        const name = part.replace(/^appendix \w+, /, '');
        expect(
          heads.some((h) => h.startsWith(name) || h.includes(name)),
          `${key}: "${name}" in ${file}.md`,
        ).toBe(true);
      }
    }
  });

  it('unknown keys throw', () => {
    expect(() => glossaryEntry('no-such-term')).toThrow(/no-such-term/);
    expect(isGlossaryKey('toString')).toBe(false);
  });

  it('search finds symbols by their spelled-out names and ranks term matches first', () => {
    expect(searchGlossary('').length).toBe(GLOSSARY_KEYS.length);
    expect(searchGlossary('omega').map((r) => r.key)).toContain('omega');
    expect(searchGlossary('omega')[0].key).toMatch(/^omega/);
    expect(searchGlossary('a_prev')[0].key).toBe('a-prev-new');
    expect(searchGlossary('JSD')[0].key).toBe('jsd');
    expect(searchGlossary('auroc coin flip').map((r) => r.key)).toEqual(['auroc']);
    expect(searchGlossary('zzzz-nothing')).toEqual([]);
    // "bits" is only in explanations: the JSD entry is found through its body
    expect(searchGlossary('bits').map((r) => r.key)).toContain('jsd');
  });

  it("the issue's terms are all there", () => {
    for (const k of [
      'omega',
      's',
      'gap',
      'edge',
      'edge-plus',
      'rs',
      'as-ms',
      'csg',
      'omega-prev',
      'alpha-ideal',
      'jsd',
      'cpcf',
      'a-prev-new',
      'coverage',
      'set-size',
      'dcor',
      'auroc',
      'fpr95',
      'id-ood',
      'aia',
      'final-accuracy',
      'prefix-sharing',
      'teaching-mode',
    ])
      expect(GLOSSARY, k).toHaveProperty(k);
  });
});

describe('glossary: the lab filter', () => {
  it('keeps the entries a lab uses and those without a lab list', () => {
    const all = searchGlossary('');
    const ow = searchGlossary('', 'open-world');
    expect(ow.length).toBeLessThan(all.length);
    expect(ow.every((x) => !x.entry.labs || x.entry.labs.includes('open-world'))).toBe(true);
    expect(ow.some((x) => x.entry.labs?.includes('open-world'))).toBe(true);
    expect(searchGlossary('', 'orderings').some((x) => x.entry.labs?.includes('open-world'))).toBe(false);
  });
});
