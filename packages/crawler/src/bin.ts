#!/usr/bin/env node
// The `aide-crawler` executable: the only place that ends the process.
import { CommanderError } from 'commander';
import { CrawlerError, ExitCode } from './errors.js';
import { createProgram } from './program.js';

function exitCodeFor(error: unknown): number {
  // Commander has already written its message (or the help/version text).
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof CrawlerError) {
    process.stderr.write(`aide-crawler: ${error.message}\n`);
    return error.exitCode;
  }
  process.stderr.write(
    `aide-crawler: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return ExitCode.FAILURE;
}

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  process.exit(exitCodeFor(error));
}
