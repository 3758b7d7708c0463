// What `inspect` and `crawl` share: the connection URL, the filter flags, and writing the result.
import { writeFile } from 'node:fs/promises';
import { CrawlerError, ExitCode } from '../errors.js';
import { splitList } from '../inspect/filters.js';
import type { Io } from '../io.js';
import type { InspectionFilters } from '../model.js';

export const CONNECTION_URL_ENV = 'AIDE_CRAWLER_CONNECTION_URL';

/** The database flags commander parses for `inspect` and `crawl`. */
export interface DatabaseOptions {
  connectionUrl?: string;
  schemas?: string;
  excludeSchemas?: string;
  tables?: string;
  excludeTables?: string;
  includePartitions?: boolean;
}

/** The output flags of `inspect` and `crawl`. */
export interface OutputOptions {
  format: 'text' | 'json';
  output?: string;
}

export function connectionUrlOf(options: DatabaseOptions, io: Io): string {
  const connectionUrl = options.connectionUrl ?? io.env[CONNECTION_URL_ENV];
  if (connectionUrl === undefined || connectionUrl.trim() === '') {
    throw new CrawlerError(`--connection-url or ${CONNECTION_URL_ENV} is required`, {
      exitCode: ExitCode.USAGE,
    });
  }
  return connectionUrl;
}

export function filtersOf(options: DatabaseOptions): InspectionFilters {
  return {
    schemas: splitList(options.schemas),
    exclude_schemas: splitList(options.excludeSchemas),
    tables: splitList(options.tables),
    exclude_tables: splitList(options.excludeTables),
    include_partitions: options.includePartitions ?? false,
  };
}

/** Writes `text` to stdout, or to `-o <file>` with `<what> written to <file>` on stderr. */
export async function writeOutput(
  output: string | undefined,
  text: string,
  what: string,
  io: Io,
): Promise<void> {
  if (output === undefined) {
    io.stdout(text);
    return;
  }
  try {
    await writeFile(output, text, 'utf8');
  } catch (error) {
    throw new CrawlerError(`cannot write ${output}: ${(error as Error).message}`, { cause: error });
  }
  io.stderr(`${what} written to ${output}\n`);
}
