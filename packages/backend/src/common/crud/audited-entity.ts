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
 * The audit columns every registry table carries. Property names are the column names and the wire
 * names (snake_case), so one name identifies a fact from SQL to JSON (ADR 0002).
 */
export abstract class AuditedEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
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

/** Soft-deletable tables: a deleted row keeps its id and is hidden from reads. */
export abstract class SoftDeletableEntity extends AuditedEntity {
  @Column({ type: 'timestamptz', nullable: true })
  deleted_at: Date | null;

  @Column({ type: 'uuid', nullable: true })
  deleted_by: string | null;
}
