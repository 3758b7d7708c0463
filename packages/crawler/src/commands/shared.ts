// What `inspect` and `crawl` share: the connection URL, the filter flags, and writing the result.
import { open, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CrawlerError, ExitCode } from '../errors.js';
import { splitList } from '../inspect/filters.js';
import type { Io } from '../io.js';
import type { InspectionFilters } from '../model.js';
import { jsonChunks } from '../output/json.js';

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

/** Written to the file while the next chunk is serialised, up to this much ahead. */
const FILE_BUFFER_BYTES = 8 << 20;

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` and a newline to stdout, or to `-o <file>` with
 * `<what> written to <file>` on stderr, serialised chunk by chunk (a 10,000-table inspection is 95 MB
 * of text: it never exists as one string, and the file is written while the rest is serialised).
 */
export async function writeJsonOutput(
  output: string | undefined,
  value: unknown,
  what: string,
  io: Io,
): Promise<void> {
  if (output === undefined) {
    for (const chunk of jsonChunks(value)) io.stdout(chunk);
    return;
  }
  const failed = (error: unknown) =>
    new CrawlerError(`cannot write ${output}: ${(error as Error).message}`, { cause: error });
  const file = await open(output, 'w').catch((error: unknown) => {
    throw failed(error);
  });
  try {
    await pipeline(
      Readable.from(jsonChunks(value)),
      file.createWriteStream({ highWaterMark: FILE_BUFFER_BYTES }),
    );
  } catch (error) {
    throw failed(error);
  }
  io.stderr(`${what} written to ${output}\n`);
}
