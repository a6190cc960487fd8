// The built-in lessons (src/core/lessons): every lesson's link decodes with the app's codec and validates with the
// project's validator, opens its own lab in teaching mode, and the `?lesson=` parameter round-trips.
import { describe, expect, it } from 'vitest';
import { decodeConfigFromHash } from '../../../src/core/config/url-codec';
import { validateConfig } from '../../../src/core/config/validate';
import {
  LESSONS,
  LESSON_TEXT_MAX,
  cleanLessonText,
  controlExpectations,
  isControlSearch,
  lessonById,
  lessonConfig,
  lessonControlConfig,
  lessonFromParam,
  lessonLink,
  lessonParam,
  withLessonParam,
} from '../../../src/core/lessons';
import { openLink } from '../../../src/services/share-link.svelte';

describe('built-in lessons', () => {
  it('has a lesson for every lab, at least 8', () => {
    const titles = LESSONS.map((l) => l.title);
    for (const t of [
      'Is one seed enough?',
      'Similar classes in one task',
      'Does replay change which order is hard?',
      'What does CPCF see that accuracy does not?',
    ])
      expect(titles).toContain(t);
    expect(LESSONS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(LESSONS.map((l) => l.lab))).toEqual(new Set(['ground-truth', 'orderings', 'forgetting', 'time', 'open-world', 'curriculum', 'own-classes']));
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id}: its link decodes, validates, opens the ${lesson.lab} lab in teaching mode, and keeps the lesson's settings`, () => {
      const { search, hash } = lessonLink(lesson);
      expect(search).toBe(`?lesson=${lesson.id}`);
      const decoded = decodeConfigFromHash(hash);
      expect(decoded.ok, decoded.ok ? '' : decoded.error).toBe(true);
      if (!decoded.ok) return;
      const v = validateConfig(decoded.config);
      expect(v.errors).toEqual([]);
      expect(decoded.config.lab).toBe(lesson.lab);
      expect(decoded.config.ui.teaching).toBe(true);
      // what the page does with the URL: the same config, no problem
      const opened = openLink(hash, search);
      expect(opened.error).toBeNull();
      expect(opened.config).toEqual(lessonConfig(lesson));
      // the lesson's own settings survived the defaults (not silently replaced by them)
      const c = decoded.config as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(lesson.config)) {
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const [k, x] of Object.entries(value)) expect((c[key] as Record<string, unknown>)[k], `${key}.${k}`).toEqual(x);
        } else expect(c[key], key).toEqual(value);
      }
      // texts: two or three sentences, and a question
      expect(lesson.text.split(/[.!?](\s|$)/).filter((s) => s.trim().length > 3).length).toBeGreaterThanOrEqual(2);
      expect(lesson.question).toMatch(/\?$/);
    });
  }

  for (const lesson of LESSONS) {
    it(`${lesson.id}: its control is the lesson's experiment with one change, and opens as a control link`, () => {
      const c = lessonControlConfig(lesson);
      expect(validateConfig(c).errors).toEqual([]);
      expect(c.lab).toBe(lesson.lab);
      expect(c.ui.teaching).toBe(true);
      // a change in the experiment, or in how the same runs are read (easy-first: which order leads; three-then-four: which strategy)
      const changed = JSON.stringify(c) !== JSON.stringify(lessonConfig(lesson)) || lesson.control.expect !== undefined || lesson.control.rename !== undefined;
      expect(changed).toBe(true);
      expect(lesson.control.change.length).toBeGreaterThan(10);
      const { search, hash } = lessonLink(lesson, '', true);
      expect(search).toBe(`?lesson=${lesson.id}&control=1`);
      expect(isControlSearch(search)).toBe(true);
      expect(openLink(hash, search).config).toEqual(c);
      // the renamed checks name only the control's strategies
      const ids = new Set(c.strategies.map((x) => x.id));
      for (const e of controlExpectations(lesson))
        for (const k of ['strategy', 'better', 'worse', 'narrow', 'wide'] as const) {
          const v = (e as Record<string, unknown>)[k];
          if (typeof v === 'string' && lesson.lab === 'ground-truth') expect(ids.has(v as never), `${lesson.id} ${k} ${v}`).toBe(true);
        }
    });
  }
  it('says what to press in teaching mode, where the Play bar stands in for the Run row (hidden there)', () => {
    for (const lesson of LESSONS) expect(lesson.action, lesson.id).not.toMatch(/\bRun\b/);
  });

  it('a control link is only a built-in lesson’s; closing the lesson drops it', () => {
    expect(isControlSearch('?lesson=u.abc&control=1')).toBe(false);
    expect(isControlSearch('?lesson=tomorrow')).toBe(false);
    expect(withLessonParam('?lesson=tomorrow&control=1&teach', null)).toBe('?teach=');
  });

  it('keeps the small configs small (each measured under 30 s on a 2-core CPU)', () => {
    for (const lesson of LESSONS) {
      const c = lessonConfig(lesson);
      if (lesson.lab === 'ground-truth') {
        expect(c.dataset.id).toBe('digits');
        expect(c.classes.length).toBeLessThanOrEqual(6);
        expect(c.data.trainPerClass).toBeLessThanOrEqual(100);
      }
    }
  });
});

describe('the ?lesson= parameter', () => {
  it('names a built-in lesson by id', () => {
    const l = lessonById('one-seed')!;
    expect(lessonParam(l)).toBe('one-seed');
    expect(lessonFromParam('one-seed')).toEqual({ id: 'one-seed', title: l.title, text: l.text, question: l.question, expect: l.expect });
  });
  it("carries a teacher's lesson's texts (unicode included) and reads them back", () => {
    const mine = { title: 'Ω and me — ÿ', text: 'Two sentences. “Quoted”.', question: 'Why 42?' };
    const p = lessonParam(mine);
    expect(p.startsWith('u.')).toBe(true);
    expect(p).toMatch(/^u\.[A-Za-z0-9_-]+$/); // safe in a URL as it is
    expect(lessonFromParam(p)).toEqual({ id: null, ...mine });
    // through URLSearchParams, as the page reads it
    const search = withLessonParam('?teach', p);
    expect(new URLSearchParams(search).get('lesson')).toBe(p);
    expect(new URLSearchParams(search).has('teach')).toBe(true);
  });
  it('refuses unknown, damaged and title-less values, and clips long texts', () => {
    expect(lessonFromParam(null)).toBeNull();
    expect(lessonFromParam('no-such-lesson')).toBeNull();
    expect(lessonFromParam('u.@@@')).toBeNull();
    expect(lessonFromParam(lessonParam({ title: '  ', text: 'x', question: 'y' }))).toBeNull();
    const long = lessonFromParam(lessonParam({ title: 't', text: 'a'.repeat(5000), question: 'q' }));
    expect(long?.text.length).toBe(LESSON_TEXT_MAX);
  });
  it('withLessonParam removes the parameter and keeps the others', () => {
    expect(withLessonParam('?lesson=one-seed&teach', null)).toBe('?teach=');
    expect(withLessonParam('?lesson=one-seed', null)).toBe('');
  });
  it('shows a teacher’s text without control characters, reordering marks or halves of characters', () => {
    const back = lessonFromParam(
      lessonParam({
        title: 'A\u0000B\u0007C\u001b[31m',
        text: 'one\ttwo\r\nthree\u202Eevil\u2066x\u0085y\u007f',
        question: 'lone \ud83d and \ude00 but 😀 kept',
      }),
    );
    expect(back).toEqual({ id: null, title: 'ABC[31m', text: 'one two \nthreeevilxy', question: 'lone \ufffd and \ufffd but 😀 kept' });
    // cut at the bound without splitting a character
    expect(cleanLessonText('a'.repeat(LESSON_TEXT_MAX - 1) + '😀')).toBe('a'.repeat(LESSON_TEXT_MAX - 1));
    expect(cleanLessonText('😀'.repeat(LESSON_TEXT_MAX))).toHaveLength(LESSON_TEXT_MAX);
  });
});
