// The `aide-provider` command line: a registry workspace as a DataCoolie JSON metadata document
// (`export`), and DataCoolie JSON/YAML documents into a workspace (`import`), the way a team moves its
// pipelines' file metadata into AIDE. It never exits the process: `main` returns the exit code.
// Only commander and the help texts load up front (`--help` must start fast); a command's
// implementation (the SDK client, the provider, yaml) is imported when it runs.
import { Command, CommanderError, Option } from 'commander';
import {
  addMetastoreOptions as registryOptions,
  configureCommandLine,
  DEFAULT_METASTORE_URL as DEFAULT_URL,
  METASTORE_API_KEY_ENV as API_KEY_ENV,
  METASTORE_PASSWORD_ENV as PASSWORD_ENV,
  METASTORE_TOKEN_ENV as TOKEN_ENV,
  METASTORE_URL_ENV as URL_ENV,
  METASTORE_USER_ENV as USER_ENV,
} from '@aide/sdk/cli';
import { VERSION } from '../version.js';
import type { ExportCommandOptions, ImportCommandOptions } from './commands.js';
import { ExitCode, type Io } from './exit-code.js';

export { ExitCode, type Io };

const REGISTRY_HELP = `
The registry: --metastore-url (env ${URL_ENV}, default ${DEFAULT_URL}); credentials from an API key
(env ${API_KEY_ENV}), a bearer token (env ${TOKEN_ENV}), or --metastore-user and --metastore-password
(env ${USER_ENV}, ${PASSWORD_ENV}). Prefer the env vars for secrets: flags are visible to other users.`;

const EXPORT_HELP = `
Writes the workspace's complete scope (active and inactive connections and dataflows, schema hints)
as one DataCoolie JSON metadata document, read in one snapshot: DataCoolie's FileProvider and
InMemoryMetadataProvider load it unchanged. Secrets appear as secret names with secrets_ref.
${REGISTRY_HELP}

Examples:
  aide-provider export --workspace analytics-prod -o metadata.json`;

const IMPORT_HELP = `
Loads DataCoolie JSON/YAML metadata documents, checked as DataCoolie's FileProvider loads them (a
document DataCoolie refuses is refused with DataCoolie's reason), and sends their scope to the registry,
which plans the import and applies it in one transaction: each connection, dataflow and hint group is
created, updated (every changed field is shown) or left unchanged, matched by its DataCoolie id; with
--prune, what the workspace has beyond the documents is deleted. All or nothing: a plan with problems
writes nothing. --dry-run shows the same plan and exits with the same code as the real run. A workspace
code that names no workspace creates it. Hints are declarations of some columns, never a schema.
${REGISTRY_HELP}

Exit codes: 0 applied (or nothing to do), 1 failure, 2 usage error, 3 the plan has problems (nothing
written).

Examples:
  aide-provider import metadata.yaml --workspace analytics-prod --dry-run
  aide-provider import conn.yaml flows.yaml --workspace analytics-prod --prune
  aide-provider import conn.yaml --workspace analytics-prod --system erp_postgres=erp_pg`;

function systemsOption(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) {
    throw new CommanderError(
      ExitCode.USAGE,
      'aide-provider.system',
      `--system takes name=system, got '${value}'`,
    );
  }
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

function createProgram(io: Io, onExitCode: (code: number) => void): Command {
  const program = configureCommandLine(
    new Command('aide-provider'),
    'Moves DataCoolie pipeline metadata between JSON/YAML documents and an AIDE registry workspace.',
    VERSION,
    io,
  );

  registryOptions(
    program
      .command('export')
      .description('Write a workspace as a DataCoolie JSON metadata document.')
      .requiredOption('--workspace <workspace>', 'the workspace (its id or code)')
      .option('-o, --output <file>', 'write to a file instead of stdout'),
  )
    .addHelpText('after', EXPORT_HELP)
    .action(async (options: ExportCommandOptions) => {
      const { runExport } = await import('./commands.js');
      onExitCode(await runExport(options, io));
    });

  registryOptions(
    program
      .command('import')
      .description('Load DataCoolie JSON/YAML metadata documents into a workspace.')
      .argument('<files...>', 'DataCoolie metadata documents (.json, .yaml, .yml), in order')
      .requiredOption('--workspace <workspace>', 'the workspace (its id or code; a new code creates it)')
      .option('--dry-run', 'show the plan the real run would apply; write nothing')
      .option(
        '--prune',
        "also delete the workspace's connections, dataflows and hint groups not in the documents",
      )
      .option('--system <name=system>', 'the system (code or id) of a connection; repeatable', systemsOption)
      .addOption(new Option('--format <format>', 'plan format').choices(['text', 'json']).default('text')),
  )
    .addHelpText('after', IMPORT_HELP)
    .action(async (files: string[], options: ImportCommandOptions) => {
      const { runImport } = await import('./commands.js');
      onExitCode(await runImport(files, options, io));
    });
  return program;
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code: number = ExitCode.OK;
  try {
    await createProgram(io, (c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has written its own message (or the help/version text); ours (credentials, --system)
      // are thrown before it could.
      if (error.exitCode !== 0 && error.code.startsWith('aide-provider.'))
        io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.FAILURE;
  }
}
