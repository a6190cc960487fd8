import { describe, expect, it } from 'vitest';
import { registerServiceWorker, shouldReloadForIsolation } from '../../../src/shell/sw-register';

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
  it('does nothing when disabled (the dev server) or where there is no navigator.serviceWorker', async () => {
    expect(await registerServiceWorker({ enabled: false, base: '/' })).toBeUndefined();
    expect(await registerServiceWorker({ enabled: true, base: '/' })).toBeUndefined(); // Node: no navigator.serviceWorker
  });
});
