/**
 * The Time lab's client half (docs/science.md §4, §7): a drifting stream of K buckets, the iid and streaming
 * protocols side by side, training modes and buffers, CLEAR's averages of R. The lab kit mounts it
 * (src/ui/common/lab/lab-client.ts); state in ./lab-state.svelte.ts, the panel ./TimeControls.svelte, the canvas
 * ./TimeResults.svelte; training and the store in src/services/time-runner.ts.
 */
import { timeLab } from '../../core/labs/time';
import { timeObservation } from '../../core/lessons/observations';
import { formatAlpha } from '../../core/stream/reservoir';
import { labWorkers } from '../../services/lab-kit';
import { createTimeRunner } from '../../services/time-runner';
import { jsonExport, kitLab } from '../common/lab/lab-client';
import { TimeLab } from './lab-state.svelte';
import TimeControls from './TimeControls.svelte';
import TimeResults from './TimeResults.svelte';

/** The run in flight (seed, protocol, bucket, epoch), or what finished. */
function progressLine(lab: TimeLab): string {
  const c = lab.current;
  if (c) {
    const seed = lab.seeds.length > 1 ? `seed ${lab.seedNow ?? lab.seedShown}, ` : '';
    const step = c.step < 0 ? 'feature model on bucket 1' : `bucket ${c.step + 1} of ${lab.config.buckets}`;
    return `${seed}${c.control ? 'no-drift control (iid)' : c.protocol}: ${step}, epoch ${c.epoch + 1} of ${c.epochs}`;
  }
  if (lab.status !== 'done') return '';
  const control = lab.controlConfig(lab.config.seed) ? ' and the no-drift control' : '';
  return `done: ${lab.config.protocols.join(' and ')}${control} trained${lab.seeds.length > 1 ? ` at ${lab.seeds.length} seeds` : ''} (stored)`;
}

export default kitLab({
  entry: timeLab,
  title: 'Time: a drifting stream',
  testid: 'tm',
  unusedTestid: 'time-unused',
  runner: () => createTimeRunner(labWorkers('time')),
  state: (runner, settings) => new TimeLab(runner, settings),
  Controls: TimeControls,
  Results: TimeResults,
  saved: (lab) => lab.config,
  progress: (lab) => ({ status: lab.status, done: lab.done, total: lab.total, unit: 'buckets', text: progressLine(lab) }),
  lines: (lab) => ({ backend: lab.backendName, error: lab.error, notice: lab.notice }),
  exports: (lab) => [jsonExport('tm-export-json', 'time-lab-results.json', Object.keys(lab.results).length === 0, () => lab.exportJson())],
  play: {
    label: 'Play: train bucket after bucket',
    stepTitle: 'Train exactly one more bucket, then pause',
    idle: 'Play trains the protocols bucket by bucket; Step one bucket at a time.',
  },
  // the finished protocols' CLEAR averages
  observation: (lab) =>
    timeObservation(
      Object.values(lab.results)
        .filter((r) => r !== undefined)
        .map((r) => ({ ...r, seed: lab.config.seed })),
      lab.config.protocols.length,
      lab.sweep?.map((e) => ({ alpha: formatAlpha(e.alpha), last: e.composition[e.composition.length - 1] ?? [] })),
    ),
});
