/**
 * The Orderings lab's client half: its page wires itself (./OrderingsPage.svelte), registered as the whole view until its
 * controls and results are the lab kit's parts (src/ui/common/lab/lab-client.ts).
 */
import { pageLab } from '../common/lab/lab-client';
import OrderingsPage from './OrderingsPage.svelte';

export default pageLab(OrderingsPage, false);
