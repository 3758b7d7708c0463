import { Column, PrimaryGeneratedColumn } from 'typeorm';

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
