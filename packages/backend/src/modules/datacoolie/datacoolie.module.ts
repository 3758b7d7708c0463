import { Module } from '@nestjs/common';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { DataflowChecker } from './dataflow-checker.js';
import { SnapshotCacheRepository } from './snapshot-cache.repository.js';
import { WorkspaceSnapshotService } from './workspace-snapshot.service.js';

/** DataCoolie exports of the registry: the reads and the write-time checks shared by its modules. */
@Module({
  providers: [DatacoolieScopeRepository, DataflowChecker, SnapshotCacheRepository, WorkspaceSnapshotService],
  exports: [DatacoolieScopeRepository, DataflowChecker, WorkspaceSnapshotService],
})
export class DatacoolieModule {}
