// `node dist/cli.js migrate|revert|seed`: database maintenance without starting the HTTP server.
// It resolves the database as `dist/main.js` does (DATABASE_URL, or the embedded PostgreSQL under the
// repository's .aide/), does one thing, reports it on stdout and stops. Only this entry point exits.
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type DataSource, MigrationExecutor } from 'typeorm';
import { resolveDatabase, type DatabaseTarget } from './bootstrap/database.js';
import { createLogger } from './common/http/logger.js';
import { ConfigError, loadConfig } from './config/config.js';
import { createDataSource } from './database/data-source.js';
import { loadCastSeedFile, loadKindSeedFile, loadSeedFiles } from './modules/type-system/seed-file.js';
import { seedCastFile, seedDataTypeFile, seedDirectory, seedKindFile } from './seeds/type-system.seeder.js';

const USAGE = `Usage: node dist/cli.js <command>

Commands:
  migrate   apply every pending migration, each in its own transaction
  revert    undo the most recently applied migration
  seed      load the reference data (kinds, flavors, data types, cast rules) from packages/backend/seeds;
            idempotent, never deletes. Options:
              --file <yaml>   one data-type file (or a cast file under casts/) instead of all
              --dry-run       print what would change, write nothing

The database is DATABASE_URL when set, otherwise the embedded PostgreSQL under AIDE_DATA_DIR
(default: .aide/ at the repository root).
`;

type Command = 'migrate' | 'revert' | 'seed';
const COMMANDS: readonly Command[] = ['migrate', 'revert', 'seed'];
const isCommand = (value: string): value is Command => (COMMANDS as readonly string[]).includes(value);

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function executedMigrationNames(dataSource: DataSource): Promise<string[]> {
  const executed = await new MigrationExecutor(dataSource).getExecutedMigrations();
  return executed.map((m) => m.name);
}

async function migrate(dataSource: DataSource): Promise<void> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  if (applied.length === 0) print('No pending migrations.');
  else for (const m of applied) print(`Applied migration ${m.name}`);
}

async function revert(dataSource: DataSource): Promise<void> {
  const before = await executedMigrationNames(dataSource);
  await dataSource.undoLastMigration({ transaction: 'each' });
  const after = new Set(await executedMigrationNames(dataSource));
  const reverted = before.filter((name) => !after.has(name));
  if (reverted.length === 0) print('No migration to revert.');
  else for (const name of reverted) print(`Reverted migration ${name}`);
}

interface SeedFlags {
  file?: string | undefined;
  dryRun: boolean;
}

async function seed(dataSource: DataSource, flags: SeedFlags): Promise<void> {
  const options = { dryRun: flags.dryRun };
  const prefix = flags.dryRun ? '[dry run] ' : '';
  if (flags.file === undefined) {
    for (const report of await seedDirectory(dataSource, undefined, options)) {
      print(`${prefix}${basename(report.file)}: ${report.summary}`);
    }
    return;
  }
  // A cast file lists `mappings`; a kind file `kinds`; a data-type file a kind, a flavor (or several) and types.
  // pnpm runs the script in packages/backend; a relative path is meant from where the user typed it.
  const path = resolve(process.env['INIT_CWD'] ?? process.cwd(), flags.file);
  const summary = /(^|\/)casts\//.test(path)
    ? (await seedCastFile(dataSource, await loadCastSeedFile(path), options)).summary
    : /(^|\/)kinds\//.test(path)
      ? (await seedKindFile(dataSource, await loadKindSeedFile(path), options)).summary
      : undefined;
  if (summary !== undefined) {
    print(`${prefix}${basename(path)}: ${summary}`);
    return;
  }
  const files = await loadSeedFiles(path);
  for (const file of files) {
    const name = files.length > 1 ? `${basename(path)}#${file.flavor.code}` : basename(path);
    print(`${prefix}${name}: ${(await seedDataTypeFile(dataSource, file, options)).summary}`);
  }
}

async function run(command: Command, flags: SeedFlags): Promise<void> {
  // Maintenance never signs tokens: the JWT secret is not needed here.
  const base = loadConfig(process.env, { requireJwtSecret: false });
  const logger = createLogger(base);
  let target: DatabaseTarget | undefined;
  let dataSource: DataSource | undefined;
  try {
    target = await resolveDatabase(base, logger);
    print(
      target.embedded
        ? `Database: embedded PostgreSQL under ${join(base.dataDir, 'pg')}`
        : 'Database: DATABASE_URL',
    );
    dataSource = createDataSource({ url: target.url, poolSize: 2, applicationName: 'aide-metastore-cli' });
    await dataSource.initialize();
    if (command === 'migrate') await migrate(dataSource);
    else if (command === 'revert') await revert(dataSource);
    else await seed(dataSource, flags);
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await target?.embedded?.stop();
  }
}

let parsed: ReturnType<typeof parseCommandLine>;
function parseCommandLine() {
  return parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      file: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
try {
  parsed = parseCommandLine();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
const arg = parsed.positionals[0];
if (arg === undefined || arg === 'help' || parsed.values.help) {
  process.stdout.write(USAGE);
  process.exit(arg === undefined && !parsed.values.help ? 2 : 0);
}
const seedOnly = parsed.values.file !== undefined || parsed.values['dry-run'];
if (!isCommand(arg) || parsed.positionals.length > 1 || (seedOnly && arg !== 'seed')) {
  process.stderr.write(`Unknown arguments: ${process.argv.slice(2).join(' ')}\n\n${USAGE}`);
  process.exit(2);
}

run(arg, { file: parsed.values.file, dryRun: parsed.values['dry-run'] ?? false }).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `aide ${arg} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(1);
  },
);
