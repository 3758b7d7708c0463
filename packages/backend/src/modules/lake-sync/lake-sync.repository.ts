import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A bound root column of the source version. */
export interface SourceColumn {
  field_id: string;
  name: string;
  position: number;
  is_nullable: boolean;
  type_instance_id: string | null;
}

/**
 * The reads of lake-sync (AIDE v2 §9.4) that no other module offers, each one statement. Its writes go
 * through the modules that own the tables (datasets, schema versions, dataset and field links; ADR 0026).
 */
@Injectable()
export class LakeSyncRepository {
  async layerOf(datasetId: string, m: EntityManager): Promise<string | null> {
    const rows: { layer: string | null }[] = await m.query('SELECT layer FROM datasets WHERE id = $1', [
      datasetId,
    ]);
    return rows[0]?.layer ?? null;
  }

  /** The active system with its flavor's code; undefined when the system is missing or deleted. */
  async systemWithFlavor(
    systemId: string,
    m: EntityManager,
  ): Promise<{ id: string; flavor_id: string; flavor_code: string } | undefined> {
    const rows: { id: string; flavor_id: string; flavor_code: string }[] = await m.query(
      `SELECT s.id, s.flavor_id, f.code AS flavor_code FROM systems s JOIN system_flavors f ON f.id = s.flavor_id
       WHERE s.id = $1 AND s.deleted_at IS NULL FOR SHARE OF s`,
      [systemId],
    );
    return rows[0];
  }

  /** An active hive dataset of the system with this database and table, if any. */
  async hiveTable(
    systemId: string,
    db: string,
    table: string,
    m: EntityManager,
  ): Promise<string | undefined> {
    const rows: { id: string }[] = await m.query(
      `SELECT d.id FROM datasets d JOIN dataset_hive h ON h.id = d.id
       WHERE d.system_id = $1 AND d.deleted_at IS NULL AND h.db_name = $2 AND h.table_name = $3 LIMIT 1`,
      [systemId, db, table],
    );
    return rows[0]?.id;
  }

  /** The root columns bound in a version, in position order. */
  columns(schemaId: string, m: EntityManager): Promise<SourceColumn[]> {
    return m.query(
      `SELECT f.id AS field_id, f.name, b.position, b.is_nullable, b.type_instance_id
       FROM field_bindings b JOIN fields f ON f.id = b.field_id
       WHERE b.dataset_schema_id = $1 AND f.parent_id IS NULL
       ORDER BY b.position`,
      [schemaId],
    );
  }
}
