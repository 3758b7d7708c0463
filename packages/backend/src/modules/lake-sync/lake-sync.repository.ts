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

/** The reads and writes of lake-sync (AIDE v2 §9.4) that no other module offers, each one statement. */
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

  /** One field link per (source field, target field), in one INSERT. */
  async insertFieldLinks(
    linkId: string,
    pairs: readonly [string, string][],
    actorId: string,
    m: EntityManager,
  ): Promise<void> {
    if (pairs.length === 0) return;
    await m.query(
      `INSERT INTO field_links (dataset_link_id, source_field_id, target_field_id, created_by, updated_by)
       SELECT $1, s, t, $4, $4 FROM unnest($2::uuid[], $3::uuid[]) AS p(s, t)`,
      [linkId, pairs.map((p) => p[0]), pairs.map((p) => p[1]), actorId],
    );
  }
}
