/**
 * The Orderings lab's client half (docs/science.md §1, §6): class orderings of the experiment's classes and tasks,
 * their similarity score S, the protocols (RS, EDGE, EDGE+, AS/MS) and the sample-size bounds. The lab kit mounts it
 * (src/ui/common/lab/lab-client.ts); state in ./orderings-lab.svelte.ts, the panel ./OrderingsControls.svelte, the
 * canvas ./OrderingsCanvas.svelte. Nothing trains: the orderings worker (src/services/orderings-client.ts) computes
 * them as the settings change, so the lab gives the kit no Run row and no Play bar (no `progress`, no `play`); its
 * exports (the orderings in PyCIL / Mammoth / CSV text, each chart's ⤓) are part of its results.
 */
import { orderingsLab } from '../../core/labs/orderings';
import { orderingsObservation } from '../../core/lessons/observations';
import { createOrderingsClient } from '../../services/orderings-client';
import { kitLab } from '../common/lab/lab-client';
import OrderingsCanvas from './OrderingsCanvas.svelte';
import OrderingsControls from './OrderingsControls.svelte';
import { OrderingsLab } from './orderings-lab.svelte';

export default kitLab({
  entry: orderingsLab,
  title: 'Experiment',
  testid: 'orderings',
  // a link opened over the tab is followed in place: the previous experiment's results stay, marked as its, until
  // the link's are computed (or while its upload is not loaded)
  remountOnLink: false,
  runner: () => createOrderingsClient(),
  state: (client, settings) => new OrderingsLab(client, settings),
  Controls: OrderingsControls,
  Results: OrderingsCanvas,
  saved: (lab) => lab.change,
  lines: () => ({ backend: '', error: '', notice: null }),
  exports: () => [],
  // the named orderings the worker computed (none yet: null)
  observation: (lab) => (lab.view ? orderingsObservation(lab.view) : null),
});
