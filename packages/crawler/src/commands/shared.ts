// What `inspect` and `crawl` share: the connection URL, the filter flags, and writing the result.
import { closeSync, openSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { CrawlerError, ExitCode } from '../errors.js';
import { splitList } from '../inspect/filters.js';
import type { Io } from '../io.js';
import type { InspectionFilters } from '../model.js';
import { jsonPieces, type JsonLayout } from '../output/json.js';

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
  /** JSON indented by two spaces; compact (one line) by default (ADR 0060). */
  pretty?: boolean;
}

/** The layout `--format json` writes: compact unless `--pretty`. */
export const jsonLayoutOf = (options: OutputOptions): JsonLayout =>
  options.pretty === true ? 'pretty' : 'compact';

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

/**
 * Writes `value` as `JSON.stringify(value)` (or `JSON.stringify(value, null, 2)`, `layout` pretty) and a newline to stdout, or to `-o <file>` with
 * `<what> written to <file>` on stderr, piece by piece (a 10,000-table inspection is 91 MB of text: it
 * never exists as one string). Each piece is written before the next is serialised, synchronously:
 * a piece is garbage at once, and goes to the file without a copy into a Buffer. Through a write
 * stream with 1 MB chunks the same file cost ~1.5 × the CPU, most of it in copies and GC (ADR 0060).
 */
export function writeJsonOutput(
  output: string | undefined,
  value: unknown,
  what: string,
  io: Io,
  layout: JsonLayout,
): void {
  if (output === undefined) {
    for (const piece of jsonPieces(value, layout)) io.stdout(piece);
    io.stdout('\n');
    return;
  }
  try {
    const file = openSync(output, 'w');
    try {
      for (const piece of jsonPieces(value, layout)) writeSync(file, piece);
      writeSync(file, '\n');
    } finally {
      closeSync(file);
    }
  } catch (error) {
    throw new CrawlerError(`cannot write ${output}: ${(error as Error).message}`, { cause: error });
  }
  io.stderr(`${what} written to ${output}\n`);
}
