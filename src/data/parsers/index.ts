/** Parsers for the user's own data: IDX, CIFAR binary, image-folder zips, and format detection. */
export * from './types';
export * from './gzip';
export * from './tar';
export * from './idx';
export * from './cifar';
export * from './image-folder-zip';
export * from './detect';
