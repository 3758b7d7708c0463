import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { DatasetLinksModule } from '../dataset-links/dataset-links.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { DataflowsController } from './dataflows.controller.js';
import { DataflowsRepository } from './dataflows.repository.js';
import { DataflowsService } from './dataflows.service.js';

@Module({
  imports: [WorkspacesModule, DatasetLinksModule, DatacoolieModule],
  controllers: [DataflowsController],
  providers: [DataflowsRepository, DataflowsService],
  exports: [DataflowsService],
})
export class DataflowsModule {}
