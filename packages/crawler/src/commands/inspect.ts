// `aide-crawler inspect`: reads a database's catalog and prints it (text or JSON); no registry.
import { writeFile } from 'node:fs/promises';
import { CrawlerError, ExitCode } from '../errors.js';
import { splitList } from '../inspect/filters.js';
import { inspectDatabase } from '../inspect/inspect.js';
import type { Io } from '../io.js';
import { renderText } from '../output/text.js';

export const CONNECTION_URL_ENV = 'AIDE_CRAWLER_CONNECTION_URL';

/** The options commander parsed for `inspect`. */
export interface InspectCommandOptions {
  connectionUrl?: string;
  schemas?: string;
  excludeSchemas?: string;
  tables?: string;
  excludeTables?: string;
  includePartitions?: boolean;
  format: 'text' | 'json';
  output?: string;
}

export async function runInspect(options: InspectCommandOptions, io: Io): Promise<ExitCode> {
  const connectionUrl = options.connectionUrl ?? io.env[CONNECTION_URL_ENV];
  if (connectionUrl === undefined || connectionUrl.trim() === '') {
    throw new CrawlerError(`--connection-url or ${CONNECTION_URL_ENV} is required`, {
      exitCode: ExitCode.USAGE,
    });
  }
  const db = await inspectDatabase({
    connectionUrl,
    filters: {
      schemas: splitList(options.schemas),
      exclude_schemas: splitList(options.excludeSchemas),
      tables: splitList(options.tables),
      exclude_tables: splitList(options.excludeTables),
      include_partitions: options.includePartitions ?? false,
    },
  });
  const text = options.format === 'json' ? `${JSON.stringify(db, null, 2)}\n` : renderText(db);
  if (options.output === undefined) {
    io.stdout(text);
  } else {
    try {
      await writeFile(options.output, text, 'utf8');
    } catch (error) {
      throw new CrawlerError(`cannot write ${options.output}: ${(error as Error).message}`, { cause: error });
    }
    io.stderr(`Inspection written to ${options.output}\n`);
  }
  return ExitCode.OK;
}
