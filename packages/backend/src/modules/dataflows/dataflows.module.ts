import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { WatermarksModule } from '../watermarks/watermarks.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { DataflowLineage } from './dataflow-lineage.js';
import { DataflowsController } from './dataflows.controller.js';
import { DataflowsRepository } from './dataflows.repository.js';
import { DataflowsService } from './dataflows.service.js';

/** Exports its repository for the delete guard of datasets. */
@Module({
  imports: [DatacoolieModule, WatermarksModule, WorkspacesModule],
  controllers: [DataflowsController],
  providers: [DataflowsService, DataflowsRepository, DataflowLineage],
  exports: [DataflowsRepository],
})
export class DataflowsModule {}
