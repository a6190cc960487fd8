/**
 * The Forgetting lab's client half: its page wires itself (./ForgettingPage.svelte), registered as the whole view until its
 * controls and results are the lab kit's parts (src/ui/common/lab/lab-client.ts).
 */
import { pageLab } from '../common/lab/lab-client';
import ForgettingPage from './ForgettingPage.svelte';

export default pageLab(ForgettingPage, false);
