// `aide-crawler translate <dataset-id> <version> --flavor X`: a registered version rendered into another
// flavor by the registry (GET /datasets/{id}/versions/{n}/translate, ADR 0049). The output (DDL, an
// Avro schema, …) goes to stdout or -o; what the translation loses (lossy casts, omissions) to stderr.
// With --strict a lossy translation writes nothing and exits 3.
import type { TranslatedColumn, Translation, TranslationFormat, TranslationOmission } from '@aide/schemas';
import { TRANSLATION_FORMATS } from '@aide/schemas';
import { AideApiError } from '@aide/sdk';
import { CrawlerError, ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import { connectRegistry, registryFailure, type RegistryFlags } from '../registry/client.js';
import { writeOutput } from './shared.js';

export interface TranslateCommandOptions extends RegistryFlags {
  flavor: string;
  format?: string;
  strict?: boolean;
  output?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}

/** The loss report: one line per lossy cast and per omission, after a summary line. */
export function lossReport(
  title: string,
  lossyColumns: readonly TranslatedColumn[],
  omissions: readonly TranslationOmission[],
): string {
  const lines = [
    lossyColumns.length === 0 && omissions.length === 0
      ? `${title}: nothing lost`
      : `${title}: ${lossyColumns.length} lossy cast(s), ${omissions.length} omission(s)`,
  ];
  for (const c of lossyColumns) {
    const loss = c.loss.length > 0 ? ` (loses ${c.loss.join('; ')})` : '';
    lines.push(`  lossy    ${c.path}: ${c.source_type ?? '?'} -> ${c.target_type ?? '?'}${loss}`);
  }
  for (const o of omissions)
    lines.push(`  omitted  ${o.kind}${o.path === null ? '' : ` ${o.path}`}: ${o.reason}`);
  return `${lines.join('\n')}\n`;
}

export async function runTranslate(
  datasetId: string,
  version: string,
  options: TranslateCommandOptions,
  io: Io,
): Promise<ExitCode> {
  if (!UUID.test(datasetId)) throw usage(`'${datasetId}' is not a dataset id (a UUID)`);
  const versionNum = Number(version);
  if (
    !/^\d+$/.test(version) ||
    !Number.isSafeInteger(versionNum) ||
    versionNum < 1 ||
    versionNum > 2_147_483_647
  ) {
    throw usage(`'${version}' is not a version number (a positive integer)`);
  }
  const format = options.format;
  if (format !== undefined && !(TRANSLATION_FORMATS as readonly string[]).includes(format)) {
    throw usage(`--format must be one of ${TRANSLATION_FORMATS.join(', ')}`);
  }
  const title = `${datasetId} version ${versionNum} into ${options.flavor}`;
  const registry = connectRegistry(options, io);
  let translation: Translation;
  try {
    translation = await registry.client.datasets.translateSchemaVersion(
      datasetId,
      versionNum,
      {
        flavor: options.flavor,
        ...(format === undefined ? {} : { format: format as TranslationFormat }),
        ...(options.strict ? { strict: true } : {}),
      },
      { signal: io.signal },
    );
  } catch (error) {
    if (error instanceof AideApiError && error.errorCode === 'TRANSLATION_LOSSY') {
      const details = error.details ?? {};
      io.stderr(
        lossReport(
          `${title} (--strict: nothing written)`,
          (details['lossy_columns'] as TranslatedColumn[] | undefined) ?? [],
          (details['omissions'] as TranslationOmission[] | undefined) ?? [],
        ),
      );
      return ExitCode.LOSSY;
    }
    throw registryFailure(`translate ${title}`, error);
  } finally {
    await registry.close();
  }
  await writeOutput(options.output, translation.content, 'Translation', io);
  io.stderr(
    lossReport(
      `${title} (${translation.format}, from ${translation.source_flavor})`,
      translation.columns.filter((c) => c.fidelity === 'lossy'),
      translation.omissions,
    ),
  );
  return ExitCode.OK;
}
