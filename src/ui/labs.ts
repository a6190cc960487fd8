/**
 * The app's tabs: every lab of the registry (src/core/labs) with its page, and the Data page after the first lab.
 * Every page is mounted with one props contract, `{ active }` (its tab is shown), and reads and writes the
 * experiment through the share-link store itself. A page whose lab edits its own section as a whole is mounted
 * afresh when a link is opened from outside (`remountOnLink`); the others follow the link in place.
 */
import type { Component } from 'svelte';
import { LABS, type LabId } from '../core/labs';
import type { LabPageProps } from './common/lab/page-props';
import CurriculumPage from './curriculum/CurriculumPage.svelte';
import DataPage from './data/DataPage.svelte';
import ForgettingPage from './forgetting/ForgettingPage.svelte';
import GroundTruthPage from './ground-truth/GroundTruthPage.svelte';
import OpenWorldPage from './open-world/OpenWorldPage.svelte';
import OrderingsPage from './orderings/OrderingsPage.svelte';
import OwnClassesPage from './own-classes/OwnClassesPage.svelte';
import TimePage from './time/TimePage.svelte';

export type { LabPageProps } from './common/lab/page-props';

export interface LabPage {
  page: Component<LabPageProps>;
  remountOnLink: boolean;
}

export const LAB_PAGES: Readonly<Record<LabId, LabPage>> = {
  orderings: { page: OrderingsPage, remountOnLink: false },
  'ground-truth': { page: GroundTruthPage, remountOnLink: false },
  forgetting: { page: ForgettingPage, remountOnLink: false },
  time: { page: TimePage, remountOnLink: true },
  'open-world': { page: OpenWorldPage, remountOnLink: true },
  curriculum: { page: CurriculumPage, remountOnLink: true },
  'own-classes': { page: OwnClassesPage, remountOnLink: true },
};

export interface Tab extends LabPage {
  id: string;
  name: string;
  /** the lab a link opens on this tab (null: the Data page) */
  lab: LabId | null;
}

const DATA_TAB: Tab = { id: 'data', name: 'Data', lab: null, page: DataPage, remountOnLink: false };

export const TABS: readonly Tab[] = LABS.flatMap((l, i) => {
  const tab: Tab = { id: l.id, name: l.name, lab: l.id, ...LAB_PAGES[l.id] };
  return i === 0 ? [tab, DATA_TAB] : [tab];
});
