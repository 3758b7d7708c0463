import { Module } from '@nestjs/common';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { DataflowChecker } from './dataflow-checker.js';
import { SchemaHintOverridesService } from './schema-hint-overrides.service.js';
import { SnapshotCacheRepository } from './snapshot-cache.repository.js';
import { WorkspaceSnapshotService } from './workspace-snapshot.service.js';

/**
 * DataCoolie's view of the registry: the write-time checks shared by the provider modules and the
 * workspace snapshot. Its routes are in `datacoolie-api`.
 */
@Module({
  imports: [DatasetsModule, WorkspacesModule],
  providers: [
    DatacoolieScopeRepository,
    DataflowChecker,
    SnapshotCacheRepository,
    WorkspaceSnapshotService,
    SchemaHintOverridesService,
  ],
  exports: [DataflowChecker, WorkspaceSnapshotService, SchemaHintOverridesService],
})
export class DatacoolieModule {}
