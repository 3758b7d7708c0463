import type { SchemaChange } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { DatasetSchemaEntity } from '../../dataset-schemas/dataset-schema.entity.js';
import { DatasetEntity } from '../../datasets/dataset.entity.js';
import { OpenLineageEventEntity } from '../openlineage-event.entity.js';

// What the OpenLineage intake observes beyond the registry (ADR 0054). Written by
// `LineageObservationsRepository` in set-based statements; the entities describe the tables.

/** The body of an event that named a dataset the registry did not know: kept to replay it. */
@Entity('lineage_event_payloads')
export class LineageEventPayloadEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_event_payloads' })
  @ForeignKey(() => OpenLineageEventEntity, {
    name: 'fk_lineage_event_payloads_event',
    onDelete: 'CASCADE',
    deferrable: 'INITIALLY DEFERRED',
  })
  event_key: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;
}

/** A dataset the registry did not know, by (normalised namespace, name). */
@Entity('lineage_unknown_datasets')
@Index('uq_lineage_unknown_datasets_name', ['namespace_key', 'name'], { unique: true })
export class LineageUnknownDatasetEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_unknown_datasets' })
  id: string;

  /** As the first event sent it. */
  @Column({ type: 'text' })
  namespace: string;

  /** `normalizeNamespace(namespace)`: the same dataset under two spellings of its namespace is one. */
  @Column({ type: 'text' })
  namespace_key: string;

  @Column({ type: 'text' })
  name: string;

  /** Field name → type as the schema facets sent it (null: no type); the union of every event's. */
  @Column({ type: 'jsonb', default: {} })
  fields: Record<string, string | null>;

  @Column({ type: 'timestamptz' })
  first_seen: Date;

  @Column({ type: 'timestamptz' })
  last_seen: Date;

  @Column({ type: 'integer', default: 0 })
  event_count: number;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetEntity, { name: 'fk_lineage_unknown_datasets_dataset', onDelete: 'SET NULL' })
  registered_dataset_id: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  registered_at: Date | null;
}

/** A job that named an unknown dataset, in one role. */
@Entity('lineage_unknown_dataset_jobs')
@Check('ck_lineage_unknown_dataset_jobs_role', "role IN ('input', 'output')")
export class LineageUnknownDatasetJobEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_lineage_unknown_dataset_jobs' })
  @ForeignKey(() => LineageUnknownDatasetEntity, {
    name: 'fk_lineage_unknown_dataset_jobs_dataset',
    onDelete: 'CASCADE',
  })
  unknown_dataset_id: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_unknown_dataset_jobs' })
  job_namespace: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_unknown_dataset_jobs' })
  job_name: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_lineage_unknown_dataset_jobs' })
  role: 'input' | 'output';

  @Column({ type: 'integer', default: 0 })
  event_count: number;

  @Column({ type: 'timestamptz' })
  first_seen: Date;

  @Column({ type: 'timestamptz' })
  last_seen: Date;
}

/** An event that named an unknown dataset (each counted once, whatever the replays). */
@Entity('lineage_unknown_dataset_events')
@Index('ix_lineage_unknown_dataset_events_event', ['event_key'])
export class LineageUnknownDatasetEventEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_lineage_unknown_dataset_events' })
  @ForeignKey(() => LineageUnknownDatasetEntity, {
    name: 'fk_lineage_unknown_dataset_events_dataset',
    onDelete: 'CASCADE',
  })
  unknown_dataset_id: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_unknown_dataset_events' })
  @ForeignKey(() => OpenLineageEventEntity, {
    name: 'fk_lineage_unknown_dataset_events_event',
    onDelete: 'CASCADE',
    deferrable: 'INITIALLY DEFERRED',
  })
  event_key: string;
}

/**
 * A matched dataset's schema facet as a run (or a DatasetEvent) saw it, with its drift from the current
 * version: an event whose facet repeats what an earlier event of its run saw adds no row.
 */
@Entity('lineage_observed_schemas')
@Index('uq_lineage_observed_schemas_event', ['dataset_id', 'event_key'], { unique: true })
@Index('ix_lineage_observed_schemas_event', ['event_key'])
@Index('ix_lineage_observed_schemas_run', ['run_id', 'dataset_id'], { where: 'run_id IS NOT NULL' })
@Check('ck_lineage_observed_schemas_drift', "drift IN ('none', 'compatible', 'breaking')")
export class LineageObservedSchemaEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_observed_schemas' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_lineage_observed_schemas_dataset', onDelete: 'CASCADE' })
  dataset_id: string;

  @Column({ type: 'text' })
  @ForeignKey(() => OpenLineageEventEntity, {
    name: 'fk_lineage_observed_schemas_event',
    onDelete: 'CASCADE',
    deferrable: 'INITIALLY DEFERRED',
  })
  event_key: string;

  @Column({ type: 'uuid', nullable: true })
  run_id: string | null;

  @Column({ type: 'text', nullable: true })
  job_namespace: string | null;

  @Column({ type: 'text', nullable: true })
  job_name: string | null;

  @Column({ type: 'timestamptz' })
  observed_at: Date;

  /** `[{ name, type }]` in the facet's order. */
  @Column({ type: 'jsonb' })
  fields: { name: string; type: string | null }[];

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetSchemaEntity, { name: 'fk_lineage_observed_schemas_schema', onDelete: 'SET NULL' })
  compared_schema_id: string | null;

  @Column({ type: 'varchar', length: 16 })
  drift: 'none' | 'compatible' | 'breaking';

  /** `types`: compared by type (ADR 0057); `names_only`: stored before, by name and presence only. */
  @Column({ type: 'varchar', length: 16 })
  type_comparison: string;

  @Column({ type: 'jsonb' })
  changes: SchemaChange[];
}
