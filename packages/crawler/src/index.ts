export { CrawlerError, ExitCode } from './errors.js';
export { createProgram, VERSION } from './program.js';
