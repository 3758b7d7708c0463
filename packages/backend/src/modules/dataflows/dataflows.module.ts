import { Module } from '@nestjs/common';
import { DatacoolieModule } from '../datacoolie/datacoolie.module.js';
import { DataflowLineage } from './dataflow-lineage.js';
import { DataflowsController } from './dataflows.controller.js';
import { DataflowsService } from './dataflows.service.js';

@Module({
  imports: [DatacoolieModule],
  controllers: [DataflowsController],
  providers: [DataflowsService, DataflowLineage],
})
export class DataflowsModule {}
