import type { AuditedEntity, SoftDeletableEntity } from './audited-entity.js';

/** The audit block of a read shape. */
export function auditFields(e: AuditedEntity) {
  return {
    id: e.id,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
    created_by: e.created_by,
    updated_by: e.updated_by,
    note: e.note,
    row_version: e.row_version,
  };
}

export function softDeleteFields(e: SoftDeletableEntity) {
  return { ...auditFields(e), deleted_at: e.deleted_at ? e.deleted_at.toISOString() : null };
}
