import { Module } from '@nestjs/common';
import { WatermarksModule } from '../watermarks/watermarks.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { DatacoolieApiService } from './datacoolie-api.service.js';
import { DatacoolieController } from './datacoolie.controller.js';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { DataflowChecker } from './dataflow-checker.js';
import { SnapshotCacheRepository } from './snapshot-cache.repository.js';
import { WorkspaceSnapshotService } from './workspace-snapshot.service.js';

/**
 * DataCoolie's view of the registry: the write-time checks shared by the provider modules, the
 * workspace snapshot and DataCoolie's own REST contract.
 */
@Module({
  imports: [WatermarksModule, WorkspacesModule],
  controllers: [DatacoolieController],
  providers: [
    DatacoolieApiService,
    DatacoolieScopeRepository,
    DataflowChecker,
    SnapshotCacheRepository,
    WorkspaceSnapshotService,
  ],
  exports: [DatacoolieScopeRepository, DataflowChecker, WorkspaceSnapshotService],
})
export class DatacoolieModule {}
