/**
 * scripts/tfjs-threads-plugin.ts: tfjs's threaded wasm factory must not read a variable from outside its own text,
 * because the pthread workers evaluate that text alone (minified, the outside variable becomes "e is not defined";
 * seen in Chromium with the built site).
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { selfContainedThreadedFactory } from '../../../scripts/tfjs-threads-plugin';

const source = readFileSync('node_modules/@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm-threaded-simd.js', 'utf8');

/** The factory function the module exports (CommonJS), evaluated in a fresh context. */
function factoryOf(code: string): { toString(): string } {
  const module = { exports: {} as unknown };
  runInNewContext(code, { module, exports: module.exports, define: undefined });
  return module.exports as { toString(): string };
}

describe('tfjs threaded factory made self-contained', () => {
  it('the package factory reads _scriptDir from the closure around it (what breaks once minified)', () => {
    const text = factoryOf(source).toString();
    expect(text).toContain('_scriptDir');
    expect(text).not.toMatch(/var _scriptDir\s*=/);
  });
  it('after the transform the factory declares _scriptDir itself and is still the exported function', () => {
    const out = selfContainedThreadedFactory(source);
    const f = factoryOf(out);
    expect(typeof f).toBe('function');
    expect(f.toString()).toMatch(/^function\(WasmBackendModuleThreadedSimd\) \{\s*var _scriptDir = /);
    // evaluated alone (as the pthread worker does), the text defines the factory
    expect(runInNewContext(`var WasmBackendModuleThreadedSimd = ${f.toString()}; typeof WasmBackendModuleThreadedSimd`, {})).toBe('function');
  });
  it('refuses a file of another shape (a tfjs upgrade must be checked)', () => {
    expect(() => selfContainedThreadedFactory('module.exports = function () {};')).toThrow(/does not start as expected/);
  });
});
