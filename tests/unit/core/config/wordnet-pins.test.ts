/** The experiment's WordNet pins, as the Orderings lab, the Ground-truth lab and the CLI resolve them (src/core/config/wordnet-pins.ts). */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { wordnetPinsFor, wordnetPinsOf } from '../../../../src/core/config/wordnet-pins';

const valid = (c: unknown) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('WordNet pins', () => {
  it('WordNet pins: the config pins a class by name, else the class list’s synset', () => {
    const c = valid({ ...defaultConfig(), similarity: { kind: 'wordnet', pins: { Bag: 'n02773037' } } });
    expect(wordnetPinsFor(wordnetPinsOf(c), ['Trouser', 'Bag'], ['n1', 'n2'])).toEqual(['n1', 'n02773037']);
    const clip = valid({
      ...defaultConfig(),
      similarity: { kind: 'clip', model: 'Xenova/clip-vit-base-patch32', dtype: 'q8', prompt: { kind: 'bare' }, weights: { kind: 'hub' } },
    });
    expect(wordnetPinsOf(clip)).toEqual({});
  });
});
