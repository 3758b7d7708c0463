import type { Translation, TranslationFormat } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import { CastRulesLookup } from '../cast-rules/cast-rules.lookup.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { SchemaVersionReader } from '../schema-versions/schema-version.reader.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { FLAVOR_OUTPUTS, MEDIA_TYPES } from './renderers/index.js';
import { Omissions } from './translated-table.js';
import { buildTranslationModel, identityCandidates, sourceTypeIds } from './translation-model.js';
import { TranslationsRepository } from './translations.repository.js';

export interface TranslateOptions {
  flavor: string;
  format?: TranslationFormat | undefined;
  strict?: boolean | undefined;
}

/**
 * A stored version rendered into another flavor (ADR 0049): its columns' type trees cast node by node
 * through the cast rules, then written by the target's renderer. Reads in one transaction, a fixed
 * number of statements whatever the version's size: the dataset, the version (the reader's three), the
 * flavor, the cast rules and their gaps.
 */
@Injectable()
export class TranslationsService {
  constructor(
    private readonly repo: TranslationsRepository,
    private readonly schemas: DatasetSchemasRepository,
    private readonly reader: SchemaVersionReader,
    private readonly flavors: SystemFlavorsLookup,
    private readonly castRules: CastRulesLookup,
    private readonly dataTypes: DataTypesLookup,
    private readonly tx: Transactions,
  ) {}

  translate(datasetId: string, versionNum: number, options: TranslateOptions): Promise<Translation> {
    return this.tx.run(async (m) => {
      const dataset = await this.repo.dataset(datasetId, m);
      if (!dataset) throw new AppError('DATASET_NOT_FOUND');
      const header = await this.schemas.findByVersion(datasetId, versionNum, m);
      if (!header) throw new AppError('DATASET_SCHEMA_NOT_FOUND', `Version ${versionNum} does not exist.`);
      const flavor = await this.flavors.findActiveByCode(options.flavor);
      if (!flavor) throw new AppError('SYSTEM_FLAVOR_NOT_FOUND', `No flavor '${options.flavor}'.`);
      const outputs = FLAVOR_OUTPUTS[flavor.code];
      const formats = Object.keys(outputs?.formats ?? {});
      const format = options.format ?? outputs?.default;
      const renderer = format === undefined ? undefined : outputs?.formats[format];
      if (format === undefined || renderer === undefined) {
        throw new AppError(
          'TRANSLATION_FORMAT_UNSUPPORTED',
          formats.length === 0
            ? `No output renders ${flavor.code}.`
            : `${flavor.code} is written as ${formats.join(', ')}, not ${format}.`,
          { flavor: flavor.code, format: format ?? null, formats },
        );
      }
      const version = await this.reader.one(header, m);
      const ids = sourceTypeIds(version);
      const { bySource, gaps } =
        flavor.id === dataset.flavor_id
          ? {
              bySource: identityCandidates((await this.dataTypes.byCodeOfFlavor(flavor.id, m)).values()),
              gaps: new Map<string, string>(),
            }
          : await this.castRulesOf(ids, flavor.id, m);
      const omissions = new Omissions();
      const model = buildTranslationModel(
        version,
        {
          name: dataset.name,
          namespace: dataset.namespace,
          flavor: flavor.code,
          partition_columns: dataset.partition_columns,
        },
        { bySource, gaps },
        omissions,
      );
      const content = renderer(model.table, omissions);
      const lossyColumns = model.columns.filter((c) => c.fidelity === 'lossy');
      const lossy = lossyColumns.length > 0 || omissions.items.length > 0;
      if (lossy && options.strict) {
        throw new AppError(
          'TRANSLATION_LOSSY',
          `${lossyColumns.length} lossy cast(s) and ${omissions.items.length} omission(s) into ${flavor.code}.`,
          { lossy_columns: lossyColumns, omissions: omissions.items },
        );
      }
      return {
        dataset_id: datasetId,
        version_num: versionNum,
        source_flavor: dataset.flavor_code,
        target_flavor: flavor.code,
        format,
        media_type: MEDIA_TYPES[format],
        content,
        columns: model.columns,
        lossy,
        omissions: omissions.items,
      };
    });
  }

  /** The cast rules from the given data types into the flavor, by source, and its "no mapping" reasons. */
  private async castRulesOf(ids: string[], flavorId: string, m: EntityManager) {
    const bySource = new Map<string, CastCandidate[]>();
    for (const c of await this.castRules.candidates(ids, flavorId, m)) {
      bySource.set(c.source_data_type_id, [...(bySource.get(c.source_data_type_id) ?? []), c]);
    }
    return { bySource, gaps: await this.castRules.gaps(ids, flavorId, m) };
  }
}
