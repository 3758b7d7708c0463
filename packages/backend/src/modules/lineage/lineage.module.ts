import { Module } from '@nestjs/common';
import { LineageGraphRepository } from './lineage-graph.repository.js';
import { LineageController } from './lineage.controller.js';
import { LineageService } from './lineage.service.js';
import { OpenLineageRepository } from './openlineage.repository.js';
import { OpenLineageService } from './openlineage.service.js';

@Module({
  controllers: [LineageController],
  providers: [LineageService, LineageGraphRepository, OpenLineageService, OpenLineageRepository],
})
export class LineageModule {}
