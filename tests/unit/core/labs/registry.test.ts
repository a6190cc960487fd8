// The lab registry (src/core/labs): every list of labs in the app, the config and the CLI is read from it.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../../src/cli/commands';
import { LABS, LAB_IDS, LAB_NAMES, TRAINING_LABS, labEntry } from '../../../../src/core/labs';
import { SECTION_KEYS } from '../../../../src/core/config/sections';
import { defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { GLOSSARY_KEYS, glossaryEntry } from '../../../../src/core/glossary';
import { LAB_QUESTIONS } from '../../../../src/shell/intro';

describe('the lab registry', () => {
  it('has one entry per id, in the order of the tabs', () => {
    expect(new Set(LAB_IDS).size).toBe(LABS.length);
    expect(LAB_IDS).toEqual(['orderings', 'ground-truth', 'forgetting', 'time', 'open-world', 'curriculum', 'own-classes']);
    expect(LAB_NAMES['ground-truth']).toBe('Ground-truth');
    expect(TRAINING_LABS).toEqual(['ground-truth', 'forgetting']);
    expect(labEntry('time').paper.paper.tag).toBe('CLEAR');
  });

  it('gives the config one section per field: the common ones, each lab’s own, then the app’s', () => {
    const fields = Object.keys(defaultConfig()).filter((k) => k !== 'version');
    expect([...SECTION_KEYS].sort()).toEqual(fields.sort());
    const own = LABS.flatMap((l) => Object.keys(l.sections));
    expect(new Set(own).size).toBe(own.length); // a section belongs to one lab
    expect(SECTION_KEYS.slice(-2)).toEqual(['backend', 'ui']);
    // the Orderings lab's `protocols` keeps its place among the common sections (other labs read it, and a link's
    // errors are listed in check order); every other lab's own section follows the common ones
    expect(SECTION_KEYS.indexOf('protocols')).toBe(SECTION_KEYS.indexOf('similarity') + 1);
    const after = own.filter((k) => k !== 'protocols');
    expect(SECTION_KEYS.slice(SECTION_KEYS.length - 2 - after.length, -2)).toEqual(after);
  });

  it('checks the lab a link opens against the registry', () => {
    for (const id of LAB_IDS) expect(validateConfig({ lab: id }).errors).toEqual([]);
    expect(validateConfig({ lab: 'hello' }).errors[0].message).toContain(LAB_IDS.join('", "'));
  });

  it('is what the first screen asks and the glossary filters by', () => {
    expect(LAB_QUESTIONS.map((q) => q.id)).toEqual(LAB_IDS);
    for (const key of GLOSSARY_KEYS) for (const lab of glossaryEntry(key).labs ?? []) expect(LAB_IDS, key).toContain(lab);
  });

  it('names CLI commands the CLI dispatches (entries of its command table)', () => {
    const names = COMMANDS.map((c) => c.name);
    for (const l of LABS) for (const c of [...l.commands, ...(l.configCommand ? [l.configCommand] : [])]) expect(names, `${l.id}: ${c}`).toContain(c);
  });
});
