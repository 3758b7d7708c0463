import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The token-state cache (ADR 0023): PostgreSQL announces every change of what the auth guard reads
 * from `users` (is_active, is_superuser, user_type, token_version) on the channel `aide_token_state`, whatever
 * wrote it (the API, a migration, a DBA in psql). NOTIFY is transactional: delivered at commit, in
 * commit order, never for a rolled-back change. `token_state_replicas` holds one lease per running
 * replica, so that a revoking request knows whose acknowledgement to wait for.
 */
export class TokenStateNotify1765700000000 implements MigrationInterface {
  name = 'TokenStateNotify1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION aide_notify_token_state() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM pg_notify('aide_token_state', 'all');
        ELSE
          PERFORM pg_notify('aide_token_state', 'u:' || OLD.id::text);
        END IF;
        RETURN NULL;
      END
    $$`);
    // A new row needs no message: the cache never stores "no such user".
    await q.query(`CREATE TRIGGER tr_users_token_state_update
      AFTER UPDATE OF is_active, is_superuser, user_type, token_version ON users FOR EACH ROW
      WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active
        OR OLD.is_superuser IS DISTINCT FROM NEW.is_superuser
        OR OLD.user_type IS DISTINCT FROM NEW.user_type
        OR OLD.token_version IS DISTINCT FROM NEW.token_version)
      EXECUTE FUNCTION aide_notify_token_state()`);
    await q.query(`CREATE TRIGGER tr_users_token_state_delete
      AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION aide_notify_token_state()`);
    await q.query(`CREATE TRIGGER tr_users_token_state_truncate
      AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION aide_notify_token_state()`);
    await q.query(`CREATE TABLE token_state_replicas (
      id uuid PRIMARY KEY,
      lease_until timestamptz NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE token_state_replicas`);
    await q.query(`DROP TRIGGER tr_users_token_state_truncate ON users`);
    await q.query(`DROP TRIGGER tr_users_token_state_delete ON users`);
    await q.query(`DROP TRIGGER tr_users_token_state_update ON users`);
    await q.query(`DROP FUNCTION aide_notify_token_state()`);
  }
}
