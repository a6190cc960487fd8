// Vite plugin: makes tfjs-backend-wasm's threaded build survive minification (docs/deploy.md).
//
// The threaded build starts its pthread workers from a Blob holding `WasmBackendModuleThreadedSimd.toString()`, the
// Emscripten factory function. In the package that function reads `_scriptDir`, a variable of the IIFE around it,
// guarded by `typeof _scriptDir !== "undefined"`; a minifier that sees the variable declared drops the guard and
// renames it (`e`), so the same source text, evaluated alone in the pthread worker, throws "e is not defined" and
// the wasm backend never starts. Moving the declaration into the function makes its text self-contained; the
// behaviour is unchanged (in a worker `document` is undefined, so `_scriptDir` was undefined there anyway).
import type { Plugin } from 'vite';

const HEAD =
  /var WasmBackendModuleThreadedSimd = \(\(\) => \{\r?\n(\s*var _scriptDir = [^\n]*;)\r?\n(\s*if \(typeof __filename !== 'undefined'\) _scriptDir = _scriptDir \|\| __filename;)\r?\n(\s*return \(\r?\nfunction\(WasmBackendModuleThreadedSimd\) \{\r?\n)/;

/** The module's code with `_scriptDir` declared inside the factory function; throws when the shape is not known. */
export function selfContainedThreadedFactory(code: string): string {
  if (!HEAD.test(code)) {
    throw new Error(
      'tfjs-threads-plugin: tfjs-backend-wasm-threaded-simd.js does not start as expected (a new tfjs version?): check that the threaded wasm build still works when minified, then update scripts/tfjs-threads-plugin.ts.',
    );
  }
  return code.replace(HEAD, (_m, decl: string, filename: string, ret: string) => `var WasmBackendModuleThreadedSimd = (() => {\n${ret}${decl}\n${filename}\n`);
}

export function tfjsThreadedFactory(): Plugin {
  return {
    name: 'cil-lab:tfjs-threaded-factory',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]tfjs-backend-wasm[\\/]wasm-out[\\/]tfjs-backend-wasm-threaded-simd\.js$/.test(id.split('?')[0])) return null;
      return { code: selfContainedThreadedFactory(code), map: null };
    },
  };
}
