/**
 * The engine's public surface (docs/architecture.md, src/engine): what src/workers and src/cli import. A comlink
 * facade needs only `trainRun` / `trainRunWithFallback` (plain data in and out, progress through a callback)
 * and a `RunControl` for pause / resume / cancel.
 */
export { activeBackend, BACKEND_ORDER, candidateBackends, ensureBackend, probeBackend, selectBackend, setWasmBase, watchBackendLoss } from './backend';
export type { BackendAttempt, BackendInfo, BackendName } from './backend';
export { resolveTrainConfig, TrainConfigError } from './config';
export { RunCancelledError, RunControl, type RunState } from './control';
export { fromDecodedDataset, subsetPerClass } from './dataset';
export { CALIBRATION_DEFAULTS, MODEL_DEFAULTS, STRATEGY_DEFAULTS, STRATEGY_IDS, TRAINER_DEFAULTS } from './defaults';
export type { StrategyId, StrategyOptionsMap } from './defaults';
export { BackendLostError, trainRunWithFallback, trainSharedWithFallback, withFallback, type FallbackAttempt, type FallbackNotice } from './fallback';
export { ewcPenaltyWeight } from './strategies/ewc';
export { trainRun, type TaskEndEvent, type TrainHooks } from './trainer';
export type * from './types';
export { choosePopulation, populationSupported } from './population';
export { trainShared, type SharedCheckpoint, type SharedNext, type SharedProgress, type SharedTrainHooks, type SharedTrainOptions } from './shared-train';
