/**
 * Conformal prediction and CPCF (docs/science.md §3): re-exports of the one-concept files of this folder.
 */
export * from './probs';
export * from './scores';
export * from './quantile';
export * from './sets';
export * from './cpcf';
export * from './kemker';
export * from './dcor';
export * from './from-run';
