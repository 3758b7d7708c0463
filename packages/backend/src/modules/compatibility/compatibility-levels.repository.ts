import type { CompatibilityLevel } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A dataset's levels as stored: its own, its system's default, the registry's. */
export interface StoredLevels {
  dataset_id: string;
  dataset_level: CompatibilityLevel | null;
  system_level: CompatibilityLevel | null;
  registry_level: CompatibilityLevel;
}

/**
 * Where compatibility levels are stored (ADR 0048): `datasets.compatibility`, `systems.default_compatibility`
 * and the one row of `registry_settings`. Read from the database on every use, never cached: replicas
 * share it, so a level set on one applies on all at once. A write stamps the row's audit columns as any
 * write of the dataset or system does.
 */
@Injectable()
export class CompatibilityLevelsRepository {
  async registryLevel(m: EntityManager): Promise<CompatibilityLevel> {
    const rows: { compatibility: CompatibilityLevel }[] = await m.query(
      `SELECT compatibility FROM registry_settings WHERE id = 1`,
    );
    return rows[0]?.compatibility ?? 'NONE';
  }

  async setRegistryLevel(level: CompatibilityLevel, actorId: string, m: EntityManager): Promise<void> {
    await m.query(
      `INSERT INTO registry_settings (id, compatibility, updated_by) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET compatibility = EXCLUDED.compatibility, updated_by = EXCLUDED.updated_by,
         updated_at = now(), row_version = registry_settings.row_version + 1`,
      [level, actorId],
    );
  }

  /** A live system's own default and the registry's; undefined when the system does not exist. */
  async systemLevels(
    systemId: string,
    m: EntityManager,
  ): Promise<{ system_level: CompatibilityLevel | null; registry_level: CompatibilityLevel } | undefined> {
    const rows: { system_level: CompatibilityLevel | null; registry_level: CompatibilityLevel }[] =
      await m.query(
        `SELECT s.default_compatibility AS system_level, r.compatibility AS registry_level
         FROM systems s CROSS JOIN registry_settings r
         WHERE s.id = $1 AND s.deleted_at IS NULL AND r.id = 1`,
        [systemId],
      );
    return rows[0];
  }

  /** Sets a live system's default; false when the system does not exist. */
  async setSystemLevel(
    systemId: string,
    level: CompatibilityLevel | null,
    actorId: string,
    m: EntityManager,
  ): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `UPDATE systems SET default_compatibility = $2, updated_by = $3, updated_at = now(),
         row_version = row_version + 1
       WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
      [systemId, level, actorId],
    );
    return rows.length > 0;
  }

  /** The levels of the given live datasets (those that exist), in one query. */
  async datasetLevels(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, StoredLevels>> {
    if (datasetIds.length === 0) return new Map();
    const rows: StoredLevels[] = await m.query(
      `SELECT d.id AS dataset_id, d.compatibility AS dataset_level,
              s.default_compatibility AS system_level, r.compatibility AS registry_level
       FROM unnest($1::uuid[]) AS x(id)
       JOIN datasets d ON d.id = x.id AND d.deleted_at IS NULL
       JOIN systems s ON s.id = d.system_id
       CROSS JOIN registry_settings r
       WHERE r.id = 1`,
      [[...new Set(datasetIds.map((id) => id.toLowerCase()))]],
    );
    return new Map(rows.map((r) => [r.dataset_id, r]));
  }

  /** Sets a live dataset's own level; false when the dataset does not exist. */
  async setDatasetLevel(
    datasetId: string,
    level: CompatibilityLevel | null,
    actorId: string,
    m: EntityManager,
  ): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `UPDATE datasets SET compatibility = $2, updated_by = $3, updated_at = now(),
         row_version = row_version + 1
       WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
      [datasetId, level, actorId],
    );
    return rows.length > 0;
  }
}
