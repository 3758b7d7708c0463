import type { SnapshotHintTuple } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import type { ProfileExportInput, ProfileRow, ProfileSecretRef, ProfileSystem } from './connection-export.js';
import type { DataflowRow } from './dataflow-export.js';
import type { DatasetForAddress } from './dataset-address.js';

type ProfileSystemRow = ProfileRow & ProfileSystem & { system_id: string };

/** A profile with what its export needs. */
export type ScopedProfile = ProfileExportInput & { system_id: string };

/** A bound column: name, 0-based position, deprecated, data type code (null: untyped), type params. */
export type HintColumn = [string, number, boolean, string | null, Record<string, unknown> | null];

/** The current version's columns of a dataset read by a hint-using profile of a workspace. */
/** A schema version a dataflow pins its hints to, with its bound columns. */
export interface PinnedHintVersionRow {
  schema_version_id: string;
  dataset_id: string;
  flavor_code: string;
  columns: HintColumn[];
}

/** A stored schema-hint override (ADR 0030). */
export interface HintOverrideRow {
  dataset_id: string;
  column_name: string;
  format: string | null;
  default_value: string | null;
  is_active: boolean;
}

export interface HintTableRow {
  connection_id: string;
  dataset_id: string;
  /** The flavor of the dataset (its own, else its system's; every type tree of the version is of it). */
  flavor_code: string;
  columns: HintColumn[];
}

/**
 * A hint group a DataCoolie document declared (ADR 0050), as written: its source profile (registry id),
 * its key, and its hints as tuples of SNAPSHOT_HINT_FIELDS, stable-sorted by ordinal position (nulls
 * last, ties in document order).
 */
export interface DeclaredHintGroupRow {
  profile_id: string;
  schema_name: string | null;
  table_name: string;
  hints: SnapshotHintTuple[];
}

/** A dataflow row as the snapshot reads it. */
export type SnapshotDataflowRow = DataflowRow & {
  source_connection_id: string;
  source_dataset_id: string | null;
  destination_connection_id: string;
  destination_dataset_id: string;
};

/** What a dataflow row is read with (the snapshot's and the checker's rows). */
const DATAFLOW_ROW = `SELECT id, datacoolie_id, workspace_id, name, description, stage, group_number, execution_order,
  processing_mode, is_active, source_connection_id, source_dataset_id, source_query, source_python_function,
  source_watermark_columns, source_filter_expression, source_configure, destination_connection_id,
  destination_dataset_id, load_type, merge_keys, partition_columns, destination_configure, transform,
  configure, pinned_hint_schema_version_id`;

/** A bound column as JSON built by PostgreSQL (a HintColumn), in position order. */
const HINT_COLUMNS = `json_agg(json_build_array(f.name, b.position, f.origin = 'deprecated', dt.code, ti.type_params)
                       ORDER BY b.position) AS columns`;

/**
 * The joins from a schema version `v` to its bound columns with their types, and its dataset's flavor
 * (its own, else its system's: ADR 0045).
 */
const HINT_COLUMN_JOINS = `JOIN datasets ds ON ds.id = v.dataset_id JOIN systems sy ON sy.id = ds.system_id
       JOIN system_flavors fl ON fl.id = COALESCE(ds.flavor_id, sy.flavor_id)
       JOIN field_bindings b ON b.dataset_schema_id = v.id
       JOIN fields f ON f.id = b.field_id
       LEFT JOIN type_instances ti ON ti.id = b.type_instance_id
       LEFT JOIN data_types dt ON dt.id = ti.data_type_id`;

/**
 * The reads behind DataCoolie exports: profiles with their system's kind and flavor and their secret
 * references, datasets with their kind rows, and the column names of datasets' current versions. Each
 * read is one query for any number of rows.
 */
@Injectable()
export class DatacoolieScopeRepository {
  constructor(private readonly datasets: DatasetsLookup) {}

  /** A system's export inputs (extra, flavor and kind codes), share-locked, or undefined when not active. */
  async systemOf(systemId: string, m: EntityManager): Promise<ProfileSystem | undefined> {
    const rows: ProfileSystem[] = await m.query(
      `SELECT s.extra, f.code AS flavor_code, k.code AS kind_code
       FROM systems s JOIN system_flavors f ON f.id = s.flavor_id JOIN system_kinds k ON k.id = f.kind_id
       WHERE s.id = $1 AND s.deleted_at IS NULL FOR SHARE OF s`,
      [systemId],
    );
    return rows[0];
  }

  /** The secret references of profiles, by profile id, in their order. */
  async secretsOf(profileIds: readonly string[], m: EntityManager): Promise<Map<string, ProfileSecretRef[]>> {
    const rows: (ProfileSecretRef & { profile_id: string })[] = await m.query(
      `SELECT ps.profile_id, ps.configure_field, c.provider, c.path
       FROM connection_profile_secrets ps JOIN credential_refs c ON c.id = ps.credential_ref_id
       WHERE ps.profile_id = ANY($1::uuid[]) ORDER BY ps.profile_id, ps.position`,
      [[...new Set(profileIds)]],
    );
    const byProfile = new Map<string, ProfileSecretRef[]>();
    for (const { profile_id, ...secret } of rows) {
      const list = byProfile.get(profile_id) ?? [];
      list.push(secret);
      byProfile.set(profile_id, list);
    }
    return byProfile;
  }

  /** Active profiles with their system and secrets, by id; `lock` share-locks the profile rows. */
  profiles(ids: readonly string[], m: EntityManager, lock = false): Promise<Map<string, ScopedProfile>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return Promise.resolve(new Map<string, ScopedProfile>());
    return this.profilesWhere('p.id = ANY($1::uuid[])', [unique], m, lock);
  }

  /** Every active profile of a workspace, by name then id. */
  workspaceProfiles(workspaceId: string, m: EntityManager): Promise<Map<string, ScopedProfile>> {
    return this.profilesWhere('p.workspace_id = $1', [workspaceId], m, false);
  }

  private async profilesWhere(
    where: string,
    params: unknown[],
    m: EntityManager,
    lock: boolean,
  ): Promise<Map<string, ScopedProfile>> {
    const rows: ProfileSystemRow[] = await m.query(
      `SELECT p.id, p.workspace_id, p.system_id, p.name, p.connection_type, p.format, p.catalog,
              p.database, p.configure, p.use_schema_hint, p.is_active, p.datacoolie_id, p.description,
              p.as_written, p.configure_keys, s.extra, f.code AS flavor_code, k.code AS kind_code
       FROM connection_profiles p JOIN systems s ON s.id = p.system_id
       JOIN system_flavors f ON f.id = s.flavor_id JOIN system_kinds k ON k.id = f.kind_id
       WHERE ${where} AND p.deleted_at IS NULL
       ORDER BY ${lock ? 'p.id FOR SHARE OF p' : 'p.name, p.id'}`,
      params,
    );
    const secrets = await this.secretsOf(
      rows.map((r) => r.id),
      m,
    );
    return new Map(
      rows.map(({ extra, flavor_code, kind_code, system_id, ...profile }) => [
        profile.id,
        {
          profile,
          system: { extra, flavor_code, kind_code },
          secrets: secrets.get(profile.id) ?? [],
          system_id,
        },
      ]),
    );
  }

  /**
   * Active datasets with what addressing reads of their kind rows, by id; `lock` share-locks them (no
   * delete before commit). One query, whatever the number.
   */
  async datasetsById(
    ids: readonly string[],
    m: EntityManager,
    lock = false,
  ): Promise<Map<string, DatasetForAddress>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    if (lock) await this.datasets.lockActiveMany(unique, m);
    return this.addressable('d.id = ANY($1::uuid[])', [unique], m);
  }

  /** The active datasets the active dataflows of a workspace read or write. */
  workspaceDatasets(workspaceId: string, m: EntityManager): Promise<Map<string, DatasetForAddress>> {
    return this.addressable(
      `d.id IN (SELECT source_dataset_id FROM dataflows WHERE workspace_id = $1 AND deleted_at IS NULL
                UNION SELECT destination_dataset_id FROM dataflows WHERE workspace_id = $1 AND deleted_at IS NULL)`,
      [workspaceId],
      m,
    );
  }

  private async addressable(
    where: string,
    params: unknown[],
    m: EntityManager,
  ): Promise<Map<string, DatasetForAddress>> {
    const rows: (Omit<DatasetForAddress, 'details'> & Record<string, unknown>)[] = await m.query(
      `SELECT d.id, d.kind, d.system_id, r.catalog_name, r.schema_name,
              coalesce(r.table_name, h.table_name) AS table_name, h.db_name,
              coalesce(st.path, sf.path) AS path, coalesce(h.file_format, st.file_format, sf.file_format) AS file_format
       FROM datasets d
       LEFT JOIN dataset_rdbms r ON r.id = d.id LEFT JOIN dataset_hive h ON h.id = d.id
       LEFT JOIN dataset_storage st ON st.id = d.id LEFT JOIN dataset_sftp sf ON sf.id = d.id
       WHERE ${where} AND d.deleted_at IS NULL`,
      params,
    );
    return new Map(rows.map(({ id, kind, system_id, ...details }) => [id, { id, kind, system_id, details }]));
  }

  /** The active dataflows of a workspace, by name then id (the snapshot's order). */
  workspaceDataflows(workspaceId: string, m: EntityManager): Promise<SnapshotDataflowRow[]> {
    return m.query(
      `${DATAFLOW_ROW} FROM dataflows WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY name, id`,
      [workspaceId],
    );
  }

  /** The active dataflows reading or writing through a connection profile, by id. */
  profileDataflows(profileId: string, m: EntityManager): Promise<SnapshotDataflowRow[]> {
    return m.query(
      `${DATAFLOW_ROW} FROM dataflows
       WHERE (source_connection_id = $1 OR destination_connection_id = $1) AND deleted_at IS NULL
       ORDER BY id`,
      [profileId],
    );
  }

  /**
   * The column names of each dataset's current version (the highest with bindings), in position
   * order. Datasets without a current version are absent.
   */
  async currentColumns(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, string[]>> {
    const unique = [...new Set(datasetIds)];
    if (unique.length === 0) return new Map();
    const rows: { dataset_id: string; columns: string[] }[] = await m.query(
      `SELECT v.dataset_id, array_agg(f.name ORDER BY b.position) AS columns
       FROM (SELECT DISTINCT ON (s.dataset_id) s.id, s.dataset_id FROM dataset_schemas s
             WHERE s.dataset_id = ANY($1::uuid[])
               AND EXISTS (SELECT 1 FROM field_bindings x WHERE x.dataset_schema_id = s.id)
             ORDER BY s.dataset_id, s.version_num DESC) v
       JOIN field_bindings b ON b.dataset_schema_id = v.id JOIN fields f ON f.id = b.field_id
       GROUP BY v.dataset_id`,
      [unique],
    );
    return new Map(rows.map((r) => [r.dataset_id, r.columns]));
  }

  /**
   * The current version (highest with bindings) of every dataset an active dataflow of the workspace
   * reads through a hint-using profile made in AIDE (an `as_written` profile has only the hints its
   * document declared): one row per (profile, dataset) with its bound columns in position order, as
   * JSON built by PostgreSQL — one query, whatever the number of tables.
   */
  hintTables(workspaceId: string, m: EntityManager): Promise<HintTableRow[]> {
    return m.query(
      `WITH src AS (
         SELECT DISTINCT d.source_connection_id AS connection_id, d.source_dataset_id AS dataset_id
         FROM dataflows d JOIN connection_profiles p ON p.id = d.source_connection_id
         WHERE d.workspace_id = $1 AND d.deleted_at IS NULL AND d.source_dataset_id IS NOT NULL
           AND p.deleted_at IS NULL AND p.use_schema_hint AND NOT p.as_written),
       v AS (
         SELECT DISTINCT ON (s.dataset_id) s.id, s.dataset_id FROM dataset_schemas s
         WHERE s.dataset_id IN (SELECT dataset_id FROM src)
           AND EXISTS (SELECT 1 FROM field_bindings x WHERE x.dataset_schema_id = s.id)
         ORDER BY s.dataset_id, s.version_num DESC)
       SELECT src.connection_id, v.dataset_id, fl.code AS flavor_code, ${HINT_COLUMNS}
       FROM src JOIN v ON v.dataset_id = src.dataset_id
       ${HINT_COLUMN_JOINS}
       GROUP BY src.connection_id, v.dataset_id, fl.code
       ORDER BY src.connection_id, v.dataset_id`,
      [workspaceId],
    );
  }

  /**
   * The hint groups the workspace's documents declared, of active profiles, in document order (groups
   * by `position`; hints by ordinal position, nulls last, then `position`: DataCoolie's stable sort).
   * Served whatever `use_schema_hint` says and whether or not a dataflow reads the table.
   */
  declaredHintGroups(workspaceId: string, m: EntityManager): Promise<DeclaredHintGroupRow[]> {
    return m.query(
      `SELECT g.connection_profile_id AS profile_id, g.schema_name, g.table_name,
              coalesce(json_agg(json_build_array(c.column_name, c.data_type, c.format, c.precision, c.scale,
                                                 c.default_value, c.ordinal_position, c.is_active)
                                ORDER BY c.ordinal_position ASC NULLS LAST, c.position)
                         FILTER (WHERE c.group_id IS NOT NULL), '[]') AS hints
       FROM schema_hint_groups g
       JOIN connection_profiles p ON p.id = g.connection_profile_id AND p.deleted_at IS NULL
       LEFT JOIN schema_hint_columns c ON c.group_id = g.id
       WHERE g.workspace_id = $1
       GROUP BY g.id
       ORDER BY g.position, g.id`,
      [workspaceId],
    );
  }

  /** The schema versions the active dataflows of a workspace pin their hints to, with their columns. */
  pinnedHintVersions(workspaceId: string, m: EntityManager): Promise<PinnedHintVersionRow[]> {
    return m.query(
      `WITH v AS (
         SELECT s.id, s.dataset_id FROM dataset_schemas s
         WHERE s.id IN (SELECT pinned_hint_schema_version_id FROM dataflows
                        WHERE workspace_id = $1 AND deleted_at IS NULL))
       SELECT v.id AS schema_version_id, v.dataset_id, fl.code AS flavor_code, ${HINT_COLUMNS}
       FROM v ${HINT_COLUMN_JOINS}
       GROUP BY v.id, v.dataset_id, fl.code`,
      [workspaceId],
    );
  }

  /** The schema-hint overrides of a workspace (ADR 0030). */
  hintOverrides(workspaceId: string, m: EntityManager): Promise<HintOverrideRow[]> {
    return m.query(
      `SELECT dataset_id, column_name, format, default_value, is_active FROM schema_hint_overrides
       WHERE workspace_id = $1 ORDER BY dataset_id, column_name`,
      [workspaceId],
    );
  }

  /** The dataset a schema version belongs to, or undefined when there is no such version. */
  async schemaVersionDataset(versionId: string, m: EntityManager): Promise<string | undefined> {
    const rows: { dataset_id: string }[] = await m.query(
      `SELECT dataset_id FROM dataset_schemas WHERE id = $1`,
      [versionId],
    );
    return rows[0]?.dataset_id;
  }
}
