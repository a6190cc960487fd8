/** What the page's address holds: the specs that check a tab writes its settings into the share link read it here. */
import type { Page } from '@playwright/test';
import type { ExperimentConfig } from '../../../src/core/config/types';
import { validateConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';

/** The experiment in the page's address now, or null while it holds none (or one the app would refuse). */
export function pageConfig(page: Page): ExperimentConfig | null {
  const r = decodeConfigFromHash(new URL(page.url()).hash);
  return r.ok ? r.config : null;
}

/** The path of an experiment on Digits: the Data tab first shows the experiment's dataset, and the specs of its Digits start open this. */
export const DIGITS_EXPERIMENT = `/${encodeConfigToHash(validateConfig({ dataset: { id: 'digits' } }).config)}`;
