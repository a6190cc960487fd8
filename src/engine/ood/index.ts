/** The Open-world lab's engine side (docs/science.md §5): what src/cli and the OOD worker import. */
export { runOpenWorld, type OpenWorldConfig, type OpenWorldHooks, type OpenWorldResult, type OpenWorldStep, type ScoreSample } from './run';
export { buildOodSet, parseOodSpec, toInputShape, OodSpecError, type OodSet, type OodSpec } from './ood-data';
export { odinPerturb, odinScoresOn, ODIN_EPSILON } from './odin';
export { trainHead, classifierHead, headLogitsOn, berLoss, type HeadParams } from './heads';
export { outputsOn, rowsOf, type Outputs } from './extract';
export { memoryExamples } from './memory-state';
