import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';

/**
 * A published version's read shape (ADR 0029): the version's JSON exactly as the routes answer it,
 * PII tags left out (they change after publishing), written by the publish that created the version.
 * The rendered types and type codes in it come from data types that superusers may edit: `data_types`
 * holds the row_version of each data type it was rendered from, and a shape whose data types moved
 * on is not used (the version is read again and its shape rewritten).
 */
@Entity('schema_version_read_shapes')
export class SchemaVersionReadShapeEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_schema_version_read_shapes' })
  @ForeignKey(() => DatasetSchemaEntity, {
    name: 'fk_schema_version_read_shapes_schema',
    onDelete: 'CASCADE',
  })
  dataset_schema_id: string;

  @Column({ type: 'text' })
  version_json: string;

  @Column({ type: 'jsonb' })
  data_types: Record<string, number>;

  /**
   * The version's structural fingerprint (ADR 0032, `@aide/schemas/fingerprint`), computed from the
   * same read; null on shapes stored before fingerprints existed (such a shape is rebuilt when read).
   */
  @Column({ type: 'text', nullable: true })
  fingerprint: string | null;
}
