/**
 * The app's tabs: every lab of the registry (src/core/labs) with its client half (`ui/<lab>/index.ts`, a registration
 * of src/ui/common/lab/lab-client.ts), and the Data page after the first lab. The shell mounts every tab with the lab
 * kit's one component (LabPage: `{ client, active }`); each reads and writes the experiment through the share-link
 * store itself. A tab that reads the experiment once (a kit lab, or a page whose lab edits its own section as a
 * whole) is mounted afresh when a link is opened from outside (`remountOnLink`); the others follow the link in place.
 */
import { LABS, type LabId } from '../core/labs';
import { pageLab, remountsOnLink, type KitLabClient, type LabClient } from './common/lab/lab-client';
import curriculum from './curriculum';
import DataPage from './data/DataPage.svelte';
import forgetting from './forgetting';
import groundTruth from './ground-truth';
import openWorld from './open-world';
import orderings from './orderings';
import ownClasses from './own-classes';
import time from './time';

// every lab is a kit registration: the one kit component mounts it
export const LAB_CLIENTS: Readonly<Record<LabId, KitLabClient>> = {
  orderings,
  'ground-truth': groundTruth,
  forgetting,
  time,
  'open-world': openWorld,
  curriculum,
  'own-classes': ownClasses,
};

export interface Tab {
  id: string;
  name: string;
  /** the lab a link opens on this tab (null: the Data page) */
  lab: LabId | null;
  client: LabClient;
  remountOnLink: boolean;
}

const data = pageLab(DataPage, false);
const DATA_TAB: Tab = { id: 'data', name: 'Data', lab: null, client: data, remountOnLink: remountsOnLink(data) };

export const TABS: readonly Tab[] = LABS.flatMap((l, i) => {
  const client = LAB_CLIENTS[l.id];
  const tab: Tab = { id: l.id, name: l.name, lab: l.id, client, remountOnLink: remountsOnLink(client) };
  return i === 0 ? [tab, DATA_TAB] : [tab];
});
