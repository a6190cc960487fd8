// A teacher's own lessons (src/ui/lessons/lesson-store.ts): saved from an experiment's link in teaching mode, listed
// newest first, removed, exported as a link that carries the texts; a damaged store or link is refused, not thrown.
import { describe, expect, it } from 'vitest';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';
import { defaultConfig } from '../../../src/core/config/validate';
import { lessonFromParam } from '../../../src/core/lessons';
import { LESSON_STORAGE_KEY, loadLessons, removeLesson, saveLesson, savedLessonUrl } from '../../../src/ui/lessons/lesson-store';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    length: 0,
  } as Storage;
}

describe('lesson store', () => {
  const hash = encodeConfigToHash({ ...defaultConfig(), lab: 'orderings' });

  it('saves the experiment in teaching mode with its texts, newest first, and removes by id', () => {
    const s = memory();
    const a = saveLesson(s, hash, { title: ' First ', text: 'Look.', question: 'Why?' }, new Date(1));
    const b = saveLesson(s, hash, { title: 'Second', text: '', question: '' }, new Date(2));
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    const list = loadLessons(s);
    expect(list.map((l) => l.title)).toEqual(['Second', 'First']);
    const d = decodeConfigFromHash(list[1].hash);
    expect(d.ok && d.config.ui.teaching).toBe(true);
    expect(list[1].lab).toBe('orderings');
    expect(removeLesson(s, list[0].id).map((l) => l.title)).toEqual(['First']);
    expect(loadLessons(s).map((l) => l.title)).toEqual(['First']);
  });

  it('refuses a lesson without a title or without a valid experiment', () => {
    const s = memory();
    expect(saveLesson(s, hash, { title: '  ', text: '', question: '' }).error).toMatch(/title/);
    expect(saveLesson(s, '#v1.damaged', { title: 't', text: '', question: '' }).error).toMatch(/no link/);
    expect(loadLessons(s)).toEqual([]);
  });

  it('a damaged store gives no lessons', () => {
    const s = memory();
    s.setItem(LESSON_STORAGE_KEY, '{not json');
    expect(loadLessons(s)).toEqual([]);
    s.setItem(LESSON_STORAGE_KEY, JSON.stringify([{ id: 1 }, 'x']));
    expect(loadLessons(s)).toEqual([]);
    expect(loadLessons(undefined)).toEqual([]);
  });

  it("exports a link that carries the lesson's texts and its experiment", () => {
    const s = memory();
    const { lesson } = saveLesson(s, hash, { title: 'Mine', text: 'Two. Sentences.', question: 'Q?' });
    const url = savedLessonUrl(lesson!, { origin: 'https://x.example', pathname: '/app/', search: '?teach' });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe('https://x.example/app/');
    expect(u.searchParams.has('teach')).toBe(true);
    expect(lessonFromParam(u.searchParams.get('lesson'))).toEqual({ id: null, title: 'Mine', text: 'Two. Sentences.', question: 'Q?' });
    expect(u.hash).toBe(lesson!.hash);
  });
});
