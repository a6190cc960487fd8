/** The first screen's words (src/shell/Intro.svelte), here so tests can read them; the labs' questions are the lab registry's. */
import { LABS } from '../core/labs';

/** The labs as the questions they answer, in the order of the tabs. */
export const LAB_QUESTIONS: ReadonlyArray<{ id: string; name: string; question: string }> = LABS.map((l) => ({ id: l.id, name: l.name, question: l.question }));
export const PURPOSE = 'How much does a continual-learning result depend on the order in which classes arrive?';
export const INTRO_STORAGE_KEY = 'cil-lab.intro.v1';
