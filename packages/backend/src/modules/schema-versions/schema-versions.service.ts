import {
  type PublishResult,
  PublishSchemaVersionSchema,
  type SchemaVersion,
  type SchemaVersionDiff,
  type SchemaVersionSummary,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DataTypesRepository } from '../data-types/data-types.repository.js';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { DatasetSchemasService } from '../dataset-schemas/dataset-schemas.service.js';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import { FieldBindingsRepository } from '../field-bindings/field-bindings.repository.js';
import { FieldClassificationsRepository } from '../field-classifications/field-classifications.repository.js';
import { FieldsRepository } from '../fields/fields.repository.js';
import {
  buildTypeTrees,
  renderTypeText,
  toTypeInstanceTree,
  typeSignature,
} from '../type-instances/type-tree.js';
import { TypeTreeWriter } from '../type-instances/type-tree.writer.js';
import { RenderBudget } from '../type-system/render-budget.js';
import { TypeInstancesRepository } from '../type-instances/type-instances.repository.js';
import { diffVersions } from './schema-version-diff.js';
import { resolveTypeSpec } from './type-spec-resolver.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;

interface CurrentColumn {
  name: string;
  nullable: boolean;
  typeInstanceId: string;
  signature: string;
}

/**
 * Schema versions as a whole: publish (atomic, numbered under a per-dataset lock, a no-op when the
 * shape equals the current version), history, one version with its columns, and the diff of two.
 */
@Injectable()
export class SchemaVersionsService {
  constructor(
    private readonly datasets: DatasetsRepository,
    private readonly schemas: DatasetSchemasRepository,
    private readonly schemaHeaders: DatasetSchemasService,
    private readonly fields: FieldsRepository,
    private readonly bindings: FieldBindingsRepository,
    private readonly typeInstances: TypeInstancesRepository,
    private readonly typeTrees: TypeTreeWriter,
    private readonly dataTypes: DataTypesRepository,
    private readonly classifications: FieldClassificationsRepository,
    private readonly tx: Transactions,
  ) {}

  publish(datasetId: string, input: PublishInput, actor: AuthUser): Promise<PublishResult> {
    return this.tx.run(async (m) => {
      if (!(await this.datasets.crud.findActive(datasetId, m, 'share')))
        throw new AppError('DATASET_NOT_FOUND');
      await this.schemas.lockVersioning(datasetId, m);
      const dataTypes = await this.dataTypes.byCodeOfFlavor(await this.datasets.flavorIdOf(datasetId, m), m);
      const columns = input.columns.map((column, i) => ({
        ...column,
        type: resolveTypeSpec(column.type, dataTypes, ['columns', i, 'type']),
      }));

      const current = await this.schemas.findCurrent(datasetId, m);
      const previous = current ? await this.currentColumns(current, m) : [];
      const unchanged =
        previous.length === columns.length &&
        columns.every((c, i) => {
          const p = previous[i];
          return p.name === c.name && p.nullable === c.nullable && p.signature === typeSignature(c.type);
        });
      if (current && unchanged) return { created: false, version: await this.detail(current, m) };

      const header = await this.schemaHeaders.createIn(
        m,
        {
          dataset_id: datasetId,
          version_num: input.version_num,
          schema: input.schema,
          extra: input.extra,
          note: input.note,
        },
        actor,
      );
      const fieldIds = await this.findOrCreateFields(datasetId, columns, actor, m);

      // An unchanged column keeps the previous version's type tree.
      const reusable = new Map(previous.map((p) => [`${p.name}\u0000${p.signature}`, p.typeInstanceId]));
      const typeIds = columns.map((c) => reusable.get(`${c.name}\u0000${typeSignature(c.type)}`));
      const toCreate = columns.flatMap((c, i) => (typeIds[i] === undefined ? [{ i, type: c.type }] : []));
      const created = await this.typeTrees.insertTrees(
        toCreate.map((t) => t.type),
        actor.id,
        m,
      );
      toCreate.forEach((t, k) => (typeIds[t.i] = created[k]));

      await this.bindings.crud.insertMany(
        columns.map((c, position) => ({
          field_id: fieldIds[position],
          dataset_schema_id: header.id,
          position,
          is_nullable: c.nullable,
          type_instance_id: typeIds[position] as string,
        })),
        actor.id,
        m,
      );
      return { created: true, version: await this.detail(header, m) };
    });
  }

  private async findOrCreateFields(
    datasetId: string,
    columns: readonly { name: string; path?: string | null | undefined; origin?: string | undefined }[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<string[]> {
    const existing = new Map(
      (
        await this.fields.findRootsByNames(
          datasetId,
          columns.map((c) => c.name),
          m,
        )
      ).map((f) => [f.name, f.id]),
    );
    const missing = columns.filter((c) => !existing.has(c.name));
    const inserted = await this.fields.crud.insertMany(
      missing.map((c) => ({
        dataset_id: datasetId,
        name: c.name,
        path: c.path ?? c.name,
        ...(c.origin ? { origin: c.origin as 'mapped' } : {}),
      })),
      actor.id,
      m,
    );
    for (const f of inserted) existing.set(f.name, f.id);
    return columns.map((c) => existing.get(c.name) as string);
  }

  private async currentColumns(schema: DatasetSchemaEntity, m: EntityManager): Promise<CurrentColumn[]> {
    const rows = await this.bindings.ofSchema(schema.id, m);
    const trees = buildTypeTrees(
      await this.typeInstances.subtrees(
        rows.map((r) => r.type_instance_id),
        m,
      ),
    );
    return rows.map((r) => ({
      name: r.field_name,
      nullable: r.is_nullable,
      typeInstanceId: r.type_instance_id,
      signature: typeSignature(trees.get(r.type_instance_id) as Parameters<typeof typeSignature>[0]),
    }));
  }

  /** A version with its columns, type trees, rendered types and current PII tags: four queries. */
  private async detail(schema: DatasetSchemaEntity, m?: EntityManager): Promise<SchemaVersion> {
    const rows = await this.bindings.ofSchema(schema.id, m);
    const trees = buildTypeTrees(
      await this.typeInstances.subtrees(
        rows.map((r) => r.type_instance_id),
        m,
      ),
    );
    const tags = new Map(
      (
        await this.classifications.currentOfFields(
          rows.map((r) => r.field_id),
          m,
        )
      ).map((c) => [c.field_id, c.pii_tags]),
    );
    // One render budget for the whole version: many columns cannot multiply it.
    const budget = new RenderBudget();
    return {
      dataset_schema_id: schema.id,
      dataset_id: schema.dataset_id,
      version_num: schema.version_num,
      created_at: schema.created_at.toISOString(),
      columns: rows.map((r) => {
        const tree = trees.get(r.type_instance_id);
        if (!tree) throw new Error(`type instance ${r.type_instance_id} missing`);
        return {
          field_id: r.field_id,
          name: r.field_name,
          position: r.position,
          nullable: r.is_nullable,
          type_instance_id: r.type_instance_id,
          rendered_type: renderTypeText(tree, budget),
          type: toTypeInstanceTree(tree),
          pii_tags: tags.get(r.field_id) ?? null,
        };
      }),
    };
  }

  async history(datasetId: string): Promise<SchemaVersionSummary[]> {
    await this.datasets.crud.getActive(datasetId);
    return (await this.schemas.history(datasetId)).map((s) => ({
      dataset_schema_id: s.id,
      version_num: s.version_num,
      created_at: new Date(s.created_at).toISOString(),
      created_by: s.created_by,
      column_count: s.column_count,
    }));
  }

  async get(datasetId: string, versionNum: number): Promise<SchemaVersion> {
    await this.datasets.crud.getActive(datasetId);
    const schema = await this.schemas.findByVersion(datasetId, versionNum);
    if (!schema) throw new AppError('DATASET_SCHEMA_NOT_FOUND', `Version ${versionNum} does not exist.`);
    return this.detail(schema);
  }

  async diff(datasetId: string, from: number, to: number): Promise<SchemaVersionDiff> {
    const [a, b] = await Promise.all([this.get(datasetId, from), this.get(datasetId, to)]);
    return diffVersions(a, b);
  }
}
