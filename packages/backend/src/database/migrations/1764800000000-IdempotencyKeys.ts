import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Stored responses of POSTs sent with an Idempotency-Key, so a retried create replays instead of repeating. */
export class IdempotencyKeys1764800000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE idempotency_keys (
      user_id uuid NOT NULL,
      key varchar(255) NOT NULL,
      request_hash char(64) NOT NULL,
      status_code integer,
      response jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, key),
      CONSTRAINT fk_idempotency_keys_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX ix_idempotency_keys_created ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
