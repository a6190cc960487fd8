/** The CLI's `--backend`, selected (a separate module: only the training commands load tfjs). */
import { selectBackend, type BackendInfo } from '../engine/backend';
import { UsageError, type CLI_BACKENDS } from './args';

/**
 * Select the `--backend` a command trains on (engine/backend.ts `selectBackend`; a named one strictly). WebGPU without
 * an adapter is the user's to fix: one line naming the flag (exit 2), not an internal error.
 */
export async function selectCliBackend(name: (typeof CLI_BACKENDS)[number]): Promise<BackendInfo> {
  try {
    return await selectBackend(name, { strict: name !== 'auto' });
  } catch (e) {
    if (name !== 'webgpu') throw e;
    const why = (e as Error).message.replace(/^No TensorFlow\.js backend could be used \(webgpu: (.*)\)\.$/s, '$1').replace(/\.$/, '');
    throw new UsageError(`--backend webgpu: ${why}; train with --backend wasm or cpu.`);
  }
}
