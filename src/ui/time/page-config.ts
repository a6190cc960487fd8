/**
 * The Time page and the app's one experiment (docs/science.md §7 "Settings and the share link"): the lab's network,
 * epochs, learning rate, batch size and seeds are the common sections, the stream, protocols, mode and buffer its own
 * section (src/core/config/sections/time.ts), bound by the lab kit's `labExperiment`.
 */
import { foldTime, isTimeOwn, timeFromExperiment, type TimeOwn } from '../../core/config/sections/time';
import { defaultTimeLabConfig, TIME_LAB_START, type TimeLabConfig } from '../../core/stream/config';
import type { LabExperimentSpec } from '../common/lab/lab-experiment.svelte';

export const TIME_EXPERIMENT: LabExperimentSpec<TimeLabConfig, TimeOwn> = {
  lab: 'time',
  key: 'time',
  start: TIME_LAB_START,
  fill: defaultTimeLabConfig(),
  isOwn: isTimeOwn,
  fromExperiment: timeFromExperiment,
  ownFields: ({ from: _, ...own }) => own,
  fold: foldTime,
};
