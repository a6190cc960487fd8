/**
 * The Your-classes lab's client half: its page wires itself (./OwnClassesPage.svelte) and is registered as the whole view
 * (a `page` registration, src/ui/common/lab/lab-client.ts), until its state, controls and results are the lab kit's
 * parts as the Time, Open-world and Curriculum labs' are.
 */
import { pageLab } from '../common/lab/lab-client';
import OwnClassesPage from './OwnClassesPage.svelte';

export default pageLab(OwnClassesPage, true);
