// `aide-crawler inspect`: reads a source (a database's catalog, …) and prints it (text or JSON); no registry.
import { ExitCode } from '../errors.js';
import { inspectDatabase } from '../inspect/inspect.js';
import type { Io } from '../io.js';
import { renderText } from '../output/text.js';
import { SOURCES, type SourceList } from '../sources/registry.js';
import {
  connectionUrlOf,
  filtersOf,
  jsonLayoutOf,
  writeJsonOutput,
  writeOutput,
  type DatabaseOptions,
  type OutputOptions,
} from './shared.js';

export { CONNECTION_URL_ENV } from './shared.js';

/** The options commander parsed for `inspect`. */
export type InspectCommandOptions = DatabaseOptions & OutputOptions;

export async function runInspect(
  options: InspectCommandOptions,
  io: Io,
  sources: SourceList = SOURCES,
): Promise<ExitCode> {
  const db = await inspectDatabase(
    { connectionUrl: connectionUrlOf(options, io), filters: filtersOf(options), signal: io.signal },
    sources,
  );
  if (options.format === 'json') writeJsonOutput(options.output, db, 'Inspection', io, jsonLayoutOf(options));
  else await writeOutput(options.output, renderText(db), 'Inspection', io);
  return ExitCode.OK;
}
