/**
 * The engine's surface for the browser side: what the training worker (src/workers/train.worker.ts) calls and the
 * types the services and the worker API name (plain data in and out, progress through callbacks, a `RunControl`
 * for pause / resume / cancel). The lab jobs are in ./jobs; the CLI imports the modules it runs directly.
 */
export { activeBackend, candidateBackends, ensureBackend, probeBackend, selectBackend, setWasmBase, watchBackendLoss } from './backend';
export type { BackendInfo, BackendName } from './backend';
export { measureBackends, type BackendTiming, type MeasuredChoice, type ProbeWorkload } from './gpu/measure';
export { gpuAdapterInfo, type GpuAdapterInfo } from './gpu/device';
export { warmTraining } from './warm';
export { resolveTrainConfig, TrainConfigError } from './config';
export { RunCancelledError, RunControl } from './control';
export { fromDecodedDataset, subsetPerClass } from './dataset';
export { CALIBRATION_DEFAULTS, MODEL_DEFAULTS, STRATEGY_DEFAULTS, STRATEGY_IDS, TRAINER_DEFAULTS } from './defaults';
export type { StrategyId, StrategyOptionsMap } from './defaults';
export { trainRunWithFallback, trainSharedWithFallback, withFallback, type FallbackNotice } from './fallback';
export { ewcPenaltyWeight } from './strategies/ewc';
export { trainRun, type TaskEndEvent, type TrainHooks } from './trainer';
export type * from './types';
export { choosePopulation, populationSupported } from './population';
export { trainShared, type SharedCheckpoint, type SharedNext, type SharedProgress, type SharedTrainHooks, type SharedTrainOptions } from './shared-train';
// features as a data source (docs/science.md appendix E): what the feature job in a worker calls
export { checkModelFitsData, imagesOnly, isFeatureDataset } from './dataset';
export { BACKBONE_RECIPE, BackboneError, backboneFeatures, trainBackbone, type Backbone } from './features/backbone';
export { featureDatasetOf } from './features/dataset';
export { backboneFeatureSet, encoderFeatureSet, extractionRows, type ExtractProgress, type ExtractRows } from './features/extract';
export { createImageEncoder, encoderDownloadSizes, IMAGE_ENCODERS, type ImageEncoder, type ImageEncoderOptions } from './clip/image-encoder';
