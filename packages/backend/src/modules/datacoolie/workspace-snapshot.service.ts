import { createHash } from 'node:crypto';
import type { DataCoolieSnapshot } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { DataflowEntity } from '../dataflows/dataflow.entity.js';
import { WorkspacesRepository } from '../workspaces/workspaces.repository.js';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { assembleSnapshot, type SnapshotContent } from './snapshot-assembly.js';

/** The content's hash: equal metadata gives an equal revision, whatever was written in between. */
export function snapshotRevision(content: SnapshotContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

/**
 * A workspace's complete DataCoolie scope (reference §8.6 item 2), active and inactive, read in one
 * REPEATABLE READ transaction so that connections, dataflows and hints come from one MVCC snapshot —
 * never a torn scope, whatever is written meanwhile.
 */
@Injectable()
export class WorkspaceSnapshotService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scope: DatacoolieScopeRepository,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  build(workspaceRef: string): Promise<DataCoolieSnapshot> {
    return this.dataSource.transaction('REPEATABLE READ', async (m) => {
      await m.query('SET TRANSACTION READ ONLY');
      const workspace = await this.workspaces.findActiveByRef(workspaceRef, m);
      if (!workspace) throw new AppError('WORKSPACE_NOT_FOUND');
      const profiles = await this.scope.workspaceProfiles(workspace.id, m);
      const dataflows = await m.getRepository(DataflowEntity).find({
        where: { workspace_id: workspace.id, deleted_at: IsNull() },
        order: { name: 'ASC', id: 'ASC' },
      });
      const datasetIds = dataflows.flatMap((d) =>
        d.source_dataset_id ? [d.source_dataset_id, d.destination_dataset_id] : [d.destination_dataset_id],
      );
      const datasets = await this.scope.datasetsById(datasetIds, m);
      const hintColumns = await this.scope.hintColumns(workspace.id, m);
      const content = assembleSnapshot({ profiles, dataflows, datasets, hintColumns });
      return {
        workspace_id: workspace.id,
        workspace_code: workspace.code,
        revision: snapshotRevision(content),
        generated_at: new Date().toISOString(),
        ...content,
      };
    });
  }
}
