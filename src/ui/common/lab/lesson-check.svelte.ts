/**
 * What the lab on screen has shown, for the open lesson's check (src/core/lessons/expectations.ts): each lab's
 * results component reports its results reduced to a lesson observation (core/lessons/observations.ts) whenever
 * they change; the lesson banner reads the latest one. One slot for the page: only the shown lab reports.
 */
import type { LessonObservation } from '../../../core/lessons';

const slot = $state<{ current: LessonObservation | null }>({ current: null });

/** The latest observation of the lab on screen (null: nothing run yet). */
export function lessonObservation(): LessonObservation | null {
  return slot.current;
}

/** A lab's results changed: what a lesson on it would check now. */
export function reportLessonObservation(o: LessonObservation | null): void {
  slot.current = o;
}

/** A lesson is open: `?lesson=…` in the page's URL (opening one reloads the page), until its banner closes it. */
const lesson = $state({ open: typeof location !== 'undefined' && new URLSearchParams(location.search).has('lesson') });

export function lessonIsOpen(): boolean {
  return lesson.open;
}

/** The lesson's banner was closed: the labs show their settings again. */
export function lessonClosed(): void {
  lesson.open = false;
}
