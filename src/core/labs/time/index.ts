/**
 * The Time lab (docs/science.md §7): a drifting stream, the iid and streaming protocols side by side. Its network,
 * epochs, learning rate, batch size and seeds are the experiment's common sections, the stream, protocols, mode and
 * buffer its own section (src/core/labs/time/section.ts, `{ "from": "experiment", … }`).
 */
import { foldTime, isTimeOwn, timeFromExperiment, timeSection } from './section';
import { defaultTimeLabConfig, TIME_LAB_START, TIME_SETTINGS, type TimeLabConfig, type TimeOwn } from './settings';
import { defineLab } from '../lab';
import { ownSectionBinding } from '../own-section';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    time: {
      /**
       * Its own part, the network and training being the common sections; or, in links made before, its full
       * settings (src/core/labs/time/section.ts). Absent = its defaults. Read with this entry's view.
       */
      time?: TimeOwn | TimeLabConfig;
    };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    time: [typeof TIME_SETTINGS];
  }
}

export const timeLab = defineLab({
  id: 'time',
  name: 'Time',
  labName: 'Time',
  question: 'When the data drifts, does testing on the next period change the verdict?',
  paper: {
    paper: PAPERS.clear,
    uses: 'the iid and streaming protocols, biased reservoir sampling and the averages of R',
    formulas: [
      'R[i][j] = accuracy on bucket j after training through bucket i',
      'in-domain = meanᵢ R[i][i];  next-domain = meanᵢ R[i][i+1]',
      'streaming: train on bucket i, test on bucket i+1 (today’s test set is tomorrow’s training set)',
      'reservoir: a full buffer admits a sample when u ≤ α·k/i (supplement, Alg. 1)',
    ],
    sections: 'docs/science.md §7, §4',
  },
  trains: false,
  sections: { time: timeSection },
  commands: ['stream', 'reservoir'],
  configCommand: 'stream',
  settings: [TIME_SETTINGS],
  ...ownSectionBinding<TimeLabConfig, Parameters<typeof timeFromExperiment>[1]>({
    lab: 'time',
    key: 'time',
    start: TIME_LAB_START,
    fill: defaultTimeLabConfig(),
    isOwn: isTimeOwn,
    fromExperiment: timeFromExperiment,
    ownFields: ({ from: _, ...own }) => own,
    fold: foldTime,
  }),
});
