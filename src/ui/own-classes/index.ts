/**
 * The Your-classes lab's client half: its page wires itself (./OwnClassesPage.svelte), registered as the whole view until its
 * controls and results are the lab kit's parts (src/ui/common/lab/lab-client.ts).
 */
import { pageLab } from '../common/lab/lab-client';
import OwnClassesPage from './OwnClassesPage.svelte';

export default pageLab(OwnClassesPage, true);
