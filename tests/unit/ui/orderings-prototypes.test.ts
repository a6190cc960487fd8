import { describe, expect, it } from 'vitest';
import { imageDatasetFor, imageDatasetNames, prototypesFallbackNote, prototypesKey, prototypesLabel } from '../../../src/ui/orderings/prototypes-source';

describe('image prototypes as a similarity source', () => {
  it('class lists with built-in images: Fashion-MNIST, MNIST names → the 8×8 digits, emoji', () => {
    expect(imageDatasetFor('fashion-mnist')?.id).toBe('fashion-mnist');
    expect(imageDatasetFor('mnist')?.id).toBe('digits');
    expect(imageDatasetFor('emoji')?.id).toBe('emoji');
    expect(imageDatasetFor('cifar100')).toBeNull();
    expect(imageDatasetFor('custom')).toBeNull();
    expect(imageDatasetNames()).toMatch(/Fashion-MNIST/);
  });
  it('the label says what the features are and how many images per class', () => {
    expect(prototypesLabel('Fashion-MNIST', [6000, 6000])).toBe(
      'Fashion-MNIST image prototypes (mean of the L2-normalised training images, 6\u2009000 per class)',
    );
    expect(prototypesLabel('Digits (8×8)', [142, 146])).toContain('142–146 per class');
    expect(prototypesKey('emoji', [3, 1])).toBe('emoji:3,1');
  });
  it('says why the page runs on WordNet while the prototypes are not there', () => {
    expect(prototypesFallbackNote('CIFAR-100', false, false)).toBe(`: CIFAR-100 has no images here (${imageDatasetNames()} do).`);
    expect(prototypesFallbackNote(null, false, false)).toMatch(/^: custom class names has no images here/);
    expect(prototypesFallbackNote('Fashion-MNIST', true, true)).toBe(': they could not be computed — see the message under Similarity → Image prototypes.');
    expect(prototypesFallbackNote('Fashion-MNIST', true, false)).toBe(' (reading the training images…).');
  });
});
