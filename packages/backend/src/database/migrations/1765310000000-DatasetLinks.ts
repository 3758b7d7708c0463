import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AUDIT_COLUMNS, SOFT_DELETE_COLUMNS } from './columns.js';

/**
 * Lineage: dataset links (one hop, pinned to a schema version on each side, optionally driven by an
 * engine) and field links (column lineage inside a link). The two partial indexes on active links
 * serve the graph walk in both directions (ADR 0014).
 */
export class DatasetLinks1765310000000 implements MigrationInterface {
  name = 'DatasetLinks1765310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE dataset_links (${AUDIT_COLUMNS}, ${SOFT_DELETE_COLUMNS},
      source_dataset_id uuid NOT NULL,
      target_dataset_id uuid NOT NULL,
      source_schema_id uuid NOT NULL,
      target_schema_id uuid NOT NULL,
      engine_id uuid,
      CONSTRAINT fk_dataset_links_source_dataset FOREIGN KEY (source_dataset_id) REFERENCES datasets (id),
      CONSTRAINT fk_dataset_links_target_dataset FOREIGN KEY (target_dataset_id) REFERENCES datasets (id),
      CONSTRAINT fk_dataset_links_source_schema FOREIGN KEY (source_schema_id) REFERENCES dataset_schemas (id) ON DELETE RESTRICT,
      CONSTRAINT fk_dataset_links_target_schema FOREIGN KEY (target_schema_id) REFERENCES dataset_schemas (id) ON DELETE RESTRICT,
      CONSTRAINT fk_dataset_links_engine FOREIGN KEY (engine_id) REFERENCES engines (id) ON DELETE RESTRICT,
      CONSTRAINT ck_dataset_links_no_self CHECK (source_dataset_id <> target_dataset_id)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_dataset_links_pair_active ON dataset_links (source_dataset_id, target_dataset_id) WHERE deleted_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX ix_dataset_links_target_active ON dataset_links (target_dataset_id, source_dataset_id) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_dataset_links_source_schema ON dataset_links (source_schema_id)`);
    await q.query(`CREATE INDEX ix_dataset_links_target_schema ON dataset_links (target_schema_id)`);
    await q.query(`CREATE INDEX ix_dataset_links_engine ON dataset_links (engine_id)`);

    await q.query(`CREATE TABLE field_links (${AUDIT_COLUMNS},
      dataset_link_id uuid NOT NULL,
      source_field_id uuid NOT NULL,
      target_field_id uuid NOT NULL,
      CONSTRAINT fk_field_links_dataset_link FOREIGN KEY (dataset_link_id) REFERENCES dataset_links (id) ON DELETE CASCADE,
      CONSTRAINT fk_field_links_source_field FOREIGN KEY (source_field_id) REFERENCES fields (id) ON DELETE CASCADE,
      CONSTRAINT fk_field_links_target_field FOREIGN KEY (target_field_id) REFERENCES fields (id) ON DELETE CASCADE
    )`);
    // A target field has at most one source inside a link (fan-in is not modelled, AIDE v2 §1.2).
    await q.query(
      `CREATE UNIQUE INDEX uq_field_links_target_in_link ON field_links (dataset_link_id, target_field_id)`,
    );
    await q.query(
      `CREATE INDEX ix_field_links_source ON field_links (source_field_id, target_field_id, dataset_link_id)`,
    );
    await q.query(
      `CREATE INDEX ix_field_links_target ON field_links (target_field_id, source_field_id, dataset_link_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE field_links`);
    await q.query(`DROP TABLE dataset_links`);
  }
}
