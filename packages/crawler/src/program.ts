import {
  addMetastoreOptions as registryOptions,
  configureCommandLine,
  DEFAULT_METASTORE_URL,
  METASTORE_API_KEY_ENV,
  METASTORE_PASSWORD_ENV,
  METASTORE_TOKEN_ENV,
  METASTORE_URL_ENV,
  METASTORE_USER_ENV,
} from '@aide/sdk/cli';
import { runCommandLine } from './command-line.js';
import { Command, Option } from 'commander';
import type { ApplyCommandOptions } from './commands/apply.js';
import type { CrawlCommandOptions } from './commands/crawl.js';
import type { InspectCommandOptions } from './commands/inspect.js';
import type { TranslateCommandOptions } from './commands/translate.js';
import { CONNECTION_URL_ENV } from './commands/shared.js';
import { CrawlerError, ExitCode } from './errors.js';
import { SOURCES, type SourceList } from './sources/registry.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

export { VERSION };

const FILTER_HELP = `
Filters take comma-separated lists of glob patterns (* any characters, ? one character), matched
case-sensitively against the names as stored; "double quotes" keep dots and commas literal.
--tables and --exclude-tables take table or schema.table. Filtering happens in the catalog queries.`;

/** The URL forms of every registered source (their `usage` lines), read without loading any driver. */
const connectionHelp = (
  sources: SourceList,
) => `Connection URLs (--connection-url, or env ${CONNECTION_URL_ENV}):
${sources.flatMap((source) => source.usage.map((line) => `  ${line}`)).join('\n')}
With a MySQL URL naming a database, only that database is inspected unless --schemas is given.
A SQLite file is one schema, main. Prefer the env var when the URL holds a password.`;

const DEBUG_HELP = `Env AIDE_CRAWLER_DEBUG=1 adds the stack trace to an unexpected error.`;

const inspectHelp = (sources: SourceList) => `${FILTER_HELP}

Reads the catalog with a fixed number of queries (PostgreSQL: pg_catalog; MySQL/MariaDB:
information_schema; SQLite: pragma functions), so a SELECT-only role is enough. Needs no registry.

${connectionHelp(sources)}

Exit codes: 0 ok, 1 runtime failure (message on stderr), 2 usage error, 130/143 interrupted by
SIGINT/SIGTERM (the catalog query in flight is cancelled). ${DEBUG_HELP}

Examples:
  aide-crawler inspect --connection-url postgresql://reader@db/shop --schemas 'sales,hr_*'
  aide-crawler inspect --connection-url mysql://reader@db/shop --tables 'orders*' --exclude-tables '*_log'
  AIDE_CRAWLER_CONNECTION_URL=sqlite:///app.db aide-crawler inspect --format json -o app.json`;

const PROGRAM_HELP = `
Environment:
  ${CONNECTION_URL_ENV}   the database URL (instead of --connection-url)
  ${METASTORE_URL_ENV}            the registry (default ${DEFAULT_METASTORE_URL})
  ${METASTORE_USER_ENV}, ${METASTORE_PASSWORD_ENV}
                                the registry login (or ${METASTORE_TOKEN_ENV}, a bearer token)
  AIDE_CRAWLER_DEBUG=1          the stack trace of an unexpected error
  AIDE_CRAWLER_SQLITE_ENGINE    better-sqlite3, node:sqlite or node-sqlite3-wasm (default: the first
                                that loads)

A first crawl (register the system once, with the flavor of its database: postgres14, mysql8, sqlite3):
  export ${CONNECTION_URL_ENV}=postgresql://reader@db/shop
  export ${METASTORE_URL_ENV}=https://aide.internal ${METASTORE_USER_ENV}=me@example.com ${METASTORE_PASSWORD_ENV}=…
  aide-crawler inspect                                  # what the database holds
  aide-crawler crawl --system-code shop_pg              # what differs from the registry
  aide-crawler crawl --system-code shop_pg --format json -o shop.json
  aide-crawler apply shop.json --dry-run && aide-crawler apply shop.json

Run aide-crawler <command> --help for a command's flags, exit codes and examples; docs/crawler.md has
the report format and the compatible/breaking rules.`;

const REGISTRY_HELP = `The registry: --metastore-url (env ${METASTORE_URL_ENV}, default ${DEFAULT_METASTORE_URL}),
--metastore-user and --metastore-password (env ${METASTORE_USER_ENV}, ${METASTORE_PASSWORD_ENV}), or an API
key in ${METASTORE_API_KEY_ENV}, or a bearer token in ${METASTORE_TOKEN_ENV}. Prefer the env vars for the password: flags are visible to other users.`;

const crawlHelp = (sources: SourceList) => `${FILTER_HELP}

Inspects the database (as inspect does), reads what the registry holds for the system (a few bulk
requests: each version's fingerprint, then in full only the versions whose fingerprint differs from
the inspected table's) and reports the differences, each classed compatible or breaking for readers:
new and removed tables, kind changes, added/removed/moved columns (possible renames flagged), type,
nullability, default, identity, generated, comment and collation changes, primary key, unique,
foreign key, index and check changes. The rules are in docs/crawler.md.

For each changed dataset it also asks the registry whether its compatibility level (NONE, BACKWARD,
FORWARD, FULL, and their _TRANSITIVE forms) would accept the new version: one check request per 500
datasets, writing nothing. The report shows each verdict and every violation (the version compared,
the direction, the rule, the column); a registry without the check route is reported as
"compatibility not checked". Only --check turns the verdicts into an exit code.

It writes nothing to the registry but the crawl-run audit record (running, then completed with the
summary or failed with the error). Review the report, then publish it with apply.

${connectionHelp(sources)}

${REGISTRY_HELP}

Exit codes: 0 ok, 1 runtime failure (message on stderr; the crawl run is marked failed),
2 usage error, 3 differences found with --check, 4 with --check: a change that its dataset's
compatibility level would refuse (takes precedence over 3; in the CI of a database migration, crawl
the migrated scratch database with --check and fail on anything but 0 and 3, as the last example),
130/143 interrupted by SIGINT/SIGTERM (the crawl run is marked failed with "interrupted by
SIGINT"; a second signal stops at once). ${DEBUG_HELP}

Examples:
  aide-crawler crawl --system-code shop_pg --connection-url postgresql://reader@db/shop
  aide-crawler crawl --system-code shop_pg --format json -o shop-report.json
  aide-crawler crawl --system-code shop_pg --check > /dev/null || echo "the registry is behind"
  aide-crawler crawl --system-code shop_pg --check -o report.txt; c=$?; [ $c -eq 0 ] || [ $c -eq 3 ]`;

const APPLY_HELP = `
Publishes a report written by crawl --format json: the new versions through the registry's batch
route, each dataset atomically (a new dataset is created with its first version, or not at all). The
registry classifies each change itself: one the report calls compatible is refused if the registry
finds it breaking, and the registry's class is what apply shows and records. It reads each
dataset's current version number, and in full only the report's datasets' versions. A dataset whose
registry version moved past the report's base version is refused (crawl again); the others apply.
A dataset already holding the report's version is skipped, so applying a report twice changes
nothing. A version that its dataset's compatibility level refuses (DATASET_SCHEMA_INCOMPATIBLE) is
shown with every violation; --dry-run asks the registry's check for the same verdicts. A superuser may
publish it anyway with --force-reason "<why>": the reason is kept in the version's history (anyone
else is refused with 403). Removed tables are reported only: apply never deletes. The run is
recorded as a crawl run (config.command = apply) with what was applied.

${REGISTRY_HELP}

Exit codes: 0 ok, 1 a dataset was refused or failed, or a runtime failure, 2 usage error,
4 a dataset refused by its compatibility level, or with --dry-run one that would be (takes precedence
over 1; a dry run with --force-reason does not count those), 130/143 interrupted by SIGINT/SIGTERM:
the batch in flight is written, then the apply stops and its run is marked failed with what was done; apply the report again to finish. ${DEBUG_HELP}

Examples:
  aide-crawler apply shop-report.json --dry-run
  aide-crawler apply shop-report.json
  aide-crawler apply shop-report.json --only 'sales.orders,sales.customers'
  aide-crawler apply shop-report.json --force-reason "TICKET-42: the column was never read"`;

const TRANSLATE_HELP = `
Renders a registered version into another flavor through the registry's cast rules
(GET /datasets/{id}/versions/{n}/translate): CREATE TABLE for postgres14, mysql8, sqlite3,
hive3, spark_sql (Delta) and iceberg_v2, an Avro schema (avro), a JSON Schema
(json_schema), a Protobuf message (protobuf), a Parquet schema (storage_files, sftp_files). The
output goes to stdout (or -o); every lossy cast and everything left out (columns without a mapping,
defaults, keys, comments) is listed on stderr. The DDL creates the table unqualified: run it in the
schema or database it belongs in. docs/type-system.md ("Translation") has the rules.

${REGISTRY_HELP}

Exit codes: 0 ok (lossy or not: read stderr), 1 runtime failure, 2 usage error, 3 lossy with
--strict (nothing written; what it would lose on stderr), 130/143 interrupted by SIGINT/SIGTERM (the
request in flight is cancelled, nothing written). ${DEBUG_HELP}

Examples:
  aide-crawler translate 6f56378f-1966-4ce0-bd0e-4725e28f38ac 3 --flavor mysql8 > orders.sql
  aide-crawler translate 6f56378f-1966-4ce0-bd0e-4725e28f38ac 3 --flavor sqlite3 --strict -o orders.sql`;

function databaseOptions(command: Command): Command {
  return command
    .option('--connection-url <url>', `database URL (env ${CONNECTION_URL_ENV})`)
    .option('--schemas <patterns>', 'schemas to include (default: all but the system schemas)')
    .option('--exclude-schemas <patterns>', 'schemas to leave out')
    .option('--tables <patterns>', 'tables or schema.tables to include (default: all)')
    .option('--exclude-tables <patterns>', 'tables or schema.tables to leave out')
    .option(
      '--include-partitions',
      'also list partitions as tables (they are always listed under their parent)',
    );
}

function outputOptions(command: Command, what: string): Command {
  return command
    .addOption(new Option('--format <format>', `${what} format`).choices(['text', 'json']).default('text'))
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--pretty', 'with --format json: indent the JSON by two spaces (default: compact, one line)');
}

/**
 * The `aide-crawler` command line. Each command's implementation (drivers, the registry client,
 * `@aide/schemas`) is imported by its action, so `--help` and `--version` load commander and this
 * definition only (ADR 0041). It never exits the process: commander's exits become thrown
 * CommanderErrors (exit code 0 for --help/--version, ExitCode.USAGE for every usage error), and a
 * command's exit code goes to `onExitCode`.
 */
export function createProgram(
  io: Io,
  onExitCode: (code: ExitCode) => void = () => undefined,
  sources: SourceList = SOURCES,
): Command {
  const program = configureCommandLine(
    new Command('aide-crawler'),
    'Keeps the AIDE Metastore registry true to a source (databases, files, Kafka schemas, lakehouse ' +
      'tables): inspect it, compare it with the registry (crawl), publish a reviewed report (apply).',
    VERSION,
    io,
  ).addHelpText('after', PROGRAM_HELP);

  outputOptions(
    databaseOptions(
      program
        .command('inspect')
        .description('Read the schema of a database and print it: tables, columns, types, keys, indexes.'),
    ),
    'output',
  )
    .addHelpText('after', inspectHelp(sources))
    .action(async (options: InspectCommandOptions) => {
      const { runInspect } = await import('./commands/inspect.js');
      onExitCode(await runInspect(options, io, sources));
    });

  const crawl = program
    .command('crawl')
    .description(
      'Compare a database with what the registry holds for its system, and report the differences.',
    )
    .requiredOption('--system-code <code>', 'the registry system the database is (required)');
  outputOptions(registryOptions(databaseOptions(crawl)), 'report')
    .option(
      '--check',
      'exit with code 3 when there are differences, 4 when a compatibility level refuses one (for CI)',
    )
    .option(
      '--full-registry-read',
      'read every registered version in full instead of comparing fingerprints first (same report)',
    )
    .addHelpText('after', crawlHelp(sources))
    .action(async (options: CrawlCommandOptions) => {
      const { runCrawl } = await import('./commands/crawl.js');
      onExitCode(await runCrawl(options, io, sources));
    });

  registryOptions(
    program
      .command('apply')
      .description('Publish a reviewed crawl report (JSON) to the registry.')
      .argument('<report.json>', 'a report written by crawl --format json'),
  )
    .option('--only <datasets>', 'apply only these datasets: schema.table names or globs, comma-separated')
    .option('--dry-run', "show what would be applied and the compatibility levels' verdicts, write nothing")
    .option(
      '--force-reason <text>',
      'publish even the changes a compatibility level refuses, keeping this reason (superusers only)',
    )
    .option(
      '--full-registry-read',
      "read the registry's whole snapshot instead of the fingerprints and the report's versions (same result)",
    )
    .addHelpText('after', APPLY_HELP)
    .action(async (report: string, options: ApplyCommandOptions) => {
      const { runApply } = await import('./commands/apply.js');
      onExitCode(await runApply(report, options, io));
    });

  registryOptions(
    program
      .command('translate')
      .description("Render a registered version into another flavor's DDL or schema, with what it loses.")
      .argument('<dataset-id>', 'the dataset (its registry id)')
      .argument('<version>', 'the version number'),
  )
    .requiredOption('--flavor <code>', 'the target flavor: postgres14, mysql8, sqlite3, avro, … (required)')
    .option(
      '--format <format>',
      "the output: ddl, avro, json_schema, protobuf, parquet (default: the flavor's)",
    )
    .option('--strict', 'fail (exit 3, nothing written) when the translation loses anything')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', TRANSLATE_HELP)
    .action(async (datasetId: string, version: string, options: TranslateCommandOptions) => {
      const { runTranslate } = await import('./commands/translate.js');
      onExitCode(await runTranslate(datasetId, version, options, io));
    });

  // Unknown operands are reported as an unknown command.
  program.on('command:*', (operands: string[]) => {
    program.error(`error: unknown command '${operands[0]}'`, { code: 'commander.unknownCommand' });
  });
  return program;
}

/**
 * Runs the command line `argv` (without the node and script paths) and returns the exit code; every
 * failure is reported on `io.stderr` in one line. `sources` are the sources its URLs may name (the
 * registry's; tests add their own).
 */
export async function main(
  argv: readonly string[],
  io: Io,
  sources: SourceList = SOURCES,
): Promise<ExitCode> {
  // Commander has already written its message (or the help/version text) for a CommanderError.
  const code = await runCommandLine(
    (onExitCode) => createProgram(io, onExitCode, sources),
    argv,
    (error) => {
      if (error instanceof CrawlerError) {
        io.stderr(`aide-crawler: ${error.message}\n`);
        return error.exitCode;
      }
      const detail =
        io.env['AIDE_CRAWLER_DEBUG'] && error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
      io.stderr(`aide-crawler: unexpected error: ${detail}\n`);
      return ExitCode.FAILURE;
    },
  );
  return code as ExitCode;
}
