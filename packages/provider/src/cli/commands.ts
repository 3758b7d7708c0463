// What `aide-provider export` and `import` do, loaded only when one of them runs (program.ts imports
// this module in the action): the SDK client, the provider's document code and yaml stay out of
// `--help`.
import { writeFile } from 'node:fs/promises';
import { AideApiError, AideClient } from '@aide/sdk';
import {
  METASTORE_API_KEY_ENV,
  METASTORE_TOKEN_ENV,
  metastoreClientOptions,
  metastoreSettings,
  type MetastoreOptions,
} from '@aide/sdk/cli';
import { CommanderError } from 'commander';
import { exportWorkspaceDocument } from '../aide/document-export.js';
import { importRequestOf, sendImportRequest } from '../aide/import-request.js';
import { readMetadataFile } from '../document.js';
import { ExitCode, type Io } from './exit-code.js';
import { planText } from './plan-text.js';

export interface ExportCommandOptions extends MetastoreOptions {
  workspace: string;
  output?: string;
}

export interface ImportCommandOptions extends MetastoreOptions {
  workspace: string;
  dryRun?: boolean;
  prune?: boolean;
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

/**
 * Loads the documents as DataCoolie does and sends them as one plan: exit 0 when the plan was applied
 * (or had nothing to do, or a dry run found no problem), 3 when the registry refused it with its
 * problems (nothing written). A dry run's plan and exit code are the real run's.
 */
export async function runImport(files: string[], options: ImportCommandOptions, io: Io): Promise<number> {
  const documents = [];
  for (const file of files) documents.push(await readMetadataFile(file));
  // A document DataCoolie refuses is refused (with its reason) before anything is sent.
  const request = importRequestOf(documents, {
    dryRun: options.dryRun === true,
    prune: options.prune === true,
    systems: options.system ?? {},
  });
  const client = clientOf(options, io.env);
  try {
    const { plan, refused } = await sendImportRequest(client, options.workspace, request).catch(
      (error: unknown) => {
        if (error instanceof AideApiError && error.errorCode === 'PAYLOAD_TOO_LARGE') {
          // The whole scope goes in one request (one transaction): say which limit it met.
          const size = Buffer.byteLength(JSON.stringify(request));
          throw new Error(
            `the documents make an import request of ${size} bytes, more than the registry accepts ` +
              '(413 PAYLOAD_TOO_LARGE): raise its AIDE_BODY_LIMIT_BYTES',
          );
        }
        throw error;
      },
    );
    io.stdout(options.format === 'json' ? `${JSON.stringify(plan, null, 2)}\n` : planText(plan));
    return refused ? ExitCode.PROBLEMS : ExitCode.OK;
  } finally {
    await client.close();
  }
}
