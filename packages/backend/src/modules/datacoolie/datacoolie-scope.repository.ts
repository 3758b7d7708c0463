import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { ProfileExportInput, ProfileRow, ProfileSecretRef, ProfileSystem } from './connection-export.js';
import type { DatasetForAddress } from './dataset-address.js';

type ProfileSystemRow = ProfileRow & ProfileSystem & { system_id: string };

/** A profile with what its export needs. */
export type ScopedProfile = ProfileExportInput & { system_id: string };

/** A bound column of the current version of a dataset read by a hint-using profile of a workspace. */
export interface HintColumnRow {
  connection_id: string;
  dataset_id: string;
  column_name: string;
  position: number;
  origin: string;
  type_code: string | null;
  type_params: Record<string, unknown> | null;
  flavor_code: string | null;
  nested: boolean;
}

/**
 * The reads behind DataCoolie exports: profiles with their system's kind and flavor and their secret
 * references, datasets with their kind rows, and the column names of datasets' current versions. Each
 * read is one query for any number of rows.
 */
@Injectable()
export class DatacoolieScopeRepository {
  constructor(private readonly datasets: DatasetsRepository) {}

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
              p.database, p.configure, p.use_schema_hint, p.is_active,
              s.extra, f.code AS flavor_code, k.code AS kind_code
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

  /** Active datasets with their kind rows, by id; `lock` share-locks them (no delete before commit). */
  async datasetsById(
    ids: readonly string[],
    m: EntityManager,
    lock = false,
  ): Promise<Map<string, DatasetForAddress>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    if (lock) await this.datasets.crud.findActiveMany(unique, m, 'share');
    const rows = await this.datasets.findManyWithDetails(unique, m);
    return new Map(
      rows
        .filter((row) => row !== undefined && row.deleted_at === null)
        .map((row) => [
          row.id,
          { id: row.id, kind: row.kind, system_id: row.system_id, details: row.details ?? {} },
        ]),
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
   * The bound columns of the current version of every dataset a dataflow of the workspace reads
   * through a profile that uses schema hints (deleted dataflows and profiles aside), in position
   * order: one query, whatever the number of tables.
   */
  hintColumns(workspaceId: string, m: EntityManager): Promise<HintColumnRow[]> {
    return m.query(
      `WITH src AS (
         SELECT DISTINCT d.source_connection_id AS connection_id, d.source_dataset_id AS dataset_id
         FROM dataflows d JOIN connection_profiles p ON p.id = d.source_connection_id
         WHERE d.workspace_id = $1 AND d.deleted_at IS NULL AND d.source_dataset_id IS NOT NULL
           AND p.deleted_at IS NULL AND p.use_schema_hint),
       cur AS (
         SELECT DISTINCT ON (s.dataset_id) s.id, s.dataset_id FROM dataset_schemas s
         WHERE s.dataset_id IN (SELECT dataset_id FROM src)
           AND EXISTS (SELECT 1 FROM field_bindings x WHERE x.dataset_schema_id = s.id)
         ORDER BY s.dataset_id, s.version_num DESC)
       SELECT src.connection_id, cur.dataset_id, f.name AS column_name, b.position, f.origin,
              dt.code AS type_code, ti.type_params, fl.code AS flavor_code,
              EXISTS (SELECT 1 FROM type_instances c WHERE c.parent_id = ti.id) AS nested
       FROM src JOIN cur ON cur.dataset_id = src.dataset_id
       JOIN field_bindings b ON b.dataset_schema_id = cur.id
       JOIN fields f ON f.id = b.field_id
       LEFT JOIN type_instances ti ON ti.id = b.type_instance_id
       LEFT JOIN data_types dt ON dt.id = ti.data_type_id
       LEFT JOIN system_flavors fl ON fl.id = dt.system_flavor_id
       ORDER BY src.connection_id, cur.dataset_id, b.position`,
      [workspaceId],
    );
  }
}
