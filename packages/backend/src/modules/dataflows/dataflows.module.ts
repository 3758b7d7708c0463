import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { WatermarksModule } from '../watermarks/watermarks.module.js';
import { DataflowLineage } from './dataflow-lineage.js';
import { DataflowsController } from './dataflows.controller.js';
import { DataflowsService } from './dataflows.service.js';

@Module({
  imports: [DatacoolieModule, WatermarksModule],
  controllers: [DataflowsController],
  providers: [DataflowsService, DataflowLineage],
})
export class DataflowsModule {}
