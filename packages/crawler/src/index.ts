export { CrawlerError, ExitCode } from './errors.js';
export { apply, type ApplyOutcome, type ApplyResult } from './commands/apply.js';
export { crawl, type CrawlOutcome } from './commands/crawl.js';
export { diffSystem, diffVersions, type Change, type DatasetDiff } from './diff/diff.js';
export { inspectDatabase, type InspectOptions } from './inspect/inspect.js';
export type { CrawlReport } from './report/report.js';
export type * from './model.js';
export { FLAVOR_OF_DIALECT, INSPECTION_FORMAT, INSPECTION_FORMAT_VERSION } from './model.js';
export { createProgram, main, VERSION } from './program.js';
