#!/usr/bin/env node
// Prints every pinned WordNet synset of the built-in class lists (src/core/classes/builtin.ts) with its
// lemmas, lexicographer file and full gloss, read straight from WordNet 3.1's data.noun, so a human can review
// that each class got the intended sense. Exits 1 if a pin is not a noun synset of WordNet 3.1.
//
//   node scripts/check-pins.mjs                 # all lists
//   node scripts/check-pins.mjs cifar100 emoji  # some lists
//   node scripts/check-pins.mjs --differs       # only pins whose lemmas do not contain the class name
//
// Marks: "=" the class name (normalised) is one of the synset's lemmas; "~" it is not (a genus/family pin,
// a synonym, or a sense chosen by gloss) — read those glosses.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { LEXNAMES, DEFAULT_DICT_DIR } from './prepare-wordnet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const differsOnly = args.includes('--differs');
const wanted = args.filter((a) => !a.startsWith('--'));

const { BUILTIN_CLASS_LISTS } = await tsImport(join(root, 'src/core/classes/builtin.ts'), import.meta.url);

const synsets = new Map();
for (const line of readFileSync(join(DEFAULT_DICT_DIR, 'data.noun'), 'utf8').split('\n')) {
  if (line === '' || line.startsWith('  ')) continue;
  const bar = line.indexOf(' | ');
  const head = line.slice(0, bar).split(' ');
  const words = [];
  for (let i = 0; i < parseInt(head[3], 16); i++) words.push(head[4 + 2 * i]);
  synsets.set('n' + head[0], { lex: LEXNAMES[Number(head[1])], words, gloss: line.slice(bar + 3).trim() });
}

const norm = (s) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
let bad = 0;
let shown = 0;
for (const list of BUILTIN_CLASS_LISTS) {
  if (wanted.length && !wanted.includes(list.id)) continue;
  console.log(`\n== ${list.id} (${list.name}): ${list.classes.length} classes`);
  list.classes.forEach((name, i) => {
    const id = list.synsets[i];
    const s = synsets.get(id);
    if (!s) {
      bad++;
      console.log(`${String(i).padStart(3)} ! ${name}: ${id} is not a WordNet 3.1 noun synset`);
      return;
    }
    const same = s.words.some((w) => norm(w) === norm(name));
    if (differsOnly && same) return;
    shown++;
    console.log(
      `${String(i).padStart(3)} ${same ? '=' : '~'} ${name.padEnd(30)} ${id} ${s.lex.padEnd(17)} ${s.words.join(', ')}\n` + `${' '.repeat(6)}${s.gloss}`,
    );
  });
}
console.log(`\n${shown} pins shown${bad ? `, ${bad} INVALID` : ', all valid noun synsets'}.`);
process.exit(bad ? 1 : 0);
