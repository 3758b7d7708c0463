import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository, type Lock } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { WorkspaceEntity } from './workspace.entity.js';

registerConstraintCodes({ uq_workspaces_code_active: 'WORKSPACE_ALREADY_EXISTS' });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class WorkspacesRepository {
  readonly crud: CrudRepository<WorkspaceEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: WorkspaceEntity,
      notFound: 'WORKSPACE_NOT_FOUND',
      softDelete: true,
    });
  }

  /**
   * The active workspace named by its id or its code (DataCoolie pipelines are configured with a
   * `workspace_id`, which teams often set to a readable code).
   */
  async findActiveByRef(
    ref: string,
    manager?: EntityManager,
    lock?: Lock,
  ): Promise<WorkspaceEntity | undefined> {
    if (UUID.test(ref)) return this.crud.findActive(ref, manager, lock);
    const qb = this.crud
      .repo(manager)
      .createQueryBuilder('w')
      .where('w.code = :ref AND w.deleted_at IS NULL', { ref });
    if (lock === 'share') qb.setLock('pessimistic_read');
    if (lock === 'update') qb.setLock('pessimistic_write');
    return (await qb.getOne()) ?? undefined;
  }

  /** Whether active connection profiles or dataflows name the workspace (the delete guard). */
  async hasActiveContent(workspaceId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM connection_profiles WHERE workspace_id = $1 AND deleted_at IS NULL
       UNION ALL SELECT 1 FROM dataflows WHERE workspace_id = $1 AND deleted_at IS NULL LIMIT 1`,
      [workspaceId],
    );
    return rows.length > 0;
  }
}
