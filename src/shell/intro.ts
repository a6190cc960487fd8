/** The first screen's words (issue 17; src/shell/Intro.svelte), here so tests can read them. */
/** The labs as the questions they answer (issue 17, "the first screen tells the story in 10 seconds"). */
export const LAB_QUESTIONS: ReadonlyArray<{ id: string; name: string; question: string }> = [
  { id: 'orderings', name: 'Orderings', question: 'Which class orders are easiest and hardest, and can three orderings estimate the spread?' },
  { id: 'ground-truth', name: 'Ground truth', question: 'How much does accuracy really vary over all orderings, and whose three orderings estimate it best?' },
  { id: 'forgetting', name: 'Forgetting', question: 'Can the size of conformal prediction sets measure forgetting where accuracy cannot?' },
  { id: 'time', name: 'Time', question: 'When the data drifts, does testing on the next period change the verdict?' },
  { id: 'open-world', name: 'Open world', question: 'As classes arrive, can the model still tell unknown images from known ones?' },
  { id: 'curriculum', name: 'Curriculum', question: 'Does learning the easy datasets first help, or is it the metric’s weighting?' },
];
export const PURPOSE = 'How much does a continual-learning result depend on the order in which classes arrive?';
export const INTRO_STORAGE_KEY = 'cil-lab.intro.v1';
