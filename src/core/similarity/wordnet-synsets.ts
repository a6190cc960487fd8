/**
 * The offline WordNet noun graph as this app reads it: its serialised format (written by
 * scripts/prepare-wordnet.mjs, columnar format documented there), a check that an object is one, and the lookup
 * tables built from it (synset ids, parents, the lemma index, depths, NLTK names) that wordnet.ts's lookup,
 * sense picking and Wu–Palmer work on.
 *
 * Pure TypeScript: no DOM, no fs. The first use of a graph object builds the tables and caches them in a WeakMap
 * keyed by the object.
 *
 * Synset ids are WordNet 3.1 noun ids: "n" + the 8-digit data.noun offset, e.g. "n02132256" (tiger, the cat).
 */
/** The serialised graph written by scripts/prepare-wordnet.mjs (format "cil-lab/wordnet-nouns", version 1). */
export interface WordnetGraph {
  format: 'cil-lab/wordnet-nouns';
  version: 1;
  source?: string;
  lexnames: string[];
  count: number;
  /** data.noun offsets, delta-coded (first absolute). */
  offset: number[];
  /** lexicographer file number per synset (index into lexnames). */
  lex: number[];
  /** parents per synset: p ≥ 0 hypernym at position p; p < 0 instance hypernym at position −p−1. */
  hyp: Array<number | number[]>;
  /** space-separated lemmas, first = display lemma; "#n" suffix = sense number n ≥ 2 of that lemma. */
  lemmas: string[];
  /** definition, ≤ 80 characters; "" where omitted (synsets of monosemous lemmas only). */
  gloss: string[];
}

/** Does `x` look like a WordNet noun graph this module can read? */
export function isWordnetGraph(x: unknown): x is WordnetGraph {
  if (typeof x !== 'object' || x === null) return false;
  const g = x as Partial<WordnetGraph>;
  return (
    g.format === 'cil-lab/wordnet-nouns' &&
    g.version === 1 &&
    typeof g.count === 'number' &&
    [g.offset, g.lex, g.hyp, g.lemmas, g.gloss].every((c) => Array.isArray(c) && c.length === g.count)
  );
}

export interface SynsetInfo {
  /** "n" + 8-digit offset, e.g. "n02132256". */
  id: string;
  /** first lemma, with spaces for underscores (for display). */
  lemma: string;
  /** all lemmas, WordNet spelling (underscores). */
  lemmas: string[];
  /** short definition ("" when the graph omits it). */
  gloss: string;
  /** lexicographer file, e.g. "noun.animal". */
  lexname: string;
  /** NLTK's synset name, e.g. "tiger.n.02". */
  name: string;
  /** true when every parent is an instance hypernym (a named individual: a person, a city, a river…). */
  instance: boolean;
}

/* ------------------------------------------------------------------------------------------------ */
/* Hydration                                                                                          */
/* ------------------------------------------------------------------------------------------------ */

export interface Hydrated {
  g: WordnetGraph;
  ids: string[];
  pos: Map<string, number>;
  /** CSR parents (hypernyms and instance hypernyms). */
  parentStart: Int32Array;
  parents: Int32Array;
  instanceOnly: Uint8Array;
  /** lower-cased lemma → synset positions in sense order. */
  index: Map<string, number[]>;
  minDepth: Int32Array;
  maxDepth: Int32Array;
  names: (string | undefined)[];
  distCache: Map<number, Map<number, number>>;
}

const hydrated = new WeakMap<WordnetGraph, Hydrated>();

export function hydrate(g: WordnetGraph): Hydrated {
  const cached = hydrated.get(g);
  if (cached) return cached;
  if (!isWordnetGraph(g)) {
    throw new Error('Not a WordNet noun graph (expected format "cil-lab/wordnet-nouns" v1 from scripts/prepare-wordnet.mjs)');
  }
  const n = g.count;
  const ids = new Array<string>(n);
  const pos = new Map<string, number>();
  let off = 0;
  for (let k = 0; k < n; k++) {
    off += g.offset[k];
    const id = 'n' + String(off).padStart(8, '0');
    ids[k] = id;
    pos.set(id, k);
  }
  const parentStart = new Int32Array(n + 1);
  const list: number[] = [];
  const instanceOnly = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    parentStart[k] = list.length;
    const h = g.hyp[k];
    const ps = typeof h === 'number' ? [h] : h;
    let anyPlain = false;
    for (const p of ps) {
      if (p >= 0) {
        list.push(p);
        anyPlain = true;
      } else list.push(-p - 1);
    }
    instanceOnly[k] = ps.length > 0 && !anyPlain ? 1 : 0;
  }
  parentStart[n] = list.length;
  const parents = Int32Array.from(list);

  const index = new Map<string, number[]>();
  for (let k = 0; k < n; k++) {
    const seen = new Set<string>();
    for (const tok of g.lemmas[k].split(' ')) {
      const hash = tok.lastIndexOf('#');
      const key = (hash >= 0 ? tok.slice(0, hash) : tok).toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const sense = hash >= 0 ? Number(tok.slice(hash + 1)) : 1;
      let arr = index.get(key);
      if (!arr) index.set(key, (arr = []));
      arr[sense - 1] = k;
    }
  }

  // Depths: parents need not precede children in file order, so memoise with an explicit stack.
  const minDepth = new Int32Array(n).fill(-1);
  const maxDepth = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  for (let k = 0; k < n; k++) {
    if (minDepth[k] >= 0) continue;
    stack.push(k);
    while (stack.length) {
      const s = stack[stack.length - 1];
      let ready = true;
      for (let i = parentStart[s]; i < parentStart[s + 1]; i++) {
        if (minDepth[parents[i]] < 0) {
          ready = false;
          stack.push(parents[i]);
        }
      }
      if (!ready) {
        if (stack.length > 4 * n) throw new Error('WordNet graph has a hypernym cycle');
        continue;
      }
      stack.pop();
      if (minDepth[s] >= 0) continue;
      if (parentStart[s] === parentStart[s + 1]) {
        minDepth[s] = 0;
        maxDepth[s] = 0;
      } else {
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = parentStart[s]; i < parentStart[s + 1]; i++) {
          lo = Math.min(lo, minDepth[parents[i]]);
          hi = Math.max(hi, maxDepth[parents[i]]);
        }
        minDepth[s] = lo + 1;
        maxDepth[s] = hi + 1;
      }
    }
  }
  const h: Hydrated = {
    g,
    ids,
    pos,
    parentStart,
    parents,
    instanceOnly,
    index,
    minDepth,
    maxDepth,
    names: new Array(n),
    distCache: new Map(),
  };
  hydrated.set(g, h);
  return h;
}

export function lexname(h: Hydrated, k: number): string {
  return h.g.lexnames[h.g.lex[k]] ?? `lex${h.g.lex[k]}`;
}

function firstLemmaToken(h: Hydrated, k: number): { lemma: string; sense: number } {
  const lemmas = h.g.lemmas[k];
  const sp = lemmas.indexOf(' ');
  const tok = sp >= 0 ? lemmas.slice(0, sp) : lemmas;
  const hash = tok.lastIndexOf('#');
  return hash >= 0 ? { lemma: tok.slice(0, hash), sense: Number(tok.slice(hash + 1)) } : { lemma: tok, sense: 1 };
}

/** NLTK's synset name: first lemma lower-cased, ".n.", its sense number with two digits. */
export function nltkName(h: Hydrated, k: number): string {
  let name = h.names[k];
  if (name === undefined) {
    const { lemma, sense } = firstLemmaToken(h, k);
    name = `${lemma.toLowerCase()}.n.${String(sense).padStart(2, '0')}`;
    h.names[k] = name;
  }
  return name;
}

/** The gloss, or where the graph omits it (monosemous lemmas), the lexicographer file and the other lemmas. */
export function displayGloss(inf: SynsetInfo): string {
  if (inf.gloss) return inf.gloss;
  const others = inf.lemmas.slice(1).map((l) => l.replace(/_/g, ' '));
  return `(${inf.lexname.replace(/^noun\./, '')}${others.length ? `: ${others.join(', ')}` : ''})`;
}

export function info(h: Hydrated, k: number): SynsetInfo {
  const lemmas = h.g.lemmas[k].split(' ').map((t) => {
    const hash = t.lastIndexOf('#');
    return hash >= 0 ? t.slice(0, hash) : t;
  });
  return {
    id: h.ids[k],
    lemma: lemmas[0].replace(/_/g, ' '),
    lemmas,
    gloss: h.g.gloss[k],
    lexname: lexname(h, k),
    name: nltkName(h, k),
    instance: h.instanceOnly[k] === 1,
  };
}

export function position(h: Hydrated, id: string): number {
  const k = h.pos.get(id);
  if (k === undefined) throw new Error(`Unknown WordNet 3.1 noun synset id "${id}" (expected "n" + 8 digits, e.g. "n02132256")`);
  return k;
}

/** Lemma, gloss, lexicographer file and NLTK name of a synset id. */
export function synsetInfo(graph: WordnetGraph, id: string): SynsetInfo {
  const h = hydrate(graph);
  return info(h, position(h, id));
}

/** Is `id` a noun synset of this graph? */
export function hasSynset(graph: WordnetGraph, id: string): boolean {
  return hydrate(graph).pos.has(id);
}
