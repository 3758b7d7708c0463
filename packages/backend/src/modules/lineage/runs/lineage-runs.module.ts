import { Module } from '@nestjs/common';
import { LineageJobGraphRepository } from './lineage-job-graph.repository.js';
import { LineageRunRecorder } from './lineage-run-recorder.js';
import { LineageRunsController } from './lineage-runs.controller.js';
import { LineageRunsRepository } from './lineage-runs.repository.js';
import { LineageRunsService } from './lineage-runs.service.js';

/** OpenLineage jobs and runs (ADR 0053): recorded by the intake (`LineageRunRecorder`), read here. */
@Module({
  controllers: [LineageRunsController],
  providers: [LineageRunsService, LineageRunsRepository, LineageJobGraphRepository, LineageRunRecorder],
  exports: [LineageRunRecorder],
})
export class LineageRunsModule {}
