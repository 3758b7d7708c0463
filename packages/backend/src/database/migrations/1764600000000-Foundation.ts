import type { MigrationInterface, QueryRunner } from 'typeorm';

// Audit columns shared by every registry table (AuditedEntity).
const AUDIT = `
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  note text,
  row_version integer NOT NULL DEFAULT 1 CHECK (row_version >= 1)`;

const SOFT_DELETE = `
  deleted_at timestamptz,
  deleted_by uuid`;

/** Users, tokens, login throttling and the reference catalogue (kinds, flavors, credential refs, systems). */
export class Foundation1764600000000 implements MigrationInterface {
  name = 'Foundation1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (${AUDIT},
      email varchar(255) NOT NULL,
      hashed_password varchar(255) NOT NULL,
      full_name text,
      is_active boolean NOT NULL DEFAULT true,
      is_superuser boolean NOT NULL DEFAULT false,
      user_type varchar(20) NOT NULL DEFAULT 'regular' CHECK (user_type IN ('regular', 'technical')),
      token_version integer NOT NULL DEFAULT 1
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_users_email ON users (lower(email))`);
    await q.query(`CREATE INDEX ix_users_user_type ON users (user_type)`);

    await q.query(`CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash varchar(64) NOT NULL,
      user_id uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      client_info varchar(255),
      -- Set when the token was rotated: presenting it again is re-use, not a stale logout.
      replaced_by uuid,
      CONSTRAINT fk_refresh_tokens_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_refresh_tokens_hash ON refresh_tokens (token_hash)`);
    await q.query(`CREATE INDEX ix_refresh_tokens_user ON refresh_tokens (user_id) WHERE revoked_at IS NULL`);

    // Fixed-window counters for login throttling, shared by every replica.
    await q.query(`CREATE TABLE auth_throttle (
      key varchar(400) PRIMARY KEY,
      window_started_at timestamptz NOT NULL,
      attempts integer NOT NULL
    )`);

    await q.query(`CREATE TABLE system_kinds (${AUDIT}, ${SOFT_DELETE},
      code varchar(255) NOT NULL,
      name text NOT NULL
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_system_kinds_code_active ON system_kinds (code) WHERE deleted_at IS NULL`,
    );

    await q.query(`CREATE TABLE system_flavors (${AUDIT}, ${SOFT_DELETE},
      code varchar(255) NOT NULL,
      name text NOT NULL,
      vendor text,
      versions varchar(255)[],
      kind_id uuid NOT NULL,
      CONSTRAINT fk_system_flavors_kind FOREIGN KEY (kind_id) REFERENCES system_kinds (id)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_system_flavors_code_active ON system_flavors (code) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_system_flavors_kind ON system_flavors (kind_id)`);

    await q.query(`CREATE TABLE credential_refs (${AUDIT}, ${SOFT_DELETE},
      provider varchar(255) NOT NULL,
      path text NOT NULL,
      version integer CHECK (version IS NULL OR version >= 1)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_credential_refs_provider_path_active ON credential_refs (provider, path) WHERE deleted_at IS NULL`,
    );

    await q.query(`CREATE TABLE systems (${AUDIT}, ${SOFT_DELETE},
      code varchar(255) NOT NULL,
      name text NOT NULL,
      is_active boolean NOT NULL DEFAULT true,
      tags varchar(255)[],
      extra jsonb,
      flavor_id uuid NOT NULL,
      credential_ref_id uuid,
      CONSTRAINT fk_systems_flavor FOREIGN KEY (flavor_id) REFERENCES system_flavors (id),
      CONSTRAINT fk_systems_credential_ref FOREIGN KEY (credential_ref_id) REFERENCES credential_refs (id)
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_systems_code_active ON systems (code) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX ix_systems_flavor ON systems (flavor_id)`);
    await q.query(`CREATE INDEX ix_systems_credential_ref ON systems (credential_ref_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'systems',
      'credential_refs',
      'system_flavors',
      'system_kinds',
      'auth_throttle',
      'refresh_tokens',
      'users',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
