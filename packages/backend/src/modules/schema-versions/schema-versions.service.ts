import {
  type BulkPublishItemResult,
  type BulkPublishResult,
  BulkPublishSchema,
  type PublishResult,
  PublishSchemaVersionSchema,
  type SchemaVersion,
  type SchemaVersionDiff,
  type SchemaVersionSummary,
} from '@aide/schemas';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { itemOutcome, runPerItem } from '../../common/crud/per-item.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { diffVersions } from './schema-version-diff.js';
import { type PublishItem, type Published, SchemaVersionPublisher } from './schema-version-publisher.js';
import { SchemaVersionCheckService } from './schema-version-check.service.js';
import { SchemaVersionReader } from './schema-version.reader.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;
type BulkPublishItem = z.output<typeof BulkPublishSchema>['items'][number];

/**
 * Schema versions as a whole: publish (atomic, numbered under a per-dataset lock, a no-op when the
 * columns and the table structure equal the current version), bulk publish (each dataset on its own,
 * checked against its base version), history, one version, and the diff of two. Publishing is
 * `SchemaVersionPublisher`'s, set-based: a bulk publish of 500 datasets costs the statements of one.
 */
@Injectable()
export class SchemaVersionsService {
  private readonly logger = new Logger(SchemaVersionsService.name);

  constructor(
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasRepository,
    private readonly publisher: SchemaVersionPublisher,
    private readonly reader: SchemaVersionReader,
    private readonly tx: Transactions,
    private readonly checks: SchemaVersionCheckService,
  ) {}

  async publish(datasetId: string, input: PublishInput, actor: AuthUser): Promise<PublishResult> {
    // A forced publish answers the impact of what it overrides: read before the version is current.
    const forcedImpact =
      input.force_reason !== undefined && actor.is_superuser
        ? await this.checks.impactOf(datasetId, input, actor)
        : null;
    const result = await this.publishInTx(datasetId, input, actor).catch(async (error: unknown) => {
      // A version refused by the dataset's compatibility level: its impact, read after the rollback.
      throw await this.checks.withImpact(error, input, actor);
    });
    return result.version.compatibility_override ? { ...result, impact: forcedImpact } : result;
  }

  private publishInTx(datasetId: string, input: PublishInput, actor: AuthUser): Promise<PublishResult> {
    return this.tx.run(async (m) => {
      const { created, header, baseVersionNum, change } = await this.publishOne(
        m,
        { datasetId, input },
        actor,
      );
      return {
        created,
        version: await this.reader.one(header, m),
        base_version_num: baseVersionNum,
        ...change,
      };
    });
  }

  /**
   * Every item checked, then the ones that pass written together, in one transaction: an item that
   * fails (a conflict, an unknown type) is reported and the others still apply. Should the writes fail
   * (a concurrent writer, a constraint the checks did not foresee), each item is published again in a
   * transaction of its own, one after the other, and answered as a single publish would be.
   */
  async publishMany(items: readonly BulkPublishItem[], actor: AuthUser): Promise<BulkPublishResult> {
    const work = items.map(
      ({ dataset_id, dataset, base_version_num, refuse_breaking, ...input }): PublishItem => ({
        ...(dataset ? { newDataset: dataset } : { datasetId: dataset_id as string }),
        input,
        baseVersionNum: base_version_num,
        refuseBreaking: refuse_breaking,
      }),
    );
    const together = await this.tx
      .run((m) => this.publisher.publishAll(m, work, actor))
      .catch((error: unknown) => {
        this.logger.warn(`bulk publish of ${items.length} retried item by item: ${String(error)}`);
        return undefined;
      });
    const outcomes = together
      ? together.map((outcome, index) => itemOutcome(index, items[index], outcome, this.logger))
      : await runPerItem(work, (item) => this.tx.run((m) => this.publishOne(m, item, actor)), this.logger);
    // A version refused by its dataset's compatibility level: its impact, read after the writes.
    for (const outcome of outcomes) {
      const item = items[outcome.index];
      outcome.error = await this.checks.itemWithImpact(outcome.error, item.dataset_id ?? null, item, actor);
    }
    const results: BulkPublishItemResult[] = outcomes.map(({ index, value, error }) => ({
      index,
      dataset_id: items[index].dataset_id ?? value?.header.dataset_id ?? null,
      status: value ? (value.created ? 'created' : 'unchanged') : 'failed',
      version_num: value?.header.version_num ?? null,
      dataset_schema_id: value?.header.id ?? null,
      base_version_num: value?.baseVersionNum ?? null,
      compatibility: value?.change.compatibility ?? null,
      changes: value?.change.changes ?? [],
      error,
    }));
    const count = (status: BulkPublishItemResult['status']) =>
      results.filter((r) => r.status === status).length;
    return {
      items: results,
      summary: { created: count('created'), unchanged: count('unchanged'), failed: count('failed') },
    };
  }

  /** One item as a batch of one: its error thrown. */
  private async publishOne(m: EntityManager, item: PublishItem, actor: AuthUser): Promise<Published> {
    const [outcome] = await this.publisher.publishAll(m, [item], actor);
    if (outcome?.ok !== true) throw outcome?.error;
    return outcome.value;
  }

  async history(datasetId: string): Promise<SchemaVersionSummary[]> {
    await this.datasets.requireActive(datasetId);
    return (await this.schemas.history(datasetId)).map((s) => ({
      dataset_schema_id: s.id,
      version_num: s.version_num,
      created_at: new Date(s.created_at).toISOString(),
      created_by: s.created_by,
      column_count: s.column_count,
      compatibility_override: s.compatibility_override ?? null,
    }));
  }

  async get(datasetId: string, versionNum: number): Promise<SchemaVersion> {
    await this.datasets.requireActive(datasetId);
    const schema = await this.schemas.findByVersion(datasetId, versionNum);
    if (!schema) throw new AppError('DATASET_SCHEMA_NOT_FOUND', `Version ${versionNum} does not exist.`);
    return this.reader.one(schema);
  }

  async diff(datasetId: string, from: number, to: number): Promise<SchemaVersionDiff> {
    const [a, b] = await Promise.all([this.get(datasetId, from), this.get(datasetId, to)]);
    // Classed by the dataset's format, as its publishes are (Avro/Protobuf evolution rules).
    const flavor = await this.tx.run((m) => this.datasets.flavorCodeOf(datasetId, m));
    return diffVersions(a, b, flavor);
  }
}
