import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `@Entity(table)` for a table with the audit columns, plus the `row_version >= 1` check its migration
 * declares inline (PostgreSQL names it `<table>_row_version_check`), so that the entity describes the
 * migrated table (test/e2e/entities-match-migrations.e2e-spec.ts).
 */
export function AuditedTable(table: string): ClassDecorator {
  const entity = Entity(table);
  const rowVersion = Check(`${table}_row_version_check`, 'row_version >= 1');
  return (target) => {
    entity(target);
    rowVersion(target);
  };
}

/**
 * The audit columns of a table whose `created_at` defaults to `createdAtDefault`. Each call declares
 * its own columns: TypeORM copies a subclass's overriding column default into the parent's shared
 * column options, so an override would leak into every entity whose metadata is built after it.
 */
function auditedColumns(createdAtDefault: string) {
  abstract class Audited {
    @PrimaryGeneratedColumn('uuid')
    id: string;

    @Column({ type: 'timestamptz', default: () => createdAtDefault })
    created_at: Date;

    @Column({ type: 'timestamptz', default: () => 'now()' })
    updated_at: Date;

    @Column({ type: 'uuid', nullable: true })
    created_by: string | null;

    @Column({ type: 'uuid', nullable: true })
    updated_by: string | null;

    @Column({ type: 'text', nullable: true })
    note: string | null;

    @Column({ type: 'integer', default: 1 })
    row_version: number;
  }
  return Audited;
}

/**
 * The audit columns every registry table carries. Property names are the column names and the wire
 * names (snake_case), so one name identifies a fact from SQL to JSON (ADR 0002).
 */
export abstract class AuditedEntity extends auditedColumns('now()') {}

/** Append-only tables: clock_timestamp(), so rows written in one transaction still order by creation. */
export abstract class ClockAuditedEntity extends auditedColumns('clock_timestamp()') {}

/** Soft-deletable tables: a deleted row keeps its id and is hidden from reads. */
export abstract class SoftDeletableEntity extends AuditedEntity {
  @Column({ type: 'timestamptz', nullable: true })
  deleted_at: Date | null;

  @Column({ type: 'uuid', nullable: true })
  deleted_by: string | null;
}
