/**
 * The sections about how the app runs and shows an experiment, not what it computes: backend preferences and the
 * UI state (teaching mode, hidden controls, the selected ordering, the accuracy shown).
 */
import { Checker, show } from '../checker';
import { V1_FILL } from '../defaults';
import { CONFIG_LIMITS } from '../limits';
import type { BackendConfig, UiConfig } from '../types';
import type { ConfigSection } from './section';

const CONTROL_ID = /^[a-z][a-z0-9-]{0,39}$/;

function uiOf(c: Checker, v: unknown, classes: number[], taskSizes: number[], checkOrdering: boolean): UiConfig {
  const f = V1_FILL.ui;
  const o = c.object(v, 'ui', ['teaching', 'hiddenControls', 'selectedOrdering', 'accuracy']);
  const notAnId = (h: unknown) => `Must be a control id (lowercase letters, digits and hyphens, e.g. "seeds"); got ${show(h)}.`;
  const isId = (h: string) => CONTROL_ID.test(h);
  const controls =
    o.hiddenControls === undefined
      ? undefined
      : c.distinctStrings(o.hiddenControls, 'ui.hiddenControls', CONFIG_LIMITS.hiddenControls, isId, notAnId, (h) => `"${h}" is listed twice.`);
  const hiddenControls = controls ? [...controls].sort() : [];
  let selectedOrdering: string | null = null;
  if (o.selectedOrdering !== undefined && o.selectedOrdering !== null) {
    const key = o.selectedOrdering;
    const path = 'ui.selectedOrdering';
    if (typeof key !== 'string' || key.length > CONFIG_LIMITS.orderingKeyLength || !/^\d+(,\d+)*(\|\d+(,\d+)*)*$/.test(key)) {
      c.error(path, `Must be an ordering key like "0,3|1,5|2,4" (tasks separated by |), or null; got ${show(key)}.`);
    } else {
      const tasks = key.split('|').map((t) =>
        t
          .split(',')
          .map(Number)
          .sort((a, b) => a - b),
      );
      const flat = tasks.flat();
      const wanted = new Set(classes);
      const sizesOk = tasks.length === taskSizes.length && tasks.every((t, i) => t.length === taskSizes[i]);
      const classesOk = flat.length === classes.length && new Set(flat).size === flat.length && flat.every((x) => wanted.has(x));
      if (checkOrdering && !(sizesOk && classesOk)) {
        c.error(
          path,
          `The ordering "${key}" does not fit the experiment: it must place each selected class (${classes.join(',')}) once, in tasks of sizes ${taskSizes.join(',')}.`,
        );
      } else selectedOrdering = tasks.map((t) => t.join(',')).join('|');
    }
  }
  return {
    teaching: c.bool(o.teaching, 'ui.teaching', f.teaching),
    hiddenControls,
    selectedOrdering,
    accuracy: c.choice(o.accuracy, 'ui.accuracy', ['final', 'aia'] as const, f.accuracy),
  };
}

export const backendSection: ConfigSection<'backend'> = {
  check(c, v): BackendConfig {
    const b = c.object(v, 'backend', ['train', 'embed']);
    return {
      train: c.choice(b.train, 'backend.train', ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] as const, V1_FILL.backend.train),
      embed: c.choice(b.embed, 'backend.embed', ['auto', 'webgpu', 'wasm', 'cpu'] as const, V1_FILL.backend.embed),
    };
  },
};

export const uiSection: ConfigSection<'ui'> = {
  check: (c, v, before) =>
    uiOf(c, v, before.config.classes ?? [], before.config.taskSizes ?? [], before.clean('dataset') && before.clean('classes') && before.clean('taskSizes')),
};
