/**
 * WordNet Wu–Palmer similarity against independent reference values (tests/fixtures/wordnet-wup.json, made by
 * scripts/make-wordnet-fixtures.py: a separate Python re-implementation of NLTK's wup_similarity that parses
 * WordNet 3.1's dict files itself), sense picking, errors, and the built-in lists' pins.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { lookupSynsets, normaliseName, pickSense, wordnetSimilarity, wuPalmer } from '../../../../src/core/similarity/wordnet';
import { hasSynset, isWordnetGraph, synsetInfo, type WordnetGraph } from '../../../../src/core/similarity/wordnet-synsets';
import { matrixToRows } from '../../../../src/core/orderings/matrix';
import { BUILTIN_CLASS_LISTS, CIFAR10, CIFAR100, EMOJI, getClassList } from '../../../../src/core/classes/builtin';
import fixture from '../../../fixtures/wordnet-wup.json';

interface FixturePair {
  a: string;
  b: string;
  aName: string;
  bName: string;
  wup: number;
  wupSym: number;
  subsumer: string;
  why: string;
}
const pairs = fixture.pairs as FixturePair[];

let graph: WordnetGraph;

beforeAll(async () => {
  // The script is plain Node ESM without type declarations: import it through a computed specifier.
  const script = new URL('../../../../scripts/prepare-wordnet.mjs', import.meta.url).href;
  const mod = (await import(/* @vite-ignore */ script)) as { buildWordnetGraph: (dictDir?: string) => WordnetGraph };
  graph = mod.buildWordnetGraph();
});

describe('the pruned noun graph', () => {
  it('is well-formed: every WordNet 3.1 noun synset, one root (entity)', () => {
    expect(isWordnetGraph(graph)).toBe(true);
    expect(graph.count).toBe(82192);
    const roots = graph.hyp.map((h, k) => (Array.isArray(h) && h.length === 0 ? k : -1)).filter((k) => k >= 0);
    expect(roots).toHaveLength(1);
    expect(synsetInfo(graph, 'n00001740')).toMatchObject({ lemma: 'entity', name: 'entity.n.01', lexname: 'noun.Tops' });
  });

  it('matches public/data/wordnet-nouns.json when that file has been prepared', () => {
    const file = fileURLToPath(new URL('../../../../public/data/wordnet-nouns.json', import.meta.url));
    if (!existsSync(file)) return;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(graph);
  });

  it('is under 6 MB as JSON', () => {
    expect(Buffer.byteLength(JSON.stringify(graph))).toBeLessThan(6e6);
  });
});

describe('Wu–Palmer against the independent Python reference (NLTK conventions)', () => {
  it('has enough reference pairs of every kind', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(30);
    expect(pairs.filter((p) => p.why.startsWith('cifar10'))).toHaveLength(45);
    expect(pairs.some((p) => p.why.includes('instance'))).toBe(true);
    expect(pairs.some((p) => p.a === p.b)).toBe(true);
    expect(pairs.some((p) => p.why.startsWith('tied LCS'))).toBe(true);
    expect(pairs.some((p) => p.why.startsWith('asymmetric'))).toBe(true);
  });

  it.each(pairs.map((p) => [`${p.aName} / ${p.bName} (${p.why})`, p] as const))('%s', (_label, p) => {
    // { nltk: true } is exactly NLTK's a.wup_similarity(b); the default is the app's symmetric variant.
    expect(wuPalmer(graph, p.a, p.b, { nltk: true })).toBeCloseTo(p.wup, 12);
    expect(wuPalmer(graph, p.a, p.b)).toBeCloseTo(p.wupSym, 12);
    expect(wuPalmer(graph, p.b, p.a)).toBeCloseTo(p.wupSym, 12);
  });

  it('gives identical synsets 1 (NLTK itself gives dog.n.01 with itself 0.9286, issue #1030)', () => {
    const dog = pairs.find((p) => p.aName === 'dog.n.01' && p.bName === 'dog.n.01')!;
    expect(dog.wup).toBeCloseTo(0.9285714285714286, 12);
    expect(wuPalmer(graph, dog.a, dog.a)).toBe(1);
    for (const p of pairs.filter((q) => q.a === q.b)) expect(wuPalmer(graph, p.a, p.b)).toBe(1);
  });

  it('treats instance hypernyms as hypernyms (Einstein, Paris)', () => {
    const capitals = pairs.find((p) => p.why === 'instances: capitals')!;
    expect(synsetInfo(graph, capitals.a).instance).toBe(true);
    expect(wuPalmer(graph, capitals.a, capitals.b)).toBeCloseTo(capitals.wup, 12);
    expect(synsetInfo(graph, capitals.subsumer).lemma).toBe('national capital');
  });

  it('reproduces the CIFAR-10 matrix with the pinned synsets', () => {
    expect(fixture.cifar10.classes).toEqual(CIFAR10.classes);
    expect(fixture.cifar10.synsets).toEqual(CIFAR10.synsets);
    const { matrix, synsets } = wordnetSimilarity(graph, CIFAR10.classes, CIFAR10.synsets);
    const rows = matrixToRows(matrix);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) expect(rows[i][j]).toBeCloseTo(fixture.cifar10.matrix[i][j], 12);
      expect(rows[i][i]).toBe(1);
    }
    expect(synsets.every((s) => s.source === 'pinned')).toBe(true);
    expect(synsets[3]).toMatchObject({ name: 'cat', synsetId: 'n02124272', lemma: 'cat' });
    // automobile and truck are closer than automobile and cat
    expect(rows[1][9]).toBeGreaterThan(rows[1][3]);
  });
});

describe('lookup and sense picking', () => {
  it('normalises names and singularises with the morphy rules', () => {
    expect(normaliseName('  Maple   Tree ')).toBe('maple_tree');
    expect(lookupSynsets(graph, 'Sweet Pepper').forms).toEqual(['sweet_pepper']);
    expect(lookupSynsets(graph, 'pickup_truck').synsets).toEqual(['n03936868']);
    expect(lookupSynsets(graph, 'foxes').forms).toEqual(['fox']);
    expect(lookupSynsets(graph, 'churches').forms).toEqual(['church']);
    expect(lookupSynsets(graph, 'dishes').forms).toEqual(['dish']);
    expect(lookupSynsets(graph, 'boxes').forms).toEqual(['box']);
    expect(lookupSynsets(graph, 'berries').forms).toEqual(['berry']);
    expect(lookupSynsets(graph, 'women').forms).toEqual(['woman']);
    expect(lookupSynsets(graph, 'mice').forms).toEqual(['mouse']);
    expect(lookupSynsets(graph, 'glasses').forms).toEqual(['glasses', 'glass']);
    expect(lookupSynsets(graph, 'T-shirt/top').forms).toEqual(['t-shirt']);
    expect(lookupSynsets(graph, 'qwzx')).toEqual({ query: 'qwzx', forms: [], synsets: [] });
  });

  it('"tiger" is the big cat, not WordNet\'s first sense (a fierce person)', () => {
    const p = pickSense(graph, 'tiger')!;
    expect(p).toMatchObject({ synsetId: 'n02132256', lexname: 'noun.animal', sense: 2, source: 'picked' });
    expect(p.why).toContain('noun.person');
  });

  it('"apple" is the fruit (sense 1, noun.food) rather than the tree', () => {
    expect(pickSense(graph, 'apple')).toMatchObject({ synsetId: 'n07755101', lexname: 'noun.food', sense: 1 });
    expect(pickSense(graph, 'Apples')!.synsetId).toBe('n07755101');
  });

  it('"mouse" is the rodent: rodent and computer mouse are both concrete, WordNet lists the rodent first', () => {
    const p = pickSense(graph, 'mouse')!;
    expect(p).toMatchObject({ synsetId: 'n02332897', lexname: 'noun.animal', sense: 1, candidates: 4 });
    expect(p.why).toContain('first');
  });

  it("lets WordNet's sense order decide among concrete senses (why the built-in lists pin synsets)", () => {
    // Sealing wax (artefact) and the animal are both concrete, so sense 1 (the wax) wins; likewise the leopard's
    // pelt (substance) before the cat. Documented behaviour, not a wish.
    expect(pickSense(graph, 'seal')!.lexname).toBe('noun.artifact');
    expect(pickSense(graph, 'leopard')!.lexname).toBe('noun.substance'); // the pelt: sense 1 and concrete
  });

  it('falls back to the head noun for multi-word names WordNet lacks', () => {
    const p = pickSense(graph, 'aquarium fish')!;
    expect(p).toMatchObject({ source: 'head-noun', form: 'fish', synsetId: 'n02514684' });
    expect(p.why).toContain('head noun');
    expect(pickSense(graph, 'Black_footed_Albatross')!.source).toBe('picked'); // black-footed_albatross exists
    expect(pickSense(graph, 'Laysan_Albatross')).toMatchObject({ source: 'head-noun', form: 'albatross' });
  });

  it('returns null for a word WordNet does not know', () => {
    expect(pickSense(graph, 'qwzx')).toBeNull();
  });
});

describe('wordnetSimilarity', () => {
  it('reports head-noun and picked sources and mixes pins with picks', () => {
    const { matrix, synsets } = wordnetSimilarity(graph, ['tiger', 'aquarium fish', 'maple'], [undefined, null, 'n12772965']);
    expect(synsets.map((s) => s.source)).toEqual(['picked', 'head-noun', 'pinned']);
    expect(matrix.n).toBe(3);
    const named = wordnetSimilarity(graph, ['tiger', 'maple'], { maple: 'n12772965' });
    expect(named.synsets[1].synsetId).toBe('n12772965');
  });

  it('throws one error naming every unknown class and suggesting another spelling or an upload', () => {
    expect(() => wordnetSimilarity(graph, ['dog', 'qwzx', 'cat', 'blorfzz'])).toThrowError(/2 classes: "qwzx", "blorfzz".*spelling.*upload/s);
  });

  it('rejects pins that are not noun synsets of the graph', () => {
    expect(() => wordnetSimilarity(graph, ['dog', 'cat'], ['n99999999', 'v01234567'])).toThrowError(/"dog" → "n99999999".*"cat" → "v01234567"/);
    expect(() => wuPalmer(graph, 'n02086723', 'dog')).toThrowError(/Unknown WordNet 3.1 noun synset id "dog"/);
  });

  it('is symmetric with a unit diagonal and values in (0, 1] on CIFAR-100', () => {
    const { matrix } = wordnetSimilarity(graph, CIFAR100.classes, CIFAR100.synsets);
    const rows = matrixToRows(matrix);
    for (let i = 0; i < 100; i++) {
      expect(rows[i][i]).toBe(1);
      for (let j = 0; j < 100; j++) {
        expect(rows[i][j]).toBe(rows[j][i]);
        expect(rows[i][j]).toBeGreaterThan(0);
        expect(rows[i][j]).toBeLessThanOrEqual(1);
      }
    }
    const idx = (n: string) => CIFAR100.classes.indexOf(n);
    expect(rows[idx('tiger')][idx('leopard')]).toBeGreaterThan(rows[idx('tiger')][idx('tractor')]);
  });
});

describe('built-in class lists', () => {
  const counts: Record<string, number> = { cifar10: 10, cifar100: 100, mnist: 10, 'fashion-mnist': 10, cub200: 200, 'imagenet-r': 200 };

  it.each(BUILTIN_CLASS_LISTS.map((l) => [l.id, l] as const))('%s: every pin is a WordNet 3.1 noun synset', (_id, list) => {
    expect(list.synsets).toHaveLength(list.classes.length);
    if (counts[list.id] !== undefined) expect(list.classes).toHaveLength(counts[list.id]);
    else expect(list.classes.length).toBeGreaterThanOrEqual(100);
    expect(new Set(list.classes.map((c) => c.toLowerCase())).size).toBe(list.classes.length);
    const missing = list.synsets.filter((s) => !/^n\d{8}$/.test(s) || !hasSynset(graph, s));
    expect(missing).toEqual([]);
  });

  it("keeps the datasets' own label order", () => {
    expect(CIFAR100.classes.slice(0, 4)).toEqual(['apple', 'aquarium_fish', 'baby', 'bear']);
    expect(CIFAR100.classes[99]).toBe('worm');
    expect(getClassList('fashion-mnist').classes).toEqual([
      'T-shirt/top',
      'Trouser',
      'Pullover',
      'Dress',
      'Coat',
      'Sandal',
      'Shirt',
      'Sneaker',
      'Bag',
      'Ankle boot',
    ]);
    expect(getClassList('cub200').classes[0]).toBe('Black_footed_Albatross');
    expect(getClassList('cub200').classes[199]).toBe('Common_Yellowthroat');
    expect(getClassList('imagenet-r').classes[0]).toBe('goldfish');
    expect(getClassList('imagenet-r').classes[199]).toBe('acorn');
  });

  it('pins the intended senses of the classic traps', () => {
    const pin = (listId: string, name: string) => {
      const l = getClassList(listId);
      return synsetInfo(graph, l.synsets[l.classes.indexOf(name)]);
    };
    expect(pin('cifar100', 'tiger').lexname).toBe('noun.animal');
    expect(pin('cifar100', 'seal').lexname).toBe('noun.animal');
    expect(pin('cifar100', 'ray').lexname).toBe('noun.animal');
    expect(pin('cifar100', 'mouse').lexname).toBe('noun.animal');
    expect(pin('cifar100', 'apple').lexname).toBe('noun.food');
    expect(pin('cifar100', 'maple_tree').lemma).toBe('maple');
    expect(pin('mnist', 'seven').lemmas).toContain('7');
    expect(pin('imagenet-r', 'scarf').lemma).toBe('stole');
  });

  it('describes each emoji class with its code point', () => {
    expect(EMOJI.emoji).toHaveLength(EMOJI.classes.length);
    for (const e of EMOJI.emoji) {
      expect(e.emoji.codePointAt(0)).toBe(parseInt(e.codepoint, 16));
      expect(e.group.length).toBeGreaterThan(0);
      expect(e.subgroup.length).toBeGreaterThan(0);
    }
    expect(EMOJI.emoji.find((e) => e.name === 'dog')).toMatchObject({ emoji: '🐕', codepoint: '1F415' });
    expect(EMOJI.emoji.find((e) => e.name === 'airplane')!.emoji).toBe('✈️');
  });

  it('getClassList names the valid ids for an unknown one', () => {
    expect(getClassList('CIFAR10').id).toBe('cifar10');
    expect(() => getClassList('cifar1000')).toThrowError(
      'Unknown class list "cifar1000". Valid ids: cifar10, cifar100, mnist, fashion-mnist, cub200, imagenet-r, emoji.',
    );
  });
});
