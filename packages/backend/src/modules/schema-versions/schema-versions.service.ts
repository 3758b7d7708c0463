import {
  type BulkPublishItemResult,
  type BulkPublishResult,
  BulkPublishSchema,
  type ForeignKey,
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
import { runPerItem } from '../../common/crud/per-item.js';
import { Transactions } from '../../database/transactions.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DataTypesRepository } from '../data-types/data-types.repository.js';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { DatasetSchemasService } from '../dataset-schemas/dataset-schemas.service.js';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import { FieldBindingsRepository } from '../field-bindings/field-bindings.repository.js';
import { FieldsRepository } from '../fields/fields.repository.js';
import { buildTypeTrees, typeSignature } from '../type-instances/type-tree.js';
import { TypeTreeWriter } from '../type-instances/type-tree.writer.js';
import { TypeInstancesRepository } from '../type-instances/type-instances.repository.js';
import { diffVersions } from './schema-version-diff.js';
import { SchemaVersionReader } from './schema-version.reader.js';
import { resolveTypeSpec } from './type-spec-resolver.js';
import {
  columnAttributesOf,
  columnAttributesOfRow,
  columnText,
  tableStructureOf,
  tableStructureOfEntity,
  tableText,
} from './version-structure.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;
type BulkPublishItem = z.output<typeof BulkPublishSchema>['items'][number];

interface CurrentColumn {
  name: string;
  typeInstanceId: string | null;
  signature: string | null;
  text: string;
}

/** What a publish came to: the version written, or the current one when nothing changed. */
interface Published {
  created: boolean;
  header: DatasetSchemaEntity;
}

/** The data types of the flavors met during one request, read once per flavor. */
class FlavorTypes {
  private readonly byFlavor = new Map<string, Map<string, DataTypeEntity>>();

  constructor(private readonly dataTypes: DataTypesRepository) {}

  async of(flavorId: string, m: EntityManager): Promise<ReadonlyMap<string, DataTypeEntity>> {
    let types = this.byFlavor.get(flavorId);
    if (!types) {
      types = await this.dataTypes.byCodeOfFlavor(flavorId, m);
      this.byFlavor.set(flavorId, types);
    }
    return types;
  }
}

/**
 * Schema versions as a whole: publish (atomic, numbered under a per-dataset lock, a no-op when the
 * columns and the table structure equal the current version), bulk publish (each dataset on its own,
 * checked against its base version), history, one version, and the diff of two.
 */
@Injectable()
export class SchemaVersionsService {
  private readonly logger = new Logger(SchemaVersionsService.name);

  constructor(
    private readonly datasets: DatasetsRepository,
    private readonly schemas: DatasetSchemasRepository,
    private readonly schemaHeaders: DatasetSchemasService,
    private readonly fields: FieldsRepository,
    private readonly bindings: FieldBindingsRepository,
    private readonly typeInstances: TypeInstancesRepository,
    private readonly typeTrees: TypeTreeWriter,
    private readonly dataTypes: DataTypesRepository,
    private readonly reader: SchemaVersionReader,
    private readonly tx: Transactions,
  ) {}

  publish(datasetId: string, input: PublishInput, actor: AuthUser): Promise<PublishResult> {
    return this.tx.run(async (m) => {
      const { created, header } = await this.publishIn(
        m,
        datasetId,
        input,
        actor,
        new FlavorTypes(this.dataTypes),
      );
      return { created, version: await this.reader.one(header, m) };
    });
  }

  /**
   * Each item in its own transaction, one after the other: an item that fails (a conflict, an unknown
   * type) is reported and the others still apply.
   */
  async publishMany(items: readonly BulkPublishItem[], actor: AuthUser): Promise<BulkPublishResult> {
    const flavorTypes = new FlavorTypes(this.dataTypes);
    const outcomes = await runPerItem(
      items,
      ({ dataset_id, base_version_num, ...input }) =>
        this.tx.run((m) => this.publishIn(m, dataset_id, input, actor, flavorTypes, base_version_num)),
      this.logger,
    );
    const results: BulkPublishItemResult[] = outcomes.map(({ index, item, value, error }) => ({
      index,
      dataset_id: item.dataset_id,
      status: value ? (value.created ? 'created' : 'unchanged') : 'failed',
      version_num: value?.header.version_num ?? null,
      dataset_schema_id: value?.header.id ?? null,
      error,
    }));
    const count = (status: BulkPublishItemResult['status']) =>
      results.filter((r) => r.status === status).length;
    return {
      items: results,
      summary: { created: count('created'), unchanged: count('unchanged'), failed: count('failed') },
    };
  }

  /**
   * Publishes inside the caller's transaction. With `baseVersionNum` (bulk publish), a dataset whose
   * current version is another one is a VERSION_CONFLICT, unless the input equals that version.
   */
  private async publishIn(
    m: EntityManager,
    datasetId: string,
    input: PublishInput,
    actor: AuthUser,
    flavorTypes: FlavorTypes,
    baseVersionNum?: number | null,
  ): Promise<Published> {
    const dataset = await this.datasets.findActiveWithFlavor(datasetId, m);
    if (!dataset) throw new AppError('DATASET_NOT_FOUND');
    await this.schemas.lockVersioning(datasetId, m);
    const dataTypes = await flavorTypes.of(dataset.flavor_id, m);
    const columns = input.columns.map((column, i) => {
      const type = column.type ? resolveTypeSpec(column.type, dataTypes, ['columns', i, 'type']) : null;
      const attributes = columnAttributesOf(column);
      const signature = type ? typeSignature(type) : null;
      return {
        ...column,
        type,
        attributes,
        signature,
        text: columnText({ ...column, typeSignature: signature }, attributes),
      };
    });
    const structure = tableStructureOf(input, await this.resolveForeignKeys(dataset.system_id, input, m));

    const current = await this.schemas.findCurrent(datasetId, m);
    const previous = current ? await this.currentColumns(current, m) : [];
    const unchanged =
      current !== undefined &&
      previous.length === columns.length &&
      columns.every((c, i) => previous[i]?.text === c.text) &&
      tableText(tableStructureOfEntity(current)) === tableText(structure);
    if (current && unchanged) return { created: false, header: current };
    const currentNum = current?.version_num ?? null;
    if (baseVersionNum !== undefined && baseVersionNum !== currentNum) {
      throw new AppError(
        'VERSION_CONFLICT',
        `The dataset is at version ${currentNum ?? 'none'}, not ${baseVersionNum ?? 'none'}: compute the change again.`,
        { base_version_num: baseVersionNum, current_version_num: currentNum },
      );
    }

    const header = await this.schemaHeaders.insertNext(
      m,
      {
        dataset_id: datasetId,
        version_num: input.version_num,
        schema: input.schema,
        extra: input.extra,
        note: input.note,
      },
      actor,
      structure,
    );
    const fieldIds = await this.findOrCreateFields(datasetId, columns, actor, m);

    // An unchanged column keeps the previous version's type tree.
    const reusable = new Map(
      previous.flatMap((p) => (p.signature ? [[`${p.name}\u0000${p.signature}`, p.typeInstanceId]] : [])),
    );
    const typeIds = columns.map((c) => (c.signature ? reusable.get(`${c.name}\u0000${c.signature}`) : null));
    const toCreate = columns.flatMap((c, i) =>
      typeIds[i] === undefined && c.type ? [{ i, type: c.type }] : [],
    );
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
        type_instance_id: typeIds[position] ?? null,
        ...c.attributes,
      })),
      actor.id,
      m,
    );
    return { created: true, header };
  }

  /**
   * Foreign keys with their targets resolved: a dataset named by id must exist; a table named by
   * `schema.table` becomes the dataset of the same system registered under that name, when there is
   * exactly one. One query for all the keys.
   */
  private async resolveForeignKeys(
    systemId: string,
    input: PublishInput,
    m: EntityManager,
  ): Promise<ForeignKey[]> {
    const keys = input.foreign_keys ?? [];
    if (keys.length === 0) return [];
    const ids = keys.flatMap((k) => (k.referenced.dataset_id ? [k.referenced.dataset_id.toLowerCase()] : []));
    const tables = keys.flatMap((k) =>
      !k.referenced.dataset_id && k.referenced.table ? [k.referenced.table] : [],
    );
    const targets = await this.datasets.findTableTargets(systemId, ids, tables, m);
    const byId = new Map(targets.map((t) => [t.id, t]));
    return keys.map((key, i) => {
      const ref = key.referenced;
      let datasetId: string | null;
      let schema = ref.schema ?? null;
      let table = ref.table ?? null;
      if (ref.dataset_id) {
        const target = byId.get(ref.dataset_id.toLowerCase());
        if (!target) {
          throw new AppError('DATASET_NOT_FOUND', 'The dataset a foreign key references does not exist.', {
            path: ['foreign_keys', i, 'referenced', 'dataset_id'],
          });
        }
        datasetId = target.id;
        schema ??= target.schema_name;
        table ??= target.table_name;
      } else {
        const matches = targets.filter(
          (t) =>
            t.system_id === systemId &&
            t.table_name === table &&
            (schema === null || t.schema_name === schema),
        );
        datasetId = matches.length === 1 ? (matches[0]?.id ?? null) : null;
      }
      return {
        name: key.name,
        columns: key.columns,
        referenced: { dataset_id: datasetId, schema, table, columns: ref.columns },
        on_update: key.on_update,
        on_delete: key.on_delete,
      };
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
        rows.flatMap((r) => (r.type_instance_id ? [r.type_instance_id] : [])),
        m,
      ),
    );
    return rows.map((r) => {
      const tree = r.type_instance_id ? trees.get(r.type_instance_id) : undefined;
      const signature = tree ? typeSignature(tree) : null;
      return {
        name: r.field_name,
        typeInstanceId: r.type_instance_id,
        signature,
        text: columnText(
          { name: r.field_name, nullable: r.is_nullable, typeSignature: signature },
          columnAttributesOfRow(r),
        ),
      };
    });
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
    return this.reader.one(schema);
  }

  async diff(datasetId: string, from: number, to: number): Promise<SchemaVersionDiff> {
    const [a, b] = await Promise.all([this.get(datasetId, from), this.get(datasetId, to)]);
    return diffVersions(a, b);
  }
}
