import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AUDIT_COLUMNS, SOFT_DELETE_COLUMNS } from './columns.js';

/** Engines: pipeline drivers, polymorphic on kind (one parent table, one table per kind; AIDE v2 ADR-020). */
export class Engines1765300000000 implements MigrationInterface {
  name = 'Engines1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE engines (${AUDIT_COLUMNS}, ${SOFT_DELETE_COLUMNS},
      code varchar(255) NOT NULL,
      name text NOT NULL,
      kind varchar(64) NOT NULL,
      role varchar(16) NOT NULL,
      version varchar(64) NOT NULL,
      CONSTRAINT ck_engines_kind CHECK (kind IN ('debezium', 'ogg', 'spark', 'impala')),
      CONSTRAINT ck_engines_role CHECK (role IN ('cdc', 'compute'))
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_engines_code_active ON engines (code) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX ix_engines_kind ON engines (kind)`);
    await q.query(`CREATE INDEX ix_engines_role ON engines (role)`);
    for (const kind of ['debezium', 'ogg']) {
      await q.query(`CREATE TABLE engine_${kind} (
        id uuid PRIMARY KEY,
        envelope_template jsonb NOT NULL,
        topic_routing jsonb,
        CONSTRAINT fk_engine_${kind}_engine FOREIGN KEY (id) REFERENCES engines (id) ON DELETE CASCADE
      )`);
    }
    for (const kind of ['spark', 'impala']) {
      await q.query(`CREATE TABLE engine_${kind} (
        id uuid PRIMARY KEY,
        runtime_opts jsonb,
        CONSTRAINT fk_engine_${kind}_engine FOREIGN KEY (id) REFERENCES engines (id) ON DELETE CASCADE
      )`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['engine_impala', 'engine_spark', 'engine_ogg', 'engine_debezium', 'engines']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
