import { describe, expect, it } from 'vitest';
import { compactConfig, defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';
import { classNameProblem, OWN_CLASSES_FILL, OWN_LIMITS, ownClassesOf } from '../../../../src/core/labs/own-classes/section';

describe('config section: ownClasses', () => {
  it('is absent by default; a section equal to the fill-in leaves the compact form and hash alone', () => {
    const d = defaultConfig();
    expect(d.ownClasses).toBeUndefined();
    expect(ownClassesOf(d)).toEqual(OWN_CLASSES_FILL);
    const same = validateConfig({ ownClasses: { trainPerClass: 30, strategy: 'finetune' } });
    expect(same.errors).toEqual([]);
    expect(same.config.ownClasses).toBeUndefined();
    expect(configHash(same.config)).toBe(configHash(d));
    expect('ownClasses' in compactConfig(d)).toBe(false);
  });

  it('keeps the classes, sizes, strategy and encoder it is given', () => {
    const r = validateConfig({
      lab: 'own-classes',
      ownClasses: {
        classes: ['mug', 'red pen', 'Käse 🧀'],
        testPerClass: 5,
        strategy: 'simplecil',
        encoder: { model: 'clip-vision-tiny', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } },
      },
    });
    expect(r.errors).toEqual([]);
    const o = ownClassesOf(r.config);
    expect(o.classes).toEqual(['mug', 'red pen', 'Käse 🧀']);
    expect(o.testPerClass).toBe(5);
    expect(o.strategy).toBe('simplecil');
    expect(o.encoder).toEqual({ source: 'encoder', model: 'clip-vision-tiny', precision: 'q8', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } });
    expect(configHash(r.config)).not.toBe(configHash(defaultConfig()));
  });

  it('refuses the embedded backbone, pixels and uploads with the reason', () => {
    const errs = (source: string) => validateConfig({ ownClasses: { encoder: { source } } }).errors;
    expect(errs('backbone')[0].path).toBe('ownClasses.encoder.source');
    expect(errs('backbone')[0].message).toMatch(/pre-trained on the built-in datasets.*not on photos/);
    expect(errs('pixels')[0].message).toMatch(/frozen image encoder/);
    expect(errs('upload')[0].message).toMatch(/no feature file/);
  });

  it('bounds and checks the user text of class names', () => {
    const paths = (v: unknown): string[] => validateConfig({ ownClasses: v }).errors.map((e) => e.path);
    expect(paths({ classes: ['a', 'a'] })).toEqual(['ownClasses.classes.1']);
    expect(paths({ classes: ['x'.repeat(41)] })).toEqual(['ownClasses.classes.0']);
    expect(paths({ classes: ['a/b'] })).toEqual(['ownClasses.classes.0']);
    expect(paths({ classes: ['<img src=x onerror=alert(1)>'] })).toEqual([]); // shown as text, never HTML
    expect(paths({ classes: Array.from({ length: 9 }, (_, i) => `c${i}`) })).toEqual(['ownClasses.classes']);
    expect(paths({ trainPerClass: 1 })).toEqual(['ownClasses.trainPerClass']);
    expect(paths({ strategy: 'ewc' })).toEqual(['ownClasses.strategy']);
    expect(paths({ colour: 1 })).toEqual(['ownClasses.colour']);
    expect(classNameProblem('')).toMatch(/name/);
    expect(classNameProblem(' mug')).toMatch(/spaces/);
    expect(classNameProblem('a\nb')).toMatch(/control/);
    expect(classNameProblem('.hidden')).toMatch(/folder/);
    expect(classNameProblem('mug', ['mug'])).toMatch(/already/);
    expect(classNameProblem('mug')).toBeNull();
  });

  it('keeps CLIP text settings for EDGE on the class names, checked as the similarity section checks them', () => {
    const r = validateConfig({
      ownClasses: { classes: ['mug', 'pen'], names: { model: 'cil-lab/clip-tiny', weights: { kind: 'self-hosted', path: '/models/' } } },
    });
    expect(r.errors).toEqual([]);
    expect(ownClassesOf(r.config).names).toEqual({
      model: 'cil-lab/clip-tiny',
      dtype: 'q8',
      prompt: { kind: 'bare' },
      weights: { kind: 'self-hosted', path: '/models/' },
    });
    const without = validateConfig({ ownClasses: { classes: ['mug', 'pen'] } });
    expect(configHash(r.config)).not.toBe(configHash(without.config));
    expect(ownClassesOf(without.config).names).toBeUndefined();
    const paths = (v: unknown): string[] => validateConfig({ ownClasses: { names: v } }).errors.map((e) => e.path);
    expect(paths('clip')).toEqual(['ownClasses.names']);
    expect(paths({ model: 'no id' })).toEqual(['ownClasses.names.model']);
    expect(paths({ dtype: 'fp16' })).toEqual(['ownClasses.names.dtype']);
    expect(paths({ prompt: { kind: 'template', template: 'no slot' } })).toEqual(['ownClasses.names.prompt.template']);
    expect(paths({ kind: 'clip' })).toEqual(['ownClasses.names.kind']);
  });

  it('takes a hundred classes with a closed-form strategy, the trained head at most 8, and bounds the whole set', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    for (const strategy of ['simplecil', 'ncm', 'fecam', 'ranpac']) {
      const r = validateConfig({ ownClasses: { classes: names(100), strategy, trainPerClass: 40, testPerClass: 10 } });
      expect(r.errors, strategy).toEqual([]);
      expect(ownClassesOf(r.config).classes).toHaveLength(100);
    }
    const head = validateConfig({ ownClasses: { classes: names(9), strategy: 'replay' } }).errors;
    expect(head.map((e) => e.path)).toEqual(['ownClasses.classes']);
    expect(head[0].message).toMatch(
      /Replay trains its head again for every class, so it takes at most 8 classes; this has 9\. SimpleCIL, NCM, FeCAM and RanPAC take up to 128/,
    );
    expect(validateConfig({ ownClasses: { classes: names(129), strategy: 'simplecil' } }).errors.map((e) => e.path)).toEqual(['ownClasses.classes']);
    const big = validateConfig({ ownClasses: { classes: names(128), strategy: 'simplecil', trainPerClass: 41, testPerClass: 10 } }).errors;
    expect(big.map((e) => e.path)).toEqual(['ownClasses.trainPerClass']);
    expect(big[0].message).toMatch(/6 528 samples; the lab keeps at most 6 400/);
    // every link the first release accepted still opens: 8 classes of 200 + 100
    expect(validateConfig({ ownClasses: { classes: names(8), trainPerClass: 200, testPerClass: 100 } }).errors).toEqual([]);
    expect(OWN_LIMITS.samples).toBeGreaterThanOrEqual(8 * 300);
  });

  it('records frames at the rate asked, 8 a second when the link does not say (and then leaves it out)', () => {
    expect(OWN_CLASSES_FILL.fps).toBe(8);
    const r = validateConfig({ ownClasses: { classes: ['mug'], fps: 15 } });
    expect(r.errors).toEqual([]);
    expect(ownClassesOf(r.config).fps).toBe(15);
    const plain = validateConfig({ ownClasses: { classes: ['mug'] } });
    expect((compactConfig(plain.config).ownClasses as Record<string, unknown>).fps).toBeUndefined();
    expect(validateConfig({ ownClasses: { fps: 31 } }).errors.map((e) => e.path)).toEqual(['ownClasses.fps']);
    expect(validateConfig({ ownClasses: { fps: 0 } }).errors.map((e) => e.path)).toEqual(['ownClasses.fps']);
  });
});
