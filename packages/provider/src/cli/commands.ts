// What `aide-provider export` and `import` do, loaded only when one of them runs (program.ts imports
// this module in the action): the SDK client, the provider's document code and yaml stay out of
// `--help`.
import { writeFile } from 'node:fs/promises';
import { AideClient } from '@aide/sdk';
import {
  METASTORE_API_KEY_ENV,
  METASTORE_TOKEN_ENV,
  metastoreClientOptions,
  metastoreSettings,
  type MetastoreOptions,
} from '@aide/sdk/cli';
import { CommanderError } from 'commander';
import { exportWorkspaceDocument } from '../aide/document-export.js';
import { importWorkspaceDocuments, type ImportReport } from '../aide/document-import.js';
import { readMetadataFile } from '../document.js';
import { ExitCode, type Io } from './exit-code.js';

export interface ExportCommandOptions extends MetastoreOptions {
  workspace: string;
  output?: string;
}

export interface ImportCommandOptions extends MetastoreOptions {
  workspace: string;
  dryRun?: boolean;
  system?: Record<string, string>;
  format: 'text' | 'json';
}

function clientOf(options: MetastoreOptions, env: Io['env']): AideClient {
  const clientOptions = metastoreClientOptions(metastoreSettings(options, env));
  if (clientOptions) return new AideClient(clientOptions);
  throw new CommanderError(
    ExitCode.USAGE,
    'aide-provider.credentials',
    `no credentials: set ${METASTORE_API_KEY_ENV}, ${METASTORE_TOKEN_ENV}, or a user and password`,
  );
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

export async function runExport(options: ExportCommandOptions, io: Io): Promise<number> {
  const client = clientOf(options, io.env);
  try {
    const text = `${JSON.stringify(await exportWorkspaceDocument(client, options.workspace), null, 2)}\n`;
    if (options.output === undefined) io.stdout(text);
    else await writeFile(options.output, text);
    return ExitCode.OK;
  } finally {
    await client.close();
  }
}

export async function runImport(files: string[], options: ImportCommandOptions, io: Io): Promise<number> {
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
    return report.skipped.length > 0 ? ExitCode.UNMAPPED : ExitCode.OK;
  } finally {
    await client.close();
  }
}
