export { CrawlerError, ExitCode } from './errors.js';
export { inspectDatabase, type InspectOptions } from './inspect/inspect.js';
export type * from './model.js';
export { FLAVOR_OF_DIALECT, INSPECTION_FORMAT, INSPECTION_FORMAT_VERSION } from './model.js';
export { createProgram, main, VERSION } from './program.js';
