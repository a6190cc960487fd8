/**
 * The Ground-truth lab's client half: its page wires itself (./GroundTruthPage.svelte), registered as the whole view until its
 * controls and results are the lab kit's parts (src/ui/common/lab/lab-client.ts).
 */
import { pageLab } from '../common/lab/lab-client';
import GroundTruthPage from './GroundTruthPage.svelte';

export default pageLab(GroundTruthPage, false);
