/**
 * The app's experiment config and its share link (docs/architecture.md "Config"; docs/design.md, the reviewer's and the
 * teacher's journeys). One store for the whole app:
 * - `config` starts from `location.hash` (`#v1.<data>`, src/core/config/url-codec.ts). A malformed or unknown-version
 *   link does not replace anything: `problem` holds the codec's message for a dismissible banner and the page keeps
 *   the default (or, for a link pasted later, the user's current) experiment.
 * - Labs fold their inputs in with `update()`: the result is validated, and an invalid result is refused (the last
 *   valid config stays, so the link always opens). Changes are written back to the hash, debounced, with
 *   `history.replaceState` (editing never fills the back button's history).
 * - `revision` counts configs opened from outside (a link pasted into the address bar): labs re-read their inputs
 *   when it changes. Their own updates do not bump it.
 * - Teaching mode (`?teach`, the header toggle, or `ui.teaching` in a link) is `teaching`: the Ground-truth lab
 *   reads it for its Play/Step control.
 * - `backends` is what ran where (filled by the labs: "CLIP embedding" → "webgpu"), for the "What exactly ran" panel.
 */
import { untrack } from 'svelte';
import { ConfigError, canonicalJson, defaultConfig, formatIssues, validateConfig, type ExperimentConfig, type LabId } from '../core/config/schema';
import { configHash, decodeConfigFromHash, encodeConfigToHash } from '../core/config/url-codec';

/** What opening a URL gives: the config to use, and the link's problem when it could not be used. */
export interface OpenedLink {
  config: ExperimentConfig;
  /** The codec's message for a malformed, unknown-version or invalid link; null when the link opened (or there was none). */
  error: string | null;
  warnings: string[];
  /** The URL asked for teaching mode (`?teach`, `?teach=1`; not `?teach=0|false|off`). */
  teachFlag: boolean;
}

/** `?teach` and its spellings. */
export function teachFlagOf(search: string): boolean {
  const p = new URLSearchParams(search);
  if (!p.has('teach')) return false;
  return !/^(0|false|off|no)$/i.test(p.get('teach') ?? '');
}

/** Pure: the config a page opens with for a URL's hash and query (a bad link gives `fallback`, and says why). */
export function openLink(hash: string, search: string, fallback: ExperimentConfig = defaultConfig()): OpenedLink {
  const teachFlag = teachFlagOf(search);
  const r = decodeConfigFromHash(hash);
  let config = r.ok ? r.config : fallback;
  if (teachFlag && !config.ui.teaching) config = { ...config, ui: { ...config.ui, teaching: true } };
  return r.ok ? { config, error: null, warnings: r.warnings, teachFlag } : { config, error: r.error, warnings: [], teachFlag };
}

/** The hash for a config, or the reason there is none (too large for a link). */
export function hashFor(config: ExperimentConfig): { hash: string; error: null } | { hash: null; error: string } {
  try {
    return { hash: encodeConfigToHash(config), error: null };
  } catch (e) {
    return { hash: null, error: e instanceof Error ? e.message : String(e) };
  }
}

/** The parts of `window` the store uses (a test passes its own). */
export interface LinkEnv {
  location: { hash: string; search: string; pathname: string; href: string; origin: string };
  history: {
    state: unknown;
    replaceState(data: unknown, unused: string, url?: string | URL | null): void;
    pushState?(data: unknown, unused: string, url?: string | URL | null): void;
  };
  addEventListener(type: 'hashchange', fn: () => void): void;
}

/** Milliseconds between the last change and the hash being written. */
export const HASH_WRITE_DELAY_MS = 300;

export class ShareLinkStore {
  /** The experiment: always valid; replaced as a whole (never mutated in place). */
  config = $state.raw<ExperimentConfig>(defaultConfig());
  /** Bumped when a config is opened from outside (not by labs' own updates). */
  revision = $state(0);
  /** The last link that could not be opened, for the banner; null when none (or dismissed). */
  problem = $state<{ message: string; kept: 'defaults' | 'current' } | null>(null);
  /** Warnings of the opened link (uploaded files to provide again). */
  warnings = $state<string[]>([]);
  /** What ran where, when known: "Orderings" → "JavaScript, Web Worker"; "CLIP embedding" → "webgpu". */
  backends = $state<Record<string, string>>({});
  /** Why the current config has no link (too large), else ''. */
  linkError = $state('');
  /**
   * The setup the lab on screen shows and would run, while it is not the experiment (a tab shows its own setup until
   * the user acts on it, see src/ui/forgetting/forgetting-lab.svelte.ts): "What exactly ran" shows it rather than an
   * experiment the controls do not describe. Null when the lab on screen shows the experiment.
   */
  tabSetup = $state.raw<{ lab: LabId; config: ExperimentConfig } | null>(null);
  /**
   * The lab of the last link opened (at load or pasted later), null when the page opened without one (or a bad one):
   * a lab mounted later reads its setup from the config only when the link was made on it.
   */
  openedLab: LabId | null = null;

  readonly teaching = $derived(this.config.ui.teaching);
  readonly lab = $derived(this.config.lab);
  /** The config hash that keys stored results (excludes ui and backend). */
  readonly hash = $derived(configHash(this.config));

  private env: LinkEnv;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The hash last read from or written to the address bar. */
  private lastHash = '';
  /** The next write is a new history entry (an update with `{ history: 'push' }`): Back then gives the experiment before it. */
  private pushNext = false;

  constructor(env: LinkEnv) {
    this.env = env;
    const opened = openLink(env.location.hash, env.location.search);
    this.config = opened.config;
    this.warnings = opened.warnings;
    this.lastHash = env.location.hash;
    if (opened.error) this.problem = { message: opened.error, kept: 'defaults' };
    else if (env.location.hash.length > 1) this.openedLab = opened.config.lab;
    env.addEventListener('hashchange', () => this.openHash(this.env.location.hash));
  }

  /**
   * Fold a change into the config: `mutate` gets a copy to edit (or returns a new config). The result is validated;
   * when invalid it is refused and the errors returned (the config stays as it was). A selected ordering that the
   * change makes impossible is dropped rather than refusing the change. `history: 'push'`: the change is a new
   * history entry (a lab taking over an experiment made elsewhere), so the browser's Back returns to the one before.
   */
  update(
    mutate: (draft: ExperimentConfig) => ExperimentConfig | void,
    options: { history?: 'replace' | 'push' } = {},
  ): { ok: true; changed: boolean } | { ok: false; error: string } {
    return untrack(() => {
      const current = this.config;
      const draft = structuredClone(current);
      const made = mutate(draft) ?? draft;
      let r = validateConfig(made);
      if (r.errors.some((e) => e.path === 'ui.selectedOrdering')) {
        r = validateConfig({ ...made, ui: { ...made.ui, selectedOrdering: null } });
      }
      if (r.errors.length > 0) return { ok: false as const, error: formatIssues(r.errors) };
      if (canonicalJson(r.config) === canonicalJson(current)) return { ok: true as const, changed: false };
      if (options.history === 'push' && this.env.history.pushState) {
        // the experiment before the change keeps its own entry (written now if it was still pending)
        this.flush();
        this.pushNext = true;
      }
      this.config = r.config;
      this.scheduleWrite();
      return { ok: true as const, changed: true };
    });
  }

  /** Choose the lab the link opens; refused (false) when the experiment cannot run in that lab (e.g. names only). */
  setLab(lab: LabId): boolean {
    return this.update((c) => {
      c.lab = lab;
    }).ok;
  }

  setTeaching(on: boolean): void {
    this.update((c) => {
      c.ui.teaching = on;
    });
    // `?teach` would turn it on again at the next reload: the query follows the toggle
    if (!on && teachFlagOf(this.env.location.search)) {
      const p = new URLSearchParams(this.env.location.search);
      p.delete('teach');
      const q = p.toString();
      this.replaceUrl(`${this.env.location.pathname}${q ? `?${q}` : ''}${this.env.location.hash}`);
    }
  }

  /** The lab on screen shows `config` (not the experiment), or, with null, shows the experiment again. */
  showTabSetup(lab: LabId, config: ExperimentConfig | null): void {
    untrack(() => {
      if (config) this.tabSetup = { lab, config };
      else if (this.tabSetup?.lab === lab) this.tabSetup = null;
    });
  }

  reportBackend(what: string, value: string | null): void {
    untrack(() => {
      if (value === null) {
        if (!(what in this.backends)) return;
        const { [what]: _gone, ...rest } = this.backends;
        this.backends = rest;
      } else if (this.backends[what] !== value) this.backends = { ...this.backends, [what]: value };
    });
  }

  dismissProblem(): void {
    this.problem = null;
  }

  /** Open a link (a hash or a whole URL) over the current experiment; a bad one leaves everything as it is. */
  openHash(hash: string): boolean {
    if (hash === this.lastHash) return true;
    this.lastHash = hash;
    const opened = openLink(hash, this.env.location.search, this.config);
    if (opened.error) {
      this.problem = { message: opened.error, kept: 'current' };
      return false;
    }
    this.problem = null;
    this.warnings = opened.warnings;
    this.openedLab = opened.config.lab;
    this.config = opened.config;
    this.revision++;
    return true;
  }

  /** Write the hash now (no wait); returns the full URL of the current experiment, or null when too large. */
  flush(): string | null {
    clearTimeout(this.timer);
    this.timer = undefined;
    // a link pasted since the hash was last read or written, whose hashchange has not been delivered yet, is opened
    // first: writing now would replace it in the address bar, and its event would then read the written hash
    if (this.env.location.hash !== this.lastHash) this.openHash(this.env.location.hash);
    const h = hashFor(this.config);
    if (h.hash === null) {
      this.linkError = h.error;
      return null;
    }
    this.linkError = '';
    if (h.hash !== this.env.location.hash) this.replaceUrl(`${this.env.location.pathname}${this.env.location.search}${h.hash}`, this.pushNext);
    this.pushNext = false;
    // the hash now in the address bar (the old one where the browser refused the write: not taken for a pasted link)
    this.lastHash = this.env.location.hash;
    return `${this.env.location.origin}${this.env.location.pathname}${this.env.location.search}${h.hash}`;
  }

  /** The link to share (the hash written first). */
  shareUrl(): string | null {
    return this.flush();
  }

  private scheduleWrite(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), HASH_WRITE_DELAY_MS);
  }

  private replaceUrl(url: string, push = false): void {
    try {
      if (push && this.env.history.pushState) this.env.history.pushState(null, '', url);
      else this.env.history.replaceState(this.env.history.state, '', url);
    } catch {
      // some embedded browsers refuse replaceState (sandboxed frames): the link still works through Share
    }
  }
}

let instance: ShareLinkStore | null = null;

/** The app's one store, made on first use from the page's URL. */
export function shareLink(): ShareLinkStore {
  instance ??= new ShareLinkStore(window);
  return instance;
}

export { ConfigError };
