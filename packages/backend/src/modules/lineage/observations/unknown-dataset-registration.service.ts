import {
  CreateDatasetSchema,
  type DatasetKind,
  type OpenLineageReplay,
  type OpenLineageReplayResult,
  type ParsedOpenLineageEvent,
  PublishSchemaVersionSchema,
  type RegisterUnknownDatasetSchema,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { AuthUser } from '../../../common/auth/current-user.js';
import { AppError, validationError } from '../../../common/errors/app-error.js';
import { toAppError } from '../../../common/errors/error-response.js';
import { Transactions } from '../../../database/transactions.js';
import { DatasetsService } from '../../datasets/datasets.service.js';
import {
  databaseFits,
  databaseOf,
  lookupOf,
  namespacesOf,
  normalizeNamespace,
} from '../openlineage-naming.js';
import { OpenLineageRepository } from '../openlineage.repository.js';
import { OpenLineageService } from '../openlineage.service.js';
import { toUnknownDataset } from './lineage-observation.mapper.js';
import { LineageObservationsRepository, type UnknownDatasetRow } from './lineage-observations.repository.js';
import { SchemaVersionPublisher } from '../../schema-versions/schema-version-publisher.js';

type RegisterInput = z.output<typeof RegisterUnknownDatasetSchema>;

/**
 * Registering a dataset the OpenLineage intake saw, then applying the events that named it (ADR 0054):
 * one transaction — the dataset, its version 1 when asked, the stored events replayed through the
 * intake's own path — so that a failure leaves the dataset unknown and its events stored.
 */
@Injectable()
export class UnknownDatasetRegistrationService {
  constructor(
    private readonly tx: Transactions,
    private readonly repo: LineageObservationsRepository,
    private readonly intakeRepo: OpenLineageRepository,
    private readonly intake: OpenLineageService,
    private readonly datasets: DatasetsService,
    private readonly publisher: SchemaVersionPublisher,
  ) {}

  register(id: string, input: RegisterInput, actor: AuthUser) {
    return this.tx.run(async (m) => {
      const row = await this.repo.unknownById(id, m, true);
      if (!row) throw new AppError('UNKNOWN_DATASET_NOT_FOUND');
      if (row.registered_dataset_id) {
        throw new AppError('UNKNOWN_DATASET_ALREADY_REGISTERED', undefined, {
          dataset_id: row.registered_dataset_id,
        });
      }
      const systemId = input.system_id ?? (await this.resolveSystem(row, m));
      const [system] = await this.repo.systemKinds([systemId], m);
      if (!system) throw new AppError('SYSTEM_NOT_FOUND');
      const create = CreateDatasetSchema.safeParse({
        kind: system.kind_code,
        system_id: systemId,
        object_name: row.name,
        ...attributesOf(system.kind_code as DatasetKind, row),
        ...input.dataset,
      });
      if (!create.success) {
        throw validationError(
          create.error.issues.map((i) => ({
            path: ['dataset', ...i.path],
            message: i.message,
            code: i.code,
          })),
          'The dataset cannot be created from its OpenLineage name alone: give the missing fields in `dataset`.',
        );
      }
      const dataset = await this.datasets.createIn(create.data, actor, m);
      const versionNum = input.publish_schema ? await this.publishSeen(dataset.id, row, actor, m) : null;
      await this.repo.setRegistered(row.id, dataset.id, m);
      const replay = await this.replayIn(await this.repo.payloadsOfUnknown(row.id, m), actor, m);
      const registered = (await this.repo.unknownById(row.id, m)) as UnknownDatasetRow;
      return {
        unknown_dataset: toUnknownDataset(registered, await this.repo.jobsOf([row.id], m)),
        dataset,
        schema_version_num: versionNum,
        replay,
      };
    });
  }

  /** `POST /lineage/openlineage/replay`: the stored events of a run, or of an unknown dataset. */
  replay(body: OpenLineageReplay, actor: AuthUser): Promise<OpenLineageReplayResult> {
    return this.tx.run(async (m) => {
      if (body.unknown_dataset_id !== undefined) {
        if (!(await this.repo.unknownById(body.unknown_dataset_id, m))) {
          throw new AppError('UNKNOWN_DATASET_NOT_FOUND');
        }
        return this.replayIn(await this.repo.payloadsOfUnknown(body.unknown_dataset_id, m), actor, m);
      }
      return this.replayIn(await this.repo.payloadsOfRun((body.run_id as string).toLowerCase(), m), actor, m);
    });
  }

  private async replayIn(
    stored: readonly { event_key: string; payload: unknown }[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<OpenLineageReplayResult> {
    const events = await this.intake.replayIn(
      stored.map((s) => s.payload as ParsedOpenLineageEvent),
      actor,
      m,
    );
    return {
      events,
      dataset_links: events.reduce((n, e) => n + e.result.dataset_links.length, 0),
      field_links: events.reduce((n, e) => n + e.result.field_links.length, 0),
    };
  }

  /** The one system the namespace resolves to, as the intake resolves it (docs/openlineage.md). */
  private async resolveSystem(row: UnknownDatasetRow, m: EntityManager): Promise<string> {
    const ns = normalizeNamespace(row.namespace);
    const lookup = lookupOf(row.namespace, row.name);
    const candidates = (await this.intakeRepo.systems([ns], m))
      .filter((s) => namespacesOf(s).includes(ns) && databaseFits(databaseOf(s), lookup))
      .map((s) => s.id)
      .sort();
    if (candidates.length !== 1) {
      throw new AppError('UNKNOWN_DATASET_SYSTEM_UNRESOLVED', undefined, {
        namespace: row.namespace,
        candidates,
      });
    }
    return candidates[0];
  }

  /** The fields seen as version 1: native types as sent (free text), every column nullable. */
  private async publishSeen(
    datasetId: string,
    row: UnknownDatasetRow,
    actor: AuthUser,
    m: EntityManager,
  ): Promise<number> {
    const input = PublishSchemaVersionSchema.parse({
      columns: Object.entries(row.fields).map(([name, type]) => ({
        name,
        nullable: true,
        type: null,
        native_type: type ?? 'unknown',
      })),
      note: `OpenLineage: the fields seen for ${row.namespace} ${row.name}`.slice(0, 1000),
    });
    const [outcome] = await this.publisher.publishAll(m, [{ datasetId, input }], actor);
    if (!outcome?.ok) throw toAppError(outcome?.error);
    return outcome.value.header.version_num;
  }
}

/** A kind's attributes from an OpenLineage name (docs/openlineage.md, naming): the body may replace them. */
function attributesOf(kind: DatasetKind, row: UnknownDatasetRow): Record<string, unknown> {
  const { last, second, third } = lookupOf(row.namespace, row.name);
  switch (kind) {
    case 'rdbms':
      return { table_name: last, ...(second ? { schema_name: second } : {}), catalog_name: third };
    case 'hive':
      return { table_name: last, ...(second ? { db_name: second } : {}), catalog_uri: row.namespace };
    case 'kafka':
      return { topic: row.name };
    case 'storage':
    case 'sftp':
      return { path: row.name };
  }
}
