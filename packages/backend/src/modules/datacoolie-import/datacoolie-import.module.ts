import { Module } from '@nestjs/common';
import { ConnectionProfilesModule } from '../connection-profiles/connection-profiles.module.js';
import { CredentialRefsModule } from '../credential-refs/credential-refs.module.js';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { DataflowsModule } from '../dataflows/dataflows.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { DatacoolieImportController } from './datacoolie-import.controller.js';
import { DatacoolieImportRepository } from './datacoolie-import.repository.js';
import { DatacoolieImportService } from './datacoolie-import.service.js';

/**
 * The DataCoolie document import (ADR 0050): it writes through the workspace, credential-reference,
 * dataset, connection-profile and dataflow services, and owns the declared hint groups' writes.
 */
@Module({
  imports: [
    WorkspacesModule,
    CredentialRefsModule,
    DatasetsModule,
    ConnectionProfilesModule,
    DataflowsModule,
    DatacoolieModule,
  ],
  controllers: [DatacoolieImportController],
  providers: [DatacoolieImportRepository, DatacoolieImportService],
})
export class DatacoolieImportModule {}
