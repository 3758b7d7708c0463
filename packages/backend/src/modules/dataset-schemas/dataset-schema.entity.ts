import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('dataset_schemas')
export class DatasetSchemaEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  dataset_id: string;

  @Column({ type: 'integer' })
  version_num: number;

  @Column({ type: 'jsonb', nullable: true })
  schema_: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
