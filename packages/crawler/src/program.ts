import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { CONNECTION_URL_ENV, runInspect, type InspectCommandOptions } from './commands/inspect.js';
import { CrawlerError, ExitCode } from './errors.js';
import type { Io } from './io.js';

/** The package version, read from package.json next to src/ and dist/. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const FILTER_HELP = `
Filters take comma-separated lists of glob patterns (* any characters, ? one character), matched
case-sensitively against the names as stored; "double quotes" keep dots and commas literal.
--tables and --exclude-tables take table or schema.table. Filtering happens in the catalog queries.`;

const INSPECT_HELP = `${FILTER_HELP}

Reads the catalog with a fixed number of queries (PostgreSQL: pg_catalog; MySQL/MariaDB:
information_schema; SQLite: pragma functions), so a SELECT-only role is enough. Connection URLs:
  postgresql://user:password@host:5432/db   (also postgres://, postgresql+psycopg://)
  mysql://user:password@host:3306/db        (also mariadb://, mysql+pymysql://)
  sqlite:///relative/path.db, sqlite:////absolute/path.db
With a MySQL URL naming a database, only that database is inspected unless --schemas is given.

Exit codes: 0 ok, 1 runtime failure (message on stderr), 2 usage error.

Examples:
  aide-crawler inspect --connection-url postgresql://reader@db/shop --schemas 'sales,hr_*'
  AIDE_CRAWLER_CONNECTION_URL=sqlite:///app.db aide-crawler inspect --format json -o app.json`;

/**
 * The `aide-crawler` command line. It never exits the process: commander's exits become thrown
 * CommanderErrors (exit code 0 for --help/--version, ExitCode.USAGE for every usage error), and a
 * command's exit code goes to `onExitCode`.
 */
export function createProgram(io: Io, onExitCode: (code: ExitCode) => void = () => undefined): Command {
  const program = new Command('aide-crawler')
    .description(
      'Introspects a database (PostgreSQL, MySQL/MariaDB, SQLite) for the AIDE Metastore registry.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'show the help of a command')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(ExitCode.USAGE, error.code, error.message);
    });

  program
    .command('inspect')
    .description('Read the schema of a database and print it: tables, columns, types, keys, indexes.')
    .option('--connection-url <url>', `database URL (env ${CONNECTION_URL_ENV})`)
    .option('--schemas <patterns>', 'schemas to include (default: all but the system schemas)')
    .option('--exclude-schemas <patterns>', 'schemas to leave out')
    .option('--tables <patterns>', 'tables or schema.tables to include (default: all)')
    .option('--exclude-tables <patterns>', 'tables or schema.tables to leave out')
    .option(
      '--include-partitions',
      'also list partitions as tables (they are always listed under their parent)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', INSPECT_HELP)
    .action(async (options: InspectCommandOptions) => {
      onExitCode(await runInspect(options, io));
    });

  // Unknown operands are reported as an unknown command.
  program.on('command:*', (operands: string[]) => {
    program.error(`error: unknown command '${operands[0]}'`, { code: 'commander.unknownCommand' });
  });
  return program;
}

/**
 * Runs the command line `argv` (without the node and script paths) and returns the exit code; every
 * failure is reported on `io.stderr` in one line.
 */
export async function main(argv: readonly string[], io: Io): Promise<ExitCode> {
  let exitCode: ExitCode = ExitCode.OK;
  try {
    await createProgram(io, (code) => (exitCode = code)).parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    // Commander has already written its message (or the help/version text).
    if (error instanceof CommanderError) return error.exitCode as ExitCode;
    if (error instanceof CrawlerError) {
      io.stderr(`aide-crawler: ${error.message}\n`);
      return error.exitCode;
    }
    const detail =
      io.env['AIDE_CRAWLER_DEBUG'] && error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`aide-crawler: unexpected error: ${detail}\n`);
    return ExitCode.FAILURE;
  }
}
