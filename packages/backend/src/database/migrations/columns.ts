/**
 * The audit and soft-delete columns of the tables created after the catalogue, spelled as the earlier
 * migrations spell them (those keep their own copy: a migration never changes once released).
 */
export const AUDIT_COLUMNS = `
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  note text,
  row_version integer NOT NULL DEFAULT 1 CHECK (row_version >= 1)`;

export const SOFT_DELETE_COLUMNS = `
  deleted_at timestamptz,
  deleted_by uuid`;
