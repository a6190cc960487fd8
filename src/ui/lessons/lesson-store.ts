/**
 * A teacher's own lessons: the current experiment's link with a title, two or three sentences and a
 * question, kept in this browser's localStorage and listed in the gallery beside the built-in ones. Each can be
 * exported as a link that carries its texts (`?lesson=u.…`, src/core/lessons), so it opens on any machine.
 * Pure functions over a Storage (a test passes its own).
 */
import { LESSON_TEXT_MAX, lessonParam, teachingHash, withLessonParam, type LessonTexts } from '../../core/lessons';
import { decodeConfigFromHash } from '../../core/config/url-codec';
import type { LabId } from '../../core/config/schema';

export const LESSON_STORAGE_KEY = 'cil-lab.lessons.v1';

export interface SavedLesson extends LessonTexts {
  /** unique within this browser */
  id: string;
  /** the experiment: `#v1.…`, in teaching mode */
  hash: string;
  lab: LabId;
  /** ISO time saved */
  saved: string;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function valid(x: unknown): x is SavedLesson {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return ['id', 'hash', 'lab', 'saved', 'title', 'text', 'question'].every((k) => typeof o[k] === 'string');
}

/** The saved lessons, newest first; a damaged store gives none (never throws). */
export function loadLessons(storage: Store | undefined): SavedLesson[] {
  try {
    const raw = storage?.getItem(LESSON_STORAGE_KEY);
    if (!raw) return [];
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter(valid) : [];
  } catch {
    return [];
  }
}

function write(storage: Store | undefined, lessons: SavedLesson[]): void {
  storage?.setItem(LESSON_STORAGE_KEY, JSON.stringify(lessons));
}

/**
 * Save the experiment of `hash` as a lesson with these texts (title required). Returns the lesson, or the reason it
 * could not be saved.
 */
export function saveLesson(
  storage: Store | undefined,
  hash: string,
  texts: LessonTexts,
  now = new Date(),
): { lesson: SavedLesson; error: null } | { lesson: null; error: string } {
  const title = texts.title.trim().slice(0, LESSON_TEXT_MAX);
  if (!title) return { lesson: null, error: 'Give the lesson a title.' };
  const h = teachingHash(hash);
  const decoded = h ? decodeConfigFromHash(h) : null;
  if (!h || !decoded?.ok) return { lesson: null, error: 'This experiment has no link (too large, or not valid): a lesson needs one.' };
  const lesson: SavedLesson = {
    id: `${now.getTime().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`,
    hash: h,
    lab: decoded.config.lab,
    saved: now.toISOString(),
    title,
    text: texts.text.trim().slice(0, LESSON_TEXT_MAX),
    question: texts.question.trim().slice(0, LESSON_TEXT_MAX),
    ...(texts.expect?.length ? { expect: texts.expect.slice(0, 1) } : {}),
  };
  write(storage, [lesson, ...loadLessons(storage)]);
  return { lesson, error: null };
}

export function removeLesson(storage: Store | undefined, id: string): SavedLesson[] {
  const left = loadLessons(storage).filter((l) => l.id !== id);
  write(storage, left);
  return left;
}

/** The link that opens a saved lesson anywhere: its texts in `?lesson=u.…`, its experiment in the hash. */
export function savedLessonUrl(lesson: SavedLesson, base: { origin: string; pathname: string; search: string }): string {
  return `${base.origin}${base.pathname}${withLessonParam(base.search, lessonParam(lesson as LessonTexts))}${lesson.hash}`;
}
