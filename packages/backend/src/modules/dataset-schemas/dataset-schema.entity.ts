import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';

@AuditedTable('dataset_schemas')
@Index('uq_dataset_schemas_dataset_version', ['dataset_id', 'version_num'], { unique: true })
@Check('dataset_schemas_version_num_check', 'version_num >= 1')
export class DatasetSchemaEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_schemas_dataset', onDelete: 'CASCADE' })
  dataset_id: string;

  @Column({ type: 'integer' })
  version_num: number;

  @Column({ type: 'jsonb', nullable: true })
  schema_: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
