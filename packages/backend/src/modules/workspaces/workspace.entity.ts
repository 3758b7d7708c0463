import { Column, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';

/** The scope of a set of pipelines: DataCoolie's `workspace_id`. */
@AuditedTable('workspaces')
@Index('uq_workspaces_code_active', ['code'], { unique: true, where: 'deleted_at IS NULL' })
export class WorkspaceEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 100 })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}
