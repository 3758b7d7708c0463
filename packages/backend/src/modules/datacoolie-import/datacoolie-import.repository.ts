import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SchemaHintColumnEntity, SchemaHintGroupEntity } from '../datacoolie/schema-hint-group.entity.js';

/** A system a connection's profile can be made over, with what matching and addressing read. */
export interface ImportSystem {
  id: string;
  code: string;
  extra: Record<string, unknown> | null;
  flavor_id: string;
  flavor_code: string;
  kind_code: string;
}

/** A workspace profile as the import compares it: its columns and its secrets in their order. */
export interface ImportProfileRow {
  id: string;
  row_version: number;
  datacoolie_id: string;
  system_id: string;
  name: string;
  description: string | null;
  connection_type: string;
  format: string;
  catalog: string | null;
  database: string | null;
  configure: Record<string, unknown>;
  use_schema_hint: boolean;
  is_active: boolean;
  as_written: boolean;
  configure_keys: string[] | null;
  secrets: { configure_field: string; provider: string; path: string }[];
}

/** A workspace dataflow with its ends named as a document names them (connection ids, table names). */
export interface ImportDataflowRow {
  id: string;
  row_version: number;
  datacoolie_id: string;
  name: string;
  description: string | null;
  stage: string | null;
  group_number: number | null;
  execution_order: number | null;
  processing_mode: string;
  is_active: boolean;
  source_connection: string;
  source_dataset: string | null;
  source_query: string | null;
  source_python_function: string | null;
  source_watermark_columns: string[];
  source_filter_expression: string | null;
  source_configure: Record<string, unknown>;
  destination_connection: string;
  destination_dataset: string;
  load_type: string;
  merge_keys: string[];
  partition_columns: { column: string; expression: string | null }[];
  destination_configure: Record<string, unknown>;
  transform: Record<string, unknown>;
  configure: Record<string, unknown>;
}

/** One declared hint as stored. */
export interface ImportHintColumn {
  column_name: string;
  data_type: string;
  format: string | null;
  precision: number | null;
  scale: number | null;
  default_value: string | null;
  ordinal_position: number | null;
  is_active: boolean;
}

export interface ImportHintGroupRow {
  id: string;
  connection_profile_id: string;
  schema_name: string | null;
  table_name: string;
  position: number;
  dataset: string | null;
  columns: ImportHintColumn[];
}

/** A hint ready to store: as written, with the registry type it maps to (null: unchecked). */
export type StoredHintColumn = ImportHintColumn & {
  data_type_id: string | null;
  type_params: Record<string, unknown> | null;
};

export interface ImportDataType {
  id: string;
  code: string;
  params_schema: Record<string, unknown>;
}

/** Rows by a key, each list in the rows' order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
}

/** The reads a DataCoolie import plans with, and the writes of the hint groups it owns. */
@Injectable()
export class DatacoolieImportRepository {
  /** Active systems with their flavor and kind codes. */
  systems(m: EntityManager): Promise<ImportSystem[]> {
    return m.query(
      `SELECT s.id, s.code, s.extra, s.flavor_id, f.code AS flavor_code, k.code AS kind_code
       FROM systems s JOIN system_flavors f ON f.id = s.flavor_id JOIN system_kinds k ON k.id = f.kind_id
       WHERE s.deleted_at IS NULL ORDER BY s.code`,
    );
  }

  async profiles(workspaceId: string, m: EntityManager): Promise<ImportProfileRow[]> {
    const rows: Omit<ImportProfileRow, 'secrets'>[] = await m.query(
      `SELECT id, row_version, datacoolie_id, system_id, name, description, connection_type, format,
              catalog, database, configure, use_schema_hint, is_active, as_written, configure_keys
       FROM connection_profiles WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [workspaceId],
    );
    const secrets: { profile_id: string; configure_field: string; provider: string; path: string }[] =
      await m.query(
        `SELECT ps.profile_id, ps.configure_field, c.provider, c.path
         FROM connection_profile_secrets ps JOIN credential_refs c ON c.id = ps.credential_ref_id
         WHERE ps.profile_id = ANY($1::uuid[]) ORDER BY ps.profile_id, ps.position`,
        [rows.map((r) => r.id)],
      );
    const byProfile = groupBy(secrets, (s) => s.profile_id);
    return rows.map((row) => ({
      ...row,
      secrets: (byProfile.get(row.id) ?? []).map(({ configure_field, provider, path }) => ({
        configure_field,
        provider,
        path,
      })),
    }));
  }

  dataflows(workspaceId: string, m: EntityManager): Promise<ImportDataflowRow[]> {
    return m.query(
      `SELECT d.id, d.row_version, d.datacoolie_id, d.name, d.description, d.stage, d.group_number,
              d.execution_order, d.processing_mode, d.is_active,
              sp.datacoolie_id AS source_connection, sd.object_name AS source_dataset, d.source_query,
              d.source_python_function, d.source_watermark_columns, d.source_filter_expression,
              d.source_configure, dp.datacoolie_id AS destination_connection,
              dd.object_name AS destination_dataset, d.load_type, d.merge_keys, d.partition_columns,
              d.destination_configure, d.transform, d.configure
       FROM dataflows d
       JOIN connection_profiles sp ON sp.id = d.source_connection_id
       JOIN connection_profiles dp ON dp.id = d.destination_connection_id
       LEFT JOIN datasets sd ON sd.id = d.source_dataset_id
       JOIN datasets dd ON dd.id = d.destination_dataset_id
       WHERE d.workspace_id = $1 AND d.deleted_at IS NULL ORDER BY d.created_at, d.id`,
      [workspaceId],
    );
  }

  async hintGroups(workspaceId: string, m: EntityManager): Promise<ImportHintGroupRow[]> {
    const groups: Omit<ImportHintGroupRow, 'columns'>[] = await m.query(
      `SELECT g.id, g.connection_profile_id, g.schema_name, g.table_name, g.position,
              d.object_name AS dataset
       FROM schema_hint_groups g LEFT JOIN datasets d ON d.id = g.dataset_id
       WHERE g.workspace_id = $1 ORDER BY g.position, g.id`,
      [workspaceId],
    );
    const columns: (ImportHintColumn & { group_id: string })[] = await m.query(
      `SELECT group_id, column_name, data_type, format, precision, scale, default_value,
              ordinal_position, is_active
       FROM schema_hint_columns WHERE group_id = ANY($1::uuid[]) ORDER BY group_id, position`,
      [groups.map((g) => g.id)],
    );
    const byGroup = groupBy(columns, (c) => c.group_id);
    return groups.map((group) => ({
      ...group,
      columns: (byGroup.get(group.id) ?? []).map(({ group_id: _g, ...c }) => c),
    }));
  }

  /** The active dataset of a system with this object name. */
  async datasetId(systemId: string, objectName: string, m: EntityManager): Promise<string | null> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM datasets WHERE system_id = $1 AND object_name = $2 AND deleted_at IS NULL`,
      [systemId, objectName],
    );
    return rows[0]?.id ?? null;
  }

  async credentialRefId(provider: string, path: string, m: EntityManager): Promise<string | null> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM credential_refs WHERE provider = $1 AND path = $2 AND deleted_at IS NULL`,
      [provider, path],
    );
    return rows[0]?.id ?? null;
  }

  /** Whether any row of the table (any workspace, deleted ones included) has this id. */
  async idTaken(table: 'connection_profiles' | 'dataflows', id: string, m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /** The active data types of the active flavor with this code (empty when there is no such flavor). */
  dataTypes(flavorCode: string, m: EntityManager): Promise<ImportDataType[]> {
    return m.query(
      `SELECT t.id, t.code, t.params_schema FROM data_types t
       JOIN system_flavors f ON f.id = t.system_flavor_id
       WHERE f.code = $1 AND f.deleted_at IS NULL AND t.deleted_at IS NULL ORDER BY t.code`,
      [flavorCode],
    );
  }

  async insertHintGroup(
    values: Omit<SchemaHintGroupEntity, 'id' | 'created_at' | 'updated_at'>,
    columns: readonly StoredHintColumn[],
    m: EntityManager,
  ): Promise<string> {
    const inserted = await m.getRepository(SchemaHintGroupEntity).insert(values);
    const id = (inserted.identifiers[0] as { id: string }).id;
    await this.insertColumns(id, columns, m);
    return id;
  }

  /** The group's own columns changed and its hints replaced. */
  async replaceHintGroup(
    id: string,
    values: Pick<
      SchemaHintGroupEntity,
      'schema_name' | 'table_name' | 'dataset_id' | 'position' | 'updated_by'
    >,
    columns: readonly StoredHintColumn[],
    m: EntityManager,
  ): Promise<void> {
    await m.getRepository(SchemaHintGroupEntity).update({ id }, { ...values, updated_at: new Date() });
    await m.getRepository(SchemaHintColumnEntity).delete({ group_id: id });
    await this.insertColumns(id, columns, m);
  }

  async deleteHintGroup(id: string, m: EntityManager): Promise<void> {
    await m.getRepository(SchemaHintGroupEntity).delete({ id });
  }

  private async insertColumns(groupId: string, columns: readonly StoredHintColumn[], m: EntityManager) {
    if (columns.length === 0) return;
    await m
      .getRepository(SchemaHintColumnEntity)
      // TypeORM's deep-partial type cannot take a jsonb column typed as a record.
      .insert(columns.map((c, position) => ({ ...c, group_id: groupId, position })) as never);
  }
}
