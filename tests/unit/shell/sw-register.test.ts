import { afterEach, describe, expect, it, vi } from 'vitest';
import { shouldReloadForIsolation } from '../../../src/shell/sw-register';

describe('the one reload for cross-origin isolation (service-worker fallback)', () => {
  const base = { isolated: false, controlled: true, secure: true, alreadyReloaded: false };
  it('reloads a controlled, secure, not-yet-isolated page once', () => {
    expect(shouldReloadForIsolation(base)).toBe(true);
  });
  it('does not reload when isolated already, not controlled (the reload would not go through the worker), insecure, or done once', () => {
    expect(shouldReloadForIsolation({ ...base, isolated: true })).toBe(false);
    expect(shouldReloadForIsolation({ ...base, controlled: false })).toBe(false);
    expect(shouldReloadForIsolation({ ...base, secure: false })).toBe(false);
    expect(shouldReloadForIsolation({ ...base, alreadyReloaded: true })).toBe(false);
  });
});

describe('registerServiceWorker', () => {
  /** A navigator.serviceWorker whose register() is recorded; a fresh module each time (it registers once per page). */
  async function fresh(serviceWorker?: object) {
    vi.resetModules();
    const calls: unknown[][] = [];
    const sw = serviceWorker ?? {
      controller: null,
      addEventListener: () => {},
      register: async (...args: unknown[]) => {
        calls.push(args);
        return { waiting: null, addEventListener: () => {} };
      },
    };
    vi.stubGlobal('navigator', { serviceWorker: sw });
    const mod = await import('../../../src/shell/sw-register');
    return { register: mod.registerServiceWorker, calls };
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('does nothing when disabled (the dev server), even where a service worker could register', async () => {
    const { register, calls } = await fresh();
    expect(await register({ enabled: false, base: '/' })).toBeUndefined();
    expect(calls).toEqual([]);
  });
  it('does nothing where the browser has no navigator.serviceWorker', async () => {
    vi.resetModules();
    vi.stubGlobal('navigator', {});
    const { registerServiceWorker } = await import('../../../src/shell/sw-register');
    expect(await registerServiceWorker({ enabled: true, base: '/' })).toBeUndefined();
  });
  it('registers sw.js under the base path with that scope, once per page', async () => {
    const { register, calls } = await fresh();
    expect(await register({ enabled: true, base: '/lab/sub/' })).toEqual(expect.objectContaining({ waiting: null }));
    expect(calls).toEqual([['/lab/sub/sw.js', { scope: '/lab/sub/' }]]);
    expect(await register({ enabled: true, base: '/lab/sub/' })).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
  it('a browser that refuses the registration leaves the app working: undefined, no throw', async () => {
    const { register } = await fresh({
      controller: null,
      addEventListener: () => {},
      register: async () => {
        throw new Error('blocked');
      },
    });
    vi.spyOn(console, 'info').mockImplementation(() => {});
    expect(await register({ enabled: true, base: '/' })).toBeUndefined();
  });
});
