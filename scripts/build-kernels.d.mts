// Types of scripts/build-kernels.mjs for the test that recompiles the kernels (tests/unit/engine/kernels-build.test.ts).
export const SOURCE: string;
export const TARGET: string;
export function compileKernels(): Promise<Uint8Array<ArrayBuffer>>;
export function moduleText(bytes: Uint8Array): string;
