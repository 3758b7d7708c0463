// The `aide-provider` command line: a registry workspace as a DataCoolie JSON metadata document
// (`export`), and DataCoolie JSON/YAML documents into a workspace (`import`), the way a team moves its
// pipelines' file metadata into AIDE. It never exits the process: `main` returns the exit code.
import { writeFile } from 'node:fs/promises';
import { type Command, CommanderError, Option } from 'commander';
import { AideClient } from '../client.js';
import { AideError } from '../core/errors.js';
import { exportWorkspaceDocument } from '../provider/aide/document-export.js';
import { importWorkspaceDocuments, type ImportReport } from '../provider/aide/document-import.js';
import { readMetadataFile } from '../provider/document.js';
import { DataCoolieError } from '@aide/schemas/datacoolie';
import { VERSION } from '../version.js';
import {
  type CommandLineIo,
  commandLine,
  DEFAULT_METASTORE_URL as DEFAULT_URL,
  METASTORE_API_KEY_ENV as API_KEY_ENV,
  METASTORE_PASSWORD_ENV as PASSWORD_ENV,
  METASTORE_TOKEN_ENV as TOKEN_ENV,
  METASTORE_URL_ENV as URL_ENV,
  METASTORE_USER_ENV as USER_ENV,
  type MetastoreOptions as RegistryOptions,
  metastoreOptions as registryOptions,
  runCommandLine,
  USAGE_EXIT_CODE,
} from './command-line.js';

export { API_KEY_ENV, DEFAULT_URL, PASSWORD_ENV, TOKEN_ENV, URL_ENV, USER_ENV };

/** Exit codes: 0 done, 1 failure (message on stderr), 2 usage error, 3 import left items unmapped. */
export const ExitCode = { OK: 0, FAILURE: 1, USAGE: USAGE_EXIT_CODE, UNMAPPED: 3 } as const;

/** Where the program writes and what it reads from its environment (the process, or a test's capture). */
export type Io = CommandLineIo;

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
Loads DataCoolie JSON/YAML metadata documents (checked as DataCoolie loads them) into the workspace,
creating it when the code names none: a connection profile per connection over a matching system
(same database type and host, or a base_path below the system's; else --system), credential
references for secrets_ref fields, a dataset per table read or written, the dataflows (UUID ids are
kept: watermarks are keyed by them), and each hint group as the first schema version of its table.
What already exists is reused; what cannot be mapped is reported (exit code 3).
${REGISTRY_HELP}

Exit codes: 0 everything imported, 1 failure, 2 usage error, 3 some items could not be mapped.

Examples:
  aide-provider import metadata.yaml --workspace analytics-prod --dry-run
  aide-provider import conn.yaml flows.yaml --workspace analytics-prod --system erp_postgres=erp_pg`;

function clientOf(options: RegistryOptions, env: Io['env']): AideClient {
  const baseUrl = options.metastoreUrl ?? env[URL_ENV] ?? DEFAULT_URL;
  const apiKey = env[API_KEY_ENV];
  const token = env[TOKEN_ENV];
  const username = options.metastoreUser ?? env[USER_ENV];
  const password = options.metastorePassword ?? env[PASSWORD_ENV];
  if (username !== undefined && password !== undefined)
    return new AideClient({ baseUrl, username, password });
  // An API key is sent as a bearer token (the registry tells keys by their prefix).
  const bearer = apiKey ?? token;
  if (bearer !== undefined) return new AideClient({ baseUrl, token: bearer });
  throw new CommanderError(
    ExitCode.USAGE,
    'aide-provider.credentials',
    `no credentials: set ${API_KEY_ENV}, ${TOKEN_ENV}, or a user and password`,
  );
}

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

function reportText(report: ImportReport): string {
  const lines = [`workspace ${report.workspace}${report.dryRun ? ' (dry run: nothing written)' : ''}`];
  for (const item of report.items) {
    lines.push(
      `  ${item.action.padEnd(12)} ${item.kind.padEnd(14)} ${item.name}${item.id ? ` (${item.id})` : ''}`,
    );
  }
  if (report.skipped.length > 0) {
    lines.push(`not mapped (${report.skipped.length}):`);
    for (const problem of report.skipped)
      lines.push(`  ${problem.kind.padEnd(14)} ${problem.name}: ${problem.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

function createProgram(io: Io, onExitCode: (code: number) => void): Command {
  const program = commandLine(
    'aide-provider',
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
    .action(async (options: RegistryOptions & { workspace: string; output?: string }) => {
      const client = clientOf(options, io.env);
      try {
        const text = `${JSON.stringify(await exportWorkspaceDocument(client, options.workspace), null, 2)}\n`;
        if (options.output === undefined) io.stdout(text);
        else await writeFile(options.output, text);
        onExitCode(ExitCode.OK);
      } finally {
        await client.close();
      }
    });

  registryOptions(
    program
      .command('import')
      .description('Load DataCoolie JSON/YAML metadata documents into a workspace.')
      .argument('<files...>', 'DataCoolie metadata documents (.json, .yaml, .yml), in order')
      .requiredOption('--workspace <workspace>', 'the workspace (its id or code; a new code creates it)')
      .option('--dry-run', 'report what would be done; write nothing')
      .option('--system <name=system>', 'the system (code or id) of a connection; repeatable', systemsOption)
      .addOption(new Option('--format <format>', 'report format').choices(['text', 'json']).default('text')),
  )
    .addHelpText('after', IMPORT_HELP)
    .action(
      async (
        files: string[],
        options: RegistryOptions & {
          workspace: string;
          dryRun?: boolean;
          system?: Record<string, string>;
          format: 'text' | 'json';
        },
      ) => {
        const documents = [];
        for (const file of files) documents.push(await readMetadataFile(file));
        const client = clientOf(options, io.env);
        try {
          const report = await importWorkspaceDocuments(client, documents, {
            workspace: options.workspace,
            dryRun: options.dryRun === true,
            systems: options.system ?? {},
          });
          io.stdout(options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
          onExitCode(report.skipped.length > 0 ? ExitCode.UNMAPPED : ExitCode.OK);
        } finally {
          await client.close();
        }
      },
    );
  return program;
}

/** Runs the command line; resolves to the exit code. */
export function main(argv: readonly string[], io: Io): Promise<number> {
  return runCommandLine(
    (onExitCode) => createProgram(io, onExitCode),
    argv,
    (error) => {
      const known = error instanceof DataCoolieError || error instanceof AideError || error instanceof Error;
      io.stderr(`error: ${known ? error.message : String(error)}\n`);
      return ExitCode.FAILURE;
    },
    // Our own usage errors (credentials, --system) are thrown before commander could write them.
    (error) => error.code.startsWith('aide-provider.'),
    io,
  );
}
