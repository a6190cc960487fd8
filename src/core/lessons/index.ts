/** Lessons: the built-in ones and their links (./lessons.ts), what each should show (./expectations.ts, ./observations.ts). */
export * from './lessons';
export * from './expectations';
export * from './observations';
