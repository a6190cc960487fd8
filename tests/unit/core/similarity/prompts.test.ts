import { describe, expect, it } from 'vitest';
import {
  CAPTION_PROMPT_TEMPLATE,
  PromptError,
  descriptionFor,
  promptLabel,
  promptText,
  promptTexts,
  validatePromptSpec,
  validateTemplate,
  type PromptSpec,
} from '../../../../src/core/similarity/prompts';

describe('promptText', () => {
  it("bare = the class name exactly as given, underscores kept (the EDGE authors' clip.tokenize(name))", () => {
    expect(promptText('lawn_mower')).toBe('lawn_mower');
    expect(promptText('lawn_mower', { kind: 'bare' })).toBe('lawn_mower');
    expect(promptText('Black footed Albatross', { kind: 'bare' })).toBe('Black footed Albatross');
    expect(promptText('lawn_mower', { kind: 'bare', underscores: 'space' })).toBe('lawn mower');
  });

  it('template = the name in place of {}, underscores as spaces by default', () => {
    const spec: PromptSpec = { kind: 'template', template: 'a photo of a {}' };
    expect(promptText('lawn_mower', spec)).toBe('a photo of a lawn mower');
    expect(promptText('cat', spec)).toBe('a photo of a cat');
    expect(promptText('maple__tree', spec)).toBe('a photo of a maple tree');
    expect(promptText('lawn_mower', { ...spec, underscores: 'keep' })).toBe('a photo of a lawn_mower');
    expect(promptText('cat', { kind: 'template', template: '{}' })).toBe('cat');
    expect(promptText('cat', { kind: 'template', template: '  {}, a type of pet.  ' })).toBe('cat, a type of pet.');
  });

  it('a class name with $ patterns is inserted literally', () => {
    expect(promptText("$& $1 $'", { kind: 'template', template: 'a {} here' })).toBe("a $& $1 $' here");
  });

  it('descriptions (paper App. E.3.2) replace the name; classes without one fall back to the template, else bare', () => {
    const descriptions = {
      Melanoma: '  Irregular   dark brown-black lesion with uneven borders and varied pigmentation on skin. ',
      nevi: 'Small round uniformly brown mole with smooth symmetric borders.',
      'Basal cell carcinoma': '   ',
    };
    const withTemplate: PromptSpec = { kind: 'descriptions', descriptions, template: 'a dermoscopy photo of {}' };
    expect(promptText('Melanoma', withTemplate)).toBe('Irregular dark brown-black lesion with uneven borders and varied pigmentation on skin.');
    expect(promptText('Nevi', withTemplate)).toBe('Small round uniformly brown mole with smooth symmetric borders.');
    expect(promptText('Basal cell carcinoma', withTemplate)).toBe('a dermoscopy photo of Basal cell carcinoma');
    expect(promptText('vascular_lesion', withTemplate)).toBe('a dermoscopy photo of vascular lesion');
    const noTemplate: PromptSpec = { kind: 'descriptions', descriptions };
    expect(promptText('vascular_lesion', noTemplate)).toBe('vascular_lesion');
  });

  it('descriptionFor matches exactly first, then ignoring case, spaces, underscores and hyphens', () => {
    const d = { 'maple tree': 'A tree with lobed leaves.', maple_tree: 'exact key wins' };
    expect(descriptionFor('maple_tree', d)).toBe('exact key wins');
    expect(descriptionFor('Maple-Tree', d)).toBe('A tree with lobed leaves.');
    expect(descriptionFor('oak', d)).toBeUndefined();
  });

  it('promptTexts maps every class and validates once', () => {
    expect(promptTexts(['cat', 'sweet_pepper'], { kind: 'template', template: 'a photo of a {}.' })).toEqual([
      'a photo of a cat.',
      'a photo of a sweet pepper.',
    ]);
    expect(() => promptTexts(['cat'], { kind: 'template', template: 'a photo' })).toThrow(PromptError);
  });

  it('labels specs for output and cache keys', () => {
    expect(promptLabel({ kind: 'bare' })).toBe('bare');
    expect(promptLabel({ kind: 'template', template: ' a photo of a {} ' })).toBe('template:a photo of a {}');
    expect(promptLabel({ kind: 'descriptions', descriptions: { a: 'x', b: 'y' }, template: 'a {}' })).toBe('descriptions(2)+template:a {}');
    expect(promptLabel({ kind: 'bare', underscores: 'space' })).toBe('bare;underscores=space');
  });

  it('keeps the paper caption prompt for the UI', () => {
    expect(CAPTION_PROMPT_TEMPLATE).toMatch(/^Generate one concise, visually descriptive caption \(8–20 words\)/);
  });
});

describe('template validation: exactly one {}', () => {
  it('accepts one {}', () => {
    expect(validateTemplate(' a photo of a {} ')).toBe('a photo of a {}');
  });
  it('rejects none, two, other placeholders and blanks with a clear sentence', () => {
    expect(() => validateTemplate('a photo of a')).toThrow(
      'The prompt template "a photo of a" has no {} where the class name goes; write e.g. "a photo of a {}".',
    );
    expect(() => validateTemplate('a {} and a {}')).toThrow('The prompt template "a {} and a {}" has 2 {}; it needs exactly one, where the class name goes.');
    expect(() => validateTemplate('a photo of a {name}')).toThrow(
      'The prompt template "a photo of a {name}" uses {name}; write {} where the class name goes, e.g. "a photo of a {}".',
    );
    expect(() => validateTemplate('   ')).toThrow('The prompt template is empty; write e.g. "a photo of a {}".');
    expect(() => validateTemplate(3 as never)).toThrow(PromptError);
  });
  it('validatePromptSpec checks kinds, descriptions and the fallback template', () => {
    expect(() => validatePromptSpec({ kind: 'descriptions', descriptions: { a: 'x' }, template: 'no slot' })).toThrow(/has no \{\}/);
    expect(() => validatePromptSpec({ kind: 'descriptions', descriptions: { a: 3 as never } })).toThrow('The description of "a" is not text.');
    expect(() => validatePromptSpec({ kind: 'descriptions', descriptions: [] as never })).toThrow(/must be an object/);
    expect(() => validatePromptSpec({ kind: 'caption' } as never)).toThrow('Unknown prompt kind "caption": use bare, template or descriptions.');
    expect(() => validatePromptSpec({ kind: 'bare', underscores: 'dash' as never })).toThrow(/Unknown underscore rule "dash"/);
    expect(validatePromptSpec({ kind: 'bare' })).toEqual({ kind: 'bare' });
  });
});
